import { describe, expect, it } from "vitest";
import { expectRefusals } from "../../../tests/support/form-errors";
import { serverBuildFor } from "./provisioning";
import {
  parseStoredProvisioning,
  productProvisioningFormSchema,
  productProvisioningSchema,
  PROVISIONING_FORM_ERRORS as ERRORS,
  PROVISIONING_NUMBER_ERRORS as NUMBER_ERRORS,
  type PterodactylProvisioning,
} from "./provisioning.schemas";

/** An MTA product's provisioning fields as the admin's product form sends them. */
const form = {
  provisioner: "pterodactyl",
  nestId: "2",
  eggId: "14",
  dockerImage: " ghcr.io/hostfront/mta:latest ",
  startup: "./mta-server64 --port {{SERVER_PORT}} --httpport {{SERVER_WEBPORT}} -n",
  memoryMb: "2048",
  swapMb: "-1",
  diskMb: "10240",
  cpuPercent: "150",
  ioWeight: "",
  databases: "1",
  backups: "",
  allocations: "",
  portLayout: "mta",
  locationIds: "1, 3 3",
  nodeIds: "",
  slotsVariable: "MAX_PLAYERS",
  httpPortVariable: "SERVER_WEBPORT",
  "env.SERVER_NAME": "  Hostfront MTA ",
  "env.MAX_PLAYERS": "",
};

const stored: PterodactylProvisioning = {
  provisioner: "pterodactyl",
  nestId: 2,
  eggId: 14,
  dockerImage: "ghcr.io/hostfront/mta:latest",
  startup: "./mta-server64 --port {{SERVER_PORT}} --httpport {{SERVER_WEBPORT}} -n",
  memoryMb: 2048,
  swapMb: -1,
  diskMb: 10240,
  cpuPercent: 150,
  ioWeight: 500,
  databases: 1,
  backups: 0,
  allocations: 3,
  portLayout: "mta",
  locationIds: [1, 3],
  nodeIds: [],
  environment: { SERVER_NAME: "Hostfront MTA", MAX_PLAYERS: "" },
  slotsVariable: "MAX_PLAYERS",
  httpPortVariable: "SERVER_WEBPORT",
};

describe("the product form's provisioning fields", () => {
  it("reads an MTA product, with the panel's defaults for what is left empty", () => {
    expect(productProvisioningFormSchema.parse(form)).toEqual(stored);
  });

  it("gives what it reads to the stored schema unchanged", () => {
    const parsed = productProvisioningFormSchema.parse(form);
    expect(productProvisioningSchema.parse(JSON.parse(JSON.stringify(parsed)))).toEqual(parsed);
  });

  it("reads a one-port product and leaves an HTTP port variable behind", () => {
    const single = productProvisioningFormSchema.parse({
      ...form,
      portLayout: "",
      allocations: "",
      httpPortVariable: "SERVER_WEBPORT",
    });
    expect(single).toMatchObject({ portLayout: "single", allocations: 1, httpPortVariable: null });
  });

  it("ignores every other field when servers are set up by hand", () => {
    expect(productProvisioningFormSchema.parse({ provisioner: "none", memoryMb: "lots" })).toEqual({
      provisioner: "none",
    });
    expect(productProvisioningFormSchema.parse({})).toEqual({ provisioner: "none" });
    expect(productProvisioningFormSchema.parse({ provisioner: " " })).toEqual({
      provisioner: "none",
    });
  });

  it("refuses each wrong field with its message", () => {
    expectRefusals(productProvisioningFormSchema, form, [
      [{ provisioner: "docker" }, { provisioner: ERRORS.provisionerInvalid }],
      [{ nestId: "" }, { nestId: ERRORS.nestInvalid }],
      [{ eggId: "0" }, { eggId: ERRORS.eggInvalid }],
      [{ eggId: "1.5" }, { eggId: ERRORS.eggInvalid }],
      [{ eggId: "2147483648" }, { eggId: ERRORS.eggInvalid }],
      [{ dockerImage: " " }, { dockerImage: ERRORS.dockerImageRequired }],
      [{ dockerImage: "x".repeat(192) }, { dockerImage: ERRORS.dockerImageTooLong }],
      [{ dockerImage: "x".repeat(191) }, {}],
      [{ startup: "" }, { startup: ERRORS.startupRequired }],
      [{ startup: "x".repeat(4001) }, { startup: ERRORS.startupTooLong }],
      [{ memoryMb: "" }, { memoryMb: NUMBER_ERRORS.memoryMb }],
      [{ memoryMb: "0" }, { memoryMb: NUMBER_ERRORS.memoryMb }],
      [{ memoryMb: "1 GB" }, { memoryMb: NUMBER_ERRORS.memoryMb }],
      [{ swapMb: "-2" }, { swapMb: NUMBER_ERRORS.swapMb }],
      [{ swapMb: "0" }, {}],
      [{ diskMb: "-1" }, { diskMb: NUMBER_ERRORS.diskMb }],
      [{ cpuPercent: "" }, { cpuPercent: NUMBER_ERRORS.cpuPercent }],
      [{ cpuPercent: "0" }, {}],
      [{ cpuPercent: "-1" }, { cpuPercent: NUMBER_ERRORS.cpuPercent }],
      [{ ioWeight: "9" }, { ioWeight: NUMBER_ERRORS.ioWeight }],
      [{ ioWeight: "1001" }, { ioWeight: NUMBER_ERRORS.ioWeight }],
      [{ ioWeight: "10" }, {}],
      [{ ioWeight: "1000" }, {}],
      [{ databases: "-1" }, { databases: NUMBER_ERRORS.databases }],
      [{ backups: "1001" }, { backups: NUMBER_ERRORS.backups }],
      [{ allocations: "0" }, { allocations: NUMBER_ERRORS.allocations }],
      [{ allocations: "2" }, { allocations: ERRORS.allocationsMta }],
      [{ allocations: "2", portLayout: "single" }, {}],
      [{ portLayout: "three" }, { portLayout: ERRORS.portLayoutInvalid }],
      [{ locationIds: "1, germany" }, { locationIds: ERRORS.locationIdsInvalid }],
      [{ locationIds: "0" }, { locationIds: ERRORS.locationIdsInvalid }],
      [
        { nodeIds: Array.from({ length: 51 }, (_, at) => at + 1).join(",") },
        { nodeIds: ERRORS.nodeIdsInvalid },
      ],
      [{ slotsVariable: "MAX PLAYERS" }, { slotsVariable: ERRORS.variableNameInvalid }],
      [{ slotsVariable: "__proto__" }, { slotsVariable: ERRORS.variableNameInvalid }],
      [{ httpPortVariable: "" }, { httpPortVariable: ERRORS.httpPortVariableRequired }],
      [{ httpPortVariable: "WEB-PORT" }, { httpPortVariable: ERRORS.variableNameInvalid }],
      [{ httpPortVariable: "MAX_PLAYERS" }, { httpPortVariable: ERRORS.sameVariable }],
      [{ "env.BAD NAME": "x" }, { "env.BAD NAME": ERRORS.envNameInvalid }],
      [{ "env.__proto__": "x" }, { "env.__proto__": ERRORS.envNameInvalid }],
      [{ "env.MOTD": "x".repeat(2001) }, { "env.MOTD": ERRORS.envValueTooLong }],
      [{ "generate.BAD NAME": "on" }, { "generate.BAD NAME": ERRORS.envNameInvalid }],
      // The slots and the HTTP port are written by the order and the port pick: never drawn.
      [{ "generate.MAX_PLAYERS": "on" }, { "env.MAX_PLAYERS": ERRORS.generatedTaken }],
      [{ "generate.SERVER_WEBPORT": "on" }, { "env.SERVER_WEBPORT": ERRORS.generatedTaken }],
      // Long values are not looked at when the value is drawn instead.
      [{ "generate.MOTD": "on", "env.MOTD": "x".repeat(2001) }, {}],
    ]);
  });

  it("reads the switches of values drawn for each server, keeping none of their typed values", () => {
    const parsed = productProvisioningFormSchema.parse({
      ...form,
      "env.RCON_PASS": "typed",
      "generate.RCON_PASS": "on",
      "generate.SERVER_NAME": "on",
      // An unticked box sends nothing; an empty value is no switch.
      "generate.ADMIN_PASSWORD": "",
    });
    expect(parsed).toEqual({
      ...stored,
      environment: { MAX_PLAYERS: "" },
      generatedVariables: ["RCON_PASS", "SERVER_NAME"],
    });
    expect(productProvisioningSchema.parse(parsed)).toEqual(parsed);
    // A block stored before the switch existed reads as none drawn.
    expect(parseStoredProvisioning(JSON.stringify(stored)).provisioning).toEqual(stored);
  });

  it("makes a server build a create call can send", () => {
    const parsed = productProvisioningFormSchema.parse(form);
    if (parsed.provisioner !== "pterodactyl") throw new Error("not provisioned");
    const build = serverBuildFor(
      parsed,
      { playerSlots: 200, backup: "premium", ddosProtection: true, location: "germany" },
      { ports: { game: 22003, announce: 22126, http: 22005 } },
    );
    expect(build).toEqual({
      limits: { memory: 2048, swap: -1, disk: 10240, io: 500, cpu: 150 },
      featureLimits: { databases: 1, allocations: 3, backups: 2 },
      environment: { SERVER_NAME: "Hostfront MTA", MAX_PLAYERS: "200", SERVER_WEBPORT: "22005" },
      notes: { ddosProtection: true },
    });
  });
});

describe("parseStoredProvisioning", () => {
  it("reads a stored block", () => {
    expect(parseStoredProvisioning(JSON.stringify(stored))).toEqual({
      provisioning: stored,
      unreadable: false,
    });
    expect(parseStoredProvisioning('{"provisioner":"none"}')).toEqual({
      provisioning: { provisioner: "none" },
      unreadable: false,
    });
  });

  it("reads no block as servers set up by hand", () => {
    for (const json of [null, "", "  "])
      expect(parseStoredProvisioning(json)).toEqual({
        provisioning: { provisioner: "none" },
        unreadable: false,
      });
  });

  it("reads a block it cannot trust as by hand, and says so", () => {
    const unreadable = { provisioning: { provisioner: "none" }, unreadable: true };
    for (const json of [
      "{",
      "null",
      "[]",
      '"pterodactyl"',
      '{"provisioner":"pterodactyl"}',
      '{"provisioner":"whmcs"}',
      JSON.stringify({ ...stored, memoryMb: "2048" }),
      JSON.stringify({ ...stored, ioWeight: 5 }),
      JSON.stringify({ ...stored, allocations: 2 }),
      JSON.stringify({ ...stored, httpPortVariable: null }),
      JSON.stringify({ ...stored, environment: { "BAD NAME": "x" } }),
    ])
      expect(parseStoredProvisioning(json), json).toEqual(unreadable);
  });

  it("never makes a variable of a key that would be an object's prototype", () => {
    const { provisioning } = parseStoredProvisioning(
      JSON.stringify(stored).replace('"SERVER_NAME"', '"__proto__"'),
    );
    if (provisioning.provisioner !== "pterodactyl") throw new Error("not read");
    expect(Object.keys(provisioning.environment)).toEqual(["MAX_PLAYERS"]);
    expect(Object.getPrototypeOf(provisioning.environment)).toBe(Object.prototype);
  });

  it("drops keys a newer or older shape added", () => {
    const parsed = parseStoredProvisioning(JSON.stringify({ ...stored, legacyField: true }));
    expect(parsed).toEqual({ provisioning: stored, unreadable: false });
  });
});
