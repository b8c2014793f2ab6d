import { expect, it } from "vitest";
import { SEED_ADMIN_COINS } from "~/domain/accounts/accounts";
import { adjustCoins } from "~/domain/coins/coins.server";
import { createPaymentMethod } from "~/domain/payments/payment-methods.server";
import { topUpLedgerKey } from "~/domain/payments/top-up-credit.server";
import { approveTopUp, rejectTopUp } from "~/domain/payments/top-up-decisions.server";
import { requestTopUp } from "~/domain/payments/top-up-requests.server";
import { readRow } from "../../../tests/support/read-column";
import { adminId, customerWithCoins } from "../../../tests/support/money-fixtures";
import { describeEachDatabase } from "../../../tests/support/test-database";
import { enabledOrangeMoney } from "../../../tests/support/top-up-fixtures";
import { monthKey } from "./reports";
import { loadMoneyReceived, loadReportsPage } from "./reports.server";

// The reports' money received: what customers paid for coins (approved top-ups, coins sold through a
// ticket), never what an admin added (the seed admin's opening coins among it); and the cash of the
// approved top-ups per month and payment method, in the method's own currency.

describeEachDatabase("money received", (app) => {
  it("counts approved top-ups and coins sold, not the seed admin's coins nor an admin's changes", async () => {
    const db = app().db;
    const admin = await adminId(app());
    // The seed admin's opening balance, an admin adjustment written when the database was made: the
    // report's months end with its month, so it lies inside them.
    const seed = await readRow(db, "coin_ledger", ["kind", "created_at"], {
      user_id: admin,
      amount_cents: SEED_ADMIN_COINS * 100,
    });
    expect(seed.kind).toBe("admin_adjustment");
    const now = new Date(seed.created_at);
    const thisMonth = now.toISOString();
    const lastMonth = new Date(
      Date.UTC(now.getUTCFullYear(), now.getUTCMonth() - 1, 10, 12),
    ).toISOString();
    const yearAgo = new Date(
      Date.UTC(now.getUTCFullYear(), now.getUTCMonth() - 12, 10, 12),
    ).toISOString();

    const orange = await enabledOrangeMoney(app());
    const bank = await createPaymentMethod(db, {
      actorId: admin,
      method: {
        names: { en: "Bank transfer", fr: "Virement", ar: "تحويل بنكي" },
        instructions: { en: "IBAN …", fr: "", ar: "" },
        currency: "EUR",
        rate: 100,
        minCoins: 1,
        maxCoins: 500,
        feeFixed: 0,
        feePercentBp: 0,
        enabled: true,
        sortOrder: 60,
      },
    });
    if (!bank.ok) throw new Error(bank.error);
    const customer = await customerWithCoins(app(), 0);

    /** A request asked and decided (approved with `credited` coins, or rejected), dated `at`. */
    async function decided(
      methodId: number,
      coins: number,
      at: string,
      decision: { credited?: number } | "rejected" = {},
    ) {
      const asked = await requestTopUp(db, { userId: customer, methodId, coins });
      if (!asked.ok) throw new Error(asked.error);
      const requestId = asked.request.id;
      const result =
        decision === "rejected"
          ? await rejectTopUp(db, { adminId: admin, requestId, reason: "Nothing received" })
          : await approveTopUp(db, { adminId: admin, requestId, coins: decision.credited });
      if (!result.ok) throw new Error(result.error);
      await db
        .updateTable("top_up_requests")
        .set({ decided_at: at })
        .where("id", "=", requestId)
        .execute();
      await db
        .updateTable("coin_ledger")
        .set({ created_at: at })
        .where("idempotency_key", "=", topUpLedgerKey(requestId))
        .execute();
    }

    await decided(orange.id, 10, thisMonth); // 110.00 MAD
    await decided(bank.method.id, 7, thisMonth); // €7.00
    await decided(orange.id, 15, lastMonth, { credited: 12 }); // 165.00 MAD asked, 12 coins given
    await decided(orange.id, 20, thisMonth, "rejected");
    await decided(orange.id, 30, yearAgo); // before the report's months
    // Coins sold through a support ticket: money too. An admin's goodwill: not money.
    const sold = await adjustCoins(db, {
      userId: customer,
      amountCents: 2_500,
      reason: "Ticket sale",
      actorId: admin,
      kind: "coin_purchase",
      idempotencyKey: "money-received:sold",
    });
    const gift = await adjustCoins(db, {
      userId: customer,
      amountCents: 50_000,
      reason: "goodwill",
      actorId: admin,
      idempotencyKey: "money-received:gift",
    });
    if (!sold.ok || !gift.ok) throw new Error("the adjustments were refused");
    await db
      .updateTable("coin_ledger")
      .set({ created_at: thisMonth })
      .where("idempotency_key", "in", ["money-received:sold", "money-received:gift"])
      .execute();

    const money = await loadMoneyReceived(db, { now, locale: "fr" });
    // 10 + 7 + 12 coins approved and 25 sold: the seed's 10,000, the gift and the old top-up are not.
    expect(money.coinsBoughtCents).toBe(1_000 + 700 + 1_200 + 2_500);
    const month = monthKey(now);
    const previous = lastMonth.slice(0, 7);
    expect(money.cash).toEqual([
      {
        month,
        methodId: orange.id,
        methodName: orange.names.fr || orange.names.en,
        currency: "MAD",
        totalMinor: 11_000,
        requests: 1,
        coins: 10,
      },
      {
        month,
        methodId: bank.method.id,
        methodName: "Virement",
        currency: "EUR",
        totalMinor: 700,
        requests: 1,
        coins: 7,
      },
      {
        month: previous,
        methodId: orange.id,
        methodName: orange.names.fr || orange.names.en,
        currency: "MAD",
        totalMinor: 16_500,
        requests: 1,
        coins: 12,
      },
    ]);
    expect(
      money.cashTotals.map((row) => [row.currency, row.totalMinor, row.requests, row.coins]),
    ).toEqual([
      ["MAD", 27_500, 2, 22],
      ["EUR", 700, 1, 7],
    ]);
    // The page reads the same, beside the monthly report of the same months.
    const page = await loadReportsPage(db, { now, locale: "fr" });
    expect(page.money).toEqual(money);
    expect(page.report.months.at(-1)).toBe(month);
  });
});
