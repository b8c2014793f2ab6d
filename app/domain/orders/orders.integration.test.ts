import { randomUUID } from "node:crypto";
import { expect, it } from "vitest";
import { adjustCoins } from "~/domain/coins/coins.server";
import { changeServiceStatus, deleteService } from "~/domain/hosting-services/admin-changes.server";
import { renewService } from "~/domain/hosting-services/renewal.server";
import {
  adminId,
  approvedOrder,
  balanceOf,
  customerWithCoins,
  customerWithRunningService,
  expectLedgerIntact,
  expectLedgerIntactAfterEach,
  insertVoucher,
  orderInput,
  ordersOf,
  placedOrder,
  productId,
  renewWithNewKey,
} from "../../../tests/support/money-fixtures";
import { latestRow, readColumn, readRow, readRows } from "../../../tests/support/read-column";
import { refusal } from "../../../tests/support/results";
import { atOnce, describeEachDatabase } from "../../../tests/support/test-database";
import { cycleEnd } from "./orders";
import { approveOrder, placeOrder, rejectOrder } from "./orders.server";

const DAY = 86_400_000;

describeEachDatabase("money path", (app, dialect) => {
  expectLedgerIntactAfterEach(app);

  it("opens the books with the seed admin's 10000 coins on the ledger", async () => {
    const admin = await adminId(app());
    const rows = await readRows(app().db, "coin_ledger", "*", { user_id: admin });
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({
      amount_cents: 1_000_000,
      balance_after_cents: 1_000_000,
      kind: "admin_adjustment",
    });
  });

  it("names the plan and the server in what it tells the customer, and the plan alone in the records", async () => {
    const user = await customerWithCoins(app(), 10_000);
    const samp = await productId(app(), "samp-starter");
    const told = async (kind: string) => {
      const rows = await readRows(app().db, "notifications", "*", { user_id: user, kind });
      return rows.map((row) => (JSON.parse(row.params) as { product: string }).product);
    };
    const mailed = async (kind: string) => {
      const rows = await readRows(app().db, "mail_outbox", "*", { user_id: user, kind });
      return rows.map((row) => (JSON.parse(row.params) as { product: string }).product);
    };
    const { placed } = await approvedOrder(app(), user, {
      productId: samp,
      serverName: "Karim RP",
    });
    const rejected = await placedOrder(app(), user, { productId: samp, serverName: "Atlas" });
    const refused = await rejectOrder(app().db, {
      orderId: rejected.id,
      actorId: await adminId(app()),
      reason: "No room",
    });
    if (!refused.ok) throw new Error(refused.error);

    expect(await told("order_approved")).toEqual(["SAMP Starter (Karim RP)"]);
    expect(await told("order_rejected")).toEqual(["SAMP Starter (Atlas)"]);
    expect(await mailed("orderReceived")).toEqual([
      "SAMP Starter (Karim RP)",
      "SAMP Starter (Atlas)",
    ]);
    expect(await mailed("orderApproved")).toEqual(["SAMP Starter (Karim RP)"]);
    expect(await mailed("orderRejected")).toEqual(["SAMP Starter (Atlas)"]);
    const payment = await readRow(app().db, "coin_ledger", "*", {
      order_id: placed.id,
      kind: "order_payment",
    });
    expect(payment.reason).toContain("SAMP Starter");
    expect(payment.reason).not.toContain("Karim RP");
  });

  it("pays an order from coins and leaves it pending", async () => {
    const user = await customerWithCoins(app(), 10_000);
    const result = await placeOrder(
      app().db,
      user,
      orderInput({
        productId: await productId(app(), "samp-premium"),
        billingCycle: "quarterly",
        backup: "premium",
      }),
    );
    if (!result.ok) throw new Error(result.error);
    // (450 + 200) × 3 = 1950, 5% off → 1852 (97.5 discount rounds to 98)
    expect(result.order).toMatchObject({
      status: "pending",
      totalCents: 1852,
      monthlyPriceCents: 650,
      paidWithCoins: true,
      productName: "SAMP Premium",
    });
    expect(await balanceOf(app(), user)).toBe(10_000 - 1852);
    const ledger = await readRows(app().db, "coin_ledger", "*", { order_id: result.order.id });
    expect(ledger).toMatchObject([
      { amount_cents: -1852, kind: "order_payment", balance_after_cents: 10_000 - 1852 },
    ]);
  });

  it("refuses an order it cannot pay, charging and creating nothing", async () => {
    const user = await customerWithCoins(app(), 300);
    const result = await placeOrder(
      app().db,
      user,
      orderInput({ productId: await productId(app(), "vps-entry") }),
    );
    expect(result).toEqual({
      ...refusal("conflict", "orders.errors.insufficientCoins"),
      missingCents: 400,
      totalCents: 700,
    });
    expect(await balanceOf(app(), user)).toBe(300);
    const orders = await ordersOf(app(), user);
    expect(orders).toHaveLength(0);
  });

  it("refuses a plan whose price changed after the form showed it, charging nothing", async () => {
    const user = await customerWithCoins(app(), 10_000);
    const plan = await productId(app(), "samp-premium");
    const shownPrices = `${plan}:450`;
    await app()
      .db.updateTable("products")
      .set({ price_cents: 500 })
      .where("id", "=", plan)
      .execute();
    try {
      expect(
        await placeOrder(app().db, user, orderInput({ productId: plan, shownPrices })),
      ).toEqual(refusal("conflict", "orders.errors.priceChanged"));
      expect(await balanceOf(app(), user)).toBe(10_000);
      // The form reloaded with the new price: the order goes through at that price.
      const placed = await placeOrder(
        app().db,
        user,
        orderInput({ productId: plan, shownPrices: `${plan}:500` }),
      );
      expect(placed).toMatchObject({ ok: true, order: { totalCents: 500 } });
      expect(await balanceOf(app(), user)).toBe(9_500);
    } finally {
      await app()
        .db.updateTable("products")
        .set({ price_cents: 450 })
        .where("id", "=", plan)
        .execute();
    }
    await expectLedgerIntact(app());
  });

  it("answers 'Service not found' for an unknown or hidden product", async () => {
    const user = await customerWithCoins(app(), 10_000);
    expect(await placeOrder(app().db, user, orderInput({ productId: 999_999 }))).toEqual(
      refusal("notFound", "orders.errors.serviceNotFound"),
    );
    const hidden = await productId(app(), "game-pro");
    await app()
      .db.updateTable("products")
      .set({ status: "hidden" })
      .where("id", "=", hidden)
      .execute();
    try {
      expect(await placeOrder(app().db, user, orderInput({ productId: hidden }))).toEqual(
        refusal("notFound", "orders.errors.serviceNotFound"),
      );
    } finally {
      await app()
        .db.updateTable("products")
        .set({ status: "active" })
        .where("id", "=", hidden)
        .execute();
    }
    expect(await balanceOf(app(), user)).toBe(10_000);
  });

  it("applies WELCOME10 without case, counts its use in the same transaction, and checks the minimum", async () => {
    const user = await customerWithCoins(app(), 10_000);
    const before = await readRow(app().db, "vouchers", ["used_count"], { code: "WELCOME10" });
    const small = await placeOrder(
      app().db,
      user,
      orderInput({ productId: await productId(app(), "samp-starter"), voucherCode: "welcome10" }),
    );
    expect(small).toEqual({
      ...refusal("invalid", "orders.errors.voucherMinimum"),
      minPurchaseCents: 500,
    });

    const ok = await placeOrder(
      app().db,
      user,
      orderInput({ productId: await productId(app(), "vps-business"), voucherCode: "Welcome10" }),
    );
    if (!ok.ok) throw new Error(ok.error);
    expect(ok.order).toMatchObject({
      subtotalCents: 1200,
      discountCents: 120,
      totalCents: 1080,
      voucherCode: "WELCOME10",
    });
    const after = await readRow(app().db, "vouchers", ["used_count"], { code: "WELCOME10" });
    expect(after.used_count).toBe(before.used_count + 1);

    const unknown = await placeOrder(
      app().db,
      user,
      orderInput({ productId: await productId(app(), "vps-business"), voucherCode: "NOPE" }),
    );
    expect(unknown).toEqual(refusal("invalid", "orders.errors.voucherNotFound"));
  });

  it(
    atOnce(dialect, "creates one order and one charge for a key sent twice, or ten times at once"),
    async () => {
      const user = await customerWithCoins(app(), 100_000);
      const input = orderInput({ productId: await productId(app(), "mta-pro") });
      const first = await placeOrder(app().db, user, input);
      const second = await placeOrder(app().db, user, input);
      expect(first.ok && second.ok && second.duplicate && second.order.id === first.order.id).toBe(
        true,
      );

      const parallel = orderInput({ productId: await productId(app(), "mta-pro") });
      const results = await Promise.all(
        Array.from({ length: 10 }, () => placeOrder(app().db, user, parallel)),
      );
      const ids = new Set(results.map((r) => (r.ok ? r.order.id : r.error)));
      expect(ids.size).toBe(1);
      const orders = await ordersOf(app(), user);
      expect(orders).toHaveLength(2);
      expect(await balanceOf(app(), user)).toBe(100_000 - 2 * 950);
    },
  );

  it("gives a resent key its first order even when the order could no longer be placed as asked", async () => {
    const user = await customerWithCoins(app(), 100_000);
    const product = await productId(app(), "vps-business");
    // The first submit takes the voucher's only use: the second must still get its order, not "used up".
    await insertVoucher(app(), "ONCE", { fixedCents: 100, maxUses: 1 });
    const input = orderInput({ productId: product, voucherCode: "ONCE" });
    const first = await placeOrder(app().db, user, input);
    if (!first.ok) throw new Error(first.error);
    const again = await placeOrder(app().db, user, input);
    expect(again).toMatchObject({ ok: true, duplicate: true, order: { id: first.order.id } });

    // A reload of the submit after the price changed, or the product was withdrawn, finds it too.
    const later = orderInput({ productId: product, shownPrices: `${product}:1200` });
    const placed = await placeOrder(app().db, user, later);
    if (!placed.ok) throw new Error(placed.error);
    const setProduct = (values: { price_cents: number; status: string }) =>
      app().db.updateTable("products").set(values).where("id", "=", product).execute();
    try {
      await setProduct({ price_cents: 1300, status: "active" });
      expect(await placeOrder(app().db, user, later)).toMatchObject({
        ok: true,
        duplicate: true,
        order: { id: placed.order.id },
      });
      await setProduct({ price_cents: 1200, status: "hidden" });
      expect(await placeOrder(app().db, user, later)).toMatchObject({
        ok: true,
        duplicate: true,
        order: { id: placed.order.id },
      });
    } finally {
      await setProduct({ price_cents: 1200, status: "active" });
    }
    expect(await balanceOf(app(), user)).toBe(100_000 - 1100 - 1200);
  });

  it("refuses a key another customer used, for orders and renewals, changing nothing", async () => {
    const admin = await adminId(app());
    const owner = await customerWithCoins(app(), 10_000);
    const other = await customerWithCoins(app(), 10_000);
    const product = await productId(app(), "samp-starter");
    const input = orderInput({ productId: product });
    const placed = await placeOrder(app().db, owner, input);
    if (!placed.ok) throw new Error(placed.error);

    // The key is the owner's form's: it neither shows the owner's order nor makes a second one.
    expect(await placeOrder(app().db, other, input)).toEqual(
      refusal("invalid", "orders.errors.expired"),
    );
    expect(await balanceOf(app(), other)).toBe(10_000);

    const approved = await approveOrder(app().db, { orderId: placed.order.id, actorId: admin });
    if (!approved.ok) throw new Error(approved.error);
    const { approved: approvedMine } = await approvedOrder(app(), other, { productId: product });
    const key = randomUUID();
    const renewed = await renewService(app().db, {
      userId: owner,
      serviceId: approved.order.hostingServiceId!,
      idempotencyKey: key,
    });
    expect(renewed.ok).toBe(true);
    const balance = await balanceOf(app(), other);
    expect(
      await renewService(app().db, {
        userId: other,
        serviceId: approvedMine.hostingServiceId!,
        idempotencyKey: key,
      }),
    ).toEqual(refusal("invalid", "orders.errors.expired"));
    expect(await balanceOf(app(), other)).toBe(balance);

    // A renewal retried after an admin deleted the service finds nothing to renew.
    await deleteService(app().db, { actorId: admin, serviceId: approved.order.hostingServiceId! });
    expect(
      await renewService(app().db, {
        userId: owner,
        serviceId: approved.order.hostingServiceId!,
        idempotencyKey: key,
      }),
    ).toEqual(refusal("notFound", "services.errors.notFound"));
  });

  it(
    atOnce(
      dialect,
      "ends 50 parallel orders from a balance covering exactly 5 in 5 orders and a balance of 0",
    ),
    async () => {
      const user = await customerWithCoins(app(), 5 * 950);
      const product = await productId(app(), "mta-pro");
      const results = await Promise.all(
        Array.from({ length: 50 }, () =>
          placeOrder(app().db, user, orderInput({ productId: product })),
        ),
      );
      expect(results.filter((r) => r.ok)).toHaveLength(5);
      expect(
        results
          .filter((r) => !r.ok)
          .every((r) => !r.ok && r.error === "orders.errors.insufficientCoins"),
      ).toBe(true);
      expect(await balanceOf(app(), user)).toBe(0);
      const orders = await ordersOf(app(), user);
      expect(orders).toHaveLength(5);
    },
  );

  it("approves once: the service runs the cycle's calendar months from approval", async () => {
    const admin = await adminId(app());
    const user = await customerWithCoins(app(), 100_000);
    const { placed, approved } = await approvedOrder(app(), user, {
      productId: await productId(app(), "game-advanced"),
      billingCycle: "semiannual",
    });
    const service = await readRow(app().db, "hosting_services", "*", {
      id: approved.hostingServiceId!,
    });
    expect(service.status).toBe("active");
    expect(service.cycle_price_cents).toBe(placed.subtotalCents);
    // Six months to the same day (not 180 days), from the moment of approval.
    expect(service.expires_at).toBe(cycleEnd(service.created_at, "semiannual"));
    expect(Date.now() - Date.parse(service.created_at)).toBeLessThan(60_000);

    expect(await approveOrder(app().db, { orderId: placed.id, actorId: admin })).toEqual({
      ...refusal("conflict", "orders.errors.notPending"),
      status: "approved",
    });
    expect(
      await rejectOrder(app().db, { orderId: placed.id, actorId: admin, reason: "late" }),
    ).toEqual({ ...refusal("conflict", "orders.errors.notPending"), status: "approved" });
    const services = await readRows(app().db, "hosting_services", ["id"], { user_id: user });
    expect(services).toHaveLength(1);
    const audit = await readRows(app().db, "audit_log", "*", {
      target_type: "order",
      target_id: String(placed.id),
    });
    expect(audit.map((a) => a.action)).toEqual(["order.approve"]);
  });

  it("rejects once with a reason: the coins and the voucher use come back", async () => {
    const admin = await adminId(app());
    const user = await customerWithCoins(app(), 10_000);
    const placed = await placedOrder(app(), user, {
      productId: await productId(app(), "vps-premium"),
      voucherCode: "WELCOME10",
    });
    const uses = async () => readColumn(app(), "vouchers", "used_count", ["code", "WELCOME10"]);
    const usesBefore = await uses();
    expect(await balanceOf(app(), user)).toBe(10_000 - 1800);

    const rejected = await rejectOrder(app().db, {
      orderId: placed.id,
      actorId: admin,
      reason: "Out of stock",
    });
    expect(rejected.ok).toBe(true);
    expect(await balanceOf(app(), user)).toBe(10_000);
    expect(await uses()).toBe(usesBefore - 1);
    const refund = await readRows(app().db, "coin_ledger", "*", {
      order_id: placed.id,
      kind: "order_refund",
    });
    expect(refund).toMatchObject([{ amount_cents: 1800 }]);

    expect(
      (await rejectOrder(app().db, { orderId: placed.id, actorId: admin, reason: "again" })).ok,
    ).toBe(false);
    expect(await balanceOf(app(), user)).toBe(10_000);
    expect(await approveOrder(app().db, { orderId: 987_654, actorId: admin })).toEqual(
      refusal("notFound", "orders.errors.notFound"),
    );
  });

  it("renews from the later of now and the expiry, once per key", async () => {
    const admin = await adminId(app());
    const { user, serviceId } = await customerWithRunningService(app(), 10_000);
    const expiryBefore = await readColumn(app(), "hosting_services", "expires_at", [
      "id",
      serviceId,
    ]);

    const key = randomUUID();
    const renewed = await renewService(app().db, { userId: user, serviceId, idempotencyKey: key });
    if (!renewed.ok) throw new Error(renewed.error);
    expect(renewed.service.expiresAt).toBe(cycleEnd(expiryBefore, "monthly"));
    const again = await renewService(app().db, { userId: user, serviceId, idempotencyKey: key });
    expect(again.ok && again.duplicate).toBe(true);
    expect(await balanceOf(app(), user)).toBe(10_000 - 250 - 250);

    // An expired service renews from now, not from its old expiry.
    const longAgo = new Date(Date.now() - 100 * DAY).toISOString();
    await app()
      .db.updateTable("hosting_services")
      .set({ expires_at: longAgo })
      .where("id", "=", serviceId)
      .execute();
    const fromNow = await renewWithNewKey(app(), user, serviceId);
    if (!fromNow.ok) throw new Error(fromNow.error);
    const renewedAt = await latestRow(
      app().db,
      "service_renewals",
      ["previous_expires_at", "new_expires_at", "created_at"],
      { hosting_service_id: serviceId },
    );
    expect(renewedAt.new_expires_at).toBe(fromNow.service.expiresAt);
    expect(renewedAt.previous_expires_at).toBe(longAgo);
    expect(fromNow.service.expiresAt).toBe(cycleEnd(renewedAt.created_at, "monthly"));
    expect(Math.abs(Date.parse(renewedAt.created_at) - Date.now())).toBeLessThan(60_000);

    // Someone else's service is not found; a suspended one cannot be renewed.
    const other = await customerWithCoins(app(), 10_000);
    expect(await renewWithNewKey(app(), other, serviceId)).toEqual(
      refusal("notFound", "services.errors.notFound"),
    );
    await changeServiceStatus(app().db, { actorId: admin, serviceId, action: "suspend" });
    expect(await renewWithNewKey(app(), user, serviceId)).toEqual(
      refusal("conflict", "services.errors.cannotRenew"),
    );
  });

  it("renews to the end of a shorter month, then on from that day", async () => {
    const { user, serviceId } = await customerWithRunningService(app(), 10_000);
    // 31 January of a year ahead: a month later is the last day of February (29th in a leap year).
    for (const [expiry, first, second] of [
      ["2099-01-31T12:00:00.000Z", "2099-02-28T12:00:00.000Z", "2099-03-28T12:00:00.000Z"],
      ["2096-01-31T12:00:00.000Z", "2096-02-29T12:00:00.000Z", "2096-03-29T12:00:00.000Z"],
    ] as const) {
      await app()
        .db.updateTable("hosting_services")
        .set({ expires_at: expiry })
        .where("id", "=", serviceId)
        .execute();
      const renew = () => renewWithNewKey(app(), user, serviceId);
      const once = await renew();
      expect(once.ok && once.service.expiresAt).toBe(first);
      const twice = await renew();
      expect(twice.ok && twice.service.expiresAt).toBe(second);
    }
    expect(await balanceOf(app(), user)).toBe(10_000 - 250 - 4 * 250);
  });

  it("refuses a renewal it cannot pay", async () => {
    const user = await customerWithCoins(app(), 2000);
    const { approved } = await approvedOrder(app(), user, {
      productId: await productId(app(), "vps-business"),
    });
    const result = await renewWithNewKey(app(), user, approved.hostingServiceId!);
    expect(result).toEqual({
      ...refusal("conflict", "orders.errors.insufficientCoins"),
      missingCents: 400,
      // The price, so the message can say what the renewal costs.
      totalCents: 1200,
    });
    expect(await balanceOf(app(), user)).toBe(800);
  });

  it("moves services between active and suspended; terminated is final", async () => {
    const admin = await adminId(app());
    const { serviceId } = await customerWithRunningService(app(), 1000);
    const act = (action: "suspend" | "reactivate" | "terminate") =>
      changeServiceStatus(app().db, { actorId: admin, serviceId, action });
    const notAllowed = refusal("conflict", "services.errors.transitionNotAllowed");
    expect(await act("reactivate")).toEqual(notAllowed);
    expect((await act("suspend")).ok).toBe(true);
    expect((await act("reactivate")).ok).toBe(true);
    expect((await act("terminate")).ok).toBe(true);
    for (const action of ["suspend", "reactivate", "terminate"] as const)
      expect(await act(action)).toEqual(notAllowed);
  });

  it("clamps an admin removal at zero and records it", async () => {
    const admin = await adminId(app());
    const user = await customerWithCoins(app(), 500);
    const result = await adjustCoins(app().db, {
      userId: user,
      amountCents: -2000,
      reason: "Chargeback",
      actorId: admin,
    });
    expect(result).toEqual({ ok: true, balanceCents: 0, appliedCents: -500, clamped: true });
    expect(
      await adjustCoins(app().db, {
        userId: user,
        amountCents: -100,
        reason: "Again",
        actorId: admin,
      }),
    ).toEqual(refusal("conflict", "coins.errors.nothingToRemove"));
    const audit = await readRows(app().db, "audit_log", "*", {
      action: "coins.adjust",
      target_id: user,
    });
    expect(audit.map((a) => a.reason)).toEqual(["test credit", "Chargeback"]);
  });
});

describeEachDatabase("an order's statements", (app) => {
  // An order is the busiest write: on PostgreSQL each statement is a round trip inside its transaction.
  // The customer's mail reads the customer and every admin in one statement, which the staff's
  // notifications then reuse.
  it("reads the customer's recipients and the admins once, and still tells every admin", async () => {
    const second = await customerWithCoins(app(), 0);
    await app().db.updateTable("users").set({ role: "admin" }).where("id", "=", second).execute();
    try {
      const user = await customerWithCoins(app(), 10_000);
      const tables: string[] = [];
      const watched = app().db.withPlugin({
        transformQuery({ node }) {
          tables.push(
            `${node.kind}:${JSON.stringify(node).match(/"kind":"TableNode".*?"name":"(\w+)"/)?.[1]}`,
          );
          return node;
        },
        async transformResult({ result }) {
          return result;
        },
      });
      const placed = await placeOrder(
        watched,
        user,
        orderInput({ productId: await productId(app(), "samp-premium") }),
      );
      if (!placed.ok) throw new Error(placed.error);
      const reads = tables.filter((t) => t.startsWith("SelectQueryNode:users"));
      // The billing details, then the recipients with the admins: not a third read of the admins.
      expect(reads, tables.join(", ")).toHaveLength(2);
      const order = placed.order.id;
      for (const admin of [await adminId(app()), second]) {
        const told = await readRows(app().db, "notifications", "*", {
          user_id: admin,
          dedupe_key: `staff:order:${order}:${admin}`,
        });
        expect(told, admin).toHaveLength(1);
        const mailed = await readRows(app().db, "mail_outbox", "*", {
          unique_key: `staffOrderWaiting:order:${order}:${admin}`,
        });
        expect(mailed, admin).toHaveLength(1);
      }
      const received = await readRows(app().db, "mail_outbox", "*", {
        kind: "orderReceived",
        user_id: user,
      });
      expect(received).toHaveLength(1);
    } finally {
      await app().db.updateTable("users").set({ role: "user" }).where("id", "=", second).execute();
    }
  });
});
