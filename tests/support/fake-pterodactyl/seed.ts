// What a fresh fake panel holds, unless started with `seed: false`. The eggs follow the community eggs of
// parkervcp/eggs (game_eggs/gta/samp, mtasa, openmp) and the panel's own Vanilla Minecraft egg
// (database/Seeders/eggs/minecraft); SA-MP gets a MAX_PLAYERS variable the community egg lacks, so a
// product's slots have a variable to go to. The ports are laid out so that MTA's rule (P, P+123 on one IP,
// and an HTTP port H) can be met on some nodes and not on others; docs/provisioning.md lists them.

import type { FakePanelStore } from "./state";

const range = (from: number, to: number) =>
  Array.from({ length: to - from + 1 }, (_, index) => from + index);

export function seedDefaultPanel(store: FakePanelStore) {
  const de = store.addLocation("de", "Germany (Falkenstein)");
  const us = store.addLocation("us", "USA (Ashburn)");
  const uk = store.addLocation("uk", "United Kingdom (London)");
  const fr = store.addLocation("fr", "France (Gravelines)");

  // Node 1: roomy. 10.0.1.10 has 152 allocations (more than a page of 100) and full MTA sets for
  // P = 22003..22007; 10.0.1.11 has P but never P+123.
  const de1 = store.addNode({
    name: "de-fsn-1",
    locationId: de.id,
    memory: 65_536,
    disk: 1_000_000,
  });
  store.addAllocations(de1.id, "10.0.1.10", [...range(7777, 7800), ...range(22003, 22130)]);
  store.addAllocations(de1.id, "10.0.1.11", [...range(7777, 7780), ...range(22003, 22010)]);

  // Node 2: smaller, 25 % overallocation, an alias; P+123 exists for 22003..22005 only, and a hand-made
  // MTA server holds 22003, 22126 and 22006.
  const de2 = store.addNode({
    name: "de-fsn-2",
    locationId: de.id,
    memory: 16_384,
    memoryOverallocate: 25,
    disk: 250_000,
  });
  const de2Ports = store.addAllocations(
    de2.id,
    "10.0.2.10",
    [...range(7777, 7790), ...range(22003, 22010), ...range(22126, 22128)],
    "de2.play.example.test",
  );

  const us1 = store.addNode({ name: "us-ash-1", locationId: us.id, memory: 32_768, disk: 500_000 });
  store.addAllocations(us1.id, "10.0.3.10", [...range(7777, 7800), ...range(22003, 22130)]);

  // Node 4: one-port games only: no port of MTA's range at all.
  const uk1 = store.addNode({ name: "uk-lon-1", locationId: uk.id, memory: 32_768, disk: 500_000 });
  store.addAllocations(uk1.id, "10.0.4.10", range(7777, 7790));

  // Node 5: nearly full (6 GiB of 8 taken by a hand-made server).
  const fr1 = store.addNode({ name: "fr-gra-1", locationId: fr.id, memory: 8_192, disk: 100_000 });
  const fr1Ports = store.addAllocations(fr1.id, "10.0.5.10", [
    ...range(7777, 7790),
    ...range(22003, 22010),
    ...range(22126, 22133),
  ]);

  const minecraft = store.addNest("Minecraft", "Minecraft - the classic game from Mojang.");
  store.addEgg({
    nestId: minecraft.id,
    name: "Vanilla Minecraft",
    dockerImages: {
      "Java 21": "ghcr.io/pterodactyl/yolks:java_21",
      "Java 17": "ghcr.io/pterodactyl/yolks:java_17",
    },
    startup: "java -Xms128M -XX:MaxRAMPercentage=95.0 -jar {{SERVER_JARFILE}}",
    variables: [
      {
        name: "Server Jar File",
        envVariable: "SERVER_JARFILE",
        defaultValue: "server.jar",
        rules: String.raw`required|regex:/^([\w\d._-]+)(\.jar)$/`,
      },
      {
        name: "Server Version",
        envVariable: "VANILLA_VERSION",
        defaultValue: "latest",
        rules: "required|string|between:3,15",
      },
    ],
  });

  const gta = store.addNest("GTA San Andreas", "SA-MP, open.mp and MTA:SA (parkervcp/eggs).");
  const samp = store.addEgg({
    nestId: gta.id,
    name: "SA-MP",
    dockerImages: { Samp: "ghcr.io/parkervcp/games:samp" },
    startup: "./samp03svr",
    variables: [
      {
        name: "Version",
        envVariable: "VERSION",
        defaultValue: "0.3.7",
        rules: "required|string|max:32",
      },
      {
        name: "Rcon password",
        envVariable: "RCON_PASS",
        defaultValue: "",
        rules: "required|string|max:32",
      },
      {
        name: "Max players",
        envVariable: "MAX_PLAYERS",
        defaultValue: "50",
        rules: "required|integer|between:1,1000",
      },
    ],
  });
  const mta = store.addEgg({
    nestId: gta.id,
    name: "Multi Theft Auto",
    dockerImages: { "ghcr.io/parkervcp/games:mta": "ghcr.io/parkervcp/games:mta" },
    startup: "./mta-server64 --port {{SERVER_PORT}} --httpport {{SERVER_WEBPORT}} -n",
    variables: [
      {
        name: "SERVER_WEBPORT",
        envVariable: "SERVER_WEBPORT",
        defaultValue: "22005",
        rules: "required|numeric",
        userEditable: false,
        description: "The HTTP port (the ASE port is always the game port + 123)",
      },
    ],
  });
  store.addEgg({
    nestId: gta.id,
    name: "OpenMP",
    dockerImages: { Samp: "ghcr.io/parkervcp/games:samp" },
    startup: "./omp-server",
    variables: [
      {
        name: "RCON Password",
        envVariable: "RCON_PASSWORD",
        defaultValue: "",
        rules: "required|string|max:32",
      },
      {
        name: "Version",
        envVariable: "VERSION",
        defaultValue: "latest",
        rules: "required|string|max:20",
      },
    ],
  });

  // The panel's own admin, who made the servers by hand (no external id: not Hostfront's).
  const admin = store.addUser({
    email: "admin@panel.example.test",
    username: "admin",
    firstName: "Panel",
    lastName: "Admin",
  });
  admin.rootAdmin = true;
  const port = (allocations: { id: number; port: number }[], wanted: number) =>
    allocations.find((allocation) => allocation.port === wanted)!.id;
  store.addServer({
    name: "Hand-made MTA",
    userId: admin.id,
    eggId: mta.id,
    allocationId: port(de2Ports, 22003),
    additionalAllocationIds: [port(de2Ports, 22126), port(de2Ports, 22006)],
    memory: 2048,
    disk: 10_240,
    environment: { SERVER_WEBPORT: "22006" },
  });
  store.addServer({
    name: "Hand-made SA-MP",
    userId: admin.id,
    eggId: samp.id,
    allocationId: port(de2Ports, 7777),
    memory: 1024,
    disk: 5120,
    environment: { VERSION: "0.3.7", RCON_PASS: "changeme", MAX_PLAYERS: "100" },
  });
  store.addServer({
    name: "Big SA-MP",
    userId: admin.id,
    eggId: samp.id,
    allocationId: port(fr1Ports, 7777),
    memory: 6144,
    disk: 20_480,
    environment: { VERSION: "0.3.7", RCON_PASS: "changeme", MAX_PLAYERS: "1000" },
  });
}
