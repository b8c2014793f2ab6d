import { afterEach, expect, it } from "vitest";
import { defaultSettings } from "~/domain/settings/settings";
import { updateSettingsSection } from "~/domain/settings/settings.server";
import {
  balanceOf,
  customerWithCoins,
  expectLedgerIntact,
  orderInput,
  placedOrder,
  productId,
} from "../../../tests/support/money-fixtures";
import { readColumn } from "../../../tests/support/read-column";
import { refusal } from "../../../tests/support/results";
import { describeEachDatabase } from "../../../tests/support/test-database";
import { checkVoucher, placeOrder } from "./orders.server";
import { voucherCheckQuerySchema } from "./voucher-check.schemas";

describeEachDatabase("order options and the voucher check", (app) => {
  afterEach(async () => {
    await updateSettingsSection(app().db, "general", defaultSettings().general);
    await expectLedgerIntact(app());
  });

  const usedCount = async (code: string) =>
    readColumn(app(), "vouchers", "used_count", ["code", code]);

  it("gives an order the settings' first location and the plan's slots when none are sent", async () => {
    const user = await customerWithCoins(app(), 10_000);
    const game = await placedOrder(app(), user, {
      productId: await productId(app(), "samp-premium"),
    });
    expect(game).toMatchObject({ location: "Frankfurt", playerSlots: 500 });
    const vps = await placedOrder(app(), user, {
      productId: await productId(app(), "vps-entry"),
      playerSlots: 200,
    });
    expect(vps).toMatchObject({ location: "Frankfurt", playerSlots: null });
  });

  it("takes the slot choices of the plan and only the locations of the settings", async () => {
    const user = await customerWithCoins(app(), 10_000);
    const starter = await productId(app(), "samp-starter");
    const place = (overrides: Record<string, unknown>) =>
      placeOrder(app().db, user, orderInput({ productId: starter, ...overrides }));

    // The plan card promises 150: 150 and the steps below it, nothing above.
    const ok = await place({ playerSlots: 100 });
    expect(ok.ok && ok.order.playerSlots).toBe(100);
    for (const playerSlots of [200, 500, 75])
      expect(await place({ playerSlots }), String(playerSlots)).toEqual({
        ...refusal("invalid", "orders.errors.invalidOption"),
        field: "playerSlots",
      });
    // The spec's old list is not the company's: only the settings' Frankfurt is offered.
    for (const location of ["usa", "germany", "Casablanca"])
      expect(await place({ location }), location).toEqual({
        ...refusal("invalid", "orders.errors.invalidOption"),
        field: "location",
      });
    expect(await balanceOf(app(), user)).toBe(10_000 - 250);

    // A location the admin adds is offered at once (read in the order's own transaction).
    await updateSettingsSection(app().db, "general", {
      ...defaultSettings().general,
      locations: ["Frankfurt", "Casablanca"],
    });
    const moroccan = await place({ location: "Casablanca" });
    expect(moroccan.ok && moroccan.order.location).toBe("Casablanca");
  });

  it("uses the settings the caller gives (the request's cache) rather than reading them again", async () => {
    const user = await customerWithCoins(app(), 10_000);
    const starter = await productId(app(), "samp-starter");
    // The database offers Frankfurt only; the caller's settings offer Casablanca only.
    const given = {
      ...defaultSettings(),
      general: { ...defaultSettings().general, locations: ["Casablanca"] },
    };
    const input = (location: string) => orderInput({ productId: starter, location });
    expect(await placeOrder(app().db, user, input("Frankfurt"), { settings: given })).toEqual({
      ...refusal("invalid", "orders.errors.invalidOption"),
      field: "location",
    });
    const placed = await placeOrder(app().db, user, input("Casablanca"), { settings: given });
    expect(placed.ok && placed.order.location).toBe("Casablanca");
  });

  it("checks a voucher as typed by the order's own rules and counts no use", async () => {
    const query = (fields: Record<string, string>) => voucherCheckQuerySchema.parse(fields);
    const business = String(await productId(app(), "vps-business"));
    const before = await usedCount("WELCOME10");

    expect(await checkVoucher(app().db, query({ code: " welcome10 ", product: business }))).toEqual(
      { ok: true, code: "WELCOME10", discountCents: 120, totalCents: 1080 },
    );
    // Quarterly with premium backup: (1200 + 200) × 3 = 4200, 5% off = 3990, 10% of that = 399.
    expect(
      await checkVoucher(
        app().db,
        query({
          code: "WELCOME10",
          product: business,
          billingCycle: "quarterly",
          backup: "premium",
        }),
      ),
    ).toEqual({ ok: true, code: "WELCOME10", discountCents: 399, totalCents: 3591 });
    // Below the voucher's minimum (€2.50 < €5.00), unknown, or for a plan that is not there.
    expect(
      await checkVoucher(
        app().db,
        query({ code: "WELCOME10", product: String(await productId(app(), "samp-starter")) }),
      ),
    ).toEqual({ ...refusal("invalid", "orders.errors.voucherMinimum"), minPurchaseCents: 500 });
    expect(await checkVoucher(app().db, query({ code: "NOPE", product: business }))).toEqual(
      refusal("invalid", "orders.errors.voucherNotFound"),
    );
    expect(await checkVoucher(app().db, query({ code: "WELCOME10", product: "987654" }))).toEqual(
      refusal("notFound", "orders.errors.serviceNotFound"),
    );
    // An expired voucher reads as expired at the time asked.
    expect(
      await checkVoucher(
        app().db,
        query({ code: "WELCOME10", product: business }),
        new Date(Date.now() + 400 * 86_400_000),
      ),
    ).toMatchObject({ ok: false, error: "orders.errors.voucherExpired" });
    expect(await usedCount("WELCOME10")).toBe(before);

    // What the check promised is what the order takes off.
    const user = await customerWithCoins(app(), 10_000);
    const placed = await placeOrder(
      app().db,
      user,
      orderInput({
        productId: Number(business),
        billingCycle: "quarterly",
        backup: "premium",
        voucherCode: "WELCOME10",
      }),
    );
    expect(placed.ok && placed.order).toMatchObject({ discountCents: 399, totalCents: 3591 });
    expect(await usedCount("WELCOME10")).toBe(before + 1);
  });
});
