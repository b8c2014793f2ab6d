import { randomUUID } from "node:crypto";
import { expect, it } from "vitest";
import { adjustCoins } from "~/domain/coins/coins.server";
import { loadCustomerDashboard } from "~/domain/customer-dashboard/customer-dashboard.server";
import { saveBillingDetails } from "~/domain/invoices/billing-details.server";
import { previewLifecycle, runLifecycle } from "~/domain/lifecycle/lifecycle.server";
import { defaultSettings } from "~/domain/settings/settings";
import { updateSettingsSection } from "~/domain/settings/settings.server";
import {
  adminId,
  balanceOf,
  customerWithRunningService,
  expectLedgerIntact,
} from "../../../tests/support/money-fixtures";
import { readRow, readRows } from "../../../tests/support/read-column";
import { refusal } from "../../../tests/support/results";
import { describeEachDatabase } from "../../../tests/support/test-database";
import { setAutoRenew } from "./customer-services.server";
import { quoteRenewal, renewService } from "./renewal.server";

const HOUR = 3_600_000;

describeEachDatabase("one renewal price: shown, planned and charged alike", (app) => {
  /** Morocco's 20 % on the customer's billing country; prices including the VAT or not. */
  const vatOn = (pricesIncludeVat: boolean) =>
    updateSettingsSection(app().db, "invoicing", {
      ...defaultSettings().invoicing,
      vatEnabled: true,
      vatRates: { MA: 2000 },
      pricesIncludeVat,
    });

  /** A customer billed in Morocco with a running service, whose balance is then `balanceCents`. */
  async function moroccanWithService(balanceCents = 100_000) {
    await vatOn(true);
    const { user, serviceId } = await customerWithRunningService(app(), 100_000);
    await saveBillingDetails(app().db, {
      userId: user,
      billingName: "",
      billingAddress: "",
      billingCountry: "MA",
    });
    await adjustCoins(app().db, {
      userId: user,
      amountCents: balanceCents - (await balanceOf(app(), user)),
      reason: "test",
      actorId: await adminId(app()),
    });
    const { cycle_price_cents: cycleCents } = await readRow(
      app().db,
      "hosting_services",
      ["cycle_price_cents"],
      { id: serviceId },
    );
    return { user, serviceId, cycleCents, withVat: cycleCents + Math.round(cycleCents / 5) };
  }

  it("shows, charges and invoices the price with the VAT added when prices exclude it", async () => {
    const { user, serviceId, cycleCents, withVat } = await moroccanWithService();
    await vatOn(false);
    const quoted = await quoteRenewal(app().db, { userId: user, serviceId });
    if (!quoted.ok) throw new Error(quoted.error);
    expect(quoted.quote.priceCents).toBe(withVat);
    expect(quoted.quote.amounts).toMatchObject({ subtotalCents: cycleCents, totalCents: withVat });
    // The services tab's line says the same price as its confirmation.
    const tab = await loadCustomerDashboard(app().db, user, { tab: "services" });
    expect(
      "services" in tab && tab.services?.find((s) => s.id === serviceId)?.renewalPriceCents,
    ).toBe(withVat);

    const before = await balanceOf(app(), user);
    const renewed = await renewService(app().db, {
      userId: user,
      serviceId,
      idempotencyKey: randomUUID(),
      shownPriceCents: quoted.quote.priceCents,
    });
    if (!renewed.ok) throw new Error(renewed.error);
    // What the confirmation said the balance would be, the charge, the renewal and its invoice agree.
    expect(await balanceOf(app(), user)).toBe(quoted.quote.balanceAfterCents);
    expect(before - (await balanceOf(app(), user))).toBe(withVat);
    const [renewal] = await readRows(app().db, "service_renewals", ["id", "amount_cents"], {
      hosting_service_id: serviceId,
    });
    expect(renewal!.amount_cents).toBe(withVat);
    const invoices = await app()
      .db.selectFrom("invoices")
      .select(["subtotal_cents", "vat_cents", "total_cents"])
      .where("hosting_service_id", "=", serviceId)
      .orderBy("id", "desc")
      .execute();
    expect(invoices[0]).toEqual({
      subtotal_cents: cycleCents,
      vat_cents: withVat - cycleCents,
      total_cents: withVat,
    });
    await expectLedgerIntact(app());
  });

  it("refuses a renewal whose price changed since it was shown, charging nothing", async () => {
    const { user, serviceId, cycleCents } = await moroccanWithService();
    await vatOn(false);
    const quoted = await quoteRenewal(app().db, { userId: user, serviceId });
    if (!quoted.ok) throw new Error(quoted.error);
    // The admin turns prices back to including the VAT while the confirmation is open.
    await vatOn(true);
    const before = await balanceOf(app(), user);
    const stale = await renewService(app().db, {
      userId: user,
      serviceId,
      idempotencyKey: randomUUID(),
      shownPriceCents: quoted.quote.priceCents,
    });
    expect(stale).toEqual(refusal("conflict", "services.errors.renewalPriceChanged"));
    expect(await balanceOf(app(), user)).toBe(before);
    expect(
      await readRows(app().db, "service_renewals", ["id"], { hosting_service_id: serviceId }),
    ).toEqual([]);
    // Confirmed again at the price shown now, it renews at that price.
    const again = await quoteRenewal(app().db, { userId: user, serviceId });
    if (!again.ok) throw new Error(again.error);
    expect(again.quote.priceCents).toBe(cycleCents);
    const renewed = await renewService(app().db, {
      userId: user,
      serviceId,
      idempotencyKey: randomUUID(),
      shownPriceCents: again.quote.priceCents,
    });
    expect(renewed.ok).toBe(true);
    expect(before - (await balanceOf(app(), user))).toBe(cycleCents);
  });

  it("plans, previews and runs an automatic renewal at the price with the VAT", async () => {
    // The balance covers the cycle's price but not the VAT added to it.
    const { user, serviceId, cycleCents, withVat } = await moroccanWithService();
    await adjustCoins(app().db, {
      userId: user,
      amountCents: cycleCents - (await balanceOf(app(), user)),
      reason: "test",
      actorId: await adminId(app()),
    });
    await vatOn(false);
    await setAutoRenew(app().db, { userId: user, serviceId, autoRenew: true });
    await updateSettingsSection(app().db, "lifecycle", {
      ...defaultSettings().lifecycle,
      enabled: true,
    });
    const { expires_at: expiresAt } = await readRow(app().db, "hosting_services", ["expires_at"], {
      id: serviceId,
    });
    const now = new Date(Date.parse(expiresAt) - 12 * HOUR);

    // The preview promises no renewal the run would refuse: short by the VAT.
    const preview = await previewLifecycle(app().db, { now });
    const mine = <S extends { serviceId: number }>(list: S[]) =>
      list.filter((s) => s.serviceId === serviceId);
    expect(mine(preview.services.renew)).toEqual([]);
    expect(mine(preview.services.short)).toMatchObject([
      { priceCents: withVat, missingCents: withVat - cycleCents },
    ]);
    const run = await runLifecycle(app().db, { now });
    expect(run.counts).toMatchObject({ renewed: 0, renewalShort: 1 });
    expect(await balanceOf(app(), user)).toBe(cycleCents);
    // Its mail says what renewing costs: the price with the VAT.
    const [mail] = await readRows(app().db, "mail_outbox", ["params"], {
      kind: "serviceRenewalShort",
      user_id: user,
    });
    expect(JSON.parse(mail!.params)).toMatchObject({
      priceCents: withVat,
      missingCents: withVat - cycleCents,
    });

    // With the VAT covered too, the plan renews it and the run charges what the plan said.
    await adjustCoins(app().db, {
      userId: user,
      amountCents: withVat - cycleCents,
      reason: "test",
      actorId: await adminId(app()),
    });
    const later = new Date(now.getTime() + HOUR);
    const covered = await previewLifecycle(app().db, { now: later });
    expect(mine(covered.services.renew)).toMatchObject([{ priceCents: withVat }]);
    expect((await runLifecycle(app().db, { now: later })).counts).toMatchObject({ renewed: 1 });
    expect(await balanceOf(app(), user)).toBe(0);
    await expectLedgerIntact(app());
  });
});
