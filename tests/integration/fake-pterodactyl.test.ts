import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { startFakePanel, type FakePanel } from "../support/fake-pterodactyl";

// The fake panel's contract, spoken to in raw HTTP: what pterodactyl/panel answers, as its source says
// (the handlers in tests/support/fake-pterodactyl/routes.ts name the controller each follows).

let panel: FakePanel;

// An answer's JSON, read loosely: what it must hold is said by each assertion.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Json = Record<string, any>;

beforeEach(async () => {
  panel = await startFakePanel();
});

afterEach(async () => {
  await panel.close();
});

async function api(
  method: string,
  path: string,
  body?: unknown,
  headers: Record<string, string> = {},
) {
  const response = await fetch(`${panel.url}/api/application${path}`, {
    method,
    headers: {
      authorization: `Bearer ${panel.apiKey}`,
      accept: "application/json",
      ...(body === undefined ? {} : { "content-type": "application/json" }),
      ...headers,
    },
    body: body === undefined ? undefined : typeof body === "string" ? body : JSON.stringify(body),
    redirect: "manual",
  });
  const text = await response.text();
  return {
    status: response.status,
    headers: response.headers,
    text,
    json: text ? (JSON.parse(text) as Json) : null,
  };
}

const validation = (field: string, rule: string, detail: string) => ({
  code: "ValidationException",
  status: "422",
  detail,
  meta: { source_field: field, rule },
});

const NOT_FOUND = {
  errors: [
    {
      code: "NotFoundHttpException",
      status: "404",
      detail: "The requested resource could not be found on the server.",
    },
  ],
};

const allocationId = (nodeId: number, ip: string, port: number) =>
  panel.allocations.find((a) => a.nodeId === nodeId && a.ip === ip && a.port === port)!.id;

function newUser(n: number) {
  return {
    external_id: `hf-user-${n}`,
    email: `player${n}@example.com`,
    username: `hf-user-${n}`,
    first_name: "Amina",
    last_name: "Haddad",
  };
}

async function createUser(n = 1): Promise<number> {
  const created = await api("POST", "/users", newUser(n));
  expect(created.status).toBe(201);
  return created.json!.attributes.id as number;
}

function newServer(userId: number, overrides: Record<string, unknown> = {}) {
  return {
    external_id: "hf-svc-1",
    name: "SA-MP for Amina",
    user: userId,
    egg: 2,
    docker_image: "ghcr.io/parkervcp/games:samp",
    startup: "./samp03svr",
    environment: { VERSION: "0.3.7", RCON_PASS: "s3cret", MAX_PLAYERS: "50" },
    limits: { memory: 1024, swap: 0, disk: 5120, io: 500, cpu: 100 },
    feature_limits: { databases: 0, allocations: 1, backups: 1 },
    allocation: { default: allocationId(1, "10.0.1.10", 7777), additional: [] },
    ...overrides,
  };
}

async function createServer(overrides: Record<string, unknown> = {}) {
  const created = await api("POST", "/servers", newServer(await createUser(), overrides));
  expect(created.status).toBe(201);
  return created.json!.attributes as Json;
}

describe("the fake panel's seed", () => {
  it("has the four locations, two nodes in Germany, the eggs and the hand-made servers", () => {
    expect(panel.locations.map((l) => l.short)).toEqual(["de", "us", "uk", "fr"]);
    expect(panel.nodes.filter((n) => n.locationId === 1)).toHaveLength(2);
    expect(panel.eggs.map((e) => e.name)).toEqual([
      "Vanilla Minecraft",
      "SA-MP",
      "Multi Theft Auto",
      "OpenMP",
    ]);
    expect(panel.servers.map((s) => [s.name, s.nodeId, s.externalId, s.status])).toEqual([
      ["Hand-made MTA", 2, null, null],
      ["Hand-made SA-MP", 2, null, null],
      ["Big SA-MP", 5, null, null],
    ]);
    expect(panel.allocationsOf(1).map((a) => a.port)).toEqual([22003, 22006, 22126]);
    expect(panel.apiKey).toMatch(/^ptla_/);
  });
});

describe("authentication and routing", () => {
  it("refuses a request without the key with the panel's 401", async () => {
    const answer = await api("GET", "/nodes", undefined, { authorization: "Bearer ptla_nope" });
    expect(answer.status).toBe(401);
    expect(answer.json).toEqual({
      errors: [{ code: "AuthenticationException", status: "401", detail: "Unauthenticated." }],
    });
    // Without Accept: application/json, Laravel answers as to a browser: to the login page.
    const browser = await api("GET", "/nodes", undefined, {
      authorization: "",
      accept: "text/html",
    });
    expect(browser.status).toBe(302);
    expect(browser.headers.get("location")).toBe(`${panel.url}/auth/login`);
  });

  it("answers an unknown route 404, a wrong method 405 and malformed JSON 400", async () => {
    expect((await api("GET", "/eggs")).json).toEqual({
      errors: [
        {
          code: "NotFoundHttpException",
          status: "404",
          detail: "The route api/application/eggs could not be found.",
        },
      ],
    });
    const wrongMethod = await api("PUT", "/servers");
    expect(wrongMethod.status).toBe(405);
    expect(wrongMethod.json!.errors[0].code).toBe("MethodNotAllowedHttpException");
    const malformed = await api("POST", "/users", "{nope");
    expect(malformed.status).toBe(400);
    expect(malformed.json!.errors[0]).toMatchObject({
      code: "BadRequestHttpException",
      status: "400",
    });
    expect(malformed.json!.errors[0].detail).toMatch(
      /^The JSON data passed in the request appears/,
    );
  });
});

describe("lists", () => {
  it("paginates with meta.pagination; the links carry only the page", async () => {
    const first = await api("GET", "/nodes/1/allocations?per_page=100");
    expect(first.json!.object).toBe("list");
    expect(first.json!.data).toHaveLength(100);
    expect(first.json!.data[0]).toEqual({
      object: "allocation",
      attributes: {
        id: 1,
        ip: "10.0.1.10",
        alias: null,
        port: 7777,
        notes: null,
        assigned: false,
      },
    });
    expect(first.json!.meta.pagination).toEqual({
      total: 164,
      count: 100,
      per_page: 100,
      current_page: 1,
      total_pages: 2,
      links: { next: `${panel.url}/api/application/nodes/1/allocations?page=2` },
    });
    const second = await api("GET", "/nodes/1/allocations?per_page=100&page=2");
    expect(second.json!.meta.pagination).toMatchObject({
      count: 64,
      current_page: 2,
      links: { previous: `${panel.url}/api/application/nodes/1/allocations?page=1` },
    });
    const defaults = await api("GET", "/nodes/1/allocations");
    expect(defaults.json!.meta.pagination).toMatchObject({ per_page: 50, total_pages: 4 });
    const single = await api("GET", "/locations");
    expect(single.json!.meta.pagination).toMatchObject({ total: 4, total_pages: 1, links: [] });
  });

  it("filters allocations as the panel does: exact ip and port, server_id, free ones", async () => {
    const onIp = await api("GET", "/nodes/1/allocations?filter[ip]=10.0.1.11&per_page=100");
    expect(onIp.json!.meta.pagination.total).toBe(12);
    const port = await api("GET", "/nodes/2/allocations?filter[port]=22003");
    expect(port.json!.data.map((d: { attributes: unknown }) => d.attributes)).toMatchObject([
      { port: 22003, assigned: true, alias: "de2.play.example.test" },
    ]);
    const free = await api("GET", "/nodes/2/allocations?filter[server_id]=0&per_page=100");
    expect(free.json!.meta.pagination.total).toBe(25 - 4);
  });

  it("gives users filtered by a partial email, and refuses an unknown filter", async () => {
    panel.addUser({ email: "amina@example.com", username: "amina" });
    panel.addUser({ email: "xamina@example.com", username: "xamina" });
    const found = await api("GET", "/users?filter[email]=AMINA@example");
    expect(
      found.json!.data.map((d: { attributes: { email: string } }) => d.attributes.email),
    ).toEqual(["amina@example.com", "xamina@example.com"]);
    const refused = await api("GET", "/users?filter[password]=x");
    expect(refused.status).toBe(400);
    expect(refused.json!.errors[0]).toEqual({
      code: "InvalidFilterQuery",
      status: "400",
      detail:
        "Requested filter(s) `password` are not allowed. Allowed filter(s) are `email, uuid, username, external_id`.",
    });
  });

  it("gives a nest's eggs unpaginated, with their variables when asked, and no egg of another nest", async () => {
    const plain = await api("GET", "/nests/2/eggs");
    expect(plain.json!.meta).toBeUndefined();
    expect(plain.json!.data[0].attributes.relationships).toBeUndefined();
    const mta = await api("GET", "/nests/2/eggs/3?include=variables");
    expect(mta.json!.attributes).toMatchObject({
      id: 3,
      nest: 2,
      docker_image: "ghcr.io/parkervcp/games:mta",
      startup: "./mta-server64 --port {{SERVER_PORT}} --httpport {{SERVER_WEBPORT}} -n",
    });
    expect(mta.json!.attributes.relationships.variables.data).toMatchObject([
      {
        object: "egg_variable",
        attributes: {
          env_variable: "SERVER_WEBPORT",
          default_value: "22005",
          rules: "required|numeric",
          user_editable: false,
        },
      },
    ]);
    expect((await api("GET", "/nests/1/eggs/3")).json).toEqual(NOT_FOUND);
  });

  it("shows on each node what its servers take", async () => {
    const node = await api("GET", "/nodes/5");
    expect(node.json!.attributes).toMatchObject({
      name: "fr-gra-1",
      location_id: 4,
      memory: 8192,
      memory_overallocate: 0,
      maintenance_mode: false,
      allocated_resources: { memory: 6144, disk: 20_480 },
    });
  });
});

describe("users", () => {
  it("refuses an empty user with one 422 entry per failed rule", async () => {
    const answer = await api("POST", "/users", {});
    expect(answer.status).toBe(422);
    expect(answer.json!.errors).toEqual([
      validation("email", "required", "The email field is required."),
      validation("username", "required", "The username field is required."),
      validation("first_name", "required", "The first name field is required."),
      validation("last_name", "required", "The last name field is required."),
    ]);
  });

  it("checks the email, the username's form, and that email, username and external id are free", async () => {
    await createUser(1);
    const answer = await api("POST", "/users", {
      external_id: "HF-USER-1",
      email: "not an email",
      username: "-bad-",
      first_name: "   ",
      last_name: "Haddad",
    });
    expect(answer.json!.errors).toEqual([
      validation("email", "email", "The email must be a valid email address."),
      validation("external_id", "unique", "The Third Party Identifier has already been taken."),
      validation(
        "username",
        "p_username",
        "The username must start and end with alpha-numeric characters and\n                contain only letters, numbers, dashes, underscores, and periods.",
      ),
      // TrimStrings and ConvertEmptyStringsToNull: blanks are no value.
      validation("first_name", "required", "The first name field is required."),
    ]);
    const taken = await api("POST", "/users", {
      ...newUser(2),
      email: "PLAYER1@example.com",
      username: "HF-User-1",
    });
    expect(taken.json!.errors).toEqual([
      validation("email", "unique", "The email has already been taken."),
      validation("username", "unique", "The username has already been taken."),
    ]);
  });

  it("creates a user (201, lower-case username, meta.resource), finds it by external id, updates it", async () => {
    const created = await api("POST", "/users", { ...newUser(1), username: "HF-User-1" });
    expect(created.status).toBe(201);
    expect(created.json).toMatchObject({
      object: "user",
      attributes: {
        external_id: "hf-user-1",
        username: "hf-user-1",
        email: "player1@example.com",
        first_name: "Amina",
        last_name: "Haddad",
        root_admin: false,
        "2fa": false,
      },
      meta: { resource: `${panel.url}/api/application/users/${created.json!.attributes.id}` },
    });
    expect((await api("GET", "/users/external/hf-user-1")).json!.attributes.id).toBe(
      created.json!.attributes.id,
    );
    expect(await api("GET", "/users/external/hf-user-2")).toMatchObject({
      status: 404,
      json: NOT_FOUND,
    });
    const id = created.json!.attributes.id as number;
    // Its own email is not "taken"; another user's is.
    const kept = await api("PATCH", `/users/${id}`, { ...newUser(1), last_name: "Benali" });
    expect(kept.json!.attributes.last_name).toBe("Benali");
    const clash = await api("PATCH", `/users/${id}`, {
      ...newUser(1),
      email: "admin@panel.example.test",
    });
    expect(clash.json!.errors).toEqual([
      validation("email", "unique", "The email has already been taken."),
    ]);
  });

  it("refuses to delete a user who still owns servers (DisplayException, 400)", async () => {
    const answer = await api("DELETE", "/users/1");
    expect(answer.status).toBe(400);
    expect(answer.json).toEqual({
      errors: [
        {
          code: "DisplayException",
          status: "400",
          detail:
            "Cannot delete a user with active servers attached to their account. Please delete their servers before continuing.",
        },
      ],
    });
    const id = await createUser();
    expect(await api("DELETE", `/users/${id}`)).toMatchObject({ status: 204, text: "" });
    expect(await api("GET", `/users/${id}`)).toMatchObject({ status: 404 });
  });
});

describe("creating a server", () => {
  it("refuses an empty request with the StoreServerRequest rules", async () => {
    const answer = await api("POST", "/servers", {});
    expect(answer.status).toBe(422);
    expect(answer.json!.errors.map((e: { meta: unknown }) => e.meta)).toEqual([
      { source_field: "name", rule: "required" },
      { source_field: "user", rule: "required" },
      { source_field: "egg", rule: "required" },
      { source_field: "docker_image", rule: "required" },
      { source_field: "startup", rule: "required" },
      { source_field: "environment", rule: "present" },
      { source_field: "limits", rule: "required" },
      { source_field: "limits.memory", rule: "required" },
      { source_field: "limits.swap", rule: "required" },
      { source_field: "limits.disk", rule: "required" },
      { source_field: "limits.io", rule: "required" },
      { source_field: "limits.cpu", rule: "required" },
      { source_field: "feature_limits", rule: "required" },
      { source_field: "feature_limits.databases", rule: "present" },
      { source_field: "feature_limits.backups", rule: "present" },
      { source_field: "allocation.default", rule: "required" },
    ]);
    expect(answer.json!.errors[0].detail).toBe("The name field is required.");
  });

  it("refuses limits out of range, a missing user or egg", async () => {
    const answer = await api(
      "POST",
      "/servers",
      newServer(999, {
        egg: 99,
        limits: { memory: -1, swap: -2, disk: 0, io: 5, cpu: "lots" },
      }),
    );
    expect(answer.json!.errors).toEqual([
      validation("user", "exists", "The selected user is invalid."),
      validation("egg", "exists", "The selected egg is invalid."),
      validation("limits.memory", "min", "The limits.memory must be at least 0."),
      validation("limits.swap", "min", "The limits.swap must be at least -1."),
      validation("limits.io", "between", "The limits.io must be between 10 and 1000."),
      validation("limits.cpu", "numeric", "The limits.cpu must be a number."),
    ]);
  });

  it("takes only free allocations, additional ones on the same node", async () => {
    const userId = await createUser();
    const taken = allocationId(2, "10.0.2.10", 22003);
    const answer = await api(
      "POST",
      "/servers",
      newServer(userId, {
        allocation: {
          default: taken,
          additional: [allocationId(1, "10.0.1.10", 7778), taken],
        },
      }),
    );
    expect(answer.json!.errors).toEqual([
      validation("allocation.default", "exists", "The selected allocation.default is invalid."),
      validation(
        "allocation.additional.1",
        "exists",
        "The selected allocation.additional.1 is invalid.",
      ),
    ]);
    const otherNode = await api(
      "POST",
      "/servers",
      newServer(userId, {
        allocation: {
          default: allocationId(1, "10.0.1.10", 7777),
          additional: [allocationId(3, "10.0.3.10", 7777)],
        },
      }),
    );
    expect(otherNode.json!.errors).toEqual([
      validation(
        "allocation.additional.0",
        "fake_same_node",
        "The allocation.additional.0 is not on the node of allocation.default.",
      ),
    ]);
    expect(panel.servers).toHaveLength(3);
  });

  it("checks the environment against the egg's variables and their rules", async () => {
    const userId = await createUser();
    const answer = await api(
      "POST",
      "/servers",
      newServer(userId, { environment: { VERSION: "0.3.7", RCON_PASS: " ", MAX_PLAYERS: "50.5" } }),
    );
    expect(answer.json!.errors).toEqual([
      validation(
        "environment.RCON_PASS",
        "required",
        "The Rcon password variable field is required.",
      ),
      validation(
        "environment.MAX_PLAYERS",
        "integer",
        "The Max players variable must be an integer.",
      ),
    ]);
  });

  it("creates it installing on the default allocation's node, with every allocation taken", async () => {
    const mta = await createServer({
      egg: 3,
      docker_image: "ghcr.io/parkervcp/games:mta",
      startup: "./mta-server64 --port {{SERVER_PORT}} --httpport {{SERVER_WEBPORT}} -n",
      environment: { SERVER_WEBPORT: "22008" },
      allocation: {
        default: allocationId(1, "10.0.1.10", 22003),
        additional: [allocationId(1, "10.0.1.10", 22126), allocationId(1, "10.0.1.10", 22008)],
      },
    });
    expect(mta).toMatchObject({
      external_id: "hf-svc-1",
      status: "installing",
      suspended: false,
      node: 1,
      nest: 2,
      egg: 3,
      allocation: allocationId(1, "10.0.1.10", 22003),
      limits: { memory: 1024, swap: 0, disk: 5120, io: 500, cpu: 100, threads: null },
      feature_limits: { databases: 0, allocations: 1, backups: 1 },
      container: {
        image: "ghcr.io/parkervcp/games:mta",
        installed: 0,
        environment: { SERVER_WEBPORT: "22008", P_SERVER_LOCATION: "de" },
      },
    });
    expect(mta.identifier).toBe(mta.uuid.slice(0, 8));
    expect(panel.serverByExternalId("HF-SVC-1")).toMatchObject({
      id: mta.id,
      userId: mta.user,
      environment: { SERVER_WEBPORT: "22008" },
      status: "installing",
      suspended: false,
    });
    expect(panel.allocationsOf(mta.id).map((a) => a.port)).toEqual([22003, 22008, 22126]);
    expect((await api("GET", "/nodes/1")).json!.attributes.allocated_resources).toEqual({
      memory: 1024,
      disk: 5120,
    });
  });

  it("keeps external ids unique (compared without case)", async () => {
    await createServer();
    const again = await api(
      "POST",
      "/servers",
      newServer(1, {
        external_id: "HF-SVC-1",
        allocation: { default: allocationId(1, "10.0.1.10", 7778), additional: [] },
      }),
    );
    expect(again.json!.errors).toEqual([
      validation("external_id", "unique", "The external id has already been taken."),
    ]);
    expect((await api("GET", "/servers/external/hf-svc-1")).status).toBe(200);
  });

  it("gives a server's own allocations when asked (include=allocations), on every read of it", async () => {
    const first = await createServer();
    await api(
      "POST",
      "/servers",
      newServer(1, {
        external_id: "hf-svc-2",
        allocation: { default: allocationId(1, "10.0.1.10", 7778), additional: [] },
      }),
    );
    expect(
      (await api("GET", `/servers/${first.id}`)).json!.attributes.relationships,
    ).toBeUndefined();
    /** The allocations under a server's relationships, as [object, port, assigned]. */
    const ports = (attributes: Json) => {
      expect(attributes.relationships.allocations.object).toBe("list");
      return (attributes.relationships.allocations.data as Json[]).map((item) => [
        item.object,
        item.attributes.port,
        item.attributes.assigned,
      ]);
    };
    const own = [["allocation", 7777, true]];
    const read = async (path: string) => (await api("GET", path)).json!.attributes as Json;
    expect(ports(await read(`/servers/${first.id}?include=allocations`))).toEqual(own);
    expect(ports(await read("/servers/external/hf-svc-1?include=allocations"))).toEqual(own);
    const listed = (await api("GET", "/servers?include=allocations&per_page=100")).json!
      .data as Json[];
    const second = listed.find((item) => item.attributes.external_id === "hf-svc-2")!;
    expect(ports(second.attributes)).toEqual([["allocation", 7778, true]]);
  });
});

describe("a server's install status", () => {
  it("says installing for installReads single reads, then null; lists do not count", async () => {
    await panel.close();
    panel = await startFakePanel({ installReads: 3 });
    const server = await createServer();
    for (let read = 0; read < 3; read++) {
      expect((await api("GET", "/servers?per_page=100")).json!.data.at(-1).attributes.status).toBe(
        "installing",
      );
      expect((await api("GET", `/servers/${server.id}`)).json!.attributes.status).toBe(
        "installing",
      );
    }
    const done = await api("GET", "/servers/external/hf-svc-1");
    expect(done.json!.attributes).toMatchObject({ status: null, container: { installed: 1 } });
  });

  it("ends as the test says with finishInstall; reinstall_failed after a reinstall", async () => {
    await panel.close();
    panel = await startFakePanel({ installReads: Infinity });
    const server = await createServer();
    expect((await api("GET", `/servers/${server.id}`)).json!.attributes.status).toBe("installing");
    panel.finishInstall(server.id, "install_failed");
    expect((await api("GET", `/servers/${server.id}`)).json!.attributes).toMatchObject({
      status: "install_failed",
      container: { installed: 0 },
    });
    expect(() => panel.finishInstall(server.id, "ok")).toThrow(/not installing/);
    expect((await api("POST", `/servers/${server.id}/reinstall`)).status).toBe(204);
    panel.finishInstall(server.id, "install_failed");
    expect(panel.servers.at(-1)!.status).toBe("reinstall_failed");
  });

  it("leaves a server suspended during its install suspended, and suspends only once", async () => {
    await panel.close();
    panel = await startFakePanel({ installReads: Infinity });
    const server = await createServer();
    expect(await api("POST", `/servers/${server.id}/suspend`)).toMatchObject({
      status: 204,
      text: "",
    });
    expect((await api("POST", `/servers/${server.id}/suspend`)).status).toBe(204);
    panel.finishInstall(server.id, "ok");
    expect((await api("GET", `/servers/${server.id}`)).json!.attributes).toMatchObject({
      status: "suspended",
      suspended: true,
    });
    expect(panel.servers.at(-1)!.suspended).toBe(true);
    expect((await api("POST", `/servers/${server.id}/unsuspend`)).status).toBe(204);
    expect((await api("GET", `/servers/${server.id}`)).json!.attributes.status).toBeNull();
    expect(await api("POST", "/servers/999/suspend")).toMatchObject({
      status: 404,
      json: NOT_FOUND,
    });
  });
});

describe("changing and deleting a server", () => {
  it("changes the build: only free allocations of the server's node are added", async () => {
    const server = await createServer();
    const answer = await api("PATCH", `/servers/${server.id}/build`, {
      allocation: server.allocation,
      limits: { memory: 2048, swap: 0, disk: 8192, io: 500, cpu: 150 },
      feature_limits: { databases: 2, allocations: 3, backups: null },
      add_allocations: [
        allocationId(1, "10.0.1.10", 7779),
        allocationId(3, "10.0.3.10", 7779),
        allocationId(2, "10.0.2.10", 22003),
      ],
    });
    expect(answer.status).toBe(200);
    expect(answer.json!.attributes).toMatchObject({
      limits: { memory: 2048, disk: 8192, cpu: 150 },
      feature_limits: { databases: 2, allocations: 3, backups: 0 },
    });
    expect(panel.allocationsOf(server.id).map((a) => a.port)).toEqual([7777, 7779]);
  });

  it("refuses to drop the default allocation without another, or a default the server lacks", async () => {
    const server = await createServer();
    const build = {
      limits: { memory: 1024, swap: 0, disk: 5120, io: 500, cpu: 100 },
      feature_limits: { databases: 0, allocations: 1, backups: 1 },
    };
    const dropped = await api("PATCH", `/servers/${server.id}/build`, {
      ...build,
      allocation: server.allocation,
      remove_allocations: [server.allocation],
    });
    expect(dropped.status).toBe(400);
    expect(dropped.json!.errors[0].detail).toBe(
      "You are attempting to delete the default allocation for this server but there is no fallback allocation to use.",
    );
    const foreign = await api("PATCH", `/servers/${server.id}/build`, {
      ...build,
      allocation: allocationId(1, "10.0.1.10", 7790),
    });
    expect(foreign.json!.errors[0]).toMatchObject({
      code: "DisplayException",
      detail: "The requested default allocation is not currently assigned to this server.",
    });
    const noLimits = await api("PATCH", `/servers/${server.id}/build`, {
      allocation: server.allocation,
      feature_limits: build.feature_limits,
    });
    expect(noLimits.json!.errors[0]).toEqual(
      validation(
        "memory",
        "required_without",
        "The memory field is required when limits is not present.",
      ),
    );
  });

  it("changes the build: 404 for a server that is not there, whatever the body", async () => {
    expect(await api("PATCH", "/servers/999/build", {})).toMatchObject({
      status: 404,
      json: NOT_FOUND,
    });
  });

  it("refuses a build the request's rules refuse, each failure a 422 naming its field and rule", async () => {
    const server = await createServer();
    const build = {
      allocation: server.allocation,
      limits: { memory: 2048, swap: 0, disk: 8192, io: 500, cpu: 150 },
      feature_limits: { databases: 0, allocations: 1, backups: 1 },
    };
    const io = await api("PATCH", `/servers/${server.id}/build`, {
      ...build,
      limits: { ...build.limits, io: 5 },
    });
    expect(io.status).toBe(422);
    expect(io.json!.errors).toEqual([
      validation("limits.io", "between", "The limits.io must be between 10 and 1000."),
    ]);
    // The default allocation of another server (the seed's hand-made MTA one): unique per server.
    const taken = await api("PATCH", `/servers/${server.id}/build`, {
      ...build,
      allocation: panel.servers[0]!.allocationId,
    });
    expect(taken.json!.errors).toEqual([
      validation("allocation", "unique", "The allocation has already been taken."),
    ]);
    const noFeatures = await api("PATCH", `/servers/${server.id}/build`, {
      allocation: server.allocation,
      limits: build.limits,
    });
    // `present` is implicit: the limits inside an absent feature_limits fail it too.
    expect(noFeatures.json!.errors).toEqual([
      validation("feature_limits", "required", "The feature limits field is required."),
      validation(
        "feature_limits.databases",
        "present",
        "The Database Limit field must be present.",
      ),
      validation("feature_limits.backups", "present", "The Backup Limit field must be present."),
    ]);
    // Nothing refused changed anything.
    expect(panel.servers.at(-1)!.memory).toBe(1024);
  });

  it("keeps a server's allocations, reads the legacy top-level limits, and an absent allocation limit as none", async () => {
    const ports = [22003, 22126, 22004].map((port) => allocationId(1, "10.0.1.10", port));
    const server = await createServer({
      feature_limits: { databases: 0, allocations: 3, backups: 1 },
      allocation: { default: ports[0], additional: ports.slice(1) },
    });
    const legacy = await api("PATCH", `/servers/${server.id}/build`, {
      allocation: server.allocation,
      memory: 3072,
      swap: 0,
      disk: 10240,
      io: 500,
      cpu: 200,
      feature_limits: { databases: 1, backups: 2 },
    });
    expect(legacy.status).toBe(200);
    expect(legacy.json!.attributes).toMatchObject({
      limits: { memory: 3072, disk: 10240, cpu: 200 },
      feature_limits: { databases: 1, allocations: null, backups: 2 },
    });
    expect(panel.allocationsOf(server.id).map((a) => a.port)).toEqual([22003, 22004, 22126]);
  });

  it("changes the startup after checking the environment; skip_scripts must be present", async () => {
    const server = await createServer();
    const startup = {
      startup: "./samp03svr",
      environment: { VERSION: "0.3.7", RCON_PASS: "other", MAX_PLAYERS: "2000" },
      egg: 2,
      image: "ghcr.io/parkervcp/games:samp",
    };
    const missing = await api("PATCH", `/servers/${server.id}/startup`, startup);
    expect(missing.json!.errors).toEqual([
      validation("skip_scripts", "present", "The skip scripts field must be present."),
    ]);
    const tooMany = await api("PATCH", `/servers/${server.id}/startup`, {
      ...startup,
      skip_scripts: false,
    });
    expect(tooMany.json!.errors).toEqual([
      validation(
        "environment.MAX_PLAYERS",
        "between",
        "The Max players variable must be between 1 and 1000.",
      ),
    ]);
    const changed = await api("PATCH", `/servers/${server.id}/startup`, {
      ...startup,
      environment: { ...startup.environment, MAX_PLAYERS: "500" },
      skip_scripts: false,
    });
    expect(changed.json!.attributes.container.environment).toMatchObject({
      RCON_PASS: "other",
      MAX_PLAYERS: "500",
    });
  });

  it("deletes a server (force or not) and frees its allocations", async () => {
    const server = await createServer();
    expect((await api("DELETE", `/servers/${server.id}/force`)).status).toBe(204);
    expect(panel.allocations.find((a) => a.id === server.allocation)!.serverId).toBeNull();
    expect((await api("GET", "/servers/external/hf-svc-1")).json).toEqual(NOT_FOUND);
    expect((await api("DELETE", `/servers/1`)).status).toBe(204);
    expect((await api("DELETE", `/servers/1`)).status).toBe(404);
  });
});

describe("failures on demand", () => {
  it("500: nothing done; 429: nothing done, with Retry-After", async () => {
    panel.failNext("500");
    const failed = await api("POST", "/users", newUser(1));
    expect(failed).toMatchObject({ status: 500 });
    expect(failed.json!.errors[0]).toEqual({
      code: "QueryException",
      status: "500",
      detail:
        "An unexpected error was encountered while processing this request, please try again.",
    });
    panel.failNext("429", 1, { retryAfterSeconds: 12 });
    const limited = await api("POST", "/users", newUser(1));
    expect(limited.status).toBe(429);
    expect(limited.headers.get("retry-after")).toBe("12");
    expect(limited.json!.errors[0]).toEqual({
      code: "ThrottleRequestsException",
      status: "429",
      detail: "Too Many Attempts.",
    });
    expect(panel.userByExternalId("hf-user-1")).toBeUndefined();
    expect((await api("POST", "/users", newUser(1))).status).toBe(201);
  });

  it("slow: handled when let go, even when the caller gave up before", async () => {
    let letGo = () => {};
    panel.failNext("slow", 1, { until: new Promise<void>((resolve) => (letGo = resolve)) });
    let answered = false;
    const slow = api("GET", "/locations").finally(() => (answered = true));
    const received = () => panel.requests.find((r) => r.route === "GET /locations");
    await expect.poll(() => received()?.received).toBe(true);
    expect(received()!.status).toBeNull();
    expect(answered).toBe(false);
    letGo();
    expect((await slow).status).toBe(200);

    panel.failNext("slow", 1, { until: new Promise<void>((resolve) => (letGo = resolve)) });
    const caller = new AbortController();
    const abandoned = fetch(`${panel.url}/api/application/users`, {
      method: "POST",
      headers: {
        authorization: `Bearer ${panel.apiKey}`,
        accept: "application/json",
        "content-type": "application/json",
      },
      body: JSON.stringify(newUser(1)),
      signal: caller.signal,
    }).catch((e: unknown) => e);
    // The caller gives up once the panel has the whole request, before it is handled.
    await expect
      .poll(() => panel.requests.find((r) => r.route === "POST /users")?.received)
      .toBe(true);
    caller.abort();
    expect((await abandoned) as Error).toMatchObject({ name: "AbortError" });
    expect(panel.userByExternalId("hf-user-1")).toBeUndefined();
    letGo();
    await expect.poll(() => panel.userByExternalId("hf-user-1")).toBeDefined();
  });

  it("slow: handled after a delay, for a client's own timeout", async () => {
    panel.failNext("slow", 1, { delayMs: 50 });
    expect((await api("GET", "/locations")).status).toBe(200);
    expect(panel.requests.at(-1)).toMatchObject({ failure: "slow", status: 200 });
  });

  it("lost: the change is made, the answer never comes", async () => {
    const userId = await createUser();
    panel.failNext("lost", 1, { route: "POST /servers" });
    const lost = await api("POST", "/servers", newServer(userId)).catch((e: unknown) => e);
    expect(lost).toBeInstanceOf(TypeError);
    expect(panel.serverByExternalId("hf-svc-1")).toMatchObject({ status: "installing" });
    expect(panel.requests.at(-1)).toMatchObject({
      route: "POST /servers",
      failure: "lost",
      status: null,
    });
  });

  it("down: the connection is cut before anything is done", async () => {
    panel.failNext("down", 2);
    expect(await api("POST", "/users", newUser(1)).catch((e: unknown) => e)).toBeInstanceOf(
      TypeError,
    );
    expect(await api("GET", "/nodes").catch((e: unknown) => e)).toBeInstanceOf(TypeError);
    expect(panel.userByExternalId("hf-user-1")).toBeUndefined();
    expect(panel.requests.map((r) => [r.route, r.failure, r.status, r.body])).toEqual([
      ["POST /users", "down", null, undefined],
      ["GET /nodes", "down", null, undefined],
    ]);
    expect((await api("GET", "/nodes")).status).toBe(200);
  });

  it("aims failNext at a route, fails every n-th request in turn with each kind, and counts", async () => {
    panel.failNext("500", 1, { route: "GET /nests" });
    expect((await api("GET", "/nodes")).status).toBe(200);
    expect((await api("GET", "/nests")).status).toBe(500);
    expect((await api("GET", "/nests")).status).toBe(200);

    panel.failEvery(2, ["429", "500"]);
    const statuses = [];
    for (let i = 0; i < 6; i++) statuses.push((await api("GET", "/locations")).status);
    expect(statuses).toEqual([200, 429, 200, 500, 200, 429]);
    panel.clearFailures();
    expect((await api("GET", "/locations")).status).toBe(200);
    expect((await api("GET", "/locations")).status).toBe(200);

    expect(panel.requestCount("GET /locations")).toBe(8);
    expect(panel.requestCount("GET /nests")).toBe(2);
    expect(panel.requestCount()).toBe(11);
  });
});

describe("the answer delay", () => {
  it("answers each request after answerDelayMs, side by side, and handles it only then", async () => {
    const slowPanel = await startFakePanel({ answerDelayMs: 150 });
    try {
      const ask = (path: string, init: RequestInit = {}) =>
        fetch(`${slowPanel.url}/api/application${path}`, {
          ...init,
          headers: {
            authorization: `Bearer ${slowPanel.apiKey}`,
            accept: "application/json",
            "content-type": "application/json",
          },
        });
      const started = Date.now();
      const answers = await Promise.all(Array.from({ length: 5 }, () => ask("/locations")));
      const took = Date.now() - started;
      expect(answers.map((answer) => answer.status)).toEqual([200, 200, 200, 200, 200]);
      expect(took).toBeGreaterThanOrEqual(140);
      // Five waits of 150 ms one behind another would take 750.
      expect(took).toBeLessThan(700);

      const created = ask("/users", { method: "POST", body: JSON.stringify(newUser(1)) });
      await new Promise((resolve) => setTimeout(resolve, 50));
      expect(slowPanel.userByExternalId("hf-user-1")).toBeUndefined();
      expect((await created).status).toBe(201);
      expect(slowPanel.userByExternalId("hf-user-1")).toBeDefined();
    } finally {
      await slowPanel.close();
    }
  });

  it("draws each request's delay between min and max, and refuses a range that is none", async () => {
    const ranged = await startFakePanel({ answerDelayMs: { min: 60, max: 90 } });
    try {
      for (let i = 0; i < 3; i++) {
        const started = Date.now();
        const answer = await fetch(`${ranged.url}/api/application/nodes`, {
          headers: { authorization: `Bearer ${ranged.apiKey}`, accept: "application/json" },
        });
        expect(answer.status).toBe(200);
        expect(Date.now() - started).toBeGreaterThanOrEqual(55);
      }
    } finally {
      await ranged.close();
    }
    await expect(startFakePanel({ answerDelayMs: { min: 50, max: 10 } })).rejects.toThrow(
      /answerDelayMs/,
    );
    await expect(startFakePanel({ answerDelayMs: -1 })).rejects.toThrow(/answerDelayMs/);
  });
});
