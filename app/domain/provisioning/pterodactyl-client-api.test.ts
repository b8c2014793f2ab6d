import { afterEach, beforeEach, describe, expect, it } from "vitest";
import {
  startFakePanel,
  type FakePanel,
  type FakeServer,
} from "../../../tests/support/fake-pterodactyl";
import {
  createPanelClientApi,
  isRetryablePanelFailure,
  isServerStateConflict,
  PanelError,
  PanelUnreachable,
  type PanelCall,
  type PanelClientApi,
} from "./pterodactyl-client-api.server";

// The Client API's client against the fake panel over HTTP (tests/support/fake-pterodactyl.ts, its
// Client API in fake-pterodactyl/client-routes.ts): each call, and each way the panel refuses.

let panel: FakePanel;
let calls: PanelCall[];
let api: PanelClientApi;
/** The seed's "Hand-made SA-MP": installed, on node 2 (de-fsn-2), owned by the panel's admin. */
let samp: FakeServer;

function clientFor(apiKey: string, options: { timeoutMs?: number } = {}) {
  return createPanelClientApi({
    url: panel.url,
    // The fake panel is on loopback.
    allowLocalNetwork: true,
    apiKey,
    // Generous: a call that should be answered is never cut short by a busy machine.
    timeoutMs: options.timeoutMs ?? 10_000,
    onCall: (call) => calls.push(call),
  });
}

beforeEach(async () => {
  panel = await startFakePanel();
  calls = [];
  api = clientFor(panel.clientApiKey);
  samp = panel.servers.find((server) => server.name === "Hand-made SA-MP")!;
});

afterEach(async () => {
  await panel.close();
});

const failure = (promise: Promise<unknown>) =>
  promise.then(
    () => {
      throw new Error("The call should have failed");
    },
    (error: unknown) => error,
  );

describe("reading a server", () => {
  it("reads its page: identifier, SFTP, limits, by short identifier or uuid", async () => {
    const expected = {
      identifier: samp.identifier,
      uuid: samp.uuid,
      internalId: samp.id,
      name: "Hand-made SA-MP",
      sftp: { host: "de-fsn-2.nodes.example.test", port: 2022 },
      suspended: false,
      installing: false,
      limits: { memory: 1024, disk: 5120, cpu: 100 },
    };
    expect(await api.getServer(samp.identifier)).toEqual(expected);
    expect(await api.getServer(samp.uuid)).toEqual(expected);
    expect(samp.identifier).toHaveLength(8);
    expect(calls.map((c) => [c.method, c.path, c.status, c.errorCode])).toEqual([
      ["GET", `/api/client/servers/${samp.identifier}`, 200, null],
      ["GET", `/api/client/servers/${samp.uuid}`, 200, null],
    ]);
  });

  it("reads the page of a server that installs or is suspended, where the rest is refused", async () => {
    samp.status = "suspended";
    expect(await api.getServer(samp.identifier)).toMatchObject({
      suspended: true,
      installing: false,
    });
    samp.status = "installing";
    expect(await api.getServer(samp.identifier)).toMatchObject({
      suspended: false,
      installing: true,
    });
  });

  it("reads the resources, and watches start, restart, stop and kill move the state", async () => {
    panel.setResources(samp.id, {
      cpuAbsolute: 37.5,
      memoryBytes: 512 * 1024 * 1024,
      diskBytes: 80 * 1024 * 1024,
      uptimeMs: 93_000,
    });
    // Offline, what the process used reads 0; its files stay.
    expect(await api.getResources(samp.identifier)).toEqual({
      state: "offline",
      suspended: false,
      cpuAbsolute: 0,
      memoryBytes: 0,
      diskBytes: 80 * 1024 * 1024,
      uptimeMs: 0,
    });
    const states = async (reads: number) => {
      const seen: string[] = [];
      for (let read = 0; read < reads; read++)
        seen.push((await api.getResources(samp.identifier)).state);
      return seen;
    };

    await api.sendPower(samp.identifier, "start");
    expect(await states(3)).toEqual(["starting", "running", "running"]);
    expect(await api.getResources(samp.identifier)).toEqual({
      state: "running",
      suspended: false,
      cpuAbsolute: 37.5,
      memoryBytes: 512 * 1024 * 1024,
      diskBytes: 80 * 1024 * 1024,
      uptimeMs: 93_000,
    });
    await api.sendPower(samp.identifier, "restart");
    expect(await states(4)).toEqual(["stopping", "starting", "running", "running"]);
    await api.sendPower(samp.identifier, "stop");
    expect(await states(3)).toEqual(["stopping", "offline", "offline"]);
    await api.sendPower(samp.identifier, "start");
    await api.sendPower(samp.identifier, "kill");
    expect(await states(1)).toEqual(["offline"]);

    expect(calls.filter((c) => c.method === "POST").map((c) => [c.path, c.status])).toEqual(
      ["start", "restart", "stop", "start", "kill"].map(() => [
        `/api/client/servers/${samp.identifier}/power`,
        204,
      ]),
    );
    expect(panel.requests.filter((r) => r.method === "POST").map((r) => r.body)).toEqual(
      ["start", "restart", "stop", "start", "kill"].map((signal) => ({ signal })),
    );
  });

  it("refuses an identifier that is not the panel's without asking it", async () => {
    for (const identifier of ["../../application/users", "1a2b3c4", "1a2b3c4d/power", ""])
      await expect(api.getResources(identifier)).rejects.toThrow(/Not a panel server identifier/);
    await expect(api.sendPower(samp.identifier, "explode" as "kill")).rejects.toThrow(
      /Not a power signal/,
    );
    expect(panel.requests).toHaveLength(0);
  });
});

describe("startup variables and reinstall", () => {
  it("lists the variables its user may see, and updates one under the variable's own rules", async () => {
    expect(await api.listStartupVariables(samp.identifier)).toEqual([
      {
        name: "Version",
        description: "",
        envVariable: "VERSION",
        defaultValue: "0.3.7",
        serverValue: "0.3.7",
        editable: true,
        rules: "required|string|max:32",
      },
      expect.objectContaining({ envVariable: "RCON_PASS", serverValue: "changeme" }),
      expect.objectContaining({ envVariable: "MAX_PLAYERS", serverValue: "100" }),
    ]);
    expect(await api.updateStartupVariable(samp.identifier, "MAX_PLAYERS", "200")).toMatchObject({
      envVariable: "MAX_PLAYERS",
      serverValue: "200",
      editable: true,
    });
    expect(samp.environment.MAX_PLAYERS).toBe("200");
    expect(panel.requests.at(-1)).toMatchObject({
      method: "PUT",
      url: `/api/client/servers/${samp.identifier}/startup/variable`,
      body: { key: "MAX_PLAYERS", value: "200" },
    });

    const refused = await failure(
      api.updateStartupVariable(samp.identifier, "MAX_PLAYERS", "5000"),
    );
    expect(refused).toMatchObject({
      status: 422,
      code: "ValidationException",
      detail: "The value must be between 1 and 1000.",
      meta: { source_field: "value", rule: "between" },
    });
    expect(isRetryablePanelFailure(refused)).toBe(false);
    expect(samp.environment.MAX_PLAYERS).toBe("200");
  });

  it("gets the panel's refusal of a read-only variable (400) and of a key the egg lacks (500)", async () => {
    const mta = panel.servers.find((server) => server.name === "Hand-made MTA")!;
    expect(
      await failure(api.updateStartupVariable(mta.identifier, "SERVER_WEBPORT", "22010")),
    ).toMatchObject({
      status: 400,
      code: "BadRequestHttpException",
      detail: "The environment variable you are trying to edit is read-only.",
    });
    // The panel fails on a key its egg lacks (it reads the variable before it looks whether there is
    // one): a 500, which another attempt does not cure, so callers send only keys the list gave.
    const unknown = await failure(api.updateStartupVariable(samp.identifier, "NOPE", "1"));
    expect(unknown).toMatchObject({ status: 500, code: "ErrorException" });
    expect(mta.environment.SERVER_WEBPORT).toBe("22006");
  });

  it("reinstalls (202): the server installs, and the Client API answers 409 until it is done", async () => {
    await api.reinstall(samp.identifier);
    expect(calls.at(-1)).toMatchObject({
      method: "POST",
      path: `/api/client/servers/${samp.identifier}/settings/reinstall`,
      status: 202,
    });
    expect(samp.status).toBe("installing");
    const conflict = await failure(api.getResources(samp.identifier));
    expect(conflict).toMatchObject({
      status: 409,
      code: "ServerStateConflictException",
      detail: "This server has not yet completed its installation process, please try again later.",
    });
    expect(isServerStateConflict(conflict)).toBe(true);
    // installReads is 2: two reads of the server's page say installing, then the install is done.
    expect((await api.getServer(samp.identifier)).installing).toBe(true);
    expect((await api.getServer(samp.identifier)).installing).toBe(true);
    expect((await api.getServer(samp.identifier)).installing).toBe(false);
    expect((await api.getResources(samp.identifier)).state).toBe("offline");
  });
});

describe("the panel's refusals", () => {
  it("refuses a suspended or transferring server with the panel's 409, not worth another attempt", async () => {
    samp.status = "suspended";
    for (const call of [
      api.getResources(samp.identifier),
      api.sendPower(samp.identifier, "start"),
      api.listStartupVariables(samp.identifier),
      api.reinstall(samp.identifier),
    ]) {
      const error = await failure(call);
      expect(error).toMatchObject({
        status: 409,
        code: "ServerStateConflictException",
        detail:
          "This server is currently suspended and the functionality requested is unavailable.",
      });
      expect(isServerStateConflict(error)).toBe(true);
      expect(isRetryablePanelFailure(error)).toBe(false);
    }
    expect(samp.status).toBe("suspended");
    expect(panel.powerState(samp.id)).toBe("offline");

    samp.status = null;
    panel.setTransferring(samp.id, true);
    expect(await failure(api.sendPower(samp.identifier, "start"))).toMatchObject({
      status: 409,
      detail:
        "This server is currently being transferred to a new machine, please try again later.",
    });
  });

  it("gives Retry-After when the Client API's rate limit is spent", async () => {
    let now = 1_700_000_000_000;
    await panel.close();
    panel = await startFakePanel({ clientRateLimit: 2, now: () => now });
    samp = panel.servers.find((server) => server.name === "Hand-made SA-MP")!;
    api = clientFor(panel.clientApiKey);
    await api.getResources(samp.identifier);
    await api.getServer(samp.identifier);
    const limited = await failure(api.getResources(samp.identifier));
    expect(limited).toMatchObject({
      status: 429,
      code: "ThrottleRequestsException",
      retryAfterSeconds: 60,
    });
    expect(isRetryablePanelFailure(limited)).toBe(true);
    expect(isServerStateConflict(limited)).toBe(false);
    now += 45_000;
    expect(await failure(api.sendPower(samp.identifier, "start"))).toMatchObject({
      status: 429,
      retryAfterSeconds: 15,
    });
    // A refused request does not count: the next window takes two again.
    now += 15_000;
    await api.sendPower(samp.identifier, "start");
    expect((await api.getResources(samp.identifier)).state).toBe("starting");
    expect(await failure(api.getServer(samp.identifier))).toMatchObject({ status: 429 });
  });

  it("gives the panel's 504 when the node does not answer, and a proxy's 502 where the panel passes it on", async () => {
    panel.setNodeDown(samp.nodeId, true);
    const unreachable = {
      status: 504,
      code: "DaemonConnectionException",
      detail:
        "Could not establish a connection to the machine running this server. Please try again.",
    };
    for (const call of [
      api.getResources(samp.identifier),
      api.sendPower(samp.identifier, "start"),
      api.reinstall(samp.identifier),
    ]) {
      const error = await failure(call);
      expect(error).toMatchObject(unreachable);
      expect(isRetryablePanelFailure(error)).toBe(true);
      expect(isServerStateConflict(error)).toBe(false);
    }
    // The panel's own data needs no Wings; the reinstall's transaction was rolled back.
    expect(await api.getServer(samp.identifier)).toMatchObject({ installing: false });
    expect(await api.listStartupVariables(samp.identifier)).toHaveLength(3);
    expect(samp.status).toBeNull();
    expect(panel.powerState(samp.id)).toBe("offline");

    panel.setNodeDown(samp.nodeId, true, { proxyStatus: 502 });
    expect(await failure(api.sendPower(samp.identifier, "start"))).toMatchObject({
      status: 502,
      code: "DaemonConnectionException",
    });
    const resources = await failure(api.getResources(samp.identifier));
    expect(resources).toMatchObject({ status: 504, code: "DaemonConnectionException" });
    expect((resources as PanelError).detail).toContain("(code: 502)");

    panel.setNodeDown(samp.nodeId, false);
    await api.sendPower(samp.identifier, "start");
    expect((await api.getResources(samp.identifier)).state).toBe("starting");
  });

  it("gives up on a slow panel at its timeout", async () => {
    panel.setAnswerDelay(5_000);
    const impatient = clientFor(panel.clientApiKey, { timeoutMs: 200 });
    const error = await failure(impatient.getResources(samp.identifier));
    expect(error).toBeInstanceOf(PanelUnreachable);
    expect(error).toMatchObject({ kind: "timeout" });
    expect(isRetryablePanelFailure(error)).toBe(true);
    expect(calls).toEqual([
      expect.objectContaining({
        path: `/api/client/servers/${samp.identifier}/resources`,
        status: null,
        errorCode: "timeout",
      }),
    ]);
  });

  it("refuses a wrong key (401), the application key (403) and a server it does not have (404)", async () => {
    expect(await failure(clientFor("ptlc_wrong").getResources(samp.identifier))).toMatchObject({
      status: 401,
      code: "AuthenticationException",
      detail: "Unauthenticated.",
    });
    expect(await failure(clientFor(panel.apiKey).getResources(samp.identifier))).toMatchObject({
      status: 403,
      code: "AccessDeniedHttpException",
      detail:
        "You are attempting to use an application API key on an endpoint that requires a client API key.",
    });
    expect(await failure(api.getServer("0badc0de"))).toMatchObject({
      status: 404,
      code: "NotFoundHttpException",
    });
  });

  it("makes a PanelError 'InvalidResponse' of an answer of another shape", async () => {
    const scripted = (body: unknown, status = 200) =>
      createPanelClientApi({
        url: "https://panel.example.test",
        apiKey: "ptlc_x",
        fetch: async () =>
          new Response(typeof body === "string" ? body : JSON.stringify(body), { status }),
      });
    const stats = (attributes: Record<string, unknown>) => ({
      object: "stats",
      attributes: {
        current_state: "running",
        is_suspended: false,
        resources: { memory_bytes: 1, cpu_absolute: 2.5, disk_bytes: 3, uptime: 4 },
        ...attributes,
      },
    });
    expect(await scripted(stats({})).getResources("1a2b3c4d")).toMatchObject({
      state: "running",
      cpuAbsolute: 2.5,
    });
    // The panel's own default when Wings gives no state.
    expect(
      await scripted(stats({ current_state: "stopped" })).getResources("1a2b3c4d"),
    ).toMatchObject({
      state: "offline",
    });
    const wrong = [
      scripted(stats({ current_state: "sleeping" })).getResources("1a2b3c4d"),
      scripted(
        stats({ resources: { memory_bytes: "1", cpu_absolute: 0, disk_bytes: 0, uptime: 0 } }),
      ).getResources("1a2b3c4d"),
      scripted(stats({ resources: null })).getResources("1a2b3c4d"),
      scripted({ object: "server", attributes: { identifier: "1a2b3c4d" } }).getServer("1a2b3c4d"),
      scripted({ object: "egg_variable", attributes: {} }).listStartupVariables("1a2b3c4d"),
      scripted({ object: "list", data: [{ attributes: { name: "x" } }] }).listStartupVariables(
        "1a2b3c4d",
      ),
      scripted("<html>Welcome</html>").getServer("1a2b3c4d"),
    ];
    for (const call of wrong) {
      const error = await failure(call);
      expect(error).toBeInstanceOf(PanelError);
      expect(error).toMatchObject({ status: 200, code: "InvalidResponse" });
      expect(isRetryablePanelFailure(error)).toBe(false);
    }
  });
});

describe("what the client sends and records", () => {
  it("sends the client key as a bearer token, asks for JSON, and keeps the key out of every call and error", async () => {
    panel.failNext("500", 1, { route: "GET /client/servers/{server}/resources" });
    panel.failNext("lost", 1, { route: "POST /client/servers/{server}/power" });
    const errors = [
      await failure(api.getResources(samp.identifier)),
      await failure(api.sendPower(samp.identifier, "start")),
      await failure(api.getServer("0badc0de")),
      await failure(clientFor(panel.apiKey).getServer(samp.identifier)),
    ];
    await api.getResources(samp.identifier);
    expect(panel.requests[0]!.headers).toMatchObject({
      authorization: `Bearer ${panel.clientApiKey}`,
      accept: "application/json",
    });
    expect(calls).toHaveLength(panel.requests.length);
    expect(calls.map((c) => [c.method, c.status, c.errorCode])).toEqual([
      ["GET", 500, "QueryException"],
      ["POST", null, "network"],
      ["GET", 404, "NotFoundHttpException"],
      ["GET", 403, "AccessDeniedHttpException"],
      ["GET", 200, null],
    ]);
    // The lost answer's signal was taken all the same, as a real panel's may be.
    expect((await api.getResources(samp.identifier)).state).toBe("running");
    const written = JSON.stringify([
      calls,
      errors.map((e) => [String(e), (e as Error).stack, JSON.stringify(e)]),
    ]);
    for (const key of [panel.clientApiKey, panel.apiKey]) {
      expect(written).not.toContain(key);
      expect(written).not.toContain(key.slice(5));
    }
  });
});
