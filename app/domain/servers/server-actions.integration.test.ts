import { afterEach, beforeEach, expect, it } from "vitest";
import { JOB_HANDLERS } from "~/domain/jobs/registry.server";
import type { Worker } from "~/domain/jobs/runner.server";
import { savePanelConnection } from "~/domain/provisioning/panel-connection.server";
import { PANEL_REINSTALL_JOB } from "~/domain/provisioning/panel-job-types";
import { provisioningHandlers } from "~/domain/provisioning/provisioning-jobs.server";
import { reinstallPanelServer } from "~/domain/provisioning/provisioning.server";
import { startFakePanel, type FakePanel } from "../../../tests/support/fake-pterodactyl";
import { adminId, customerWithRunningService } from "../../../tests/support/money-fixtures";
import { allowLocalPanel } from "../../../tests/support/panel-snapshot";
import { readRow, readRows } from "../../../tests/support/read-column";
import { steppedWorker } from "../../../tests/support/stepped-worker";
import { describeEachDatabase } from "../../../tests/support/test-database";
import { requestPanelPassword, requestServerAction } from "./server-actions.server";
import {
  SERVER_ACTION_LIMITS,
  SERVER_REFUSAL_LABELS,
  STATUS_CACHE_MS,
  type ServerVariable,
} from "./server-control";
import {
  SERVER_DETAILS_JOB,
  SERVER_PASSWORD_JOB,
  SERVER_POWER_JOB,
  SERVER_STATUS_JOB,
  SERVER_VARIABLE_JOB,
} from "./server-job-types";
import { serverControlHandlers } from "./server-jobs.server";
import { readServerStatus } from "./server-status.server";

// What a customer or an admin asks of a server (docs/server-control.md, "Actions"), against the fake
// panel over HTTP on loopback, the worker driven by hand with an injected clock.

const SECRET = "a-test-secret-of-at-least-thirty-two-characters";
const CONFIG = { leaseMs: 30_000, pollMs: 1_000, backoffMs: 50, concurrency: 4 };
const PANEL_CONFIG = {
  secret: SECRET,
  timeoutMs: 5_000,
  pollMs: 1_000,
  installTimeoutMs: 3_600_000,
};
/** The tests' clock: a fixed moment, moved a second a round. */
const START = new Date("2031-03-01T10:00:00.000Z");

/** The egg variables of a SA-MP server as the last details read found them. */
const VARIABLES: ServerVariable[] = [
  {
    env: "MAX_PLAYERS",
    name: "Max players",
    description: "How many may play at once",
    value: "50",
    defaultValue: "50",
    rules: "required|integer|between:1,1000",
    editable: true,
  },
  {
    env: "VERSION",
    name: "Version",
    description: "The server's version",
    value: "0.3.7",
    defaultValue: "0.3.7",
    rules: "required|string|max:32",
    editable: false,
  },
];

describeEachDatabase("what is asked of a server", (app) => {
  let panel: FakePanel;
  let clock: Date;
  let worker: Worker;
  let serial = 0;

  const handlers = () => ({
    ...JOB_HANDLERS,
    ...provisioningHandlers(PANEL_CONFIG),
    ...serverControlHandlers(PANEL_CONFIG),
  });

  /** Rounds of the worker, each a second of the clock later; only the panel's and servers' jobs. */
  async function runJobs(rounds = 6) {
    for (let round = 0; round < rounds; round++) {
      await app()
        .db.deleteFrom("jobs")
        .where("type", "not like", "servers.%")
        .where("type", "not like", "provisioning.%")
        .execute();
      clock = new Date(clock.getTime() + 1_000);
      await worker.tick();
      await worker.idle();
    }
  }

  /**
   * A customer's running SA-MP service with its server on the fake panel, ready, its panel user known,
   * and its last state read (`state`, the variables and SFTP access as the details read found them).
   */
  async function panelService(state = "running") {
    const { user, serviceId } = await customerWithRunningService(app(), 100_000);
    const owner = panel.addUser({ email: `player${++serial}@example.test` });
    const egg = panel.eggs.find((each) => each.name === "SA-MP")!;
    const allocation = panel.allocations.find((each) => each.serverId === null)!;
    const server = panel.addServer({
      userId: owner.id,
      eggId: egg.id,
      allocationId: allocation.id,
      environment: { VERSION: "0.3.7", RCON_PASS: "rcon-secret", MAX_PLAYERS: "50" },
    });
    const db = app().db;
    const at = clock.toISOString();
    await db
      .updateTable("hosting_services")
      .set({
        panel_state: "ready",
        panel_server_id: server.id,
        panel_identifier: server.identifier,
        panel_address: `${allocation.ip}:${allocation.port}`,
        panel_updated_at: at,
      })
      .where("id", "=", serviceId)
      .execute();
    await db
      .insertInto("panel_accounts")
      .values({ user_id: user, panel_user_id: owner.id, created_at: at })
      .execute();
    await db
      .insertInto("server_status")
      .values({
        hosting_service_id: serviceId,
        state,
        read_at: at,
        variables: JSON.stringify(VARIABLES),
        access: JSON.stringify({
          host: "sftp.example.test",
          port: 2022,
          username: `${owner.username}.${server.identifier}`,
        }),
        updated_at: at,
      })
      .execute();
    return { user, serviceId, server, owner };
  }

  const actionRows = (serviceId: number) =>
    readRows(
      app().db,
      "server_actions",
      ["id", "action", "detail", "state", "error", "actor_id", "job_id"],
      {
        hosting_service_id: serviceId,
      },
    );

  const auditOf = (serviceId: number) =>
    app()
      .db.selectFrom("audit_log")
      .select(["actor_id", "action", "after"])
      .where("target_type", "=", "hosting_service")
      .where("target_id", "=", String(serviceId))
      .where("action", "like", "service.server_%")
      .orderBy("id")
      .execute();

  const jobsOf = (type: string) =>
    app().db.selectFrom("jobs").selectAll().where("type", "=", type).orderBy("id").execute();

  const ask = (
    serviceId: number,
    actorId: string,
    request: Parameters<typeof requestServerAction>[1]["request"],
    asStaff = false,
  ) => requestServerAction(app().db, { serviceId, actorId, asStaff, request, now: clock });

  beforeEach(async () => {
    const db = app().db;
    clock = START;
    panel = await startFakePanel({ installReads: 1 });
    await db.deleteFrom("panel_connections").execute();
    await allowLocalPanel(app());
    const saved = await savePanelConnection(
      db,
      {
        url: panel.url,
        apiKey: panel.apiKey,
        clientKey: panel.clientApiKey,
        locationMap: {},
        actorId: await adminId(app()),
      },
      { secret: SECRET },
    );
    expect(saved.ok).toBe(true);
    worker = steppedWorker({ db, handlers: handlers(), config: CONFIG, now: () => clock });
  });

  afterEach(async () => {
    await worker.stop(1000);
    await panel.close();
    await app()
      .db.deleteFrom("jobs")
      .where((eb) => eb.or([eb("type", "like", "servers.%"), eb("type", "like", "provisioning.%")]))
      .execute();
  });

  it("queues a power signal: its row, its job and its audit entry, naming the actor", async () => {
    const { user, serviceId } = await panelService();
    const asked = await ask(serviceId, user, { kind: "power", signal: "restart" });
    expect(asked).toEqual({ ok: true, actionId: expect.any(Number) });
    const [job] = await jobsOf(SERVER_POWER_JOB);
    expect(JSON.parse(job!.payload)).toEqual({ serviceId, signal: "restart" });
    expect(await actionRows(serviceId)).toEqual([
      {
        id: asked.ok ? asked.actionId : 0,
        action: "restart",
        detail: null,
        state: "queued",
        error: null,
        actor_id: user,
        job_id: Number(job!.id),
      },
    ]);
    const [entry] = await auditOf(serviceId);
    expect(entry).toMatchObject({ actor_id: user, action: "service.server_power" });
    expect(JSON.parse(entry!.after!)).toEqual({
      signal: "restart",
      actionId: asked.ok ? asked.actionId : 0,
      asStaff: false,
    });
  });

  it("answers another customer's service as one not found, and lets staff act on any", async () => {
    const { serviceId } = await panelService();
    const other = await customerWithRunningService(app(), 100_000);
    for (const request of [
      { kind: "power", signal: "stop" },
      { kind: "reinstall" },
      { kind: "variable", env: "MAX_PLAYERS", value: "20" },
    ] as const)
      expect(await ask(serviceId, other.user, request)).toEqual({
        ok: false,
        kind: "notFound",
        error: "services.errors.notFound",
      });
    expect(
      await requestPanelPassword(app().db, {
        serviceId,
        actorId: other.user,
        asStaff: false,
        secret: SECRET,
        now: clock,
      }),
    ).toEqual({ ok: false, kind: "notFound", error: "services.errors.notFound" });
    expect(await actionRows(serviceId)).toEqual([]);
    expect(await jobsOf(SERVER_POWER_JOB)).toEqual([]);

    const admin = await adminId(app());
    const staff = await ask(serviceId, admin, { kind: "power", signal: "kill" }, true);
    expect(staff.ok).toBe(true);
    expect(await actionRows(serviceId)).toMatchObject([{ action: "kill", actor_id: admin }]);
    const [entry] = await auditOf(serviceId);
    expect(entry!.actor_id).toBe(admin);
    expect(JSON.parse(entry!.after!)).toMatchObject({ asStaff: true });
  });

  it("refuses a suspended service, an installing server and one not on the panel", async () => {
    const conflict = (refusal: keyof typeof SERVER_REFUSAL_LABELS) => ({
      ok: false,
      kind: "conflict",
      refusal,
      error: SERVER_REFUSAL_LABELS[refusal],
    });
    const power = { kind: "power", signal: "start" } as const;

    const suspended = await panelService();
    await app()
      .db.updateTable("hosting_services")
      .set({ status: "suspended" })
      .where("id", "=", suspended.serviceId)
      .execute();
    expect(await ask(suspended.serviceId, suspended.user, power)).toEqual(conflict("suspended"));
    expect(
      await requestPanelPassword(app().db, {
        serviceId: suspended.serviceId,
        actorId: suspended.user,
        asStaff: false,
        secret: SECRET,
        now: clock,
      }),
    ).toEqual(conflict("suspended"));
    // Staff are held to it too: the panel would refuse the server all the same.
    const admin = await adminId(app());
    expect(await ask(suspended.serviceId, admin, power, true)).toEqual(conflict("suspended"));

    // Suspended on the panel, as the last read found it.
    const panelSuspended = await panelService("suspended");
    expect(await ask(panelSuspended.serviceId, panelSuspended.user, power)).toEqual(
      conflict("suspended"),
    );

    const reinstalling = await panelService();
    await app()
      .db.updateTable("hosting_services")
      .set({ panel_state: "installing" })
      .where("id", "=", reinstalling.serviceId)
      .execute();
    expect(await ask(reinstalling.serviceId, reinstalling.user, { kind: "reinstall" })).toEqual(
      conflict("installing"),
    );

    // Installing as the panel's Client API said at the last read.
    const installing = await panelService("installing");
    expect(await ask(installing.serviceId, installing.user, power)).toEqual(conflict("installing"));

    const manual = await customerWithRunningService(app(), 100_000);
    expect(await ask(manual.serviceId, manual.user, power)).toEqual(conflict("notProvisioned"));

    for (const each of [suspended, panelSuspended, reinstalling, installing, manual])
      expect(await actionRows(each.serviceId)).toEqual([]);
    expect(await jobsOf(SERVER_POWER_JOB)).toEqual([]);
  });

  it("refuses a power signal and a variable without the root admin's client key", async () => {
    const { user, serviceId } = await panelService();
    await app()
      .db.updateTable("panel_connections")
      .set({ client_key_encrypted: null, client_key_last4: null })
      .execute();
    const noKey = {
      ok: false,
      kind: "conflict",
      refusal: "noClientKey",
      error: SERVER_REFUSAL_LABELS.noClientKey,
    };
    expect(await ask(serviceId, user, { kind: "power", signal: "start" })).toEqual(noKey);
    expect(
      await ask(serviceId, user, { kind: "variable", env: "MAX_PLAYERS", value: "9" }),
    ).toEqual(noKey);
    expect(await actionRows(serviceId)).toEqual([]);
  });

  it("counts each family's actions within its window, and refuses one over the limit", async () => {
    const { user, serviceId } = await panelService();
    const { count, windowMs } = SERVER_ACTION_LIMITS.power;
    const signals = ["start", "restart", "stop", "kill"] as const;
    for (let index = 0; index < count; index++) {
      const asked = await ask(serviceId, user, { kind: "power", signal: signals[index % 4]! });
      expect(asked.ok).toBe(true);
      clock = new Date(clock.getTime() + 1_000);
    }
    const tooMany = {
      ok: false,
      kind: "limited",
      refusal: "tooMany",
      error: SERVER_REFUSAL_LABELS.tooMany,
    };
    expect(await ask(serviceId, user, { kind: "power", signal: "start" })).toEqual(tooMany);
    // Another family has its own count.
    expect(
      (await ask(serviceId, user, { kind: "variable", env: "MAX_PLAYERS", value: "8" })).ok,
    ).toBe(true);
    // Once the first signal is out of the window, one more may be asked.
    clock = new Date(START.getTime() + windowMs - 1);
    expect(await ask(serviceId, user, { kind: "power", signal: "start" })).toEqual(tooMany);
    clock = new Date(START.getTime() + windowMs);
    expect((await ask(serviceId, user, { kind: "power", signal: "start" })).ok).toBe(true);
    expect(await ask(serviceId, user, { kind: "power", signal: "start" })).toEqual(tooMany);
    expect((await actionRows(serviceId)).filter((row) => row.action !== "variable")).toHaveLength(
      count + 1,
    );
  });

  it("takes only a variable the panel lets its user edit, with a value its rules take", async () => {
    const { user, serviceId } = await panelService();
    const notEditable = {
      ok: false,
      kind: "conflict",
      refusal: "notEditable",
      error: SERVER_REFUSAL_LABELS.notEditable,
    };
    // Read-only on the panel, and not among the server's variables at all.
    expect(
      await ask(serviceId, user, { kind: "variable", env: "VERSION", value: "0.3.DL" }),
    ).toEqual(notEditable);
    expect(await ask(serviceId, user, { kind: "variable", env: "RCON_PASS", value: "x" })).toEqual(
      notEditable,
    );
    expect(
      await ask(serviceId, user, { kind: "variable", env: "MAX_PLAYERS", value: "5000" }),
    ).toEqual({
      ok: false,
      kind: "invalid",
      fieldErrors: { value: "services.server.variableRule.betweenNumber" },
      fieldErrorValues: { value: { min: 1, max: 1000 } },
      error: "services.server.errors.variableRefused",
    });
    expect(
      await ask(serviceId, user, { kind: "variable", env: "MAX_PLAYERS", value: "" }),
    ).toMatchObject({
      kind: "invalid",
      fieldErrors: { value: "services.server.variableRule.required" },
    });
    expect(await actionRows(serviceId)).toEqual([]);
    expect(await jobsOf(SERVER_VARIABLE_JOB)).toEqual([]);

    // Before any details read, no variable is known to be editable.
    await app()
      .db.updateTable("server_status")
      .set({ variables: null })
      .where("hosting_service_id", "=", serviceId)
      .execute();
    expect(
      await ask(serviceId, user, { kind: "variable", env: "MAX_PLAYERS", value: "20" }),
    ).toEqual(notEditable);
  });

  it("queues a variable with its name audited and its value nowhere but the job's payload", async () => {
    const { user, serviceId } = await panelService();
    const asked = await ask(serviceId, user, {
      kind: "variable",
      env: "MAX_PLAYERS",
      value: " 77 ",
    });
    expect(asked.ok).toBe(true);
    expect(await actionRows(serviceId)).toMatchObject([
      { action: "variable", detail: "MAX_PLAYERS", state: "queued" },
    ]);
    const [entry] = await auditOf(serviceId);
    expect(entry!.action).toBe("service.server_variable");
    expect(JSON.parse(entry!.after!)).toMatchObject({ variable: "MAX_PLAYERS" });
    expect(entry!.after).not.toContain("77");
    const [job] = await jobsOf(SERVER_VARIABLE_JOB);
    expect(JSON.parse(job!.payload)).toMatchObject({ env: "MAX_PLAYERS", value: " 77 " });
  });

  const stateOf = async (serviceId: number) =>
    (await readRow(app().db, "server_status", ["state"], { hosting_service_id: serviceId })).state;

  it("sends a power signal and reads the state at once: the card shows it moving", async () => {
    const { user, serviceId, server } = await panelService("offline");
    panel.setPowerState(server.id, "offline");
    const asked = await ask(serviceId, user, { kind: "power", signal: "start" });
    if (!asked.ok) throw new Error(asked.error);
    await runJobs(1);
    expect(panel.powerState(server.id)).toBe("starting");
    expect(await actionRows(serviceId)).toMatchObject([
      { id: asked.actionId, state: "done", error: null },
    ]);
    // The status read was queued with the action's end, bypassing the cache (read a second ago).
    expect(await jobsOf(SERVER_STATUS_JOB)).toMatchObject([{ state: "queued" }]);
    await runJobs(1);
    expect(await stateOf(serviceId)).toBe("starting");
    // The page's next read once the cache period is over: the state has moved on.
    clock = new Date(clock.getTime() + STATUS_CACHE_MS);
    const view = await readServerStatus(app().db, { serviceId, userId: user, now: clock });
    expect(view).toMatchObject({
      state: "starting",
      refreshing: true,
      lastAction: { action: "start", state: "done", error: null },
    });
    await runJobs(1);
    expect(await stateOf(serviceId)).toBe("running");
    const calls = await readRows(app().db, "panel_calls", ["method", "path", "status"], {
      hosting_service_id: serviceId,
    });
    expect(calls).toContainEqual({
      method: "POST",
      path: `/api/client/servers/${server.identifier}/power`,
      status: 204,
    });
    expect(JSON.stringify(calls)).not.toContain(panel.clientApiKey);
  });

  it("lets staff restart any customer's server", async () => {
    const { serviceId, server } = await panelService();
    panel.setPowerState(server.id, "running");
    const admin = await adminId(app());
    expect((await ask(serviceId, admin, { kind: "power", signal: "restart" }, true)).ok).toBe(true);
    await runJobs(1);
    expect(panel.powerState(server.id)).toBe("stopping");
    expect(await actionRows(serviceId)).toMatchObject([
      { action: "restart", state: "done", actor_id: admin },
    ]);
  });

  it("sends only the newest of two signals asked before the worker came", async () => {
    const { user, serviceId, server } = await panelService("offline");
    panel.setPowerState(server.id, "offline");
    expect((await ask(serviceId, user, { kind: "power", signal: "stop" })).ok).toBe(true);
    expect((await ask(serviceId, user, { kind: "power", signal: "start" })).ok).toBe(true);
    await runJobs(2);
    const sent = panel.requests.filter(
      (request) => request.route === "POST /client/servers/{server}/power",
    );
    expect(sent.map((request) => request.body)).toEqual([{ signal: "start" }]);
    expect(await actionRows(serviceId)).toMatchObject([
      { action: "stop", state: "failed", error: "server.failed.superseded" },
      { action: "start", state: "done", error: null },
    ]);
  });

  it("fails a signal the panel refuses (409) with the refusal's reason, the job done", async () => {
    const suspended = await panelService();
    // Suspended on the panel before our side knew.
    suspended.server.status = "suspended";
    const moving = await panelService();
    panel.setTransferring(moving.server.id, true);
    for (const { user, serviceId } of [suspended, moving])
      expect((await ask(serviceId, user, { kind: "power", signal: "restart" })).ok).toBe(true);
    await runJobs(2);
    expect(await actionRows(suspended.serviceId)).toMatchObject([
      { state: "failed", error: "server.refused.suspended" },
    ]);
    expect(await actionRows(moving.serviceId)).toMatchObject([
      { state: "failed", error: "server.failed.busy" },
    ]);
    // Not retried, no staff alert: the panel had the right to say no.
    expect(await jobsOf(SERVER_POWER_JOB)).toMatchObject([
      { state: "succeeded", attempts: 1 },
      { state: "succeeded", attempts: 1 },
    ]);
    // And the state read again: the card learns why.
    expect(await stateOf(suspended.serviceId)).toBe("suspended");
  });

  it("tries a signal again while the node does not answer, then fails it with the job dead", async () => {
    const { user, serviceId, server } = await panelService();
    panel.setNodeDown(server.nodeId, true);
    expect((await ask(serviceId, user, { kind: "power", signal: "restart" })).ok).toBe(true);
    await runJobs(1);
    expect(await actionRows(serviceId)).toMatchObject([{ state: "queued" }]);
    expect(await jobsOf(SERVER_POWER_JOB)).toMatchObject([{ state: "failed", attempts: 1 }]);
    await runJobs(6);
    expect(await jobsOf(SERVER_POWER_JOB)).toMatchObject([{ state: "dead", attempts: 4 }]);
    expect(await actionRows(serviceId)).toMatchObject([
      { state: "failed", error: "server.failed.nodeDown" },
    ]);
    expect(panel.requestCount("POST /client/servers/{server}/power")).toBe(4);
  });

  it("fails a signal for good when the client key is gone by the time the job runs", async () => {
    const { user, serviceId } = await panelService();
    expect((await ask(serviceId, user, { kind: "power", signal: "kill" })).ok).toBe(true);
    await app()
      .db.updateTable("panel_connections")
      .set({ client_key_encrypted: null, client_key_last4: null })
      .execute();
    await runJobs(1);
    expect(await jobsOf(SERVER_POWER_JOB)).toMatchObject([{ state: "dead", attempts: 1 }]);
    expect(await actionRows(serviceId)).toMatchObject([
      { state: "failed", error: "server.refused.noClientKey" },
    ]);
  });

  it("sets a variable on the panel, then reads the details again, its value erased from the job", async () => {
    const { user, serviceId, server } = await panelService();
    expect(
      (await ask(serviceId, user, { kind: "variable", env: "MAX_PLAYERS", value: "120" })).ok,
    ).toBe(true);
    await runJobs(1);
    expect(server.environment.MAX_PLAYERS).toBe("120");
    expect(await actionRows(serviceId)).toMatchObject([
      { action: "variable", detail: "MAX_PLAYERS", state: "done", error: null },
    ]);
    expect(await jobsOf(SERVER_VARIABLE_JOB)).toMatchObject([
      { state: "succeeded", payload: "{}" },
    ]);
    expect(await jobsOf(SERVER_DETAILS_JOB)).toHaveLength(1);
    await runJobs(1);
    const variables = JSON.parse(
      (await readRow(app().db, "server_status", ["variables"], { hosting_service_id: serviceId }))
        .variables!,
    ) as ServerVariable[];
    expect(variables.find((variable) => variable.env === "MAX_PLAYERS")?.value).toBe("120");
  });

  it("fails a variable the panel refuses: a value its rules refuse, one it no longer lets edit", async () => {
    const { user, serviceId, server } = await panelService();
    // The last details read knew laxer rules than the panel has now.
    const stale = VARIABLES.map((variable) => ({
      ...variable,
      rules: "required|string",
      editable: true,
    }));
    await app()
      .db.updateTable("server_status")
      .set({ variables: JSON.stringify(stale) })
      .where("hosting_service_id", "=", serviceId)
      .execute();
    const egg = panel.eggs.find((each) => each.id === server.eggId)!;
    egg.variables.find((variable) => variable.envVariable === "VERSION")!.userEditable = false;
    try {
      expect(
        (await ask(serviceId, user, { kind: "variable", env: "MAX_PLAYERS", value: "lots" })).ok,
      ).toBe(true);
      expect(
        (await ask(serviceId, user, { kind: "variable", env: "VERSION", value: "0.3.DL" })).ok,
      ).toBe(true);
      await runJobs(1);
    } finally {
      egg.variables.find((variable) => variable.envVariable === "VERSION")!.userEditable = true;
    }
    expect(await actionRows(serviceId)).toMatchObject([
      { detail: "MAX_PLAYERS", state: "failed", error: "server.failed.valueRefused" },
      { detail: "VERSION", state: "failed", error: "server.refused.notEditable" },
    ]);
    expect(server.environment).toMatchObject({ MAX_PLAYERS: "50", VERSION: "0.3.7" });
    expect(await jobsOf(SERVER_VARIABLE_JOB)).toMatchObject([
      { state: "succeeded", payload: "{}" },
      { state: "succeeded", payload: "{}" },
    ]);
  });

  it("reinstalls through the admin's path: the panel's reinstall, the install watched, then done", async () => {
    const { user, serviceId, server } = await panelService();
    const asked = await ask(serviceId, user, { kind: "reinstall" });
    expect(asked.ok).toBe(true);
    const [job] = await jobsOf(PANEL_REINSTALL_JOB);
    expect(await actionRows(serviceId)).toMatchObject([
      { action: "reinstall", state: "queued", job_id: Number(job!.id) },
    ]);
    expect((await auditOf(serviceId)).map((entry) => entry.action)).toEqual([
      "service.server_reinstall",
    ]);
    // One reinstall at a time, the admin's or the customer's.
    expect(await ask(serviceId, user, { kind: "reinstall" })).toMatchObject({
      ok: false,
      refusal: "installing",
    });
    expect(
      await reinstallPanelServer(app().db, {
        serviceId,
        actorId: await adminId(app()),
        now: clock,
      }),
    ).toMatchObject({ ok: false, error: "provisioning.errors.reinstallQueued" });

    await runJobs(1);
    expect(panel.requestCount("POST /servers/{server}/reinstall")).toBe(1);
    expect(
      (await readRow(app().db, "hosting_services", ["panel_state"], { id: serviceId })).panel_state,
    ).toBe("installing");
    expect(await actionRows(serviceId)).toMatchObject([{ state: "queued" }]);
    // While it installs, nothing more is asked of it.
    expect(await ask(serviceId, user, { kind: "power", signal: "start" })).toMatchObject({
      refusal: "installing",
    });
    await runJobs(4);
    expect(
      (await readRow(app().db, "hosting_services", ["panel_state"], { id: serviceId })).panel_state,
    ).toBe("ready");
    expect(await actionRows(serviceId)).toMatchObject([{ state: "done", error: null }]);
    expect(server.install).toBeNull();
  });

  it("fails the reinstall's action when its install fails", async () => {
    const { user, serviceId, server } = await panelService();
    expect((await ask(serviceId, user, { kind: "reinstall" })).ok).toBe(true);
    await runJobs(1);
    panel.finishInstall(server.id, "install_failed");
    await runJobs(3);
    expect(await actionRows(serviceId)).toMatchObject([
      { state: "failed", error: "server.failed.installFailed" },
    ]);
  });

  it("draws a password, shows it once with the SFTP username, and keeps it only sealed in the job", async () => {
    const { user, serviceId, owner, server } = await panelService();
    const asked = await requestPanelPassword(app().db, {
      serviceId,
      actorId: user,
      asStaff: false,
      secret: SECRET,
      now: clock,
    });
    if (!asked.ok) throw new Error(asked.error);
    expect(asked.password).toMatch(/^[A-Za-z0-9]{20}$/);
    expect(asked.username).toBe(`${owner.username}.${server.identifier}`);
    expect(await actionRows(serviceId)).toMatchObject([
      { id: asked.actionId, action: "password", detail: null, state: "queued", error: null },
    ]);
    const [job] = await jobsOf(SERVER_PASSWORD_JOB);
    expect(JSON.parse(job!.payload)).toMatchObject({ serviceId, password: expect.any(String) });
    expect(job!.payload).not.toContain(asked.password);
    const [entry] = await auditOf(serviceId);
    expect(entry).toMatchObject({ actor_id: user, action: "service.server_password" });
    const everything = JSON.stringify([
      await app().db.selectFrom("server_actions").selectAll().execute(),
      await app().db.selectFrom("audit_log").selectAll().execute(),
      await app().db.selectFrom("jobs").selectAll().execute(),
    ]);
    expect(everything).not.toContain(asked.password);
    // Two draws are never the same password.
    const again = await requestPanelPassword(app().db, {
      serviceId,
      actorId: user,
      asStaff: false,
      secret: SECRET,
      now: clock,
    });
    expect(again.ok && again.password).not.toBe(asked.password);
  });

  it("sets the new password on the panel, then keeps it nowhere", async () => {
    const { user, serviceId, owner } = await panelService();
    const asked = await requestPanelPassword(app().db, {
      serviceId,
      actorId: user,
      asStaff: false,
      secret: SECRET,
      now: clock,
    });
    if (!asked.ok) throw new Error(asked.error);
    expect(panel.userPassword(owner.id)).toBeNull();
    await runJobs(2);
    expect(panel.userPassword(owner.id)).toBe(asked.password);
    expect(await actionRows(serviceId)).toMatchObject([
      { id: asked.actionId, action: "password", state: "done", error: null },
    ]);
    const [job] = await jobsOf(SERVER_PASSWORD_JOB);
    expect(job).toMatchObject({ state: "succeeded", payload: "{}" });
    const everything = JSON.stringify([
      await app().db.selectFrom("server_actions").selectAll().execute(),
      await app().db.selectFrom("audit_log").selectAll().execute(),
      await app().db.selectFrom("jobs").selectAll().execute(),
      await app().db.selectFrom("panel_calls").selectAll().execute(),
    ]);
    expect(everything).not.toContain(asked.password);
    // The calls are in the service's log: the user read, then the user patched.
    const calls = await readRows(app().db, "panel_calls", ["method", "path", "status"], {
      hosting_service_id: serviceId,
    });
    expect(calls).toEqual([
      { method: "GET", path: `/api/application/users/${owner.id}`, status: 200 },
      { method: "PATCH", path: `/api/application/users/${owner.id}`, status: 200 },
    ]);
  });

  it("fails a password the panel keeps refusing, the job dead and its payload erased", async () => {
    const { user, serviceId, owner } = await panelService();
    panel.failEvery(1, "500", { route: "PATCH /users/{user}" });
    const asked = await requestPanelPassword(app().db, {
      serviceId,
      actorId: user,
      asStaff: false,
      secret: SECRET,
      now: clock,
    });
    if (!asked.ok) throw new Error(asked.error);
    await runJobs(2);
    // A 5xx is tried again: still queued, the password still sealed in the payload.
    expect(await actionRows(serviceId)).toMatchObject([{ state: "queued" }]);
    const [waiting] = await jobsOf(SERVER_PASSWORD_JOB);
    expect(waiting!.state).toBe("failed");
    expect(JSON.parse(waiting!.payload)).toMatchObject({ password: expect.any(String) });
    await runJobs(6);
    const [job] = await jobsOf(SERVER_PASSWORD_JOB);
    expect(job).toMatchObject({ state: "dead", payload: "{}", attempts: 4 });
    expect(job!.last_error).not.toContain(asked.password);
    expect(await actionRows(serviceId)).toMatchObject([
      { state: "failed", error: "server.failed.panelError" },
    ]);
    expect(panel.userPassword(owner.id)).toBeNull();
  });

  it("settles the action of a job buried without its handler, and empties its payload", async () => {
    const { user, serviceId } = await panelService();
    const ask = () =>
      requestPanelPassword(app().db, {
        serviceId,
        actorId: user,
        asStaff: false,
        secret: SECRET,
        now: clock,
      });
    const first = await ask();
    if (!first.ok) throw new Error(first.error);
    // The worker died in the job's last attempt: buried (jobs.server.ts), its handler never ran again.
    await app()
      .db.updateTable("jobs")
      .set({ state: "dead", attempts: 4, finished_at: clock.toISOString() })
      .where("type", "=", SERVER_PASSWORD_JOB)
      .execute();
    expect((await ask()).ok).toBe(true);
    const [buried, next] = await jobsOf(SERVER_PASSWORD_JOB);
    expect(buried!.payload).toBe("{}");
    expect(JSON.parse(next!.payload)).toMatchObject({ password: expect.any(String) });
    expect(await actionRows(serviceId)).toMatchObject([
      { id: first.actionId, state: "failed", error: "server.failed.unreachable" },
      { state: "queued" },
    ]);
  });

  it("has no username to show before the details were read", async () => {
    const { user, serviceId } = await panelService();
    await app()
      .db.updateTable("server_status")
      .set({ access: null })
      .where("hosting_service_id", "=", serviceId)
      .execute();
    const asked = await requestPanelPassword(app().db, {
      serviceId,
      actorId: user,
      asStaff: false,
      secret: SECRET,
      now: clock,
    });
    expect(asked).toMatchObject({ ok: true, username: null });
  });
});
