import { afterAll, afterEach, beforeAll, beforeEach, expect, it } from "vitest";
import type { AppServices } from "~/context.server";
import { JOB_HANDLERS } from "~/domain/jobs/registry.server";
import type { Worker } from "~/domain/jobs/runner.server";
import { changeServiceStatus, deleteService } from "~/domain/hosting-services/admin-changes.server";
import { listCustomerServicePage } from "~/domain/hosting-services/customer-services.server";
import { approveOrder, placeOrder } from "~/domain/orders/orders.server";
import { MAIL_SEND_JOB } from "~/domain/mail/mail-sender.server";
import { mailWriter } from "~/features/mail/mail-writer";
import { sharedI18n } from "~/i18n/shared-i18n.server";
import type { PterodactylProvisioning } from "./provisioning.schemas";
import {
  adminId,
  customerWithCoins,
  orderInput,
  placedOrder,
  productId,
} from "../../../tests/support/money-fixtures";
import { startFakePanel, type FakePanel } from "../../../tests/support/fake-pterodactyl";
import { allowLocalPanel } from "../../../tests/support/panel-snapshot";
import { mtaProvisioning, sampProvisioning } from "../../../tests/support/provisioning-fixtures";
import { readRow, readRows } from "../../../tests/support/read-column";
import { steppedWorker } from "../../../tests/support/stepped-worker";
import { describeEachDatabase } from "../../../tests/support/test-database";
import { inTransaction } from "~/db/transaction";
import { eraseAccount } from "~/domain/accounts/account-deletion.server";
import { enqueueJob } from "~/domain/jobs/jobs.server";
import { PANEL_CHECK_JOB, savePanelConnection, requestPanelCheck } from "./panel-connection.server";
import { PANEL_CREATE_JOB, PANEL_RECONCILE_JOB } from "./panel-job-types";
import { queuePanelUserSync } from "./panel-user-job.server";
import { provisioningHandlers } from "./provisioning-jobs.server";
import {
  adminServicePanel,
  reinstallPanelServer,
  relinkPanelServer,
  retryProvisioning,
} from "./provisioning.server";

// Approve → a server on the (fake) Pterodactyl panel, through the worker, with the clock, the backoff
// and the install polling injected so each case runs in seconds (docs/provisioning.md).

const SECRET = "a-test-secret-of-at-least-thirty-two-characters";
const CONFIG = { leaseMs: 30_000, pollMs: 1_000, backoffMs: 50, concurrency: 4 };
const LOCATION = "Frankfurt";
/** An hour of the injected clock, as in production: long enough for the 200 below to be looked at. */
const INSTALL_TIMEOUT_MS = 3_600_000;

const sampBlock = (eggId: number, nestId: number) => sampProvisioning({ eggId, nestId });
const mtaBlock = (eggId: number, nestId: number) => mtaProvisioning({ eggId, nestId });

const range = (from: number, count: number) => Array.from({ length: count }, (_, i) => from + i);

describeEachDatabase("provisioning on the game panel", (app) => {
  let panel: FakePanel;
  let clock: Date;
  let worker: Worker;
  let sampProduct: number;
  let mtaProduct: number;

  const handlers = () => ({
    ...JOB_HANDLERS,
    ...provisioningHandlers({
      secret: SECRET,
      // Real time, unlike the clock: no case here waits on it, and on a loaded machine a fake panel's
      // answer can take longer than half a second, which turned a create into a retried one.
      timeoutMs: 5_000,
      pollMs: 1_000,
      installTimeoutMs: INSTALL_TIMEOUT_MS,
    }),
  });

  /**
   * The orders' and approvals' mail is a job too (docs/mail.md), with no handler in this worker: this
   * test is about the panel's jobs, which would otherwise wait behind it.
   */
  async function dropMailJobs() {
    await app().db.deleteFrom("jobs").where("type", "=", MAIL_SEND_JOB).execute();
  }

  /** Rounds of the worker, each a second of the injected clock later. */
  async function runJobs(rounds = 12) {
    await dropMailJobs();
    for (let round = 0; round < rounds; round++) {
      clock = new Date(clock.getTime() + 1_000);
      await worker.tick();
      await worker.idle();
    }
  }

  async function setBlock(
    db: AppServices["db"],
    id: number,
    block: PterodactylProvisioning | null,
  ) {
    await db
      .updateTable("products")
      .set({ provisioning: block ? JSON.stringify(block) : null })
      .where("id", "=", id)
      .execute();
  }

  async function approvedService(slug: "samp-starter" | "mta-starter", user?: string) {
    const customer = user ?? (await customerWithCoins(app(), 100_000));
    const placed = await placedOrder(app(), customer, {
      productId: await productId(app(), slug),
      location: LOCATION,
    });
    const approved = await approveOrder(app().db, {
      orderId: placed.id,
      actorId: await adminId(app()),
    });
    if (!approved.ok) throw new Error(approved.error);
    return { user: customer, serviceId: approved.order.hostingServiceId! };
  }

  /** The panel's server of a service, found by the external id the create job gives it. */
  const serverOf = (serviceId: number) => panel.serverByExternalId(`hf-svc-${serviceId}`);
  /** Every server the panel holds under that external id: one, unless a create ran twice. */
  const serversOf = (serviceId: number) =>
    panel.servers.filter((server) => server.externalId === `hf-svc-${serviceId}`);

  async function panelRow(serviceId: number) {
    return readRow(
      app().db,
      "hosting_services",
      ["panel_state", "panel_server_id", "panel_address", "panel_ports", "panel_error"],
      { id: serviceId },
    );
  }

  beforeAll(async () => {
    sampProduct = await productId(app(), "samp-starter");
    mtaProduct = await productId(app(), "mta-starter");
  });

  beforeEach(async () => {
    const db = app().db;
    panel = await startFakePanel({ installReads: 1 });
    const de = panel.locations.find((location) => location.short === "de")!;
    const samp = panel.eggs.find((egg) => egg.name === "SA-MP")!;
    const mta = panel.eggs.find((egg) => egg.name === "Multi Theft Auto")!;
    await db.deleteFrom("panel_connections").execute();
    await db.deleteFrom("panel_port_claims").execute();
    await db.deleteFrom("panel_accounts").execute();
    // The fake panel is on 127.0.0.1.
    await allowLocalPanel(app());
    const saved = await savePanelConnection(
      db,
      {
        url: panel.url,
        apiKey: panel.apiKey,
        locationMap: { [LOCATION]: [de.id] },
        actorId: await adminId(app()),
      },
      { secret: SECRET },
    );
    expect(saved.ok).toBe(true);
    await setBlock(db, sampProduct, sampBlock(samp.id, samp.nestId));
    await setBlock(db, mtaProduct, mtaBlock(mta.id, mta.nestId));
    clock = new Date();
    worker = steppedWorker({
      db,
      handlers: handlers(),
      config: CONFIG,
      now: () => clock,
    });
  });

  afterEach(async () => {
    await worker.stop(1000);
    await panel.close();
    // Other suites' jobs must not meet a panel that is gone.
    await app().db.deleteFrom("jobs").where("type", "like", "provisioning.%").execute();
  });

  afterAll(async () => {
    await setBlock(app().db, sampProduct, null);
    await setBlock(app().db, mtaProduct, null);
  });

  it("makes the server of an approved order with the product's limits, and shows its address", async () => {
    const { user, serviceId } = await approvedService("samp-starter");
    expect((await panelRow(serviceId)).panel_state).toBe("pending");
    await runJobs();
    const row = await panelRow(serviceId);
    expect(row.panel_state).toBe("ready");
    const server = serverOf(serviceId)!;
    expect(server).toBeDefined();
    expect(server.memory).toBe(1024);
    expect(server.disk).toBe(5120);
    expect(server.environment.MAX_PLAYERS).toMatch(/^\d+$/);
    // The panel user is the customer's, made with their address and our external id.
    const owner = panel.users.find((each) => each.id === server.userId)!;
    expect(owner.externalId).toBe(`hf-user-${user}`);
    const [allocation] = panel.allocationsOf(server.id);
    expect(row.panel_address).toBe(`${allocation!.alias ?? allocation!.ip}:${allocation!.port}`);
    const page = await listCustomerServicePage(app().db, user, { page: 1, pageSize: 10 });
    expect(page.services[0]!.panel).toMatchObject({
      state: "ready",
      address: row.panel_address,
      link: `${panel.url}/server/${server.identifier}`,
    });
    // The customer was told once, of the server by its plan and its own name.
    const told = await readRows(app().db, "notifications", ["params"], {
      user_id: user,
      kind: "service_ready",
    });
    expect(told.map((row) => JSON.parse(row.params))).toEqual([
      { service: "SAMP Starter (Test server)" },
    ]);
    // Every call is in the service's log, without the key.
    const admin = await adminServicePanel(app().db, serviceId);
    expect(admin!.calls.length).toBeGreaterThan(3);
    expect(JSON.stringify(admin!.calls)).not.toContain(panel.apiKey);
  });

  it("gives each server its own RCON password, drawn at the create and kept nowhere of ours", async () => {
    const samp = panel.eggs.find((egg) => egg.name === "SA-MP")!;
    await setBlock(app().db, sampProduct, {
      ...sampBlock(samp.id, samp.nestId),
      environment: { VERSION: "0.3.7" },
      generatedVariables: ["RCON_PASS"],
    });
    const first = await approvedService("samp-starter");
    const second = await approvedService("samp-starter");
    await runJobs();
    const passwords = [first, second].map(
      ({ serviceId }) => serverOf(serviceId)!.environment.RCON_PASS,
    );
    for (const password of passwords) expect(password).toMatch(/^[A-Za-z0-9]{16}$/);
    expect(passwords[0]).not.toBe(passwords[1]);
    // Neither the plan, the call log nor any other column of the services holds it.
    const rows = await app()
      .db.selectFrom("hosting_services")
      .selectAll()
      .where("id", "in", [first.serviceId, second.serviceId])
      .execute();
    const calls = await app().db.selectFrom("panel_calls").selectAll().execute();
    for (const password of passwords) {
      expect(JSON.stringify(rows)).not.toContain(password);
      expect(JSON.stringify(calls)).not.toContain(password);
    }
  });

  it("gives an MTA server P, P+123 and an HTTP port on one IP, written into the egg's variable", async () => {
    const { serviceId } = await approvedService("mta-starter");
    await runJobs();
    const row = await panelRow(serviceId);
    expect(row.panel_state).toBe("ready");
    const server = serverOf(serviceId)!;
    const allocations = panel.allocationsOf(server.id);
    expect(allocations).toHaveLength(3);
    expect(new Set(allocations.map((allocation) => allocation.ip)).size).toBe(1);
    const main = allocations.find((allocation) => allocation.id === server.allocationId)!;
    const ports = allocations.map((allocation) => allocation.port);
    expect(ports).toContain(main.port + 123);
    const http = ports.find((port) => port !== main.port && port !== main.port + 123)!;
    expect(server.environment.SERVER_WEBPORT).toBe(String(http));
    expect(JSON.parse(row.panel_ports!)).toEqual({
      game: main.port,
      announce: main.port + 123,
      http,
    });
  });

  /** The customer's messages of `kind`, oldest first. */
  const mailOf = (user: string, kind: string) =>
    readRows(
      app().db,
      "mail_outbox",
      ["unique_key", "locale", "params"],
      { user_id: user, kind },
      "id",
    );

  /** A queued message's text as the send job writes it (the server's templates, in its language). */
  async function textOf(
    row: { locale: string; params: string },
    kind: "orderApproved" | "serviceReady",
  ) {
    const write = mailWriter({
      settings: () => app().settings.get(),
      publicUrl: app().env.PUBLIC_URL,
      i18n: sharedI18n,
    });
    return (await write({ kind, locale: row.locale, params: JSON.parse(row.params) })).text;
  }

  it("says at approval that the server is being set up, and mails once that it is ready, with MTA's three ports", async () => {
    const { user, serviceId } = await approvedService("mta-starter");
    // Approved is not ready: the approval says the server is being made and that its address follows.
    const [approval] = await mailOf(user, "orderApproved");
    expect(JSON.parse(approval!.params)).toMatchObject({ setup: "panel" });
    const approvalText = await textOf(approval!, "orderApproved");
    expect(approvalText).toContain("We are setting up your server now");
    expect(approvalText).not.toContain("is now active");
    expect(await mailOf(user, "serviceReady")).toEqual([]);

    await runJobs();
    const row = await panelRow(serviceId);
    expect(row.panel_state).toBe("ready");
    const server = serverOf(serviceId)!;
    const ports = JSON.parse(row.panel_ports!) as { game: number; announce: number; http: number };
    const ready = await mailOf(user, "serviceReady");
    expect(ready).toHaveLength(1);
    expect(JSON.parse(ready[0]!.params)).toEqual({
      service: "MTA Starter (Test server)",
      address: row.panel_address,
      ports: { game: ports.game, announce: ports.game + 123, http: ports.http },
      panelLink: `${panel.url}/server/${server.identifier}`,
      secretsDrawn: false,
    });
    const text = await textOf(ready[0]!, "serviceReady");
    expect(text).toContain(`Its address: ${row.panel_address}`);
    expect(text).toContain(
      `Its ports: game ${ports.game}, server list (ASE) ${ports.game + 123}, HTTP ${ports.http}.`,
    );
    expect(text).toContain(
      "The first time, choose your password with the link the panel emailed you",
    );
    expect(text).toContain(`Open game panel:\n${panel.url}/server/${server.identifier}`);

    // The worker coming round again tells nothing twice; a reinstall, which wipes the server, is told
    // again once it is back (docs/mail.md: one message per install).
    await runJobs(3);
    expect(await mailOf(user, "serviceReady")).toHaveLength(1);
    const actorId = await adminId(app());
    expect(await reinstallPanelServer(app().db, { serviceId, actorId, now: clock })).toEqual({
      ok: true,
    });
    await runJobs(4);
    expect((await panelRow(serviceId)).panel_state).toBe("ready");
    const again = await mailOf(user, "serviceReady");
    expect(again).toHaveLength(2);
    expect(new Set(again.map((each) => each.unique_key)).size).toBe(2);
  });

  it("says at approval that our team sets up a product made by hand, and mails no ready message", async () => {
    const user = await customerWithCoins(app(), 100_000);
    const placed = await placedOrder(app(), user, {
      productId: await productId(app(), "vps-entry"),
    });
    const approved = await approveOrder(app().db, {
      orderId: placed.id,
      actorId: await adminId(app()),
    });
    expect(approved.ok).toBe(true);
    const [approval] = await mailOf(user, "orderApproved");
    expect(JSON.parse(approval!.params)).toMatchObject({ setup: "manual" });
    const text = await textOf(approval!, "orderApproved");
    expect(text).toContain("Our team is setting up your service");
    expect(text).not.toContain("is now active");
    await runJobs(3);
    expect(await mailOf(user, "serviceReady")).toEqual([]);
  });

  it("mirrors a suspension, a reactivation, a termination and a deletion on the panel", async () => {
    const { serviceId } = await approvedService("samp-starter");
    await runJobs();
    const actorId = await adminId(app());
    const server = () => serverOf(serviceId);
    /** An admin's status change, then the jobs it queued: the panel state the service ends in. */
    const changed = async (action: "suspend" | "reactivate" | "terminate") => {
      expect(await changeServiceStatus(app().db, { actorId, serviceId, action })).toMatchObject({
        ok: true,
      });
      await runJobs(3);
      return (await panelRow(serviceId)).panel_state;
    };
    expect(await changed("suspend")).toBe("suspended");
    expect(server()!.suspended).toBe(true);
    expect(await changed("reactivate")).toBe("ready");
    expect(server()!.suspended).toBe(false);
    expect(await changed("terminate")).toBe("deleted");
    expect(server()).toBeUndefined();
    const claims = await readRows(app().db, "panel_port_claims", ["allocation_id"], {
      hosting_service_id: serviceId,
    });
    expect(claims).toEqual([]);

    // A deleted service's server goes too, found by the id the job was given.
    const other = await approvedService("samp-starter");
    await runJobs();
    expect(serverOf(other.serviceId)).toBeDefined();
    expect(await deleteService(app().db, { actorId, serviceId: other.serviceId })).toEqual({
      ok: true,
    });
    await runJobs(3);
    expect(serverOf(other.serviceId)).toBeUndefined();
  });

  it("makes one server when the panel made it but its answer was lost", async () => {
    panel.failNext("lost", 1, { route: "POST /servers" });
    const { serviceId } = await approvedService("samp-starter");
    await runJobs(20);
    expect((await panelRow(serviceId)).panel_state).toBe("ready");
    expect(serversOf(serviceId)).toHaveLength(1);
    expect(panel.requestCount("POST /servers")).toBe(1);
  });

  it("records an MTA server's own ports when a later attempt finds the server an earlier one made", async () => {
    // Another server holds the node's lowest ports first: the node's listing shows them as assigned.
    const first = await approvedService("samp-starter");
    await runJobs();
    expect((await panelRow(first.serviceId)).panel_state).toBe("ready");
    // The create refused (nothing made), then made with its answer lost: the attempt ends there, and the
    // next one finds the server by its external id and reads where it answers.
    panel.failNext("500", 1, { route: "POST /servers" });
    panel.failNext("lost", 1, { route: "POST /servers" });
    const { serviceId } = await approvedService("mta-starter");
    await runJobs(20);
    const row = await panelRow(serviceId);
    expect(row.panel_state).toBe("ready");
    expect(serversOf(serviceId)).toHaveLength(1);
    const server = serverOf(serviceId)!;
    const allocations = panel.allocationsOf(server.id);
    const main = allocations.find((allocation) => allocation.id === server.allocationId)!;
    const http = allocations.find(
      (allocation) => allocation !== main && allocation.port !== main.port + 123,
    )!;
    expect(row.panel_address).toBe(`${main.alias ?? main.ip}:${main.port}`);
    expect(JSON.parse(row.panel_ports!)).toEqual({
      game: main.port,
      announce: main.port + 123,
      http: http.port,
    });
  });

  it("ends a create the panel never answered as a dead job and a failed service, then Retry makes it", async () => {
    panel.failEvery(1, "down");
    const { serviceId } = await approvedService("samp-starter");
    // The backoff starts at 50 ms and doubles, six hours at most: 12 attempts fit in a day of the clock.
    await dropMailJobs();
    for (let round = 0; round < 60; round++) {
      clock = new Date(clock.getTime() + 30_000);
      await worker.tick();
      await worker.idle();
    }
    const row = await panelRow(serviceId);
    expect(row.panel_state).toBe("failed");
    expect(row.panel_error).toBeTruthy();
    const job = await readRow(app().db, "jobs", ["state"], {
      type: PANEL_CREATE_JOB,
      unique_key: `panel:create:${serviceId}`,
    });
    expect(job.state).toBe("dead");
    panel.clearFailures();
    expect(
      await retryProvisioning(app().db, { serviceId, actorId: await adminId(app()), now: clock }),
    ).toEqual({ ok: true });
    await runJobs();
    expect((await panelRow(serviceId)).panel_state).toBe("ready");
    expect(serversOf(serviceId)).toHaveLength(1);
  });

  it("fails visibly when the install ends in failure, or never ends", async () => {
    // A panel whose installs end only when the test says.
    await panel.close();
    panel = await startFakePanel({ installReads: Infinity });
    await savePanelConnection(
      app().db,
      {
        url: panel.url,
        apiKey: panel.apiKey,
        locationMap: { [LOCATION]: [panel.locations.find((each) => each.short === "de")!.id] },
        actorId: await adminId(app()),
      },
      { secret: SECRET },
    );
    const { user, serviceId } = await approvedService("samp-starter");
    await runJobs(3);
    expect((await panelRow(serviceId)).panel_state).toBe("installing");
    panel.finishInstall(serverOf(serviceId)!.id, "install_failed");
    await runJobs(3);
    expect(await panelRow(serviceId)).toMatchObject({
      panel_state: "failed",
      panel_error: "provisioning.failures.installFailed|install_failed",
    });
    // A failed install is no ready server: nothing says it is.
    expect(await mailOf(user, "serviceReady")).toEqual([]);

    const slow = await approvedService("samp-starter");
    await runJobs(3);
    expect((await panelRow(slow.serviceId)).panel_state).toBe("installing");
    clock = new Date(clock.getTime() + INSTALL_TIMEOUT_MS);
    await runJobs(3);
    expect(await panelRow(slow.serviceId)).toMatchObject({
      panel_state: "failed",
      panel_error: "provisioning.failures.installTimedOut",
    });
    expect(await mailOf(slow.user, "serviceReady")).toEqual([]);
  });

  it("fails visibly when no node of the location has a fitting set of ports", async () => {
    const uk = panel.locations.find((location) => location.short === "uk")!;
    await app()
      .db.updateTable("panel_connections")
      .set({ location_map: JSON.stringify({ [LOCATION]: [uk.id] }) })
      .execute();
    // The UK node has no port of MTA's range.
    const { serviceId } = await approvedService("mta-starter");
    await runJobs();
    const row = await panelRow(serviceId);
    expect(row.panel_state).toBe("failed");
    expect(row.panel_error).toBe("provisioning.failures.noPorts");
  });

  it("checks the connection through a one-off failure of the panel, and says so when it lasts", async () => {
    const checkRow = () =>
      app()
        .db.selectFrom("panel_connections")
        .select(["check_error", "snapshot"])
        .executeTakeFirstOrThrow();
    // One failed read (a page of eggs) is sent again at once: the check still finds everything.
    panel.failNext("500", 1, { route: "GET /nests/{nest}/eggs" });
    expect(await requestPanelCheck(app().db, { now: clock })).toEqual({ ok: true });
    await runJobs(2);
    const passed = await checkRow();
    expect(passed.check_error).toBeNull();
    expect(passed.snapshot).toContain("SA-MP");
    // A panel that fails it twice is a failed check, with the panel's words, the last snapshot kept.
    panel.failNext("500", 2, { route: "GET /nests/{nest}/eggs" });
    expect(await requestPanelCheck(app().db, { now: clock })).toEqual({ ok: true });
    await runJobs(2);
    const failed = await checkRow();
    expect(failed.check_error).toMatch(/^provisioning\.errors\.panelAnswered\|500 /);
    expect(failed.snapshot).toBe(passed.snapshot);
  });

  it("sends the key only to the address it was saved with: the check, the hourly refresh and the create", async () => {
    const other = await startFakePanel({ apiKey: panel.apiKey });
    try {
      const checkError = async () =>
        (await readRow(app().db, "panel_connections", ["check_error"], { id: 1 })).check_error;
      // The row's address changed without the key being saved again (by hand, or by a bug).
      await app().db.updateTable("panel_connections").set({ url: other.url }).execute();
      expect(await requestPanelCheck(app().db, { now: clock })).toEqual({ ok: true });
      await runJobs(2);
      expect(await checkError()).toBe("provisioning.errors.keyNotForUrl");
      // The hourly refresh is the same job, queued by its schedule.
      await app().db.updateTable("panel_connections").set({ check_error: null }).execute();
      await inTransaction(app().db, (trx) =>
        enqueueJob(trx, { type: PANEL_CHECK_JOB, schedule: "provisioning.refresh", now: clock }),
      );
      await runJobs(2);
      expect(await checkError()).toBe("provisioning.errors.keyNotForUrl");
      const { serviceId } = await approvedService("samp-starter");
      await runJobs(3);
      expect(await panelRow(serviceId)).toMatchObject({
        panel_state: "failed",
        panel_error: "provisioning.failures.keyNotForUrl",
      });
      expect(other.requests).toEqual([]);
      expect(panel.requests).toEqual([]);
    } finally {
      await other.close();
    }
  });

  it("calls no panel on the local network once the setting is off", async () => {
    await allowLocalPanel(app(), false);
    expect(await requestPanelCheck(app().db, { now: clock })).toEqual({ ok: true });
    await runJobs(2);
    expect(await readRow(app().db, "panel_connections", ["check_error"], { id: 1 })).toEqual({
      check_error: "provisioning.errors.addressRefused",
    });
    const { serviceId } = await approvedService("samp-starter");
    await runJobs(3);
    expect(await panelRow(serviceId)).toMatchObject({
      panel_state: "failed",
      panel_error: "provisioning.failures.addressRefused",
    });
    expect(panel.requests).toEqual([]);
  });

  it("refuses an order, and an approval, where the last check found no room", async () => {
    expect(await requestPanelCheck(app().db, { now: clock })).toEqual({ ok: true });
    await runJobs(2);
    const fr = panel.locations.find((location) => location.short === "fr")!;
    await app()
      .db.updateTable("panel_connections")
      .set({ location_map: JSON.stringify({ [LOCATION]: [fr.id] }) })
      .execute();
    // France's one node has 2 GiB left; ask for 4.
    const samp = panel.eggs.find((egg) => egg.name === "SA-MP")!;
    await setBlock(app().db, sampProduct, { ...sampBlock(samp.id, samp.nestId), memoryMb: 4096 });
    const customer = await customerWithCoins(app(), 100_000);
    const refused = await placeOrder(
      app().db,
      customer,
      orderInput({ productId: sampProduct, location: LOCATION }),
    );
    expect(refused).toMatchObject({ ok: false, error: "orders.errors.locationFull" });
  });

  it("refuses an approval where the room went since the order", async () => {
    expect(await requestPanelCheck(app().db, { now: clock })).toEqual({ ok: true });
    await runJobs(2);
    const customer = await customerWithCoins(app(), 100_000);
    const placed = await placedOrder(app(), customer, {
      productId: sampProduct,
      location: LOCATION,
    });
    // The nodes filled up meanwhile, as the next check read them.
    const snapshot = await app()
      .db.selectFrom("panel_connections")
      .select("snapshot")
      .executeTakeFirstOrThrow();
    const full = JSON.parse(snapshot.snapshot!) as {
      nodes: { allocatedMemoryMb: number; memoryMb: number }[];
    };
    for (const node of full.nodes) node.allocatedMemoryMb = node.memoryMb * 2;
    await app()
      .db.updateTable("panel_connections")
      .set({ snapshot: JSON.stringify(full) })
      .execute();
    expect(
      await approveOrder(app().db, { orderId: placed.id, actorId: await adminId(app()) }),
    ).toMatchObject({ ok: false, error: "orders.errors.locationFull" });
    const order = await readRow(app().db, "orders", ["status", "hosting_service_id"], {
      id: placed.id,
    });
    expect(order).toEqual({ status: "pending", hosting_service_id: null });
  });

  it("keeps the panel user in step with the customer, and removes it after a deleted account's last server", async () => {
    const { user, serviceId } = await approvedService("samp-starter");
    await runJobs();
    const panelUser = () => panel.userByExternalId(`hf-user-${user}`);
    expect(panelUser()).toBeDefined();
    await app()
      .db.updateTable("users")
      .set({ email: `moved-${serviceId}@example.com` })
      .where("id", "=", user)
      .execute();
    await inTransaction(app().db, (trx) => queuePanelUserSync(trx, user, clock));
    await runJobs(2);
    expect(panelUser()!.email).toBe(`moved-${serviceId}@example.com`);

    const actorId = await adminId(app());
    const email = `moved-${serviceId}@example.com`;
    await inTransaction(app().db, (trx) => eraseAccount(trx, { id: user, email }, actorId));
    await runJobs(2);
    // Its server is still there: the panel user stays until it goes.
    expect(panelUser()).toBeDefined();
    expect(
      await changeServiceStatus(app().db, { actorId, serviceId, action: "terminate" }),
    ).toMatchObject({ ok: true });
    await runJobs(4);
    expect(serverOf(serviceId)).toBeUndefined();
    expect(panelUser()).toBeUndefined();
    expect(await readRows(app().db, "panel_accounts", ["user_id"], { user_id: user })).toEqual([]);
  });

  it("reports what differs from the panel at night, and changes nothing", async () => {
    const { serviceId } = await approvedService("samp-starter");
    await runJobs();
    const server = serverOf(serviceId)!;
    server.status = "suspended";
    const samp = panel.eggs.find((egg) => egg.name === "SA-MP")!;
    const free = panel.allocations.find((allocation) => allocation.serverId === null)!;
    panel.addServer({
      userId: server.userId,
      eggId: samp.id,
      allocationId: free.id,
      externalId: "hf-svc-999999",
      environment: { VERSION: "0.3.7", RCON_PASS: "x", MAX_PLAYERS: "10" },
    });
    await inTransaction(app().db, (trx) =>
      enqueueJob(trx, { type: PANEL_RECONCILE_JOB, now: clock }),
    );
    await runJobs(2);
    const drift = await app()
      .db.selectFrom("panel_drift")
      .select(["kind", "hosting_service_id"])
      .execute();
    expect(drift).toEqual(
      expect.arrayContaining([
        { kind: "suspended_there", hosting_service_id: serviceId },
        { kind: "extra", hosting_service_id: 999999 },
      ]),
    );
    // Nothing changed on either side.
    expect((await panelRow(serviceId)).panel_state).toBe("ready");
    expect(serverOf(serviceId)!.suspended).toBe(true);
    expect(panel.serverByExternalId("hf-svc-999999")).toBeDefined();
  });

  it("re-links a service to a server made by hand, and reinstalls it", async () => {
    const { serviceId } = await approvedService("samp-starter");
    await runJobs();
    const handMade = panel.servers.find((server) => server.name === "Hand-made SA-MP")!;
    const actorId = await adminId(app());
    expect(
      await relinkPanelServer(app().db, {
        serviceId,
        server: handMade.identifier,
        actorId,
        now: clock,
      }),
    ).toEqual({ ok: true });
    await runJobs(2);
    const row = await panelRow(serviceId);
    expect(row).toMatchObject({ panel_state: "ready", panel_server_id: handMade.id });
    const [allocation] = panel.allocationsOf(handMade.id);
    expect(row.panel_address).toBe(`${allocation!.alias ?? allocation!.ip}:${allocation!.port}`);
    expect(await reinstallPanelServer(app().db, { serviceId, actorId, now: clock })).toEqual({
      ok: true,
    });
    await runJobs(1);
    expect((await panelRow(serviceId)).panel_state).toBe("installing");
    await runJobs(3);
    expect((await panelRow(serviceId)).panel_state).toBe("ready");
    // A server that does not exist: the re-link fails visibly.
    expect(
      await relinkPanelServer(app().db, { serviceId, server: "nothere1", actorId, now: clock }),
    ).toEqual({ ok: true });
    await runJobs(2);
    expect(await panelRow(serviceId)).toMatchObject({
      panel_state: "failed",
      panel_error: "provisioning.failures.relinkNotFound|nothere1",
    });
  });

  it("queues a reinstall pressed twice once, says so, and shows it queued, running, installing", async () => {
    const { serviceId } = await approvedService("samp-starter");
    await runJobs();
    const actorId = await adminId(app());
    const reinstall = () => reinstallPanelServer(app().db, { serviceId, actorId, now: clock });
    const reinstalls = async () =>
      (
        await readRows(app().db, "audit_log", ["id"], {
          action: "service.panel_reinstall",
          target_id: String(serviceId),
        })
      ).length;
    const view = async () => {
      const panelView = (await adminServicePanel(app().db, serviceId))!;
      return [panelView.state, panelView.reinstall];
    };
    expect(await view()).toEqual(["ready", null]);

    expect(await reinstall()).toEqual({ ok: true });
    expect(await view()).toEqual(["ready", "queued"]);
    // Pressed again before the worker took it: refused as queued already, nothing more queued or logged.
    expect(await reinstall()).toEqual({
      ok: false,
      kind: "conflict",
      error: "provisioning.errors.reinstallQueued",
    });
    const jobs = await readRows(app().db, "jobs", ["state"], {
      unique_key: `panel:reinstall:${serviceId}`,
    });
    expect(jobs).toEqual([{ state: "queued" }]);
    expect(await reinstalls()).toBe(1);
    // While the worker sends it to the panel, the badge says so.
    await app()
      .db.updateTable("jobs")
      .set({ state: "running" })
      .where("unique_key", "=", `panel:reinstall:${serviceId}`)
      .execute();
    expect(await view()).toEqual(["ready", "running"]);
    expect((await reinstall()).ok).toBe(false);
    await app()
      .db.updateTable("jobs")
      .set({ state: "queued" })
      .where("unique_key", "=", `panel:reinstall:${serviceId}`)
      .execute();

    // The panel took it: the server installs, and a press now says it is installing.
    await runJobs(1);
    expect(await view()).toEqual(["installing", null]);
    expect(await reinstall()).toEqual({
      ok: false,
      kind: "conflict",
      error: "provisioning.errors.installRunning",
    });
    await runJobs(3);
    expect(await view()).toEqual(["ready", null]);
    // Once it is done, the next reinstall is a new one.
    expect(await reinstall()).toEqual({ ok: true });
    expect(await reinstalls()).toBe(2);
  });

  it("re-links by the panel's id, and by an identifier made only of digits", async () => {
    const { serviceId } = await approvedService("samp-starter");
    await runJobs();
    const actorId = await adminId(app());
    const samp = panel.eggs.find((egg) => egg.name === "SA-MP")!;
    const free = panel.allocations.find((allocation) => allocation.serverId === null)!;
    // One identifier in 43 is eight digits (the uuid's first eight hex characters). This one also
    // reads as the id of another server, "Hand-made SA-MP": an identifier must not be taken for it.
    const digits = panel.addServer({
      userId: serverOf(serviceId)!.userId,
      eggId: samp.id,
      allocationId: free.id,
      name: "Digits",
      uuid: "00000002-6f1e-4c3a-9b7d-0a1b2c3d4e5f",
    });
    const handMade = panel.servers.find((server) => server.name === "Hand-made SA-MP")!;
    expect([digits.identifier, handMade.id]).toEqual(["00000002", 2]);
    const relinkTo = async (server: string) => {
      expect(await relinkPanelServer(app().db, { serviceId, server, actorId, now: clock })).toEqual(
        {
          ok: true,
        },
      );
      await runJobs(2);
      return panelRow(serviceId);
    };
    expect(await relinkTo(digits.identifier)).toMatchObject({
      panel_state: "ready",
      panel_server_id: digits.id,
    });
    expect(await relinkTo(String(handMade.id))).toMatchObject({
      panel_state: "ready",
      panel_server_id: handMade.id,
    });
    expect(await relinkTo(digits.uuid)).toMatchObject({
      panel_state: "ready",
      panel_server_id: digits.id,
    });
  });

  it("makes every server when jobs side by side keep picking the same lowest ports", async () => {
    // A panel that takes its time to answer, as a real one does: jobs at once list the same free ports
    // and pick the same lowest set, so most of their claims meet another job's first.
    // Just the ports 60 servers take, a quarter MTA: 45 + 15 one-port, and 15 sets of P and P + 123.
    const big = bigNode([...range(7000, 60), ...range(30000, 15), ...range(30123, 15)]);
    const user = await customerWithCoins(app(), 10_000_000);
    const services: number[] = [];
    for (let index = 0; index < 60; index++)
      services.push(
        (await approvedService(index % 4 === 0 ? "mta-starter" : "samp-starter", user)).serviceId,
      );
    // The other nodes of the location are full: every server goes on the big one.
    for (const node of panel.nodes) if (node.id !== big.id) node.maintenance = true;
    panel.setAnswerDelay({ min: 5, max: 25 });
    // Twelve jobs at once, as three worker processes of four would run them.
    await worker.stop(1000);
    worker = steppedWorker({
      db: app().db,
      handlers: handlers(),
      config: { ...CONFIG, concurrency: 12 },
      now: () => clock,
    });
    await dropMailJobs();
    expect(await runUntilReady(services, 300)).toEqual([]);
    const taken = takenAllocations();
    expect(new Set(taken).size).toBe(taken.length);
    // The node is full: each of its ports went to one of them.
    expect(panel.allocations.filter((a) => a.nodeId === big.id && a.serverId === null)).toEqual([]);
  }, 120_000);

  it("makes 200 servers while the panel fails one call in five: none twice, no port twice", async () => {
    // A big node with room for all of them: 200 one-port sets and 60 MTA sets (P, P+123, H).
    bigNode([...range(7000, 200), ...range(30000, 60), ...range(30123, 60), ...range(31000, 60)]);
    const de = panel.locations.find((location) => location.short === "de")!;
    await app()
      .db.updateTable("panel_connections")
      .set({ location_map: JSON.stringify({ [LOCATION]: [de.id] }) })
      .execute();
    panel.failEvery(5, ["500", "lost", "429", "down"]);
    const user = await customerWithCoins(app(), 10_000_000);
    const services: number[] = [];
    for (let index = 0; index < 200; index++)
      services.push(
        (await approvedService(index % 4 === 0 ? "mta-starter" : "samp-starter", user)).serviceId,
      );
    await dropMailJobs();
    expect(await runUntilReady(services, 600)).toEqual([]);
    const ours = panel.servers.filter((server) => server.externalId?.startsWith("hf-svc-"));
    const byExternal = new Map<string, number>();
    for (const server of ours)
      byExternal.set(server.externalId!, (byExternal.get(server.externalId!) ?? 0) + 1);
    expect([...byExternal.values()].filter((count) => count > 1)).toEqual([]);
    for (const id of services) expect(byExternal.get(`hf-svc-${id}`)).toBe(1);
    const taken = takenAllocations();
    expect(new Set(taken).size).toBe(taken.length);
    // What we recorded is each server's own: its address, and its ports (MTA's three).
    const rows = await app()
      .db.selectFrom("hosting_services")
      .select(["id", "panel_server_id", "panel_address", "panel_ports"])
      .where("id", "in", services)
      .execute();
    const recordedWrong = rows.filter((row) => {
      const server = panel.servers.find((candidate) => candidate.id === row.panel_server_id)!;
      const allocations = panel.allocationsOf(server.id);
      const main = allocations.find((allocation) => allocation.id === server.allocationId)!;
      const recorded = Object.values(JSON.parse(row.panel_ports ?? "{}") as Record<string, number>);
      return (
        row.panel_address !== `${main.alias ?? main.ip}:${main.port}` ||
        recorded.sort().join() !==
          allocations
            .map((allocation) => allocation.port)
            .sort()
            .join()
      );
    });
    expect(recordedWrong.map((row) => row.id)).toEqual([]);
  }, 120_000);

  /**
   * Runs the worker two seconds of clock at a time, at most `rounds` times, until every one of
   * `services` is ready; gives those that are not, with their state and reason.
   */
  async function runUntilReady(services: number[], rounds: number) {
    const notReady = () =>
      app()
        .db.selectFrom("hosting_services")
        .select(["id", "panel_state", "panel_error"])
        .where("id", "in", services)
        .where("panel_state", "!=", "ready")
        .execute();
    for (let round = 0; round < rounds; round++) {
      clock = new Date(clock.getTime() + 2_000);
      await worker.tick();
      await worker.idle();
      if (round % 10 === 9 && (await notReady()).length === 0) break;
    }
    return notReady();
  }

  /** A node in Germany with room for any number of servers, and these ports on one IP. */
  function bigNode(ports: number[]) {
    const de = panel.locations.find((location) => location.short === "de")!;
    const node = panel.addNode({
      name: "de-big",
      locationId: de.id,
      memory: 1_000_000,
      disk: 10_000_000,
    });
    panel.addAllocations(node.id, "10.0.9.10", ports);
    return node;
  }

  /** Every allocation id the panel's servers hold, once per server holding it. */
  function takenAllocations() {
    return panel.servers.flatMap((server) => panel.allocationsOf(server.id).map((a) => a.id));
  }
});
