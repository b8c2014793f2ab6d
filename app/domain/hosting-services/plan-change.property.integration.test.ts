import { randomUUID } from "node:crypto";
import fc from "fast-check";
import { afterAll, beforeAll, expect, it } from "vitest";
import { saveBillingDetails } from "~/domain/invoices/billing-details.server";
import { findInvoiceDiscrepancies } from "~/domain/invoices/reconciliation.server";
import { addMonths, BILLING_CYCLES, type BillingCycle } from "~/domain/orders/orders";
import { defaultSettings } from "~/domain/settings/settings";
import { updateSettingsSection } from "~/domain/settings/settings.server";
import {
  approvedOrder,
  balanceOf,
  customerWithCoins,
  expectLedgerIntact,
  productId,
} from "../../../tests/support/money-fixtures";
import { readRow } from "../../../tests/support/read-column";
import { describeEachDatabase } from "../../../tests/support/test-database";
import { planCyclePriceCents } from "./plan-change";
import { changePlan, loadPlanChangePage } from "./plan-change.server";

/** Runs of `npm test` stay short; PLAN_CHANGE_RUNS=200 (say) is a soak. */
const RUNS = Number(process.env.PLAN_CHANGE_RUNS ?? 10);

// The proration's properties through the database, on each one (the pure ones with thousands of cases:
// plan-change.test.ts): for services bought on either plan, on any cycle, changed at any moment of
// their term, with or without VAT added, what moves is never negative, never more than a cycle's
// difference, and a change there and back at the same moment leaves the balance no higher.

describeEachDatabase("a change of plan's proration, for generated cases", (app) => {
  let starter: number;
  let premium: number;

  beforeAll(async () => {
    starter = await productId(app(), "samp-starter");
    premium = await productId(app(), "samp-premium");
    const at = new Date().toISOString();
    await app()
      .db.insertInto("product_plan_paths")
      .values([
        { from_product_id: starter, to_product_id: premium, created_at: at },
        { from_product_id: premium, to_product_id: starter, created_at: at },
      ])
      .execute();
  });

  afterAll(async () => {
    await app().db.deleteFrom("product_plan_paths").execute();
    await updateSettingsSection(app().db, "invoicing", defaultSettings().invoicing);
  });

  it("is never negative, never more than the difference, and there and back leaves the balance no higher", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.record({
          upFirst: fc.boolean(),
          cycle: fc.constantFrom(
            ...(Object.keys(BILLING_CYCLES) as [BillingCycle, ...BillingCycle[]]),
          ),
          at: fc.double({ min: 0, max: 0.999, noNaN: true }),
          vatOnTop: fc.boolean(),
        }),
        async (run) => {
          await updateSettingsSection(app().db, "invoicing", {
            ...defaultSettings().invoicing,
            vatEnabled: true,
            vatRates: { MA: 2000 },
            pricesIncludeVat: !run.vatOnTop,
          });
          const [first, second] = run.upFirst ? [starter, premium] : [premium, starter];
          const user = await customerWithCoins(app(), 100_000);
          await saveBillingDetails(app().db, {
            userId: user,
            billingName: "",
            billingAddress: "",
            billingCountry: "MA",
          });
          const { approved } = await approvedOrder(app(), user, {
            productId: first,
            billingCycle: run.cycle,
          });
          const serviceId = approved.hostingServiceId!;
          const { expires_at: expiresAt } = await readRow(
            app().db,
            "hosting_services",
            ["expires_at"],
            { id: serviceId },
          );
          const start = Date.parse(addMonths(expiresAt, -BILLING_CYCLES[run.cycle].months));
          const now = new Date(start + Math.floor(run.at * (Date.parse(expiresAt) - start)));
          const before = await balanceOf(app(), user);
          // A cycle's whole difference, with its VAT: the most a change may move.
          const difference = Math.abs(
            planCyclePriceCents(450, run.cycle) - planCyclePriceCents(250, run.cycle),
          );
          const most = run.vatOnTop ? difference + Math.round(difference / 5) : difference;
          for (const to of [second, first]) {
            const page = await loadPlanChangePage(app().db, {
              userId: user,
              serviceId,
              toProductId: to,
              now,
            });
            if (!page.ok || !page.confirmation?.ok) throw new Error(JSON.stringify(page));
            const { amountCents, direction } = page.confirmation.quote;
            expect(amountCents).toBeGreaterThanOrEqual(0);
            expect(amountCents).toBeLessThanOrEqual(most);
            const changed = await changePlan(app().db, {
              userId: user,
              serviceId,
              toProductId: to,
              idempotencyKey: randomUUID(),
              shown: { amountCents, direction },
              now,
            });
            if (!changed.ok) throw new Error(changed.error);
          }
          expect(await balanceOf(app(), user)).toBeLessThanOrEqual(before);
          // Back on its first plan at its first price.
          expect(
            await readRow(app().db, "hosting_services", ["product_id"], { id: serviceId }),
          ).toEqual({ product_id: first });
        },
      ),
      { numRuns: RUNS },
    );
    await expectLedgerIntact(app());
    expect(await findInvoiceDiscrepancies(app().db)).toEqual([]);
  }, 120_000);
});
