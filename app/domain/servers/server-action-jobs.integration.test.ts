import { expect, it } from "vitest";
import { PANEL_REINSTALL_JOB } from "~/domain/provisioning/panel-job-types";
import { reinstallPanelServer } from "~/domain/provisioning/provisioning.server";
import { adminId } from "../../../tests/support/money-fixtures";
import { readRow, readRows } from "../../../tests/support/read-column";
import {
  SAMP_VARIABLES as VARIABLES,
  serverActionSuite,
} from "../../../tests/support/server-action-fixtures";
import { describeEachDatabase } from "../../../tests/support/test-database";
import { STATUS_CACHE_MS, type ServerVariable } from "./server-control";
import {
  SERVER_DETAILS_JOB,
  SERVER_PASSWORD_JOB,
  SERVER_POWER_JOB,
  SERVER_STATUS_JOB,
  SERVER_VARIABLE_JOB,
} from "./server-job-types";
import { readServerStatus } from "./server-status.server";

// What the worker does with what was asked of a server (docs/server-control.md, "Actions"): the power
// signal and the variable through the fake panel's Client API, the password through its Application
// API, the reinstall through the provisioning jobs; how each action ends, and where a secret goes.

describeEachDatabase("what the worker does with what is asked of a server", (app) => {
  const s = serverActionSuite(app);
  const { runJobs, panelService, actionRows, auditOf, jobsOf, ask, askPassword, stateOf } = s;

  it("sends a power signal and reads the state at once: the card shows it moving", async () => {
    const { user, serviceId, server } = await panelService("offline");
    s.panel.setPowerState(server.id, "offline");
    const asked = await ask(serviceId, user, { kind: "power", signal: "start" });
    if (!asked.ok) throw new Error(asked.error);
    await runJobs(1);
    expect(s.panel.powerState(server.id)).toBe("starting");
    expect(await actionRows(serviceId)).toMatchObject([
      { id: asked.actionId, state: "done", error: null },
    ]);
    // The status read was queued with the action's end, bypassing the cache (read a second ago).
    expect(await jobsOf(SERVER_STATUS_JOB)).toMatchObject([{ state: "queued" }]);
    await runJobs(1);
    expect(await stateOf(serviceId)).toBe("starting");
    // The page's next read once the cache period is over: the state has moved on.
    s.clock = new Date(s.clock.getTime() + STATUS_CACHE_MS);
    const view = await readServerStatus(app().db, { serviceId, userId: user, now: s.clock });
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
    expect(JSON.stringify(calls)).not.toContain(s.panel.clientApiKey);
  });

  it("lets staff restart any customer's server", async () => {
    const { serviceId, server } = await panelService();
    s.panel.setPowerState(server.id, "running");
    const admin = await adminId(app());
    expect((await ask(serviceId, admin, { kind: "power", signal: "restart" }, true)).ok).toBe(true);
    await runJobs(1);
    expect(s.panel.powerState(server.id)).toBe("stopping");
    expect(await actionRows(serviceId)).toMatchObject([
      { action: "restart", state: "done", actor_id: admin },
    ]);
  });

  it("sends only the newest of two signals asked before the worker came", async () => {
    const { user, serviceId, server } = await panelService("offline");
    s.panel.setPowerState(server.id, "offline");
    expect((await ask(serviceId, user, { kind: "power", signal: "stop" })).ok).toBe(true);
    expect((await ask(serviceId, user, { kind: "power", signal: "start" })).ok).toBe(true);
    await runJobs(2);
    const sent = s.panel.requests.filter(
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
    s.panel.setTransferring(moving.server.id, true);
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
    s.panel.setNodeDown(server.nodeId, true);
    expect((await ask(serviceId, user, { kind: "power", signal: "restart" })).ok).toBe(true);
    await runJobs(1);
    expect(await actionRows(serviceId)).toMatchObject([{ state: "queued" }]);
    expect(await jobsOf(SERVER_POWER_JOB)).toMatchObject([{ state: "failed", attempts: 1 }]);
    await runJobs(6);
    expect(await jobsOf(SERVER_POWER_JOB)).toMatchObject([{ state: "dead", attempts: 4 }]);
    expect(await actionRows(serviceId)).toMatchObject([
      { state: "failed", error: "server.failed.nodeDown" },
    ]);
    expect(s.panel.requestCount("POST /client/servers/{server}/power")).toBe(4);
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
    const egg = s.panel.eggs.find((each) => each.id === server.eggId)!;
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
        now: s.clock,
      }),
    ).toMatchObject({ ok: false, error: "provisioning.errors.reinstallQueued" });

    await runJobs(1);
    expect(s.panel.requestCount("POST /servers/{server}/reinstall")).toBe(1);
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
    s.panel.finishInstall(server.id, "install_failed");
    await runJobs(3);
    expect(await actionRows(serviceId)).toMatchObject([
      { state: "failed", error: "server.failed.installFailed" },
    ]);
  });

  it("sets the new password on the panel, then keeps it nowhere", async () => {
    const { user, serviceId, owner } = await panelService();
    const asked = await askPassword(serviceId, user);
    if (!asked.ok) throw new Error(asked.error);
    expect(s.panel.userPassword(owner.id)).toBeNull();
    await runJobs(2);
    expect(s.panel.userPassword(owner.id)).toBe(asked.password);
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
    s.panel.failEvery(1, "500", { route: "PATCH /users/{user}" });
    const asked = await askPassword(serviceId, user);
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
    expect(s.panel.userPassword(owner.id)).toBeNull();
  });
});
