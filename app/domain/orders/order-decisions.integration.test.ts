import { sql } from "kysely";
import { describe, expect, it } from "vitest";
import {
  adminId,
  balanceOf,
  customerWithCoins,
  expectLedgerIntactAfterEach,
  insertVoucher,
  orderInput,
  placedOrder,
  productId,
} from "../../../tests/support/money-fixtures";
import { heldTransaction, untilWaitingOnALock } from "../../../tests/support/held-transaction";
import { latestRow, readRow, readRows } from "../../../tests/support/read-column";
import { refusal } from "../../../tests/support/results";
import { describeEachDatabase } from "../../../tests/support/test-database";
import { approveOrder, listOrdersForAdmin, placeOrder, rejectOrder } from "./orders.server";

/** What an order and its decisions record: the order's choices, the audit, the notice, the refund. */
describeEachDatabase("an order's decisions and what they record", (app, dialect) => {
  expectLedgerIntactAfterEach(app);
  const json = (text: string | null) => (text === null ? null : (JSON.parse(text) as unknown));

  const auditOf = (orderId: number) =>
    latestRow(app().db, "audit_log", ["action", "before", "after", "reason"], {
      target_type: "order",
      target_id: String(orderId),
    });
  const noticeOf = (userId: string) =>
    latestRow(app().db, "notifications", ["kind", "link"], { user_id: userId });

  it("keeps the DDoS choice, answers a new order as new, and records its approval", async () => {
    const user = await customerWithCoins(app(), 10_000);
    const product = await productId(app(), "samp-premium");
    const protectedOrder = await placeOrder(
      app().db,
      user,
      orderInput({ productId: product, ddosProtection: "yes" }),
    );
    expect(protectedOrder).toEqual({
      ok: true,
      order: expect.objectContaining({ ddosProtection: true, paidWithCoins: true }),
      balanceCents: expect.any(Number),
      duplicate: false,
    });
    const plain = await placedOrder(app(), user, { productId: product, ddosProtection: "no" });
    expect(plain.ddosProtection).toBe(false);
    if (!protectedOrder.ok) return;
    const id = protectedOrder.order.id;
    expect(await readRows(app().db, "orders", ["ddos_protection"], { id })).toEqual([
      { ddos_protection: 1 },
    ]);

    const approved = await approveOrder(app().db, { orderId: id, actorId: await adminId(app()) });
    if (!approved.ok) throw new Error(approved.error);
    const service = await readRow(app().db, "orders", ["hosting_service_id"], { id });
    const expiry = await readRow(app().db, "hosting_services", ["expires_at"], {
      id: service.hosting_service_id!,
    });
    const audit = await auditOf(id);
    expect(audit.action).toBe("order.approve");
    expect(json(audit.before)).toEqual({ status: "pending" });
    expect(json(audit.after)).toEqual({
      status: "approved",
      hostingServiceId: service.hosting_service_id,
      expiresAt: new Date(expiry.expires_at).toISOString(),
    });
    expect(await noticeOf(user)).toEqual({
      kind: "order_approved",
      link: "/dashboard/services",
    });
  });

  it("records a rejection and an expiry: the audit, the notice and the refund's reason", async () => {
    const admin = await adminId(app());
    const user = await customerWithCoins(app(), 10_000);
    const product = await productId(app(), "vps-business");
    const rejected = await placedOrder(app(), user, { productId: product });
    expect(
      (await rejectOrder(app().db, { orderId: rejected.id, actorId: admin, reason: "No" })).ok,
    ).toBe(true);
    const audit = await auditOf(rejected.id);
    expect(audit).toMatchObject({ action: "order.reject", reason: "No" });
    expect(json(audit.before)).toEqual({ status: "pending" });
    expect(json(audit.after)).toEqual({ status: "rejected", refundedCents: rejected.totalCents });
    expect(await noticeOf(user)).toEqual({
      kind: "order_rejected",
      link: "/dashboard/billing",
    });

    const expired = await placedOrder(app(), user, { productId: product });
    const now = new Date();
    expect(
      (
        await rejectOrder(app().db, {
          orderId: expired.id,
          actorId: null,
          reason: "expired",
          expired: { days: 7, now },
        })
      ).ok,
    ).toBe(true);
    expect((await auditOf(expired.id)).action).toBe("order.expire");
    expect(await noticeOf(user)).toEqual({ kind: "order_expired", link: "/dashboard/billing" });
    const refund = await readRow(app().db, "coin_ledger", ["reason_key", "reason_params"], {
      order_id: expired.id,
      kind: "order_refund",
    });
    expect(refund.reason_key).toBe("orderExpiredRefund");
    expect(json(refund.reason_params)).toEqual({ id: expired.id });
    expect(await balanceOf(app(), user)).toBe(10_000);
  });

  it("charges nothing for a free order, and refunds nothing of it or of an order not paid in coins", async () => {
    const admin = await adminId(app());
    const user = await customerWithCoins(app(), 5_000);
    await insertVoucher(app(), `FREE${dialect.toUpperCase()}`, { percent: 100 });
    const free = await placeOrder(
      app().db,
      user,
      orderInput({
        productId: await productId(app(), "vps-business"),
        voucherCode: `FREE${dialect.toUpperCase()}`,
      }),
    );
    expect(free).toMatchObject({ ok: true, balanceCents: null, order: { totalCents: 0 } });
    if (!free.ok) return;
    expect(await readRows(app().db, "coin_ledger", ["id"], { order_id: free.order.id })).toEqual(
      [],
    );
    expect(
      (await rejectOrder(app().db, { orderId: free.order.id, actorId: admin, reason: "x" })).ok,
    ).toBe(true);
    expect(await readRows(app().db, "coin_ledger", ["id"], { order_id: free.order.id })).toEqual(
      [],
    );

    // An order from before orders were paid in coins: rejecting it gives back nothing it never took.
    const legacy = await placedOrder(app(), user, {
      productId: await productId(app(), "vps-business"),
    });
    await app()
      .db.updateTable("orders")
      .set({ paid_with_coins: 0 })
      .where("id", "=", legacy.id)
      .execute();
    const before = await balanceOf(app(), user);
    expect(
      (await rejectOrder(app().db, { orderId: legacy.id, actorId: admin, reason: "old" })).ok,
    ).toBe(true);
    expect(await balanceOf(app(), user)).toBe(before);
    expect(
      await readRows(app().db, "coin_ledger", ["id"], {
        order_id: legacy.id,
        kind: "order_refund",
      }),
    ).toEqual([]);
    // The books then hold a payment that was never refunded; put them back as they were.
    await app()
      .db.updateTable("orders")
      .set({ paid_with_coins: 1 })
      .where("id", "=", legacy.id)
      .execute();
  });

  it("lists orders for admins by status or by number", async () => {
    const user = await customerWithCoins(app(), 10_000);
    const product = await productId(app(), "samp-starter");
    const pending = await placedOrder(app(), user, { productId: product });
    const rejected = await placedOrder(app(), user, { productId: product });
    await rejectOrder(app().db, {
      orderId: rejected.id,
      actorId: await adminId(app()),
      reason: "x",
    });
    const page = { page: 1, pageSize: 100 };
    const byNumber = await listOrdersForAdmin(app().db, { ...page, id: pending.id });
    expect(byNumber.orders.map((order) => order.id)).toEqual([pending.id]);
    const rejectedOnes = await listOrdersForAdmin(app().db, { ...page, status: "rejected" });
    expect(rejectedOnes.orders.every((order) => order.status === "rejected")).toBe(true);
    expect(rejectedOnes.orders.map((order) => order.id)).toContain(rejected.id);
    expect(rejectedOnes.orders.map((order) => order.id)).not.toContain(pending.id);
  });

  if (dialect === "postgres")
    describe("when another order takes a voucher's last use first", () => {
      it("refuses the second as used up, charging nothing", async () => {
        const user = await customerWithCoins(app(), 10_000);
        await insertVoucher(app(), "LASTUSE", { maxUses: 1 });
        // The other order's transaction has counted the use and not committed yet.
        const other = await heldTransaction(app().db, (trx) =>
          trx
            .updateTable("vouchers")
            .set({ used_count: sql`used_count + 1` })
            .where("code", "=", "LASTUSE")
            .execute(),
        );
        const placing = placeOrder(
          app().db,
          user,
          orderInput({ productId: await productId(app(), "vps-business"), voucherCode: "LASTUSE" }),
        );
        await untilWaitingOnALock(app().db);
        await other.commit();
        expect(await placing).toEqual(refusal("invalid", "orders.errors.voucherUsedUp"));
        expect(await balanceOf(app(), user)).toBe(10_000);
      });
    });
});
