import type { LookupAddress } from "node:dns";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { startFakePanel, type FakePanel } from "../../../tests/support/fake-pterodactyl";
import { panelFetch, panelLookup, type PanelResolver } from "./panel-transport.server";
import {
  createPanelClient,
  isRetryablePanelFailure,
  panelServerLink,
  PanelAddressRefused,
  PanelError,
  PanelUnreachable,
  type NewPanelServer,
  type PanelCall,
  type PanelClient,
} from "./pterodactyl-client.server";

let panel: FakePanel;
let calls: PanelCall[];
let client: PanelClient;

beforeEach(async () => {
  panel = await startFakePanel();
  calls = [];
  // Generous: a call that should be answered is never cut short by a busy machine (300 ms was, with
  // the cores shared). The tests of the timeout make clients of their own.
  client = createPanelClient({
    url: panel.url,
    // The fake panel is on loopback.
    allowLocalNetwork: true,
    apiKey: panel.apiKey,
    timeoutMs: 10_000,
    onCall: (call) => calls.push(call),
  });
});

afterEach(async () => {
  await panel.close();
});

const freePort = (nodeId: number, ip: string, port: number) => {
  const allocation = panel.allocations.find(
    (a) => a.nodeId === nodeId && a.ip === ip && a.port === port,
  );
  if (!allocation || allocation.serverId !== null) throw new Error(`${ip}:${port} is not free`);
  return allocation.id;
};

async function customer(n = 1) {
  return client.createUser({
    externalId: `hf-user-${n}`,
    email: `player${n}@example.com`,
    username: `hf-user-${n}`,
    firstName: "Amina",
    lastName: "Haddad",
  });
}

function sampServer(userId: number, overrides: Partial<NewPanelServer> = {}): NewPanelServer {
  return {
    externalId: "hf-svc-1",
    name: "SA-MP for Amina",
    userId,
    eggId: 2,
    dockerImage: "ghcr.io/parkervcp/games:samp",
    startup: "./samp03svr",
    environment: { VERSION: "0.3.7", RCON_PASS: "s3cret", MAX_PLAYERS: "50" },
    limits: { memory: 1024, swap: 0, disk: 5120, io: 500, cpu: 100 },
    featureLimits: { databases: 0, allocations: 1, backups: 1 },
    ...overrides,
    allocation: overrides.allocation ?? { default: freePort(1, "10.0.1.10", 7777), additional: [] },
  };
}

describe("reading the panel", () => {
  it("lists the locations, nodes with what their servers take, nests and eggs with variables", async () => {
    expect(await client.listLocations()).toEqual([
      { id: 1, short: "de", long: "Germany (Falkenstein)" },
      { id: 2, short: "us", long: "USA (Ashburn)" },
      { id: 3, short: "uk", long: "United Kingdom (London)" },
      { id: 4, short: "fr", long: "France (Gravelines)" },
    ]);
    const nodes = await client.listNodes();
    expect(nodes.map((n) => [n.name, n.locationId])).toEqual([
      ["de-fsn-1", 1],
      ["de-fsn-2", 1],
      ["us-ash-1", 2],
      ["uk-lon-1", 3],
      ["fr-gra-1", 4],
    ]);
    expect(nodes[1]).toEqual({
      id: 2,
      name: "de-fsn-2",
      locationId: 1,
      fqdn: "de-fsn-2.nodes.example.test",
      memoryMb: 16_384,
      memoryOverallocate: 25,
      diskMb: 250_000,
      diskOverallocate: 0,
      allocatedMemoryMb: 2048 + 1024,
      allocatedDiskMb: 10_240 + 5120,
      maintenance: false,
    });
    expect(await client.listNests()).toEqual([
      { id: 1, name: "Minecraft" },
      { id: 2, name: "GTA San Andreas" },
    ]);
    const eggs = await client.listEggs(2);
    expect(eggs.map((egg) => egg.name)).toEqual(["SA-MP", "Multi Theft Auto", "OpenMP"]);
    const samp = await client.getEgg(2, 2);
    expect(samp).toEqual(eggs[0]);
    expect(samp).toMatchObject({
      id: 2,
      nestId: 2,
      dockerImage: "ghcr.io/parkervcp/games:samp",
      dockerImages: { Samp: "ghcr.io/parkervcp/games:samp" },
      startup: "./samp03svr",
    });
    expect(samp.variables.find((v) => v.envVariable === "MAX_PLAYERS")).toEqual({
      name: "Max players",
      envVariable: "MAX_PLAYERS",
      defaultValue: "50",
      rules: "required|integer|between:1,1000",
      userEditable: true,
      description: "",
    });
    expect(calls.find((c) => c.path.startsWith("/api/application/nests/2/eggs/2"))?.path).toBe(
      "/api/application/nests/2/eggs/2?include=variables",
    );
  });

  it("follows every page of a list longer than a page (per_page=100)", async () => {
    const allocations = await client.listAllocations(1);
    expect(allocations).toHaveLength(24 + 128 + 4 + 8);
    expect(new Set(allocations.map((a) => a.id)).size).toBe(allocations.length);
    expect(allocations[0]).toEqual({
      id: expect.any(Number),
      nodeId: 1,
      ip: "10.0.1.10",
      alias: null,
      port: 7777,
      assigned: false,
    });
    expect(calls.map((c) => c.path)).toEqual([
      "/api/application/nodes/1/allocations?page=1&per_page=100",
      "/api/application/nodes/1/allocations?page=2&per_page=100",
    ]);
    const taken = (await client.listAllocations(2)).filter((a) => a.assigned).map((a) => a.port);
    expect(taken.sort((a, b) => a - b)).toEqual([7777, 22003, 22006, 22126]);
  });

  it("lists more than a page of servers", async () => {
    const owner = panel.users[0]!;
    const free = panel.allocations.filter((a) => a.nodeId === 1 && a.serverId === null);
    for (const allocation of free.slice(0, 120)) {
      panel.addServer({ userId: owner.id, eggId: 1, allocationId: allocation.id });
    }
    const servers = await client.listServers();
    expect(servers).toHaveLength(123);
    expect(calls.filter((c) => c.path.startsWith("/api/application/servers?"))).toHaveLength(2);
  });

  it("finds a user by external id or by exact email (the panel's filter is partial), null when none", async () => {
    expect(await client.findUserByExternalId("hf-user-1")).toBeNull();
    panel.addUser({ email: "xamina@example.com", username: "xamina" });
    panel.addUser({ email: "amina@example.community", username: "amina2" });
    expect(await client.findUserByEmail("amina@example.com")).toBeNull();
    const created = await customer();
    panel.addUser({ email: "amina@example.com", username: "amina", externalId: null });
    expect(await client.findUserByExternalId("hf-user-1")).toEqual(created);
    expect(await client.findUserByEmail("  Amina@Example.com ")).toMatchObject({
      email: "amina@example.com",
      username: "amina",
      externalId: null,
    });
    expect(calls.some((c) => c.path === "/api/application/users/external/hf-user-1")).toBe(true);
    expect(calls.find((c) => c.path.includes("filter[email]"))?.path).toBe(
      "/api/application/users?filter[email]=amina%40example.com&page=1&per_page=100",
    );
  });
});

describe("writing to the panel", () => {
  it("creates, updates and deletes a user", async () => {
    const user = await customer();
    expect(user).toEqual({
      id: expect.any(Number),
      externalId: "hf-user-1",
      email: "player1@example.com",
      username: "hf-user-1",
      firstName: "Amina",
      lastName: "Haddad",
    });
    expect(panel.users.find((u) => u.id === user.id)?.password).toBeNull();
    const updated = await client.updateUser(user.id, {
      externalId: "hf-user-1",
      email: "amina.new@example.com",
      username: "hf-user-1",
      firstName: "Amina",
      lastName: "Haddad-Benali",
    });
    expect(updated).toMatchObject({ email: "amina.new@example.com", lastName: "Haddad-Benali" });
    await client.deleteUser(user.id);
    expect(panel.users.some((u) => u.id === user.id)).toBe(false);
  });

  it("reads a user and sets their password, sending back their email, username and names", async () => {
    const user = await customer();
    expect(await client.getUser(user.id)).toEqual(user);
    calls.length = 0;
    // Spaces are the person's: the panel does not trim a password, and neither does the client.
    await client.setUserPassword(user.id, " Tr0ub4dor&3 ");
    expect(panel.userPassword(user.id)).toBe(" Tr0ub4dor&3 ");
    expect(calls.map((c) => [c.method, c.path, c.status])).toEqual([
      ["GET", `/api/application/users/${user.id}`, 200],
      ["PATCH", `/api/application/users/${user.id}`, 200],
    ]);
    expect(panel.requests.at(-1)!.body).toEqual({
      email: "player1@example.com",
      username: "hf-user-1",
      first_name: "Amina",
      last_name: "Haddad",
      password: " Tr0ub4dor&3 ",
    });
    // Nothing else changed on the panel's side.
    expect(await client.getUser(user.id)).toEqual(user);

    // The panel reads an empty password as none and keeps the old one: refused before asking.
    const requests = panel.requests.length;
    await expect(client.setUserPassword(user.id, "")).rejects.toThrow(/empty/);
    expect(panel.requests).toHaveLength(requests);
    expect(await client.setUserPassword(999, "x").catch((e: unknown) => e)).toMatchObject({
      status: 404,
      code: "NotFoundHttpException",
    });
    expect(panel.userPassword(user.id)).toBe(" Tr0ub4dor&3 ");
  });

  it("creates a server that installs, then finds, suspends, unsuspends, reinstalls and deletes it", async () => {
    const user = await customer();
    const created = await client.createServer(sampServer(user.id));
    expect(created).toMatchObject({
      externalId: "hf-svc-1",
      name: "SA-MP for Amina",
      userId: user.id,
      nodeId: 1,
      eggId: 2,
      nestId: 2,
      status: "installing",
      suspended: false,
      limits: { memory: 1024, swap: 0, disk: 5120, io: 500, cpu: 100 },
      featureLimits: { databases: 0, allocations: 1, backups: 1 },
      image: "ghcr.io/parkervcp/games:samp",
      startup: "./samp03svr",
    });
    expect(created.identifier).toBe(created.uuid.slice(0, 8));
    expect(created.environment).toMatchObject({
      VERSION: "0.3.7",
      RCON_PASS: "s3cret",
      MAX_PLAYERS: "50",
      P_SERVER_LOCATION: "de",
    });
    // installReads is 2 by default: two reads say installing, the third says installed.
    expect((await client.getServer(created.id)).status).toBe("installing");
    expect((await client.findServerByExternalId("hf-svc-1"))?.status).toBe("installing");
    expect((await client.getServer(created.id)).status).toBeNull();

    await client.suspendServer(created.id);
    expect(await client.getServer(created.id)).toMatchObject({
      status: "suspended",
      suspended: true,
    });
    await client.unsuspendServer(created.id);
    expect((await client.getServer(created.id)).status).toBeNull();
    await client.reinstallServer(created.id);
    expect((await client.getServer(created.id)).status).toBe("installing");

    await client.deleteServer(created.id);
    expect(calls.at(-1)).toMatchObject({
      method: "DELETE",
      path: `/api/application/servers/${created.id}/force`,
      status: 204,
    });
    expect(await client.findServerByExternalId("hf-svc-1")).toBeNull();
    expect(panel.allocations.find((a) => a.id === created.allocationId)?.serverId).toBeNull();
  });

  it("changes a server's build (limits and allocations) and startup", async () => {
    const user = await customer();
    const created = await client.createServer(sampServer(user.id));
    const extra = freePort(1, "10.0.1.10", 7778);
    const built = await client.updateBuild(created.id, {
      allocationId: created.allocationId,
      limits: { memory: 2048, swap: 0, disk: 10_240, io: 500, cpu: 200 },
      featureLimits: { databases: 1, allocations: 2, backups: 3 },
      addAllocations: [extra],
    });
    expect(built).toMatchObject({
      limits: { memory: 2048, disk: 10_240, cpu: 200 },
      featureLimits: { databases: 1, allocations: 2, backups: 3 },
    });
    expect(panel.allocationsOf(created.id).map((a) => a.port)).toEqual([7777, 7778]);
    // Read with the server (include=allocations): its own two, not the node's other assigned ones.
    const other = await client.createServer(
      sampServer(user.id, {
        externalId: "hf-svc-2",
        allocation: { default: freePort(1, "10.0.1.10", 7779), additional: [] },
      }),
    );
    const own = (server: { allocations: { port: number; assigned: boolean }[] } | null) =>
      server?.allocations.map((a) => [a.port, a.assigned]);
    expect(own(await client.findServerByExternalId("hf-svc-1"))).toEqual([
      [7777, true],
      [7778, true],
    ]);
    expect(own(await client.getServerWithAllocations(other.id))).toEqual([[7779, true]]);

    const started = await client.updateStartup(created.id, {
      startup: "./samp03svr --slots {{MAX_PLAYERS}}",
      environment: { VERSION: "0.3.7", RCON_PASS: "s3cret", MAX_PLAYERS: "200" },
      eggId: 2,
      image: "ghcr.io/parkervcp/games:samp",
    });
    expect(started.startup).toBe("./samp03svr --slots {{MAX_PLAYERS}}");
    expect(started.environment.MAX_PLAYERS).toBe("200");
  });

  it("gives a server's link on the panel", () => {
    expect(panelServerLink("https://panel.example.test/", "1a2b3c4d")).toBe(
      "https://panel.example.test/server/1a2b3c4d",
    );
  });
});

describe("the panel's errors", () => {
  it("reads a 422 into code, detail, meta and every entry", async () => {
    const user = await customer();
    const error = await client
      .createServer(
        sampServer(user.id, {
          environment: { VERSION: "0.3.7", RCON_PASS: "", MAX_PLAYERS: "5000" },
        }),
      )
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(PanelError);
    const refused = error as PanelError;
    expect(refused).toMatchObject({
      status: 422,
      code: "ValidationException",
      detail: "The Rcon password variable field is required.",
      meta: { source_field: "environment.RCON_PASS", rule: "required" },
      retryAfterSeconds: null,
    });
    expect(refused.errors.map((e) => e.meta?.rule)).toEqual(["required", "between"]);
    expect(isRetryablePanelFailure(refused)).toBe(false);
    expect(panel.servers.some((s) => s.externalId === "hf-svc-1")).toBe(false);
  });

  it("does not take a 404 of a wrong URL for a record that is not there", async () => {
    const misplaced = createPanelClient({
      url: `${panel.url}/panel`,
      apiKey: panel.apiKey,
      allowLocalNetwork: true,
    });
    expect(
      await misplaced.findUserByExternalId("hf-user-1").catch((e: unknown) => e),
    ).toMatchObject({
      status: 404,
      code: "NotFoundHttpException",
      detail: expect.stringMatching(/^The route /),
    });
    const proxied = createPanelClient({
      url: "https://panel.example.test",
      apiKey: "ptla_x",
      fetch: async () => new Response("<html>Not found</html>", { status: 404 }),
    });
    expect(await proxied.findServerByExternalId("hf-svc-1").catch((e: unknown) => e)).toMatchObject(
      {
        status: 404,
        code: "HttpError",
      },
    );
  });

  it("rejects an id that cannot be the panel's without asking it", async () => {
    await expect(client.getServer(0)).rejects.toThrow("Not a panel id: 0");
    expect(calls).toEqual([]);
  });

  it("turns a 404 into null for a find and into a PanelError elsewhere", async () => {
    expect(await client.findServerByExternalId("hf-svc-404")).toBeNull();
    const error = await client.getServer(404).catch((e: unknown) => e);
    expect(error).toMatchObject({
      status: 404,
      code: "NotFoundHttpException",
      detail: "The requested resource could not be found on the server.",
    });
    expect(calls.map((c) => [c.status, c.errorCode])).toEqual([
      [404, "NotFoundHttpException"],
      [404, "NotFoundHttpException"],
    ]);
  });

  it("reads a 429's Retry-After, and counts 429 and 5xx as worth another attempt", async () => {
    panel.failNext("429", 1, { retryAfterSeconds: 7 });
    const limited = await client.listNests().catch((e: unknown) => e);
    expect(limited).toMatchObject({
      status: 429,
      code: "ThrottleRequestsException",
      retryAfterSeconds: 7,
    });
    expect(isRetryablePanelFailure(limited)).toBe(true);

    panel.failNext("500");
    const failed = await client.listNests().catch((e: unknown) => e);
    expect(failed).toMatchObject({ status: 500, code: "QueryException" });
    expect(isRetryablePanelFailure(failed)).toBe(true);
    expect(await client.listNests()).toHaveLength(2);
  });

  it("with retryReads, sends a failed read once more, page by page, never a 429 nor a write", async () => {
    // Long enough for the answered calls on a busy machine; the held one waits it out once.
    const retrying = createPanelClient({
      url: panel.url,
      allowLocalNetwork: true,
      apiKey: panel.apiKey,
      timeoutMs: 2_000,
      onCall: (call) => calls.push(call),
      retryReads: true,
    });
    const pages = "GET /nodes/{node}/allocations";
    // Every second page request fails: without the retry the list of node 1 (two pages) fails.
    panel.failEvery(2, ["500", "down"], { route: pages });
    expect(await client.listAllocations(1).catch((e: unknown) => e)).toMatchObject({ status: 500 });
    panel.clearFailures();
    calls.length = 0;

    panel.failEvery(2, ["500", "down"], { route: pages });
    expect(await retrying.listAllocations(1)).toHaveLength(24 + 128 + 4 + 8);
    // Only the failed page is asked again, not the list from its first page.
    expect(calls.map((c) => [c.path.replace(/.*\?/, ""), c.status])).toEqual([
      ["page=1&per_page=100", 200],
      ["page=2&per_page=100", 500],
      ["page=2&per_page=100", 200],
    ]);
    panel.clearFailures();

    // Failed twice: the second failure is the caller's.
    panel.failNext("down", 2);
    expect(await retrying.listNodes().catch((e: unknown) => e)).toMatchObject({ kind: "network" });
    // No answer at all (the panel holds the request for good): the client's timeout, then once more.
    panel.failNext("slow", 1, { until: new Promise(() => {}) });
    expect(await retrying.listLocations()).toHaveLength(panel.locations.length);

    // A 429 said when to come back: not now.
    calls.length = 0;
    panel.failNext("429", 1);
    expect(await retrying.listNests().catch((e: unknown) => e)).toMatchObject({ status: 429 });
    expect(calls).toHaveLength(1);

    // A write may have happened: never sent twice.
    const user = await customer();
    calls.length = 0;
    panel.failNext("500", 1, { route: "POST /servers" });
    expect(await retrying.createServer(sampServer(user.id)).catch((e: unknown) => e)).toMatchObject(
      { status: 500 },
    );
    expect(calls.filter((c) => c.method === "POST")).toHaveLength(1);
  });

  it("gives a timeout as PanelUnreachable('timeout'), timed from the request to giving up", async () => {
    // The call's clock reads 1,000 until the panel has the request, then 1,300.4: its duration spans
    // the request, whatever the real time.
    const timed = createPanelClient({
      url: panel.url,
      allowLocalNetwork: true,
      apiKey: panel.apiKey,
      timeoutMs: 300,
      onCall: (call) => calls.push(call),
      clock: () => (panel.requests.some((request) => request.received) ? 1_300.4 : 1_000),
    });
    // The panel holds the request for good: only the client's timeout ends the call.
    panel.failNext("slow", 1, { until: new Promise(() => {}) });
    const error = await timed.listLocations().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(PanelUnreachable);
    expect(error).toMatchObject({ kind: "timeout" });
    expect(isRetryablePanelFailure(error)).toBe(true);
    expect(panel.requests).toMatchObject([{ received: true, status: null }]);
    expect(calls).toEqual([
      expect.objectContaining({ status: null, errorCode: "timeout", durationMs: 300 }),
    ]);
  });

  it("gives a lost answer as PanelUnreachable('network'), the server made all the same", async () => {
    const user = await customer();
    panel.failNext("lost", 1, { route: "POST /servers" });
    const error = await client.createServer(sampServer(user.id)).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(PanelUnreachable);
    expect(error).toMatchObject({ kind: "network" });
    expect(isRetryablePanelFailure(error)).toBe(true);
    // What a retrying job does first: look it up.
    expect(await client.findServerByExternalId("hf-svc-1")).toMatchObject({ status: "installing" });
    expect(panel.servers.filter((s) => s.externalId === "hf-svc-1")).toHaveLength(1);
  });

  it("gives a panel that cuts the connection (down) or is not there as PanelUnreachable('network')", async () => {
    panel.failNext("down");
    expect(await client.listNodes().catch((e: unknown) => e)).toMatchObject({ kind: "network" });
    const gone = createPanelClient({
      url: "http://127.0.0.1:9",
      allowLocalNetwork: true,
      apiKey: "ptla_x",
      timeoutMs: 2_000,
    });
    expect(await gone.listNodes().catch((e: unknown) => e)).toMatchObject({ kind: "network" });
  });

  it("refuses a wrong key with the panel's 401", async () => {
    const wrong = createPanelClient({
      url: panel.url,
      apiKey: "ptla_wrong",
      allowLocalNetwork: true,
    });
    expect(await wrong.listNodes().catch((e: unknown) => e)).toMatchObject({
      status: 401,
      code: "AuthenticationException",
      detail: "Unauthenticated.",
    });
  });

  it("makes a PanelError 'HttpError' of an answer that is not the panel's, and names a redirect", async () => {
    const proxy = createPanelClient({
      url: "https://panel.example.test",
      apiKey: "ptla_x",
      fetch: async () =>
        new Response("<html>Bad gateway</html>", {
          status: 502,
          headers: { "retry-after": new Date(Date.now() + 30_000).toUTCString() },
        }),
    });
    const error = await proxy.listNodes().catch((e: unknown) => e);
    expect(error).toMatchObject({ status: 502, code: "HttpError", errors: [] });
    expect((error as PanelError).retryAfterSeconds).toBeGreaterThanOrEqual(28);
    expect(isRetryablePanelFailure(error)).toBe(true);

    const moved = createPanelClient({
      url: "http://panel.example.test",
      apiKey: "ptla_x",
      fetch: async () =>
        new Response(null, { status: 301, headers: { location: "https://panel.example.test/" } }),
    });
    const redirected = await moved.listNodes().catch((e: unknown) => e);
    expect(redirected).toMatchObject({ status: 301, code: "HttpError" });
    // Where it leads is not said: the page shows the detail (docs/provisioning.md).
    expect((redirected as PanelError).detail).toMatch(/redirect \(HTTP 301\)/);
    expect((redirected as PanelError).detail).not.toContain("https://panel.example.test/");

    const website = createPanelClient({
      url: "https://example.test",
      apiKey: "ptla_x",
      fetch: async () => new Response("<html>Welcome</html>", { status: 200 }),
    });
    expect(await website.listNodes().catch((e: unknown) => e)).toMatchObject({
      status: 200,
      code: "InvalidResponse",
    });
  });
});

describe("where the client sends the key", () => {
  /** A server on 127.0.0.1 that answers every request with `status` and a Location to the fake panel. */
  async function redirector(status: number) {
    const seen: string[] = [];
    const server = createServer((request, answer) => {
      seen.push(`${request.method} ${request.url}`);
      answer.writeHead(status, {
        location: `${panel.url}/api/application/locations?from=redirect`,
      });
      answer.end();
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    const { port } = server.address() as AddressInfo;
    return {
      url: `http://127.0.0.1:${port}`,
      seen,
      close: () => new Promise<void>((resolve) => server.close(() => resolve())),
    };
  }

  it("never follows a redirect, nor says where it leads", async () => {
    for (const status of [301, 302, 307, 308]) {
      const moved = await redirector(status);
      const client = createPanelClient({
        url: moved.url,
        apiKey: panel.apiKey,
        allowLocalNetwork: true,
      });
      const read = await client.listNodes().catch((e: unknown) => e);
      const write = await client.suspendServer(1).catch((e: unknown) => e);
      await moved.close();
      for (const error of [read, write]) {
        expect(error, String(status)).toMatchObject({ status, code: "HttpError" });
        expect(JSON.stringify([String(error), (error as PanelError).detail])).not.toMatch(
          /from=redirect|\/locations/,
        );
      }
      expect(moved.seen).toHaveLength(2);
    }
    // The key never reached where the redirects led.
    expect(panel.requests).toEqual([]);
  });

  it("refuses a local address unless a panel on the local network is allowed", () => {
    for (const url of [
      panel.url,
      "http://127.0.0.2",
      "http://2130706433",
      "http://0x7f.1:8080",
      "http://[::1]",
      "http://[::ffff:127.0.0.1]",
      "http://10.0.0.1",
      "http://192.168.1.1/panel",
      "http://169.254.169.254",
      "http://0.0.0.0",
      "http://localhost:4400",
    ]) {
      expect(() => createPanelClient({ url, apiKey: panel.apiKey }), url).toThrow(
        PanelAddressRefused,
      );
      expect(() =>
        createPanelClient({ url, apiKey: panel.apiKey, allowLocalNetwork: true }),
      ).not.toThrow();
    }
    expect(() =>
      createPanelClient({ url: "https://panel.example.test", apiKey: "k" }),
    ).not.toThrow();
  });

  it("refuses a name that resolves to a local address when it connects, sending nothing", async () => {
    const port = new URL(panel.url).port;
    // DNS as a stranger's public name could answer: 127.0.0.1, alone or beside a public address.
    const answers: Record<string, LookupAddress[]> = {
      "panel.example.test": [{ address: "127.0.0.1", family: 4 }],
      "mixed.example.test": [
        { address: "93.184.215.14", family: 4 },
        { address: "::1", family: 6 },
      ],
    };
    const resolve: PanelResolver = (hostname, _options, callback) =>
      callback(null, answers[hostname] ?? []);
    for (const host of Object.keys(answers)) {
      const refused = createPanelClient({
        url: `http://${host}:${port}`,
        apiKey: panel.apiKey,
        resolve,
        retryReads: true,
        onCall: (call) => calls.push(call),
      });
      const error = await refused.listLocations().catch((e: unknown) => e);
      expect(error, host).toBeInstanceOf(PanelAddressRefused);
      expect(isRetryablePanelFailure(error)).toBe(false);
      expect(String(error)).not.toMatch(/127\.0\.0\.1|::1|93\.184/);
    }
    expect(panel.requests).toEqual([]);
    // Not sent twice by retryReads, and recorded as refused.
    expect(calls.map((call) => [call.status, call.errorCode])).toEqual([
      [null, "addressRefused"],
      [null, "addressRefused"],
    ]);

    // Allowed, the same name reaches the panel there.
    const allowed = createPanelClient({
      url: `http://panel.example.test:${port}`,
      apiKey: panel.apiKey,
      resolve,
      allowLocalNetwork: true,
    });
    expect(await allowed.listLocations()).toHaveLength(panel.locations.length);
    expect(panel.requests[0]!.headers).toMatchObject({ host: `panel.example.test:${port}` });
  });

  it("refuses loopback as the system's resolver gives it for `localhost`", async () => {
    const lookup = (allow: boolean) =>
      new Promise<unknown>((resolve) =>
        panelLookup(allow)("localhost", { all: true }, (error, address) =>
          resolve(error ?? address),
        ),
      );
    expect(await lookup(false)).toBeInstanceOf(PanelAddressRefused);
    // An address is connected to without a lookup: the transport judges it itself.
    await expect(
      panelFetch({ allowLocalNetwork: false })(`${panel.url}/api/application/locations`),
    ).rejects.toBeInstanceOf(PanelAddressRefused);
    expect(panel.requests).toEqual([]);
    expect(await lookup(true)).toEqual(
      expect.arrayContaining([expect.objectContaining({ address: expect.any(String) })]),
    );
  });
});

describe("what the client sends and records", () => {
  it("sends the key as a bearer token and asks for JSON", async () => {
    await client.listNests();
    expect(panel.requests[0]!.headers).toMatchObject({
      authorization: `Bearer ${panel.apiKey}`,
      accept: "application/json",
    });
  });

  it("reports every request once to onCall, and the key never in a call nor an error", async () => {
    const user = await customer();
    panel.failNext("500", 1, { route: "GET /nodes" });
    panel.failNext("lost", 1, { route: "POST /servers" });
    const errors = [
      await client.listNodes().catch((e: unknown) => e),
      await client.createServer(sampServer(user.id)).catch((e: unknown) => e),
      await client.getServer(999).catch((e: unknown) => e),
    ];
    await client.listAllocations(1);
    expect(calls).toHaveLength(panel.requests.length);
    expect(calls.map((c) => [c.method, c.status, c.errorCode])).toEqual([
      ["POST", 201, null],
      ["GET", 500, "QueryException"],
      ["POST", null, "network"],
      ["GET", 404, "NotFoundHttpException"],
      ["GET", 200, null],
      ["GET", 200, null],
    ]);
    const written = JSON.stringify([
      calls,
      errors.map((e) => [String(e), (e as Error).stack, JSON.stringify(e)]),
    ]);
    expect(written).not.toContain(panel.apiKey);
    expect(written).not.toContain(panel.apiKey.slice(5));
  });

  it("takes a URL with a trailing slash or a path, and refuses one it cannot use", async () => {
    const slashed = createPanelClient({
      url: `${panel.url}///`,
      apiKey: panel.apiKey,
      allowLocalNetwork: true,
    });
    expect(await slashed.listLocations()).toHaveLength(4);
    expect(() => createPanelClient({ url: "ftp://panel.example.test", apiKey: "k" })).toThrow(
      /http:\/\/ or https:\/\//,
    );
    expect(() => createPanelClient({ url: "panel.example.test", apiKey: "k" })).toThrow(
      /not a web address/,
    );
    expect(() => createPanelClient({ url: "https://u:p@panel.example.test", apiKey: "k" })).toThrow(
      /user name or password/,
    );
    expect(() => createPanelClient({ url: "https://panel.example.test", apiKey: " " })).toThrow(
      /key is empty/,
    );
    const seen: string[] = [];
    const underPath = createPanelClient({
      url: "https://example.test/panel/",
      apiKey: "ptla_x",
      fetch: async (input) => {
        seen.push(String(input));
        return new Response(JSON.stringify({ object: "list", data: [] }), { status: 200 });
      },
    });
    await underPath.listEggs(3);
    expect(seen).toEqual([
      "https://example.test/panel/api/application/nests/3/eggs?include=variables&page=1&per_page=100",
    ]);
  });
});
