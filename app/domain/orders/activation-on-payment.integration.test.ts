import { sql } from "kysely";
import { beforeEach, expect, it } from "vitest";
import { verifiedFlag } from "~/domain/accounts/email-verification.server";
import { approveTopUp } from "~/domain/payments/top-up-decisions.server";
import { PANEL_CREATE_JOB } from "~/domain/provisioning/panel-job-types";
import { updateSettingsSection } from "~/domain/settings/settings.server";
import {
  adminId,
  approvedOrder,
  balanceOf,
  customerWithCoins,
  expectLedgerIntactAfterEach,
  orderInput,
  productId,
} from "../../../tests/support/money-fixtures";
import { heldTransaction, untilWaitingOnALock } from "../../../tests/support/held-transaction";
import { savePanelSnapshot, testPanelSnapshot } from "../../../tests/support/panel-snapshot";
import { sampProvisioning } from "../../../tests/support/provisioning-fixtures";
import { readRow, readRows } from "../../../tests/support/read-column";
import { describeEachDatabase } from "../../../tests/support/test-database";
import { openTopUp } from "../../../tests/support/top-up-fixtures";
import { approveOrder, placeOrder } from "./orders.server";

const WEBHOOK = "https://discord.com/api/webhooks/1234567890/activation-token";

/**
 * An order of a plan that activates when paid, approved by the system as it is placed when the customer
 * is trusted and the panel has room; otherwise it waits for an admin and keeps why.
 */
describeEachDatabase("activation on payment", (app, dialect) => {
  expectLedgerIntactAfterEach(app);
  let samp: number;
  let vps: number;

  /** The panel's node in Germany, with room for `servers` SA-MP servers of 1 GiB. */
  async function panelWithRoomFor(servers: number) {
    const snapshot = testPanelSnapshot();
    snapshot.nodes = snapshot.nodes.map((node) =>
      node.locationId === 1 ? { ...node, memoryMb: 1024 * servers } : node,
    );
    await savePanelSnapshot(app().db, snapshot);
  }

  beforeEach(async () => {
    const db = app().db;
    samp = await productId(app(), "samp-starter");
    vps = await productId(app(), "vps-entry");
    // SA-MP made on the panel (in Germany) and activated when paid; the VPS set up by hand, not.
    await db
      .updateTable("products")
      .set({
        provisioning: JSON.stringify(sampProvisioning({ locationIds: [1] })),
        activate_when_paid: 1,
      })
      .where("id", "=", samp)
      .execute();
    await db
      .updateTable("products")
      .set({ provisioning: null, activate_when_paid: 0 })
      .where("id", "=", vps)
      .execute();
    // Servers still waiting to be made take room; earlier tests' are not this one's.
    await db
      .updateTable("hosting_services")
      .set({ panel_state: "ready" })
      .where("panel_state", "in", ["pending", "creating"])
      .execute();
    await panelWithRoomFor(10);
    await updateSettingsSection(db, "alerts", { discordWebhook: WEBHOOK });
    app().settings.invalidate();
  });

  async function customer(options: { verified: boolean; paidBefore?: "topUp" | "order" }) {
    const user = await customerWithCoins(app(), 100_000);
    await app()
      .db.updateTable("users")
      .set({ email_verified: verifiedFlag(app().db, options.verified) })
      .where("id", "=", user)
      .execute();
    if (options.paidBefore === "topUp") {
      const request = await openTopUp(app(), user, 10, { paid: true });
      const approved = await approveTopUp(app().db, {
        adminId: await adminId(app()),
        requestId: request.id,
      });
      if (!approved.ok) throw new Error(approved.error);
    }
    if (options.paidBefore === "order") await approvedOrder(app(), user, { productId: vps });
    return user;
  }

  const order = (id: number) =>
    readRow(app().db, "orders", ["status", "wait_reason", "decided_by", "hosting_service_id"], {
      id,
    });
  /** What the seed admin's bell says of an order (one notice an order and admin). */
  const staffNotices = async (orderId: number) =>
    (
      await readRows(app().db, "notifications", ["kind"], {
        dedupe_key: `staff:order:${orderId}:${await adminId(app())}`,
      })
    ).map((row) => row.kind);
  const discordPost = async (orderId: number) => {
    const row = await app()
      .db.selectFrom("jobs")
      .select("payload")
      .where("unique_key", "=", `post:order:${orderId}`)
      .executeTakeFirst();
    return row && (JSON.parse(row.payload) as { event: { kind: string } }).event.kind;
  };
  const createJobs = (serviceId: number) =>
    readRows(app().db, "jobs", ["type"], { unique_key: `panel:create:${serviceId}` });
  const orderPayments = (orderId: number) =>
    readRows(app().db, "coin_ledger", ["amount_cents"], {
      order_id: orderId,
      kind: "order_payment",
    });

  it("approves a trusted customer's order as it is placed, as the system, and starts its server", async () => {
    const user = await customer({ verified: true, paidBefore: "topUp" });
    const before = await balanceOf(app(), user);
    const placed = await placeOrder(app().db, user, orderInput({ productId: samp }));
    if (!placed.ok) throw new Error(placed.error);
    expect(placed.order.status).toBe("approved");
    const id = placed.order.id;
    const serviceId = placed.order.hostingServiceId!;
    expect(serviceId).toEqual(expect.any(Number));
    expect(await order(id)).toEqual({
      status: "approved",
      wait_reason: null,
      decided_by: null,
      hosting_service_id: serviceId,
    });
    // Provisioning starts as on an admin's approval: the plan fixed, the create job queued once.
    expect(
      await readRow(app().db, "hosting_services", ["panel_state", "status"], { id: serviceId }),
    ).toEqual({ panel_state: "pending", status: "active" });
    expect(await createJobs(serviceId)).toEqual([{ type: PANEL_CREATE_JOB }]);
    // Audited as the system's.
    const audit = await readRow(app().db, "audit_log", ["actor_id", "action", "after"], {
      target_type: "order",
      target_id: String(id),
    });
    expect(audit).toMatchObject({ actor_id: null, action: "order.approve" });
    expect(JSON.parse(audit.after!)).toMatchObject({ status: "approved", automatic: true });
    // Staff hear of it once, as approved automatically, in the bell and on Discord.
    expect(await staffNotices(id)).toEqual(["order_auto_approved"]);
    expect(await discordPost(id)).toBe("orderApprovedAutomatically");
    // The customer is told it is approved; the coins are taken once.
    expect(
      await readRows(app().db, "notifications", ["kind"], {
        user_id: user,
        kind: "order_approved",
      }),
    ).toHaveLength(1);
    expect(await orderPayments(id)).toEqual([{ amount_cents: -placed.order.totalCents }]);
    expect(await balanceOf(app(), user)).toBe(before - placed.order.totalCents);
  });

  it("trusts an earlier approved order as it trusts an earlier payment", async () => {
    const user = await customer({ verified: true, paidBefore: "order" });
    const placed = await placeOrder(app().db, user, orderInput({ productId: samp }));
    expect(placed).toMatchObject({ ok: true, order: { status: "approved", waitReason: null } });
  });

  it("queues the same create job on an admin's approval of a waiting order", async () => {
    const user = await customer({ verified: true });
    const placed = await placeOrder(app().db, user, orderInput({ productId: samp }));
    if (!placed.ok) throw new Error(placed.error);
    expect(placed.order).toMatchObject({ status: "pending", waitReason: "firstPurchase" });
    const approved = await approveOrder(app().db, {
      orderId: placed.order.id,
      actorId: await adminId(app()),
    });
    if (!approved.ok) throw new Error(approved.error);
    expect(await createJobs(approved.order.hostingServiceId!)).toEqual([
      { type: PANEL_CREATE_JOB },
    ]);
    // Told as waiting when placed; nothing says it was automatic.
    expect(await staffNotices(placed.order.id)).toEqual(["order_waiting"]);
    expect(await discordPost(placed.order.id)).toBe("orderWaiting");
    const audit = await readRow(app().db, "audit_log", ["actor_id", "after"], {
      target_type: "order",
      target_id: String(placed.order.id),
    });
    expect(audit.actor_id).toBe(await adminId(app()));
    expect(JSON.parse(audit.after!)).not.toHaveProperty("automatic");
  });

  it.each([
    ["an unverified address", { verified: false, paidBefore: "topUp" } as const, "unverified"],
    ["a first purchase", { verified: true } as const, "firstPurchase"],
  ])("leaves %s to an admin, paid once, and keeps why", async (_, who, reason) => {
    const user = await customer(who);
    const before = await balanceOf(app(), user);
    const placed = await placeOrder(app().db, user, orderInput({ productId: samp }));
    if (!placed.ok) throw new Error(placed.error);
    expect(placed.order).toMatchObject({ status: "pending", waitReason: reason });
    expect(await order(placed.order.id)).toEqual({
      status: "pending",
      wait_reason: reason,
      decided_by: null,
      hosting_service_id: null,
    });
    expect(await staffNotices(placed.order.id)).toEqual(["order_waiting"]);
    expect(await discordPost(placed.order.id)).toBe("orderWaiting");
    expect(await balanceOf(app(), user)).toBe(before - placed.order.totalCents);
  });

  it("leaves a plan that does not activate when paid to an admin, however trusted the customer", async () => {
    const user = await customer({ verified: true, paidBefore: "topUp" });
    await app()
      .db.updateTable("products")
      .set({ activate_when_paid: 0 })
      .where("id", "=", samp)
      .execute();
    const placed = await placeOrder(app().db, user, orderInput({ productId: samp }));
    expect(placed).toMatchObject({
      ok: true,
      order: { status: "pending", waitReason: "planApproval", hostingServiceId: null },
    });
  });

  it("places one order, charged and approved once, when its form is sent twice at once", async () => {
    const user = await customer({ verified: true, paidBefore: "topUp" });
    const before = await balanceOf(app(), user);
    const input = orderInput({ productId: samp });
    const [first, second] = await Promise.all([
      placeOrder(app().db, user, input),
      placeOrder(app().db, user, input),
    ]);
    if (!first.ok || !second.ok) throw new Error("refused");
    expect(first.order.id).toBe(second.order.id);
    const placed = await readRows(app().db, "orders", ["id", "status"], { user_id: user });
    expect(placed.filter((row) => row.status === "approved")).toHaveLength(1);
    expect(
      await readRows(app().db, "hosting_services", ["id"], { user_id: user, product_id: samp }),
    ).toHaveLength(1);
    expect(await orderPayments(first.order.id)).toHaveLength(1);
    expect(await balanceOf(app(), user)).toBe(before - first.order.totalCents);
  });

  it("gives the last room to one of two orders placed at once; the other takes nothing or waits", async () => {
    await panelWithRoomFor(1);
    const buyers = await Promise.all([
      customer({ verified: true, paidBefore: "topUp" }),
      customer({ verified: true, paidBefore: "topUp" }),
    ]);
    const before = await Promise.all(buyers.map((user) => balanceOf(app(), user)));
    const results = await Promise.all(
      buyers.map((user) => placeOrder(app().db, user, orderInput({ productId: samp }))),
    );
    const approved = results.filter((result) => result.ok && result.order.status === "approved");
    expect(approved).toHaveLength(1);
    // The other: refused before any charge (SQLite's single writer: its placement saw the first's
    // server), or, on PostgreSQL, placed while the first had not committed, then waiting for room.
    const other = results.find((result) => !(result.ok && result.order.status === "approved"))!;
    if (other.ok) expect(other.order).toMatchObject({ status: "pending", waitReason: "noRoom" });
    else expect(other).toMatchObject({ error: "orders.errors.locationFull" });
    expect(
      await readRows(app().db, "hosting_services", ["id"], { panel_state: "pending" }),
    ).toHaveLength(1);
    for (const [index, user] of buyers.entries()) {
      const result = results[index]!;
      const charged = result.ok ? result.order.totalCents : 0;
      expect(await balanceOf(app(), user)).toBe(before[index]! - charged);
    }
  });

  it.runIf(dialect === "postgres")(
    "waits for room taken while it was being placed, rather than take it twice",
    async () => {
      const user = await customer({ verified: true, paidBefore: "topUp" });
      const full = testPanelSnapshot();
      full.nodes = full.nodes.map((node) => ({ ...node, allocatedMemoryMb: node.memoryMb }));
      // A panel check (or another approval) holding the panel's row, about to say the node is full.
      const check = await heldTransaction(app().db, (trx) =>
        trx
          .updateTable("panel_connections")
          .set({ snapshot: JSON.stringify(full) })
          .where("id", "=", 1)
          .execute(),
      );
      const placing = placeOrder(app().db, user, orderInput({ productId: samp }));
      await untilWaitingOnALock(app().db);
      await check.commit();
      const placed = await placing;
      expect(placed).toMatchObject({
        ok: true,
        order: { status: "pending", waitReason: "noRoom", hostingServiceId: null },
      });
      expect(
        await sql<{ n: string }>`select count(*) as n from hosting_services where user_id = ${user}`
          .execute(app().db)
          .then((result) => Number(result.rows[0]!.n)),
      ).toBe(0);
    },
  );
});
