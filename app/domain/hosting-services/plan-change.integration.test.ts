import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, expect, it } from "vitest";
import { adjustCoins } from "~/domain/coins/coins.server";
import { getDocument } from "~/domain/invoices/documents.server";
import { saveBillingDetails } from "~/domain/invoices/billing-details.server";
import { findInvoiceDiscrepancies } from "~/domain/invoices/reconciliation.server";
import { defaultSettings } from "~/domain/settings/settings";
import { updateSettingsSection } from "~/domain/settings/settings.server";
import { changeServiceStatus } from "./admin-changes.server";
import { addMonths } from "~/domain/orders/orders";
import {
  adminId,
  balanceOf,
  customerWithRunningService,
  expectLedgerIntactAfterEach,
  productId,
} from "../../../tests/support/money-fixtures";
import { readRow, readRows } from "../../../tests/support/read-column";
import { refusal } from "../../../tests/support/results";
import { describeEachDatabase } from "../../../tests/support/test-database";
import type { PlanChangeDirection } from "./plan-change";
import { changePlan, loadPlanChangePage } from "./plan-change.server";

// A customer's change of plan, end to end on each database (docs/self-service.md): the prorated
// charge or credit, its document, the service on its new plan with its expiry kept, its event's tail,
// once per key; and every refusal leaving everything as it was.

/** The middle of a service's monthly term: half of a cycle's difference is due. */
function midTerm(expiresAt: string): Date {
  const end = Date.parse(expiresAt);
  const start = Date.parse(addMonths(expiresAt, -1));
  return new Date(end - (end - start) / 2);
}

describeEachDatabase("changing a service's plan", (app) => {
  expectLedgerIntactAfterEach(app);
  let starter: number;
  let premium: number;
  let ultimate: number;
  let mta: number;

  beforeAll(async () => {
    starter = await productId(app(), "samp-starter");
    premium = await productId(app(), "samp-premium");
    ultimate = await productId(app(), "samp-ultimate");
    mta = await productId(app(), "mta-starter");
    const at = new Date().toISOString();
    await app()
      .db.insertInto("product_plan_paths")
      .values([
        { from_product_id: starter, to_product_id: premium, created_at: at },
        { from_product_id: premium, to_product_id: starter, created_at: at },
        // Written by hand, past the editor's check: the change must still refuse another type.
        { from_product_id: starter, to_product_id: mta, created_at: at },
      ])
      .execute();
  });

  afterAll(async () => {
    await app().db.deleteFrom("product_plan_paths").execute();
    await updateSettingsSection(app().db, "invoicing", defaultSettings().invoicing);
  });

  /** A customer holding `coins` cents after buying SA-MP Starter (€2.50 a month), and that service. */
  async function starterService(coins = 10_000) {
    const { user, serviceId } = await customerWithRunningService(app(), 100_000);
    await adjustCoins(app().db, {
      userId: user,
      amountCents: coins - (await balanceOf(app(), user)),
      reason: "test",
      actorId: await adminId(app()),
    });
    const { expires_at: expiresAt } = await readRow(app().db, "hosting_services", ["expires_at"], {
      id: serviceId,
    });
    return { user, serviceId, expiresAt, now: midTerm(expiresAt) };
  }

  /** What the confirmation of `toProductId` shows the customer at `now`. */
  async function shown(user: string, serviceId: number, toProductId: number, now: Date) {
    const page = await loadPlanChangePage(app().db, { userId: user, serviceId, toProductId, now });
    if (!page.ok || !page.confirmation?.ok) throw new Error(JSON.stringify(page));
    const { amountCents, direction } = page.confirmation.quote;
    return { amountCents, direction } as { amountCents: number; direction: PlanChangeDirection };
  }

  /** Everything a refused change must leave as it was. */
  async function stateOf(user: string, serviceId: number) {
    const db = app().db;
    return {
      balance: await balanceOf(app(), user),
      service: await readRow(db, "hosting_services", "*", { id: serviceId }),
      changes: await readRows(db, "plan_changes", "*", { user_id: user }),
      invoices: await readRows(db, "invoices", "*", { user_id: user }),
      ledger: await readRows(db, "coin_ledger", "*", { user_id: user }),
      notices: await readRows(db, "notifications", "*", { user_id: user }),
      mail: await readRows(db, "mail_outbox", "*", { user_id: user }),
      jobs: await db.selectFrom("jobs").select("id").execute(),
    };
  }

  it("upgrades mid-term: half the difference charged, invoiced, the plan moved, the expiry kept", async () => {
    const { user, serviceId, expiresAt, now } = await starterService();
    const page = await loadPlanChangePage(app().db, { userId: user, serviceId, now });
    if (!page.ok) throw new Error(page.error);
    // Premium only: no path leads to Ultimate, and MTA is another type.
    expect(page.choices.map((choice) => choice.productId)).toEqual([premium]);
    expect(page.choices[0]).toMatchObject({ direction: "upgrade", amountCents: 100 });
    const confirmation = await shown(user, serviceId, premium, now);
    expect(confirmation).toEqual({ amountCents: 100, direction: "upgrade" });

    const changed = await changePlan(app().db, {
      userId: user,
      serviceId,
      toProductId: premium,
      idempotencyKey: randomUUID(),
      shown: confirmation,
      now,
    });
    if (!changed.ok) throw new Error(changed.error);
    expect(changed.change).toMatchObject({ direction: "upgrade", amountCents: 100 });
    expect(await balanceOf(app(), user)).toBe(10_000 - 100);
    const service = await readRow(app().db, "hosting_services", "*", { id: serviceId });
    expect(service).toMatchObject({
      product_id: premium,
      name: "SAMP Premium",
      monthly_price_cents: 450,
      cycle_price_cents: 450,
    });
    expect(Date.parse(service.expires_at)).toBe(Date.parse(expiresAt));

    // Its invoice: one line, the plans and the period, paid by the ledger row that took the coins.
    const number = changed.change.document.number!;
    const invoice = await getDocument(app().db, number, { userId: user, isAdmin: false });
    expect(invoice).toMatchObject({ kind: "invoice", state: "paid", totalCents: 100 });
    expect(invoice!.hostingServiceId).toBe(serviceId);
    expect(invoice!.lines).toEqual([
      expect.objectContaining({
        kind: "planChange",
        unitCents: 100,
        params: expect.objectContaining({
          fromPlan: "SAMP Starter",
          toPlan: "SAMP Premium",
          until: expiresAt,
          server: "Test server",
        }),
      }),
    ]);
    const entries = await readRows(app().db, "coin_ledger", ["kind", "amount_cents", "id"], {
      user_id: user,
      kind: "plan_change",
    });
    expect(entries.map((entry) => entry.amount_cents)).toEqual([-100]);
    const row = await readRow(app().db, "plan_changes", "*", { user_id: user });
    expect(row).toMatchObject({
      hosting_service_id: serviceId,
      from_product_id: starter,
      to_product_id: premium,
      previous_cycle_price_cents: 250,
      new_cycle_price_cents: 450,
      amount_cents: 100,
      direction: "upgrade",
      document_id: invoice!.id,
      resize_state: "none",
    });
    expect(Number(row.ledger_entry_id)).toBe(Number(entries[0]!.id));

    // Its tail: the audit row, the customer's notice and the mail with its invoice; no resize (by hand).
    const audit = await readRow(app().db, "audit_log", ["actor_id", "before", "after"], {
      action: "service.plan_change",
      target_id: String(serviceId),
    });
    expect(audit.actor_id).toBe(user);
    expect(JSON.parse(audit.after!)).toMatchObject({ productId: premium, amountCents: 100 });
    const notices = await readRows(app().db, "notifications", ["kind", "params"], {
      user_id: user,
      kind: "service_plan_upgraded",
    });
    expect(notices.map((notice) => JSON.parse(notice.params))).toEqual([
      { service: "SAMP Premium (Test server)", plan: "SAMP Premium", amountCents: 100 },
    ]);
    const mail = await readRow(app().db, "mail_outbox", ["params"], {
      user_id: user,
      kind: "servicePlanChanged",
    });
    expect(JSON.parse(mail.params)).toMatchObject({
      direction: "upgrade",
      document: { kind: "invoice", number, totalCents: 100 },
      resized: false,
    });
    const resizes = await app()
      .db.selectFrom("jobs")
      .select("id")
      .where("type", "=", "provisioning.resize")
      .where("payload", "like", `%"serviceId":${serviceId},%`)
      .execute();
    expect(resizes).toEqual([]);
    expect(await findInvoiceDiscrepancies(app().db)).toEqual([]);
  });

  it("downgrades back at the same moment: the same amount credited, with a partial credit note", async () => {
    const { user, serviceId, now } = await starterService();
    const up = await changePlan(app().db, {
      userId: user,
      serviceId,
      toProductId: premium,
      idempotencyKey: randomUUID(),
      shown: await shown(user, serviceId, premium, now),
      now,
    });
    if (!up.ok) throw new Error(up.error);
    const confirmation = await shown(user, serviceId, starter, now);
    expect(confirmation).toEqual({ amountCents: 100, direction: "downgrade" });
    const down = await changePlan(app().db, {
      userId: user,
      serviceId,
      toProductId: starter,
      idempotencyKey: randomUUID(),
      shown: confirmation,
      now,
    });
    if (!down.ok) throw new Error(down.error);
    // Down and back up leave the balance where it was, never higher.
    expect(await balanceOf(app(), user)).toBe(10_000);
    expect(await readRow(app().db, "hosting_services", "*", { id: serviceId })).toMatchObject({
      product_id: starter,
      name: "SAMP Starter",
      cycle_price_cents: 250,
    });
    // The credit note credits part of the order's invoice, which paid the term and stays paid.
    const credit = await getDocument(app().db, down.change.document.number!, {
      userId: user,
      isAdmin: false,
    });
    expect(credit).toMatchObject({ kind: "credit_note", totalCents: -100, refundMethod: "coins" });
    expect(credit!.lines[0]).toMatchObject({ kind: "planChange", totalCents: -100 });
    const orderInvoice = await app()
      .db.selectFrom("invoices")
      .select(["number", "state"])
      .where("user_id", "=", user)
      .where("order_id", "is not", null)
      .executeTakeFirstOrThrow();
    expect(credit!.creditsNumber).toBe(orderInvoice.number);
    expect(orderInvoice.state).toBe("paid");
    // Its page does not call it credited: a refund of it later gives back what is left.
    expect(
      await getDocument(app().db, orderInvoice.number, { userId: user, isAdmin: false }),
    ).toMatchObject({ state: "paid", creditedBy: null });
    expect(await findInvoiceDiscrepancies(app().db)).toEqual([]);
    const notices = await readRows(app().db, "notifications", ["kind"], {
      user_id: user,
      kind: "service_plan_downgraded",
    });
    expect(notices).toHaveLength(1);
  });

  it("changes once on a replayed key: the second post answers with the first change", async () => {
    const { user, serviceId, now } = await starterService();
    const form = {
      userId: user,
      serviceId,
      toProductId: premium,
      idempotencyKey: randomUUID(),
      shown: await shown(user, serviceId, premium, now),
      now,
    };
    const first = await changePlan(app().db, form);
    const second = await changePlan(app().db, form);
    if (!first.ok || !second.ok) throw new Error("refused");
    expect(first.duplicate).toBe(false);
    expect(second).toMatchObject({
      duplicate: true,
      change: { planChangeId: first.change.planChangeId, amountCents: 100 },
    });
    expect(second.change.document.number).toBe(first.change.document.number);
    expect(await balanceOf(app(), user)).toBe(10_000 - 100);
    expect(await readRows(app().db, "plan_changes", ["id"], { user_id: user })).toHaveLength(1);
    expect(
      await readRows(app().db, "coin_ledger", ["id"], { user_id: user, kind: "plan_change" }),
    ).toHaveLength(1);
  });

  it("refuses another type, a plan no path leads to, a stale amount and a short balance, changing nothing", async () => {
    const { user, serviceId, now } = await starterService(50);
    const base = { userId: user, serviceId, now };
    const before = await stateOf(user, serviceId);
    const attempts: [number, { amountCents: number; direction: PlanChangeDirection }?][] = [
      [mta, { amountCents: 25, direction: "upgrade" }],
      [ultimate, { amountCents: 300, direction: "upgrade" }],
      [starter],
      [999_999],
    ];
    const refusals = [];
    for (const [toProductId, seen] of attempts)
      refusals.push(
        await changePlan(app().db, {
          ...base,
          toProductId,
          idempotencyKey: randomUUID(),
          shown: seen,
        }),
      );
    expect(refusals).toEqual([
      refusal("invalid", "services.planChange.errors.otherType"),
      refusal("invalid", "services.planChange.errors.notAllowed"),
      refusal("invalid", "services.planChange.errors.notAllowed"),
      refusal("invalid", "services.planChange.errors.notAllowed"),
    ]);
    // What the confirmation showed is no longer the amount: refused rather than charged otherwise.
    expect(
      await changePlan(app().db, {
        ...base,
        toProductId: premium,
        idempotencyKey: randomUUID(),
        shown: { amountCents: 99, direction: "upgrade" },
      }),
    ).toEqual(refusal("conflict", "services.planChange.errors.amountChanged"));
    // 50 cents do not pay 100: the renewal's refusal, with what is missing.
    expect(
      await changePlan(app().db, {
        ...base,
        toProductId: premium,
        idempotencyKey: randomUUID(),
        shown: { amountCents: 100, direction: "upgrade" },
      }),
    ).toEqual({
      ...refusal("conflict", "orders.errors.insufficientCoins"),
      missingCents: 50,
      totalCents: 100,
    });
    // The page's confirmation says the same before anything is posted.
    const page = await loadPlanChangePage(app().db, { ...base, toProductId: mta });
    expect(page.ok && page.confirmation).toEqual(
      refusal("invalid", "services.planChange.errors.otherType"),
    );
    expect(await stateOf(user, serviceId)).toEqual(before);
  });

  it("refuses a service whose term is over, a suspended one and another customer's", async () => {
    const { user, serviceId, expiresAt, now } = await starterService();
    const other = await starterService();
    const form = (at: Date, id = serviceId) => ({
      userId: user,
      serviceId: id,
      toProductId: premium,
      idempotencyKey: randomUUID(),
      now: at,
    });
    const before = await stateOf(user, serviceId);
    expect(await changePlan(app().db, form(new Date(Date.parse(expiresAt) + 1)))).toEqual(
      refusal("conflict", "services.planChange.errors.cannotChange"),
    );
    expect(await changePlan(app().db, form(now, other.serviceId))).toEqual(
      refusal("notFound", "services.errors.notFound"),
    );
    expect(await stateOf(user, serviceId)).toEqual(before);
    const suspended = await changeServiceStatus(app().db, {
      serviceId,
      action: "suspend",
      actorId: await adminId(app()),
    });
    expect(suspended.ok).toBe(true);
    expect(await changePlan(app().db, form(now))).toEqual(
      refusal("conflict", "services.planChange.errors.cannotChange"),
    );
    const page = await loadPlanChangePage(app().db, { userId: user, serviceId, now });
    expect(page).toMatchObject({ ok: true, canChange: false, choices: [] });
  });

  it("adds the VAT as a renewal does when prices exclude it, on the charge and its invoice", async () => {
    await updateSettingsSection(app().db, "invoicing", {
      ...defaultSettings().invoicing,
      vatEnabled: true,
      vatRates: { MA: 2000 },
      pricesIncludeVat: false,
    });
    try {
      const { user, serviceId, now } = await starterService();
      await saveBillingDetails(app().db, {
        userId: user,
        billingName: "",
        billingAddress: "",
        billingCountry: "MA",
      });
      const confirmation = await shown(user, serviceId, premium, now);
      expect(confirmation).toEqual({ amountCents: 120, direction: "upgrade" });
      const changed = await changePlan(app().db, {
        userId: user,
        serviceId,
        toProductId: premium,
        idempotencyKey: randomUUID(),
        shown: confirmation,
        now,
      });
      if (!changed.ok) throw new Error(changed.error);
      expect(await balanceOf(app(), user)).toBe(10_000 - 120);
      const invoice = await getDocument(app().db, changed.change.document.number!, {
        userId: user,
        isAdmin: false,
      });
      expect(invoice).toMatchObject({ subtotalCents: 100, vatCents: 20, totalCents: 120 });
    } finally {
      await updateSettingsSection(app().db, "invoicing", defaultSettings().invoicing);
    }
  });
});
