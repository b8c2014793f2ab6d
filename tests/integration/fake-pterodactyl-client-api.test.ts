import { afterEach, beforeEach, describe, expect, it } from "vitest";
import {
  startFakePanel,
  type FakePanel,
  type FakePanelOptions,
  type FakeServer,
} from "../support/fake-pterodactyl";

// The fake panel's Client API and the Application API's password, spoken to in raw HTTP: what
// pterodactyl/panel answers, as its source says (the handlers in tests/support/fake-pterodactyl/
// client-routes.ts name the controller and middleware each follows). The client's own tests
// (app/domain/provisioning/pterodactyl-client-api.test.ts) hold the calls it makes; these hold the rest.

let panel: FakePanel;
/** The seed's "Hand-made SA-MP": installed, on node 2, owned by the panel's admin. */
let samp: FakeServer;

// An answer's JSON, read loosely: what it must hold is said by each assertion.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Json = Record<string, any>;

async function start(options: FakePanelOptions = {}) {
  panel = await startFakePanel(options);
  samp = panel.servers.find((server) => server.name === "Hand-made SA-MP")!;
}

beforeEach(async () => {
  await start();
});

afterEach(async () => {
  await panel.close();
});

async function call(
  method: string,
  path: string,
  body?: unknown,
  headers: Record<string, string> = {},
) {
  const response = await fetch(`${panel.url}/api${path}`, {
    method,
    headers: {
      authorization: `Bearer ${panel.clientApiKey}`,
      accept: "application/json",
      ...(body === undefined ? {} : { "content-type": "application/json" }),
      ...headers,
    },
    body: body === undefined ? undefined : JSON.stringify(body),
    redirect: "manual",
  });
  const text = await response.text();
  return {
    status: response.status,
    headers: response.headers,
    json: text ? (JSON.parse(text) as Json) : null,
  };
}

const client = (method: string, path: string, body?: unknown) =>
  call(method, `/client/servers/${samp.identifier}${path}`, body);

const state = async () => (await client("GET", "/resources")).json!.attributes.current_state;

describe("keys", () => {
  it("gives a random client key, or the one asked for; it must not be the application key", async () => {
    expect(panel.clientApiKey).toMatch(/^ptlc_/);
    await panel.close();
    await start({ clientApiKey: "ptlc_mine" });
    expect(panel.clientApiKey).toBe("ptlc_mine");
    expect((await client("GET", "")).status).toBe(200);
    await expect(startFakePanel({ apiKey: "same", clientApiKey: "same" })).rejects.toThrow(
      /differ/,
    );
  });

  it("lets the root admin's client key through the Application API too, as the panel does", async () => {
    const nodes = await call("GET", "/application/nodes");
    expect(nodes.status).toBe(200);
    expect(nodes.json!.data).toHaveLength(5);
  });

  it("refuses the client key when its user is no root admin any more (401)", async () => {
    panel.users.find((user) => user.rootAdmin)!.rootAdmin = false;
    expect((await client("GET", "")).json).toEqual({
      errors: [{ code: "AuthenticationException", status: "401", detail: "Unauthenticated." }],
    });
  });

  it("binds a server by its short identifier or uuid (without case), else 404; the application key gets 403", async () => {
    const upper = await call("GET", `/client/servers/${samp.uuid.toUpperCase()}`);
    expect(upper.json!.attributes.internal_id).toBe(samp.id);
    // Eight characters are always a short identifier: a uuid's start of another length is not one.
    expect((await call("GET", `/client/servers/${samp.uuid.slice(0, 9)}`)).json).toEqual({
      errors: [
        {
          code: "NotFoundHttpException",
          status: "404",
          detail: "The requested resource could not be found on the server.",
        },
      ],
    });
    const application = await call("GET", `/client/servers/${samp.identifier}`, undefined, {
      authorization: `Bearer ${panel.apiKey}`,
    });
    expect(application.status).toBe(403);
    expect(application.json!.errors[0].code).toBe("AccessDeniedHttpException");
    // Not even an unknown server's 404 is reached before the binding: 404 first, as the panel.
    const unknown = await call("GET", "/client/servers/0badc0de", undefined, {
      authorization: `Bearer ${panel.apiKey}`,
    });
    expect(unknown.status).toBe(404);
    expect((await call("GET", "/client/servers/x/nope")).json!.errors[0].detail).toBe(
      "The route api/client/servers/x/nope could not be found.",
    );
  });
});

describe("a server's page", () => {
  it("gives the Client API's ServerTransformer with its allocations and visible variables", async () => {
    const answer = await client("GET", "");
    expect(answer.status).toBe(200);
    expect(answer.json!.object).toBe("server");
    expect(answer.json!.attributes).toMatchObject({
      server_owner: true,
      identifier: samp.identifier,
      internal_id: samp.id,
      uuid: samp.uuid,
      node: "de-fsn-2",
      is_node_under_maintenance: false,
      sftp_details: { ip: "de-fsn-2.nodes.example.test", port: 2022 },
      invocation: "./samp03svr",
      status: null,
      is_suspended: false,
      is_installing: false,
      is_transferring: false,
    });
    expect(answer.json!.attributes.relationships.allocations.data).toEqual([
      {
        object: "allocation",
        attributes: {
          id: samp.allocationId,
          ip: "10.0.2.10",
          ip_alias: "de2.play.example.test",
          port: 7777,
          notes: null,
          is_default: true,
        },
      },
    ]);
    expect(
      answer.json!.attributes.relationships.variables.data.map(
        (v: Json) => v.attributes.env_variable,
      ),
    ).toEqual(["VERSION", "RCON_PASS", "MAX_PLAYERS"]);
    expect(answer.json!.meta).toEqual({
      is_server_owner: true,
      user_permissions: [
        "*",
        "admin.websocket.errors",
        "admin.websocket.install",
        "admin.websocket.transfer",
      ],
    });
  });
});

describe("the server's state", () => {
  it("answers 409 with the panel's words for each state it does not serve, but the page", async () => {
    const conflict = async () => (await client("GET", "/resources")).json!.errors[0];
    panel.nodes.find((node) => node.id === samp.nodeId)!.maintenance = true;
    expect(await conflict()).toEqual({
      code: "ServerStateConflictException",
      status: "409",
      detail:
        "The node of this server is currently under maintenance and the functionality requested is unavailable.",
    });
    panel.nodes.find((node) => node.id === samp.nodeId)!.maintenance = false;
    samp.status = "install_failed";
    expect((await conflict()).detail).toBe(
      "This server has not yet completed its installation process, please try again later.",
    );
    samp.status = "restoring_backup";
    expect((await conflict()).detail).toBe(
      "This server is currently restoring from a backup, please try again later.",
    );
    // A failed reinstall leaves an installed server: served.
    samp.status = "reinstall_failed";
    expect((await client("GET", "/resources")).status).toBe(200);
    samp.status = "installing";
    expect((await client("GET", "/startup")).status).toBe(409);
    expect((await client("PUT", "/startup/variable", { key: "VERSION", value: "x" })).status).toBe(
      409,
    );
    expect((await client("GET", "")).status).toBe(200);
  });

  it("starts only an offline server and stops only a running one; the Application API's suspend stops it", async () => {
    expect(panel.powerState(samp.id)).toBe("offline");
    expect((await client("POST", "/power", { signal: "stop" })).status).toBe(204);
    expect(await state()).toBe("offline");
    panel.setPowerState(samp.id, "running");
    // Wings takes a start of a running server and does nothing (it only logs it).
    expect((await client("POST", "/power", { signal: "start" })).status).toBe(204);
    expect(await state()).toBe("running");
    expect(
      (await call("POST", `/application/servers/${samp.id}/suspend`, undefined, {})).status,
    ).toBe(204);
    expect(panel.powerState(samp.id)).toBe("offline");
  });

  it("moves a power change on every powerReads reads, or at once with 0", async () => {
    await panel.close();
    await start({ powerReads: 2 });
    await client("POST", "/power", { signal: "start" });
    expect([await state(), await state(), await state()]).toEqual([
      "starting",
      "starting",
      "running",
    ]);
    await panel.close();
    await start({ powerReads: 0 });
    await client("POST", "/power", { signal: "restart" });
    expect(await state()).toBe("running");
    await expect(startFakePanel({ powerReads: -1 })).rejects.toThrow(/powerReads/);
  });

  it("validates the signal as SendPowerRequest does", async () => {
    expect((await client("POST", "/power", { signal: "explode" })).json!.errors).toEqual([
      {
        code: "ValidationException",
        status: "422",
        detail: "The selected signal is invalid.",
        meta: { source_field: "signal", rule: "in" },
      },
    ]);
    expect((await client("POST", "/power", {})).json!.errors[0].meta).toEqual({
      source_field: "signal",
      rule: "required",
    });
    expect(panel.powerState(samp.id)).toBe("offline");
  });

  it("reports the resources set for a server, CPU, memory and uptime 0 while offline", async () => {
    panel.setResources(samp.id, { cpuAbsolute: 150.25, memoryBytes: 1_000, diskBytes: 2_000 });
    panel.setResources(samp.id, { uptimeMs: 3_000 });
    panel.setPowerState(samp.id, "running");
    const running = await client("GET", "/resources");
    expect(running.json).toEqual({
      object: "stats",
      attributes: {
        current_state: "running",
        is_suspended: false,
        resources: {
          memory_bytes: 1_000,
          cpu_absolute: 150.25,
          disk_bytes: 2_000,
          network_rx_bytes: 0,
          network_tx_bytes: 0,
          uptime: 3_000,
        },
      },
    });
    panel.setPowerState(samp.id, "offline");
    expect((await client("GET", "/resources")).json!.attributes.resources).toMatchObject({
      memory_bytes: 0,
      cpu_absolute: 0,
      disk_bytes: 2_000,
      uptime: 0,
    });
  });

  it("reinstalls (202, an empty array) into installing, the server stopped; at once with installReads 0", async () => {
    panel.setPowerState(samp.id, "running");
    const answer = await client("POST", "/settings/reinstall");
    expect(answer.status).toBe(202);
    expect(answer.json).toEqual([]);
    expect(samp.status).toBe("installing");
    expect(panel.powerState(samp.id)).toBe("offline");
    await panel.close();
    await start({ installReads: 0 });
    expect((await client("POST", "/settings/reinstall")).status).toBe(202);
    expect(samp.status).toBeNull();
  });
});

describe("startup variables", () => {
  it("lists only the variables its user may see, with the startup in meta", async () => {
    const egg = panel.addEgg({
      nestId: 2,
      name: "Hidden",
      dockerImages: { x: "ghcr.io/example/x" },
      startup: "./run --port {{SERVER_PORT}} --token {{TOKEN}} --name {{NAME}}",
      variables: [
        {
          name: "Token",
          envVariable: "TOKEN",
          defaultValue: "t",
          rules: "required|string",
          userViewable: false,
        },
        { name: "Name", envVariable: "NAME", defaultValue: "n", rules: "nullable|string|max:8" },
      ],
    });
    const free = panel.allocations.find((a) => a.nodeId === 1 && a.serverId === null)!;
    const hidden = panel.addServer({
      userId: 1,
      eggId: egg.id,
      allocationId: free.id,
      environment: { TOKEN: "s3cret", NAME: "box" },
    });
    const path = `/client/servers/${hidden.identifier}`;
    const list = await call("GET", `${path}/startup`);
    expect(list.json).toEqual({
      object: "list",
      data: [
        {
          object: "egg_variable",
          attributes: {
            name: "Name",
            description: "",
            env_variable: "NAME",
            default_value: "n",
            server_value: "box",
            is_editable: true,
            rules: "nullable|string|max:8",
          },
        },
      ],
      meta: {
        startup_command: `./run --port ${free.port} --token [hidden] --name box`,
        docker_images: { x: "ghcr.io/example/x" },
        raw_startup_command: "./run --port {{SERVER_PORT}} --token {{TOKEN}} --name {{NAME}}",
      },
    });
    expect(
      (await call("PUT", `${path}/startup/variable`, { key: "TOKEN", value: "x" })).json,
    ).toEqual({
      errors: [
        {
          code: "BadRequestHttpException",
          status: "400",
          detail: "The environment variable you are trying to edit does not exist.",
        },
      ],
    });
    // Trimmed, and empty is null (stored as ""), which `nullable` lets through.
    const emptied = await call("PUT", `${path}/startup/variable`, { key: "NAME", value: "  " });
    expect(emptied.json!.attributes.server_value).toBeNull();
    expect(emptied.json!.meta.startup_command).toBe(
      `./run --port ${free.port} --token [hidden] --name `,
    );
    expect(hidden.environment.NAME).toBe("");
    const set = await call("PUT", `${path}/startup/variable`, { key: "NAME", value: " arena " });
    expect(set.json!.attributes.server_value).toBe("arena");
  });

  it("asks for the key and for the value to be present", async () => {
    const answer = await client("PUT", "/startup/variable", {});
    expect(answer.json!.errors.map((e: Json) => [e.detail, e.meta.rule])).toEqual([
      ["The key field is required.", "required"],
      ["The value field must be present.", "present"],
    ]);
  });
});

describe("failures", () => {
  it("takes failNext and failEvery aimed at a Client API route", async () => {
    panel.failNext("500", 1, { route: "GET /client/servers/{server}/resources" });
    expect((await client("GET", "")).status).toBe(200);
    expect((await client("GET", "/resources")).status).toBe(500);
    panel.failEvery(2, "429", { route: "POST /client/servers/{server}/power" });
    expect((await client("POST", "/power", { signal: "start" })).status).toBe(204);
    const limited = await client("POST", "/power", { signal: "kill" });
    expect(limited.status).toBe(429);
    expect(limited.headers.get("x-ratelimit-limit")).toBe("720");
    expect(panel.requestCount("POST /client/servers/{server}/power")).toBe(2);
    // Refused before Wings had it: still starting.
    expect(await state()).toBe("starting");
  });

  it("counts the Client API's requests a minute per key's user; the Application API's do not count", async () => {
    let now = 1_700_000_010_500;
    await panel.close();
    await start({ now: () => now });
    panel.setClientRateLimit(3);
    expect((await client("GET", "")).headers.get("x-ratelimit-remaining")).toBe("2");
    expect((await call("GET", "/application/nodes")).status).toBe(200);
    await client("GET", "/resources");
    // A wrong key is refused before the limit, and not counted.
    expect(
      (await call("GET", "/client/servers/x", undefined, { authorization: "Bearer no" })).status,
    ).toBe(401);
    expect((await client("GET", "/startup")).headers.get("x-ratelimit-remaining")).toBe("0");
    const limited = await client("GET", "");
    expect(limited.status).toBe(429);
    expect(limited.json!.errors[0]).toEqual({
      code: "ThrottleRequestsException",
      status: "429",
      detail: "Too Many Attempts.",
    });
    expect(limited.headers.get("retry-after")).toBe("60");
    expect(limited.headers.get("x-ratelimit-reset")).toBe("1700000070");
    now += 59_499;
    expect((await client("GET", "")).headers.get("retry-after")).toBe("1");
    now += 1;
    expect((await client("GET", "")).status).toBe(200);
    expect(() => panel.setClientRateLimit(0)).toThrow(/rate limit/);
  });

  it("answers the node's outage for Wings' calls only, and refuses an outage that is not a 5xx", async () => {
    panel.setNodeDown(samp.nodeId, true);
    const other = panel.servers.find((server) => server.name === "Big SA-MP")!;
    expect((await call("GET", `/client/servers/${other.identifier}/resources`)).status).toBe(200);
    expect((await client("GET", "/resources")).json).toEqual({
      errors: [
        {
          code: "DaemonConnectionException",
          status: "504",
          detail:
            "Could not establish a connection to the machine running this server. Please try again.",
        },
      ],
    });
    expect(
      (await client("PUT", "/startup/variable", { key: "VERSION", value: "0.3.8" })).status,
    ).toBe(200);
    expect(() => panel.setNodeDown(samp.nodeId, true, { proxyStatus: 404 })).toThrow(/5xx/);
    expect(() => panel.setNodeDown(99, true)).toThrow(/no node 99/);
  });
});

describe("a user's password (Application API)", () => {
  const user = (password: unknown) => ({
    email: "admin@panel.example.test",
    username: "admin",
    first_name: "Panel",
    last_name: "Admin",
    ...(password === undefined ? {} : { password }),
  });

  it("sets it untrimmed, keeps it when empty or absent, and refuses one that is not a string", async () => {
    expect(panel.userPassword(1)).toBeNull();
    expect((await call("PATCH", "/application/users/1", user("  pass word  "))).status).toBe(200);
    expect(panel.userPassword(1)).toBe("  pass word  ");
    await call("PATCH", "/application/users/1", user(""));
    await call("PATCH", "/application/users/1", user(undefined));
    expect(panel.userPassword(1)).toBe("  pass word  ");
    expect(
      (await call("PATCH", "/application/users/1", user(12345678))).json!.errors[0].meta,
    ).toEqual({
      source_field: "password",
      rule: "string",
    });
    expect(panel.userPassword(1)).toBe("  pass word  ");
    const created = await call("POST", "/application/users", {
      ...user("first"),
      email: "new@example.com",
      username: "newcomer",
    });
    expect(panel.userPassword(created.json!.attributes.id as number)).toBe("first");
    expect(() => panel.userPassword(99)).toThrow(/no user 99/);
  });
});
