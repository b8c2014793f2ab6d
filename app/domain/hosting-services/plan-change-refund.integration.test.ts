import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, expect, it } from "vitest";
import { recordRefund } from "~/domain/invoices/credit-notes.server";
import { getDocument } from "~/domain/invoices/documents.server";
import { findInvoiceDiscrepancies } from "~/domain/invoices/reconciliation.server";
import { addMonths } from "~/domain/orders/orders";
import { defaultSettings } from "~/domain/settings/settings";
import { updateSettingsSection } from "~/domain/settings/settings.server";
import {
  balanceOf,
  customerWithRunningService,
  expectLedgerIntactAfterEach,
  productId,
} from "../../../tests/support/money-fixtures";
import { readRow, readRows } from "../../../tests/support/read-column";
import { staffMember } from "../../../tests/support/staff-members";
import { describeEachDatabase } from "../../../tests/support/test-database";
import { requestRefund } from "./cancellation.server";
import { changePlan, loadPlanChangePage } from "./plan-change.server";
import { approveRefund } from "./refund-decision.server";

// A refund after changes of plan (docs/self-service.md): a downgrade credits part of the invoice that
// paid the term and leaves it paid, so a refund of that invoice gives back only what is left, and an
// upgrade's invoice is credited whole. Every coin paid comes back once; the books agree.

const HOUR = 3_600_000;

describeEachDatabase("a refund after changes of plan", (app) => {
  expectLedgerIntactAfterEach(app);
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
    // Every refund waits for an admin: the test decides it.
    await updateSettingsSection(app().db, "selfService", {
      ...defaultSettings().selfService,
      autoRefundMaxCoins: 0,
    });
  });

  afterAll(async () => {
    await app().db.deleteFrom("product_plan_paths").execute();
    await updateSettingsSection(app().db, "selfService", defaultSettings().selfService);
  });

  /** The change to `toProductId` at `now`, at the amount its confirmation shows; that amount. */
  async function change(user: string, serviceId: number, toProductId: number, now: Date) {
    const page = await loadPlanChangePage(app().db, { userId: user, serviceId, toProductId, now });
    if (!page.ok || !page.confirmation?.ok) throw new Error(JSON.stringify(page));
    const { amountCents, direction } = page.confirmation.quote;
    const changed = await changePlan(app().db, {
      userId: user,
      serviceId,
      toProductId,
      idempotencyKey: randomUUID(),
      shown: { amountCents, direction },
      now,
    });
    if (!changed.ok) throw new Error(changed.error);
    return amountCents;
  }

  /**
   * A customer's SA-MP Starter (its order's invoice: €2.50), moved up to Premium a day after the order
   * and back down an hour later: the invoices, the amounts and the balance before the changes.
   */
  async function upAndDown() {
    const { user, serviceId } = await customerWithRunningService(app(), 100_000);
    const { expires_at: expiresAt } = await readRow(app().db, "hosting_services", ["expires_at"], {
      id: serviceId,
    });
    const day = Date.parse(addMonths(expiresAt, -1)) + 24 * HOUR;
    const before = await balanceOf(app(), user);
    const up = await change(user, serviceId, premium, new Date(day));
    const down = await change(user, serviceId, starter, new Date(day + HOUR));
    expect(up).toBeGreaterThan(0);
    expect(down).toBeGreaterThan(0);
    expect(await balanceOf(app(), user)).toBe(before - up + down);
    const invoices = await readRows(
      app().db,
      "invoices",
      ["number", "kind", "state", "total_cents"],
      {
        user_id: user,
      },
    );
    const [order, upgrade] = invoices.filter((row) => row.kind === "invoice");
    expect(order).toMatchObject({ total_cents: 250, state: "paid" });
    expect(upgrade).toMatchObject({ total_cents: up, state: "paid" });
    return { user, serviceId, day, before, up, down, order: order!, upgrade: upgrade! };
  }

  /** What the books' check says of `user`'s documents. */
  async function problemsOf(user: string) {
    const numbers = new Set(
      (await readRows(app().db, "invoices", ["number"], { user_id: user })).map(
        (row) => row.number,
      ),
    );
    return (await findInvoiceDiscrepancies(app().db)).filter((problem) =>
      numbers.has(problem.number),
    );
  }

  it("a refund within 14 days gives back every coin paid once: the order's rest and the upgrade", async () => {
    const { user, serviceId, day, before, up, down, order, upgrade } = await upAndDown();
    const asked = await requestRefund(app().db, {
      userId: user,
      serviceId,
      reason: "tooExpensive",
      reasonText: null,
      now: new Date(day + 2 * HOUR),
    });
    if (!asked.ok) throw new Error(asked.error);
    // What is left of the order's invoice after the downgrade's part, and the upgrade's whole.
    expect(asked.cancellation.refundCents).toBe(250 - down + up);
    const owner = await staffMember(app(), "owner");
    const approved = await approveRefund(app().db, {
      id: asked.cancellation.id,
      actorId: owner,
      now: new Date(day + 3 * HOUR),
    });
    expect(approved).toMatchObject({ ok: true, amountCents: 250 - down + up });
    expect(await balanceOf(app(), user)).toBe(before + 250);
    expect(await problemsOf(user)).toEqual([]);

    // Each invoice names the credit note that closed it, never the downgrade's part.
    const admin = { userId: owner, isAdmin: true };
    const orderPage = await getDocument(app().db, order.number, admin);
    const upgradePage = await getDocument(app().db, upgrade.number, admin);
    expect(orderPage).toMatchObject({ state: "credited" });
    expect(upgradePage).toMatchObject({ state: "credited" });
    const closing = await readRow(app().db, "invoices", ["total_cents"], {
      number: orderPage!.creditedBy!,
    });
    expect(closing.total_cents).toBe(-(250 - down));
    const upgradeNote = await readRow(app().db, "invoices", ["total_cents"], {
      number: upgradePage!.creditedBy!,
    });
    expect(upgradeNote.total_cents).toBe(-up);
  });

  it("an admin's refund of the order's invoice after a downgrade gives back only what is left", async () => {
    const { user, before, up, down, order } = await upAndDown();
    const owner = await staffMember(app(), "owner");
    // The refund form tells the admin what the downgrade gave back already.
    expect(
      await getDocument(app().db, order.number, { userId: owner, isAdmin: true }),
    ).toMatchObject({ state: "paid", creditedSoFarCents: down });
    const refunded = await recordRefund(app().db, {
      number: order.number,
      method: "coins",
      reason: "Goodwill",
      actorId: owner,
    });
    if (!refunded.ok) throw new Error(refunded.error);
    expect(refunded.creditNote.totalCents).toBe(-(250 - down));
    expect(refunded.invoice.creditedBy).toBe(refunded.creditNote.number);
    expect(await balanceOf(app(), user)).toBe(before - up + down + (250 - down));
    expect(await problemsOf(user)).toEqual([]);
    // A second refund of it is refused: nothing comes back twice.
    const again = await recordRefund(app().db, {
      number: order.number,
      method: "coins",
      reason: "Twice",
      actorId: owner,
    });
    expect(again).toMatchObject({ ok: false, error: "invoices.errors.notRefundable" });
    expect(await balanceOf(app(), user)).toBe(before + 250 - up);
  });
});
