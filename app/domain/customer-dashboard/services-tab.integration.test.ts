import { expect, it } from "vitest";
import { adjustCoins } from "~/domain/coins/coins.server";
import { changeServiceStatus } from "~/domain/hosting-services/admin-changes.server";
import { quoteRenewal } from "~/domain/hosting-services/renewal.server";
import { rejectOrder } from "~/domain/orders/orders.server";
import {
  adminId,
  approvedOrder,
  balanceOf,
  customerWithCoins,
  customerWithRunningService,
  expectLedgerIntact,
  placedOrder,
  productId,
  renewWithNewKey,
} from "../../../tests/support/money-fixtures";
import { readColumn, readRow } from "../../../tests/support/read-column";
import { refusal } from "../../../tests/support/results";
import { describeEachDatabase } from "../../../tests/support/test-database";
import { listWaitingOrders, loadCustomerDashboard } from "./customer-dashboard.server";

describeEachDatabase("the services tab: renewal confirmation and waiting orders", (app) => {
  it("quotes a renewal without charging, and the confirmed renewal does what the quote said", async () => {
    const { user, serviceId } = await customerWithRunningService(app(), 10_000);
    const balance = await balanceOf(app(), user);
    const service = await readRow(
      app().db,
      "hosting_services",
      ["expires_at", "cycle_price_cents"],
      { id: serviceId },
    );

    const quoted = await quoteRenewal(app().db, { userId: user, serviceId });
    if (!quoted.ok) throw new Error(quoted.error);
    expect(quoted.quote).toMatchObject({
      serviceId,
      priceCents: service.cycle_price_cents,
      currentExpiresAt: service.expires_at,
      balanceCents: balance,
      balanceAfterCents: balance - service.cycle_price_cents,
      missingCents: 0,
    });
    expect(Date.parse(quoted.quote.newExpiresAt)).toBeGreaterThan(Date.parse(service.expires_at));
    // Asking costs nothing and changes nothing.
    expect(await balanceOf(app(), user)).toBe(balance);

    const renewed = await renewWithNewKey(app(), user, serviceId);
    if (!renewed.ok) throw new Error(renewed.error);
    // The service had not expired: the new expiry is the one the customer was shown.
    expect(renewed.service.expiresAt).toBe(quoted.quote.newExpiresAt);
    expect(await balanceOf(app(), user)).toBe(quoted.quote.balanceAfterCents);
    await expectLedgerIntact(app());
  });

  it("says what a short balance lacks, before and at the confirmation, with the price", async () => {
    const { user, serviceId } = await customerWithRunningService(app(), 10_000);
    const balance = await balanceOf(app(), user);
    const price = (await quoteRenewal(app().db, { userId: user, serviceId })).ok
      ? await readColumn(app(), "hosting_services", "cycle_price_cents", ["id", serviceId])
      : 0;
    // Leave 1.00 less than the price.
    await adjustCoins(app().db, {
      userId: user,
      amountCents: -(balance - (price - 100)),
      reason: "test",
      actorId: await adminId(app()),
    });
    const quoted = await quoteRenewal(app().db, { userId: user, serviceId });
    if (!quoted.ok) throw new Error(quoted.error);
    expect(quoted.quote).toMatchObject({
      priceCents: price,
      balanceCents: price - 100,
      balanceAfterCents: null,
      missingCents: 100,
    });
    const refused = await renewWithNewKey(app(), user, serviceId);
    expect(refused).toEqual({
      ...refusal("conflict", "orders.errors.insufficientCoins"),
      missingCents: 100,
      totalCents: price,
    });
    await expectLedgerIntact(app());
  });

  it("quotes only the customer's own service, and only one that can renew", async () => {
    const { user, serviceId } = await customerWithRunningService(app(), 10_000);
    const stranger = await customerWithCoins(app(), 10_000);
    expect(await quoteRenewal(app().db, { userId: stranger, serviceId })).toMatchObject({
      ok: false,
      kind: "notFound",
    });
    expect(await quoteRenewal(app().db, { userId: user, serviceId: 2_000_000_000 })).toMatchObject({
      ok: false,
      kind: "notFound",
    });
    await changeServiceStatus(app().db, {
      actorId: await adminId(app()),
      serviceId,
      action: "suspend",
    });
    expect(await quoteRenewal(app().db, { userId: user, serviceId })).toEqual(
      refusal("conflict", "services.errors.cannotRenew"),
    );
  });

  it("lists pending and lately rejected orders, newest first, never approved or others' ones", async () => {
    const user = await customerWithCoins(app(), 50_000);
    const stranger = await customerWithCoins(app(), 50_000);
    const starter = await productId(app(), "samp-starter");
    await approvedOrder(app(), user, { productId: starter, serverName: "Approved one" });
    const rejected = await placedOrder(app(), user, { productId: starter, serverName: "Refused" });
    const decided = await rejectOrder(app().db, {
      orderId: rejected.id,
      actorId: await adminId(app()),
      reason: "Port 7777 is taken",
    });
    if (!decided.ok) throw new Error(decided.error);
    const pending = await placedOrder(app(), user, { productId: starter, serverName: "خادمي" });
    await placedOrder(app(), stranger, { productId: starter, serverName: "Not mine" });

    const waiting = await listWaitingOrders(app().db, user);
    expect(waiting.map((o) => [o.id, o.status, o.serverName, o.rejectReason])).toEqual([
      [pending.id, "pending", "خادمي", null],
      [rejected.id, "rejected", "Refused", "Port 7777 is taken"],
    ]);
    // A rejection older than the window is no longer listed; a pending order always is.
    const later = new Date(Date.now() + 30 * 86_400_000);
    expect((await listWaitingOrders(app().db, user, later)).map((o) => o.id)).toEqual([pending.id]);

    const tab = await loadCustomerDashboard(app().db, user, { tab: "services" });
    expect(tab.waitingOrders?.map((o) => o.id)).toEqual([pending.id, rejected.id]);
    expect(tab.renewal).toBeUndefined();
  });

  it("puts the confirmation of ?renew= on the services tab", async () => {
    const { user, serviceId } = await customerWithRunningService(app(), 10_000);
    const tab = await loadCustomerDashboard(app().db, user, { tab: "services", renew: serviceId });
    expect(tab.renewal).toMatchObject({ ok: true, quote: { serviceId } });
    const stranger = await customerWithCoins(app(), 0);
    const theirs = await loadCustomerDashboard(app().db, stranger, {
      tab: "services",
      renew: serviceId,
    });
    expect(theirs.renewal).toMatchObject({ ok: false, kind: "notFound" });
    expect(theirs.waitingOrders).toEqual([]);
  });
});
