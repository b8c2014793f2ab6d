import { afterEach, beforeEach, expect } from "vitest";
import type { AppServices } from "~/context.server";
import { JOB_HANDLERS } from "~/domain/jobs/registry.server";
import type { Worker } from "~/domain/jobs/runner.server";
import { savePanelConnection } from "~/domain/provisioning/panel-connection.server";
import { provisioningHandlers } from "~/domain/provisioning/provisioning-jobs.server";
import {
  requestPanelPassword,
  requestServerAction,
  type ServerActionRequest,
} from "~/domain/servers/server-actions.server";
import type { ServerVariable } from "~/domain/servers/server-control";
import { serverControlHandlers } from "~/domain/servers/server-jobs.server";
import { startFakePanel, type FakePanel } from "./fake-pterodactyl";
import { adminId, customerWithRunningService } from "./money-fixtures";
import { allowLocalPanel } from "./panel-snapshot";
import { readRow, readRows } from "./read-column";
import { steppedWorker } from "./stepped-worker";

// A suite's opening for what is asked of a server (app/domain/servers/server-actions*.integration.test.ts):
// the fake panel over HTTP on loopback, saved with its application and client keys, before each test;
// the worker driven by hand on a clock of the suite's own; customers' services with a server on it.

export const SERVER_ACTION_SECRET = "a-test-secret-of-at-least-thirty-two-characters";
const CONFIG = { leaseMs: 30_000, pollMs: 1_000, backoffMs: 50, concurrency: 4 };
const PANEL_CONFIG = {
  secret: SERVER_ACTION_SECRET,
  timeoutMs: 5_000,
  pollMs: 1_000,
  installTimeoutMs: 3_600_000,
};
/** The suites' clock starts here, a fixed moment, and moves a second a round of the worker. */
export const ACTIONS_START = new Date("2031-03-01T10:00:00.000Z");

/** The egg variables of a SA-MP server as the last details read found them. */
export const SAMP_VARIABLES: ServerVariable[] = [
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

/** Registers the suite's hooks; what they make is read through the object returned, test by test. */
export function serverActionSuite(app: () => AppServices) {
  let panel: FakePanel | undefined;
  let clock = ACTIONS_START;
  let worker: Worker | undefined;
  let serial = 0;

  const handlers = () => ({
    ...JOB_HANDLERS,
    ...provisioningHandlers(PANEL_CONFIG),
    ...serverControlHandlers(PANEL_CONFIG),
  });

  const suite = {
    get panel(): FakePanel {
      if (!panel) throw new Error("The fake panel is not started");
      return panel;
    },
    get clock(): Date {
      return clock;
    },
    set clock(at: Date) {
      clock = at;
    },

    /** Rounds of the worker, each a second of the clock later; only the panel's and servers' jobs. */
    async runJobs(rounds = 6) {
      for (let round = 0; round < rounds; round++) {
        await app()
          .db.deleteFrom("jobs")
          .where("type", "not like", "servers.%")
          .where("type", "not like", "provisioning.%")
          .execute();
        clock = new Date(clock.getTime() + 1_000);
        await worker!.tick();
        await worker!.idle();
      }
    },

    /**
     * A customer's running SA-MP service with its server on the fake panel, ready, its panel user
     * known, and its last state read (`state`, the variables and SFTP access as the details read found
     * them).
     */
    async panelService(state = "running") {
      const { user, serviceId } = await customerWithRunningService(app(), 100_000);
      const fake = suite.panel;
      const owner = fake.addUser({ email: `player${++serial}@example.test` });
      const egg = fake.eggs.find((each) => each.name === "SA-MP")!;
      const allocation = fake.allocations.find((each) => each.serverId === null)!;
      const server = fake.addServer({
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
          variables: JSON.stringify(SAMP_VARIABLES),
          access: JSON.stringify({
            host: "sftp.example.test",
            port: 2022,
            username: `${owner.username}.${server.identifier}`,
          }),
          updated_at: at,
        })
        .execute();
      return { user, serviceId, server, owner };
    },

    /** The service's actions, oldest first. */
    actionRows: (serviceId: number) =>
      readRows(
        app().db,
        "server_actions",
        ["id", "action", "detail", "state", "error", "actor_id", "job_id"],
        { hosting_service_id: serviceId },
      ),

    /** The audit entries of what was asked of the service's server. */
    auditOf: (serviceId: number) =>
      app()
        .db.selectFrom("audit_log")
        .select(["actor_id", "action", "after"])
        .where("target_type", "=", "hosting_service")
        .where("target_id", "=", String(serviceId))
        .where("action", "like", "service.server_%")
        .orderBy("id")
        .execute(),

    jobsOf: (type: string) =>
      app().db.selectFrom("jobs").selectAll().where("type", "=", type).orderBy("id").execute(),

    /** The server's state as the last status read left it. */
    stateOf: async (serviceId: number) =>
      (await readRow(app().db, "server_status", ["state"], { hosting_service_id: serviceId }))
        .state,

    /** `requestServerAction` at the suite's clock. */
    ask: (serviceId: number, actorId: string, request: ServerActionRequest, asStaff = false) =>
      requestServerAction(app().db, { serviceId, actorId, asStaff, request, now: clock }),

    /** `requestPanelPassword` at the suite's clock. */
    askPassword: (serviceId: number, actorId: string, asStaff = false) =>
      requestPanelPassword(app().db, {
        serviceId,
        actorId,
        asStaff,
        secret: SERVER_ACTION_SECRET,
        now: clock,
      }),
  };

  beforeEach(async () => {
    const db = app().db;
    clock = ACTIONS_START;
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
      { secret: SERVER_ACTION_SECRET },
    );
    expect(saved.ok).toBe(true);
    worker = steppedWorker({ db, handlers: handlers(), config: CONFIG, now: () => clock });
  });

  afterEach(async () => {
    await worker?.stop(1000);
    await panel?.close();
    // Other suites' jobs must not meet a panel that is gone.
    await app()
      .db.deleteFrom("jobs")
      .where((eb) => eb.or([eb("type", "like", "servers.%"), eb("type", "like", "provisioning.%")]))
      .execute();
  });

  return suite;
}
