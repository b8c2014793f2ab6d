import { afterAll, afterEach, beforeAll, beforeEach, expect, it } from "vitest";
import { inTransaction } from "~/db/transaction";
import { JOB_HANDLERS } from "~/domain/jobs/registry.server";
import type { JobRow } from "~/domain/jobs/jobs.server";
import type { Worker } from "~/domain/jobs/runner.server";
import { savePanelConnection } from "~/domain/provisioning/panel-connection.server";
import type { PanelPlan } from "~/domain/provisioning/panel-plan";
import {
  startFakePanel,
  type FakePanel,
  type FakePowerState,
  type FakeResources,
  type FakeServer,
} from "../../../tests/support/fake-pterodactyl";
import {
  startFakeMtaServer,
  startFakeSampServer,
  type FakeGameServer,
  type FakeMtaInfo,
  type FakeSampInfo,
  type MtaMalformation,
  type SampMalformation,
} from "../../../tests/support/fake-game-query";
import { adminId, customerWithRunningService } from "../../../tests/support/money-fixtures";
import { allowLocalPanel } from "../../../tests/support/panel-snapshot";
import { readRow, readRows } from "../../../tests/support/read-column";
import { steppedWorker } from "../../../tests/support/stepped-worker";
import { atOnce, describeEachDatabase } from "../../../tests/support/test-database";
import { MOVING_CACHE_MS, OFFLINE_NOTICE_AFTER_MS, STATUS_CACHE_MS } from "./server-control";
import { SERVER_DETAILS_JOB, statusJobKey } from "./server-job-types";
import { serverControlHandlers } from "./server-jobs.server";
import { queueStatusRead, watchHandler } from "./server-status-job.server";
import { readServerPage, readServerStatus, setOfflineNotice } from "./server-status.server";

// A server's state as the worker reads it and the pages show it (docs/server-control.md): the fake
// panel's Client API over HTTP on loopback, the fake games over UDP on loopback, the clock injected.

const SECRET = "a-test-secret-of-at-least-thirty-two-characters";
const CLIENT_KEY = "ptlc_theclientkeyofarootadmin";
/** The panel's own limit in these tests: a panel slower than this is unreachable. */
const TIMEOUT_MS = 2_000;

const plan = (portLayout: "single" | "mta"): PanelPlan => ({
  eggId: 2,
  dockerImage: "ghcr.io/parkervcp/games:samp",
  startup: "./samp03svr",
  portLayout,
  httpPortVariable: null,
  locationIds: [1],
  nodeIds: [],
  limits: { memory: 1024, swap: 0, disk: 5120, io: 500, cpu: 150 },
  featureLimits: { databases: 0, allocations: 1, backups: 1 },
  environment: {},
  generatedVariables: [],
  name: "Test server",
  notes: { ddosProtection: false },
});

describeEachDatabase("a server's state, read by the worker and cached", (app, dialect) => {
  let panel: FakePanel;
  let samp: FakeGameServer<FakeSampInfo, SampMalformation>;
  let mta: FakeGameServer<FakeMtaInfo, MtaMalformation>;
  let worker: Worker;
  let clock: Date;

  const config = { secret: SECRET, timeoutMs: TIMEOUT_MS, gameQueryTimeoutMs: 300 };

  beforeAll(async () => {
    samp = await startFakeSampServer({ name: "Karim RP", online: 12, max: 50 });
    mta = await startFakeMtaServer({ name: "Atlas MTA", online: 3, max: 32 });
  });
  afterAll(async () => {
    await samp.close();
    await mta.close();
  });

  beforeEach(async () => {
    panel = await startFakePanel({ clientApiKey: CLIENT_KEY });
    await app().db.deleteFrom("panel_connections").execute();
    await allowLocalPanel(app());
    const saved = await savePanelConnection(
      app().db,
      {
        url: panel.url,
        apiKey: panel.apiKey,
        clientKey: CLIENT_KEY,
        locationMap: {},
        actorId: await adminId(app()),
      },
      { secret: SECRET },
    );
    expect(saved.ok).toBe(true);
    samp.mode("answer");
    mta.mode("answer");
    clock = new Date("2031-03-12T12:00:00.000Z");
    worker = steppedWorker({
      db: app().db,
      handlers: { ...JOB_HANDLERS, ...serverControlHandlers(config) },
      config: { leaseMs: 30_000, pollMs: 1_000, backoffMs: 50, concurrency: 4 },
      now: () => clock,
    });
  });

  afterEach(async () => {
    await worker.stop(1000);
    await panel.close();
    await app().db.deleteFrom("jobs").where("type", "like", "servers.%").execute();
  });

  /**
   * The worker's rounds at the test's clock. The orders' mail is a job too, with no handler in this
   * worker: this test is about server control's jobs, which would otherwise wait behind it.
   */
  async function runJobs(rounds = 2) {
    await app().db.deleteFrom("jobs").where("type", "not like", "servers.%").execute();
    for (let round = 0; round < rounds; round++) {
      await worker.tick();
      await worker.idle();
    }
  }

  /** Moves the clock on. */
  const later = (ms: number) => {
    clock = new Date(clock.getTime() + ms);
    return clock;
  };

  /**
   * A customer's service with a server on the fake panel, ready, its address the fake game's: SA-MP's
   * for a `single` plan, MTA's for an `mta` one.
   */
  async function readyServer(layout: "single" | "mta" = "single") {
    const { user, serviceId } = await customerWithRunningService(app(), 100_000);
    const panelUser = panel.addUser({
      email: `${user}@example.test`,
      username: `user${serviceId}`,
    });
    const game = layout === "single" ? samp : mta;
    const allocation = panel.allocations.find((each) => each.serverId === null)!;
    const server = panel.addServer({ userId: panelUser.id, eggId: 2, allocationId: allocation.id });
    await app()
      .db.insertInto("panel_accounts")
      .values({ user_id: user, panel_user_id: panelUser.id, created_at: clock.toISOString() })
      .onConflict((conflict) => conflict.column("user_id").doNothing())
      .execute();
    await app()
      .db.updateTable("hosting_services")
      .set({
        panel_state: "ready",
        panel_plan: JSON.stringify(plan(layout)),
        panel_server_id: server.id,
        panel_identifier: server.identifier,
        panel_address: `${game.host}:${game.gamePort}`,
        panel_ports: JSON.stringify({ game: game.gamePort }),
      })
      .where("id", "=", serviceId)
      .execute();
    return { user, userId: user, serviceId, server, panelUser };
  }

  /** Wings says the server is in `state`, using `resources` while it runs. */
  const setPower = (
    server: FakeServer,
    state: FakePowerState,
    resources: Partial<FakeResources> = {},
  ) => {
    panel.setPowerState(server.id, state);
    panel.setResources(server.id, resources);
  };
  /** The server's node does not answer: the panel's 504 DaemonConnectionException. */
  const nodeDown = (server: FakeServer) => panel.setNodeDown(server.nodeId, true);
  /** The node answers again, but the panel has no such server any more. */
  const unknownToPanel = (server: FakeServer) => {
    panel.setNodeDown(server.nodeId, false);
    panel.servers.splice(panel.servers.indexOf(server), 1);
  };
  const setInstalling = (server: FakeServer) => {
    server.status = "installing";
  };
  const setSuspended = (server: FakeServer) => {
    server.status = "suspended";
  };
  /** The watch's round (`servers.watch`), as the schedule runs it: how many reads it queued. */
  const runWatch = async () =>
    (await watchHandler({
      db: app().db,
      now: clock,
      payload: {},
      job: {} as JobRow,
      complete: async () => true,
    })) as { watched: number; queued: number };

  const resourcesRequests = (server: FakeServer) =>
    panel.requests.filter((request) =>
      request.url.startsWith(`/api/client/servers/${server.identifier}/resources`),
    ).length;

  const statusJobs = (serviceId: number) =>
    readRows(app().db, "jobs", ["id", "state"], { unique_key: statusJobKey(serviceId) });

  const page = (serviceId: number, userId: string | null) =>
    readServerPage(app().db, { serviceId, userId, panelUrl: panel.url, now: clock });

  it("reads a running server's state and players into the cache, which the page shows with its age", async () => {
    const { user, serviceId, server } = await readyServer();
    setPower(server, "running", { cpuAbsolute: 42.5, memoryBytes: 512 * 1024 * 1024 });
    // Never read: the page says so and asks for a read.
    const first = await page(serviceId, user);
    expect(first!.status).toMatchObject({ state: "unknown", readAt: null, refreshing: true });
    expect(await statusJobs(serviceId)).toHaveLength(1);
    await runJobs();
    expect(resourcesRequests(server)).toBe(1);
    later(12_000);
    const view = (await page(serviceId, user))!;
    expect(view.status).toMatchObject({
      state: "running",
      ageSeconds: 12,
      refreshing: false,
      readError: null,
      cpuPercent: 42.5,
      cpuLimitPercent: 150,
      memoryMib: 512,
      memoryLimitMib: 1024,
      players: { online: 12, max: 50, name: "Karim RP" },
      playersError: null,
      refusal: null,
    });
    expect(view.panelLinks).toEqual({
      console: `${panel.url}/server/${server.identifier}`,
      files: `${panel.url}/server/${server.identifier}/files`,
      startup: `${panel.url}/server/${server.identifier}/startup`,
    });
    // Fresh: nothing more asked of the panel.
    expect(await readServerStatus(app().db, { serviceId, userId: user, now: clock })).toMatchObject(
      {
        state: "running",
        refreshing: false,
      },
    );
    expect((await statusJobs(serviceId)).filter((job) => job.state === "queued")).toEqual([]);
  });

  it("asks an MTA server's players of its ASE port, and claims none the game did not give", async () => {
    const mtaServer = await readyServer("mta");
    setPower(mtaServer.server, "running");
    await readServerPage(app().db, { ...mtaServer, panelUrl: panel.url, now: clock });
    await runJobs();
    expect((await readServerStatus(app().db, { ...mtaServer, now: clock }))!.players).toEqual({
      online: 3,
      max: 32,
      name: "Atlas MTA",
    });

    const sampServer = await readyServer("single");
    setPower(sampServer.server, "running");
    for (const [mode, error] of [
      ["silent", "noAnswer"],
      [{ malformed: "tooManyPlayers" }, "malformed"],
    ] as const) {
      samp.mode(mode);
      later(STATUS_CACHE_MS);
      await readServerStatus(app().db, { ...sampServer, now: clock });
      await runJobs();
      const view = (await readServerStatus(app().db, { ...sampServer, now: clock }))!;
      expect(view.state).toBe("running");
      expect(view.players).toBeNull();
      expect(view.playersError).toBe(error);
    }
    // Offline: the game is not asked at all.
    samp.mode("answer");
    setPower(sampServer.server, "offline");
    const asked = samp.received.length;
    later(STATUS_CACHE_MS);
    await readServerStatus(app().db, { ...sampServer, now: clock });
    await runJobs();
    const offline = (await readServerStatus(app().db, { ...sampServer, now: clock }))!;
    expect(offline).toMatchObject({ state: "offline", players: null, playersError: null });
    expect(samp.received.length).toBe(asked);
  });

  it("keeps the last state and its age when a read fails, and says why", async () => {
    const { user, serviceId, server } = await readyServer();
    setPower(server, "running");
    await page(serviceId, user);
    await runJobs();
    const readAt = (await readServerStatus(app().db, { serviceId, userId: user, now: clock }))!
      .readAt;
    expect(readAt).toBe(clock.toISOString());

    const failWith = async (fail: () => void | Promise<void>, error: string) => {
      await fail();
      later(STATUS_CACHE_MS);
      await readServerStatus(app().db, { serviceId, userId: user, now: clock });
      await runJobs();
      const view = (await readServerStatus(app().db, { serviceId, userId: user, now: clock }))!;
      expect(view, error).toMatchObject({ state: "running", readAt, readError: error });
      // The job ended: a failed read is recorded, never retried later.
      expect((await statusJobs(serviceId)).every((job) => job.state === "succeeded")).toBe(true);
    };
    await failWith(() => nodeDown(server), "nodeDown");
    await failWith(() => unknownToPanel(server), "notFound");
    await failWith(async () => {
      await app()
        .db.updateTable("panel_connections")
        .set({ client_key_encrypted: null, client_key_last4: null })
        .execute();
    }, "noClientKey");
    // A panel slower than the job's limit: unreachable.
    await panel.close();
    panel = await startFakePanel({ clientApiKey: CLIENT_KEY, answerDelayMs: TIMEOUT_MS * 3 });
    await failWith(async () => {
      await savePanelConnection(
        app().db,
        {
          url: panel.url,
          apiKey: panel.apiKey,
          clientKey: CLIENT_KEY,
          locationMap: {},
          actorId: await adminId(app()),
        },
        { secret: SECRET },
      );
    }, "unreachable");
    // Of the status reads, only the failures are in the service's call log.
    const calls = (
      await readRows(app().db, "panel_calls", ["path", "error_code"], {
        hosting_service_id: serviceId,
      })
    ).filter((call) => call.path.endsWith("/resources"));
    expect(calls.map((call) => call.error_code)).toEqual([
      "DaemonConnectionException",
      "NotFoundHttpException",
      "timeout",
    ]);
  });

  it("reads the panel's 409 as installing or suspended, and does not ask about a server not ready", async () => {
    const installing = await readyServer();
    setInstalling(installing.server);
    await readServerStatus(app().db, { ...installing, now: clock });
    await runJobs();
    expect(await readServerStatus(app().db, { ...installing, now: clock })).toMatchObject({
      state: "installing",
      readError: null,
      refusal: "installing",
    });

    const suspended = await readyServer();
    setSuspended(suspended.server);
    await readServerStatus(app().db, { ...suspended, now: clock });
    await runJobs();
    expect(await readServerStatus(app().db, { ...suspended, now: clock })).toMatchObject({
      state: "suspended",
      refusal: "suspended",
    });

    // Not ready on the panel: its state is the panel state's, with no job and no request.
    const notReady = await readyServer();
    await app()
      .db.updateTable("hosting_services")
      .set({ panel_state: "installing" })
      .where("id", "=", notReady.serviceId)
      .execute();
    const before = panel.requests.length;
    expect(await readServerStatus(app().db, { ...notReady, now: clock })).toMatchObject({
      state: "installing",
      refreshing: false,
    });
    expect(await statusJobs(notReady.serviceId)).toEqual([]);
    expect(panel.requests.length).toBe(before);
  });

  it(
    atOnce(dialect, "costs one job and one panel request a period, however many read at once"),
    async () => {
      const { user, serviceId, server } = await readyServer();
      setPower(server, "running");
      const reads = () =>
        Promise.all(
          Array.from({ length: 40 }, (_, i) =>
            i % 2 === 0
              ? readServerStatus(app().db, { serviceId, userId: user, now: clock })
              : page(serviceId, user),
          ),
        );
      const views = await reads();
      expect(views.every((view) => view !== null)).toBe(true);
      expect(await statusJobs(serviceId)).toHaveLength(1);
      // Every reader knows a read is under way.
      expect(
        views.every((view) => (view && "status" in view ? view.status : view)!.refreshing),
      ).toBe(true);
      await runJobs();
      expect(resourcesRequests(server)).toBe(1);
      // Within the period: nothing written, nothing asked.
      later(STATUS_CACHE_MS - 1_000);
      const requestedAt = await readRow(app().db, "server_status", ["requested_at", "updated_at"], {
        hosting_service_id: serviceId,
      });
      await reads();
      expect(await statusJobs(serviceId)).toHaveLength(1);
      expect(
        await readRow(app().db, "server_status", ["requested_at", "updated_at"], {
          hosting_service_id: serviceId,
        }),
      ).toEqual(requestedAt);
      // The next period: one more.
      later(1_000);
      await reads();
      await runJobs();
      expect(await statusJobs(serviceId)).toHaveLength(2);
      expect(resourcesRequests(server)).toBe(2);
    },
  );

  it("reads a server that is starting or stopping again after a few seconds, a running one not", async () => {
    const { user, serviceId, server } = await readyServer();
    setPower(server, "starting");
    await readServerStatus(app().db, { serviceId, userId: user, now: clock });
    await runJobs();
    expect(resourcesRequests(server)).toBe(1);
    // Starting: a read a moment later asks again, so the card follows it to running.
    setPower(server, "running");
    later(MOVING_CACHE_MS);
    await readServerStatus(app().db, { serviceId, userId: user, now: clock });
    await runJobs();
    expect(resourcesRequests(server)).toBe(2);
    expect((await readServerStatus(app().db, { serviceId, userId: user, now: clock }))!.state).toBe(
      "running",
    );
    // Running: the same moment later asks nothing.
    later(MOVING_CACHE_MS);
    await readServerStatus(app().db, { serviceId, userId: user, now: clock });
    await runJobs();
    expect(resourcesRequests(server)).toBe(2);
  });

  it("reads nothing of another customer's server, and lets staff read any", async () => {
    const mine = await readyServer();
    const theirs = await readyServer();
    expect(await page(mine.serviceId, theirs.user)).toBeNull();
    expect(
      await readServerStatus(app().db, {
        serviceId: mine.serviceId,
        userId: theirs.user,
        now: clock,
      }),
    ).toBeNull();
    expect(
      await setOfflineNotice(app().db, {
        serviceId: mine.serviceId,
        userId: theirs.user,
        on: true,
      }),
    ).toEqual({ ok: false, kind: "notFound", error: "services.errors.notFound" });
    expect(await statusJobs(mine.serviceId)).toEqual([]);
    expect((await page(mine.serviceId, null))!.service.id).toBe(mine.serviceId);
    // A service with no server on the panel has no page.
    await app()
      .db.updateTable("hosting_services")
      .set({ panel_state: null })
      .where("id", "=", mine.serviceId)
      .execute();
    expect(await page(mine.serviceId, mine.user)).toBeNull();
  });

  it("tells a customer who asked once their server has been offline ten minutes, once a spell", async () => {
    const { user, serviceId, server } = await readyServer();
    setPower(server, "offline");
    expect(await setOfflineNotice(app().db, { serviceId, userId: user, on: true })).toEqual({
      ok: true,
    });
    const notices = () =>
      readRows(app().db, "notifications", ["params"], { user_id: user, kind: "server_offline" });
    const mails = () => readRows(app().db, "mail_outbox", ["id"], { kind: "serverOffline" });
    const mailsBefore = (await mails()).length;
    /** The watch's round: a read of each server whose customer asked, when stale. */
    const watch = async () => {
      const { queued } = await runWatch();
      await runJobs();
      return queued;
    };
    // The watch reads it when no one looks: the spell begins.
    expect(await watch()).toBe(1);
    const since = clock.toISOString();
    expect(
      await readRow(app().db, "server_status", ["offline_since", "offline_notified_at"], {
        hosting_service_id: serviceId,
      }),
    ).toEqual({ offline_since: since, offline_notified_at: null });
    expect((await page(serviceId, user))!.offlineNotice).toBe(true);
    // Fresh: the watch asks nothing.
    expect(await watch()).toBe(0);
    later(OFFLINE_NOTICE_AFTER_MS / 2);
    await watch();
    expect(await notices()).toEqual([]);
    later(OFFLINE_NOTICE_AFTER_MS / 2);
    await watch();
    expect((await notices()).map((row) => JSON.parse(row.params))).toEqual([
      { service: "SAMP Starter (Test server)", count: 10 },
    ]);
    expect((await mails()).length).toBe(mailsBefore + 1);
    // Still offline: told once.
    later(STATUS_CACHE_MS);
    await watch();
    expect(await notices()).toHaveLength(1);
    // Back, then offline again: a new spell, told again once long enough.
    setPower(server, "running");
    later(STATUS_CACHE_MS);
    await watch();
    setPower(server, "offline");
    later(STATUS_CACHE_MS);
    await watch();
    later(OFFLINE_NOTICE_AFTER_MS);
    await watch();
    expect(await notices()).toHaveLength(2);
    expect((await mails()).length).toBe(mailsBefore + 2);
    // Turned off: no read for it, no notice.
    expect(await setOfflineNotice(app().db, { serviceId, userId: user, on: false })).toEqual({
      ok: true,
    });
    later(STATUS_CACHE_MS);
    expect(await watch()).toBe(0);
  });

  it("reads the server's SFTP access and the variables its user may see when the page lacks them", async () => {
    const { user, serviceId, server, panelUser } = await readyServer();
    setPower(server, "running");
    // The remote-admin password is hidden from the panel's users: it is not read.
    const egg = panel.eggs.find((each) => each.id === server.eggId)!;
    egg.variables.find((variable) => variable.envVariable === "RCON_PASS")!.userViewable = false;
    server.environment.MAX_PLAYERS = "64";
    // The state read by itself (as the watch has it read) does not ask for them.
    await inTransaction(app().db, (trx) => queueStatusRead(trx, serviceId, clock));
    await runJobs();
    const detailsJobs = () => readRows(app().db, "jobs", ["state"], { type: SERVER_DETAILS_JOB });
    expect(await detailsJobs()).toEqual([]);
    // The page, with the state fresh, finds them missing and asks once.
    later(1_000);
    const first = (await page(serviceId, user))!;
    expect(first.access).toBeNull();
    expect(first.variables).toEqual([]);
    await page(serviceId, user);
    expect(await detailsJobs()).toEqual([{ state: "queued" }]);
    await runJobs();
    const node = panel.nodes.find((each) => each.id === server.nodeId)!;
    const view = (await page(serviceId, user))!;
    expect(view.access).toEqual({
      host: node.fqdn,
      port: 2022,
      username: `${panelUser.username}.${server.identifier}`,
    });
    expect(view.variables.map((variable) => [variable.env, variable.value])).toEqual([
      ["VERSION", server.environment.VERSION],
      ["MAX_PLAYERS", "64"],
    ]);
    // Read once they are there: no more details jobs.
    later(STATUS_CACHE_MS);
    await page(serviceId, user);
    expect(await detailsJobs()).toEqual([{ state: "succeeded" }]);
  });
});
