import { randomUUID } from "node:crypto";
import { afterAll, afterEach, beforeAll, beforeEach, expect, it } from "vitest";
import type { AppServices } from "~/context.server";
import { inTransaction } from "~/db/transaction";
import { notifyAdmins } from "~/domain/jobs/alerts.server";
import { enqueueJob } from "~/domain/jobs/jobs.server";
import { changePlan } from "~/domain/hosting-services/plan-change.server";
import { JOB_HANDLERS } from "~/domain/jobs/registry.server";
import type { Worker } from "~/domain/jobs/runner.server";
import { MAIL_SEND_JOB } from "~/domain/mail/mail-sender.server";
import { approveOrder } from "~/domain/orders/orders.server";
import { startFakePanel, type FakePanel } from "../../../tests/support/fake-pterodactyl";
import {
  adminId,
  customerWithCoins,
  placedOrder,
  productId,
} from "../../../tests/support/money-fixtures";
import { allowLocalPanel } from "../../../tests/support/panel-snapshot";
import { mtaProvisioning, sampProvisioning } from "../../../tests/support/provisioning-fixtures";
import { readRow } from "../../../tests/support/read-column";
import { steppedWorker } from "../../../tests/support/stepped-worker";
import { describeEachDatabase } from "../../../tests/support/test-database";
import { savePanelConnection } from "./panel-connection.server";
import { PANEL_RESIZE_JOB } from "./panel-job-types";
import { provisioningHandlers } from "./provisioning-jobs.server";
import type { PterodactylProvisioning } from "./provisioning.schemas";

// A change of plan on a server of the (fake) game panel (docs/self-service.md): the resize job looks at
// the node's room, then sends the new build with the server's own allocations; a node without room, or
// a build the panel refuses, is a dead job staff see, and the customer keeps the plan they paid for.

const SECRET = "a-test-secret-of-at-least-thirty-two-characters";
const CONFIG = { leaseMs: 30_000, pollMs: 1_000, backoffMs: 50, concurrency: 4 };
const LOCATION = "Frankfurt";
const BUILD_ROUTE = "PATCH /servers/{server}/build";

describeEachDatabase("a server resized after a change of plan", (app) => {
  let panel: FakePanel;
  let clock: Date;
  let worker: Worker;
  const products: Record<string, number> = {};

  /** Rounds of the worker, each a second of the injected clock later (the mail's jobs left out). */
  async function runJobs(rounds = 12) {
    for (let round = 0; round < rounds; round++) {
      await app().db.deleteFrom("jobs").where("type", "=", MAIL_SEND_JOB).execute();
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

  /** A customer's approved order of `slug`, its server made on the panel. */
  async function madeServer(slug: string) {
    const user = await customerWithCoins(app(), 100_000);
    const placed = await placedOrder(app(), user, {
      productId: products[slug]!,
      location: LOCATION,
    });
    const approved = await approveOrder(app().db, {
      orderId: placed.id,
      actorId: await adminId(app()),
    });
    if (!approved.ok) throw new Error(approved.error);
    const serviceId = approved.order.hostingServiceId!;
    await runJobs();
    expect((await panelState(serviceId)).panel_state).toBe("ready");
    return { user, serviceId, server: panel.serverByExternalId(`hf-svc-${serviceId}`)! };
  }

  const panelState = (serviceId: number) =>
    readRow(app().db, "hosting_services", ["panel_state", "panel_error", "product_id"], {
      id: serviceId,
    });

  async function changeTo(user: string, serviceId: number, slug: string) {
    const changed = await changePlan(app().db, {
      userId: user,
      serviceId,
      toProductId: products[slug]!,
      idempotencyKey: randomUUID(),
      now: clock,
    });
    if (!changed.ok) throw new Error(changed.error);
    return changed.change;
  }

  const resizeJob = (planChangeId: number) =>
    app()
      .db.selectFrom("jobs")
      .select(["state", "last_error"])
      .where("type", "=", PANEL_RESIZE_JOB)
      .where("payload", "like", `%"planChangeId":${planChangeId}}%`)
      .executeTakeFirstOrThrow();

  beforeAll(async () => {
    for (const slug of ["samp-starter", "samp-premium", "mta-starter", "mta-advanced"])
      products[slug] = await productId(app(), slug);
    const at = new Date().toISOString();
    await app()
      .db.insertInto("product_plan_paths")
      .values([
        {
          from_product_id: products["samp-starter"]!,
          to_product_id: products["samp-premium"]!,
          created_at: at,
        },
        {
          from_product_id: products["mta-starter"]!,
          to_product_id: products["mta-advanced"]!,
          created_at: at,
        },
      ])
      .execute();
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
    const sampOn = { eggId: samp.id, nestId: samp.nestId };
    const mtaOn = { eggId: mta.id, nestId: mta.nestId };
    await setBlock(db, products["samp-starter"]!, sampProvisioning(sampOn));
    await setBlock(
      db,
      products["samp-premium"]!,
      sampProvisioning({ ...sampOn, memoryMb: 2048, diskMb: 10240, cpuPercent: 200, backups: 2 }),
    );
    await setBlock(db, products["mta-starter"]!, mtaProvisioning(mtaOn));
    await setBlock(
      db,
      products["mta-advanced"]!,
      mtaProvisioning({ ...mtaOn, memoryMb: 3072, diskMb: 15360 }),
    );
    clock = new Date();
    worker = steppedWorker({
      db,
      handlers: {
        ...JOB_HANDLERS,
        ...provisioningHandlers({
          secret: SECRET,
          timeoutMs: 5_000,
          pollMs: 1_000,
          installTimeoutMs: 3_600_000,
        }),
      },
      config: CONFIG,
      now: () => clock,
      // As the worker's process wires it: a dead job is told to each admin.
      onProblem: async (problem) => void (await notifyAdmins(db, problem)),
    });
  });

  afterEach(async () => {
    await worker.stop(1000);
    await panel.close();
    await app().db.deleteFrom("jobs").where("type", "like", "provisioning.%").execute();
  });

  afterAll(async () => {
    for (const id of Object.values(products)) await setBlock(app().db, id, null);
    await app().db.deleteFrom("product_plan_paths").execute();
  });

  it("sends the new plan's build after looking at the node's room, the server's allocation kept", async () => {
    const { user, serviceId, server } = await madeServer("samp-starter");
    const allocation = server.allocationId;
    const change = await changeTo(user, serviceId, "samp-premium");
    expect(
      await readRow(app().db, "plan_changes", ["resize_state"], { id: change.planChangeId }),
    ).toEqual({ resize_state: "queued" });
    const nodesBefore = panel.requestCount("GET /nodes");
    await runJobs(3);
    expect(panel.requestCount("GET /nodes")).toBeGreaterThan(nodesBefore);
    expect(server).toMatchObject({ memory: 2048, disk: 10240, cpu: 200, allocationId: allocation });
    // The new plan's backups, as the order's choice (the free one) gives them (serverBuildFor).
    expect(server.backupLimit).toBe(2);
    const [build] = panel.requests.filter((request) => request.route === BUILD_ROUTE);
    expect(build!.body).toMatchObject({
      allocation,
      limits: { memory: 2048, disk: 10240, cpu: 200 },
      add_allocations: [],
      remove_allocations: [],
    });
    expect(await resizeJob(change.planChangeId)).toMatchObject({ state: "succeeded" });
    expect(
      await readRow(app().db, "plan_changes", ["resize_state"], { id: change.planChangeId }),
    ).toEqual({ resize_state: "done" });
    // Run again (a retried job), the build is already there: nothing is sent twice.
    const sent = panel.requestCount(BUILD_ROUTE);
    await inTransaction(app().db, (trx) =>
      enqueueJob(trx, { type: PANEL_RESIZE_JOB, payload: { serviceId }, now: clock }),
    );
    await runJobs(2);
    expect(panel.requestCount(BUILD_ROUTE)).toBe(sent);
  });

  it("keeps an MTA server's three ports: the same allocations before and after", async () => {
    const { user, serviceId, server } = await madeServer("mta-starter");
    const ports = panel.allocationsOf(server.id).map((allocation) => allocation.id);
    expect(ports).toHaveLength(3);
    await changeTo(user, serviceId, "mta-advanced");
    await runJobs(3);
    expect(server).toMatchObject({ memory: 3072, disk: 15360 });
    expect(panel.allocationsOf(server.id).map((allocation) => allocation.id)).toEqual(ports);
    expect(server.allocationLimit).toBeGreaterThanOrEqual(3);
  });

  it("fails for staff when the node has no room, sends no build, and keeps the customer's new plan", async () => {
    const { user, serviceId, server } = await madeServer("samp-starter");
    // The node filled up since the server was made: 1 GiB more no longer fits.
    panel.nodes.find((node) => node.id === server.nodeId)!.memory = 1_500;
    const change = await changeTo(user, serviceId, "samp-premium");
    await runJobs(3);
    expect(panel.requestCount(BUILD_ROUTE)).toBe(0);
    expect(server.memory).toBe(1024);
    expect(await resizeJob(change.planChangeId)).toMatchObject({ state: "dead" });
    const row = await panelState(serviceId);
    expect(row).toMatchObject({ panel_state: "ready", product_id: products["samp-premium"] });
    expect(row.panel_error).toMatch(
      /^provisioning\.failures\.resizeNoRoom\|node \d+: 1024 MB memory/,
    );
    expect(
      await readRow(app().db, "plan_changes", ["resize_state"], { id: change.planChangeId }),
    ).toEqual({ resize_state: "failed" });
    // Staff are told of the dead job.
    const told = await app()
      .db.selectFrom("notifications")
      .select("params")
      .where("kind", "=", "automation_job_dead")
      .execute();
    expect(told.map((notice) => notice.params)).toContainEqual(
      expect.stringContaining(PANEL_RESIZE_JOB),
    );
  });

  it("fails for staff when the panel refuses the build (422), or the server is gone (404)", async () => {
    const refused = await madeServer("samp-starter");
    const change = await changeTo(refused.user, refused.serviceId, "samp-premium");
    // A plan the editor would never save, written by hand: the panel's rules refuse its IO weight.
    const { panel_plan: stored } = await readRow(app().db, "hosting_services", ["panel_plan"], {
      id: refused.serviceId,
    });
    const plan = JSON.parse(stored!) as { limits: { io: number } };
    plan.limits.io = 5;
    await app()
      .db.updateTable("hosting_services")
      .set({ panel_plan: JSON.stringify(plan) })
      .where("id", "=", refused.serviceId)
      .execute();
    await runJobs(3);
    expect(panel.requests.find((request) => request.route === BUILD_ROUTE)?.status).toBe(422);
    expect(refused.server.memory).toBe(1024);
    expect(await resizeJob(change.planChangeId)).toMatchObject({ state: "dead" });
    expect((await panelState(refused.serviceId)).panel_error).toMatch(
      /^provisioning\.failures\.panelRefused\|422 ValidationException: .*io/,
    );

    const gone = await madeServer("samp-starter");
    panel.servers.splice(panel.servers.indexOf(gone.server), 1);
    const lost = await changeTo(gone.user, gone.serviceId, "samp-premium");
    await runJobs(3);
    expect(await resizeJob(lost.planChangeId)).toMatchObject({ state: "dead" });
    expect((await panelState(gone.serviceId)).panel_error).toBe(
      "provisioning.failures.missingOnPanel",
    );
  });
});
