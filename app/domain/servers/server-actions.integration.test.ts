import { expect, it } from "vitest";
import { customerWithRunningService, adminId } from "../../../tests/support/money-fixtures";
import { ACTIONS_START, serverActionSuite } from "../../../tests/support/server-action-fixtures";
import { describeEachDatabase } from "../../../tests/support/test-database";
import { SERVER_ACTION_LIMITS, SERVER_REFUSAL_LABELS } from "./server-control";
import { SERVER_PASSWORD_JOB, SERVER_POWER_JOB, SERVER_VARIABLE_JOB } from "./server-job-types";

// What a customer or an admin asks of a server (docs/server-control.md, "Actions"): who may ask what,
// when, how often, and what the asking writes (the action's row, its job, its audit entry). What the
// jobs then do is server-action-jobs.integration.test.ts's.

describeEachDatabase("what is asked of a server", (app) => {
  const s = serverActionSuite(app);
  const { panelService, actionRows, auditOf, jobsOf, ask, askPassword } = s;

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
    expect(await askPassword(serviceId, other.user)).toEqual({
      ok: false,
      kind: "notFound",
      error: "services.errors.notFound",
    });
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
    expect(await askPassword(suspended.serviceId, suspended.user)).toEqual(conflict("suspended"));
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
      s.clock = new Date(s.clock.getTime() + 1_000);
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
    s.clock = new Date(ACTIONS_START.getTime() + windowMs - 1);
    expect(await ask(serviceId, user, { kind: "power", signal: "start" })).toEqual(tooMany);
    s.clock = new Date(ACTIONS_START.getTime() + windowMs);
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

  it("draws a password, shows it once with the SFTP username, and keeps it only sealed in the job", async () => {
    const { user, serviceId, owner, server } = await panelService();
    const asked = await askPassword(serviceId, user);
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
    const again = await askPassword(serviceId, user);
    expect(again.ok && again.password).not.toBe(asked.password);
  });

  it("settles the action of a job buried without its handler, and empties its payload", async () => {
    const { user, serviceId } = await panelService();
    const again = () => askPassword(serviceId, user);
    const first = await again();
    if (!first.ok) throw new Error(first.error);
    // The worker died in the job's last attempt: buried (jobs.server.ts), its handler never ran again.
    await app()
      .db.updateTable("jobs")
      .set({ state: "dead", attempts: 4, finished_at: s.clock.toISOString() })
      .where("type", "=", SERVER_PASSWORD_JOB)
      .execute();
    expect((await again()).ok).toBe(true);
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
    const asked = await askPassword(serviceId, user);
    expect(asked).toMatchObject({ ok: true, username: null });
  });
});
