import { randomUUID } from "node:crypto";
import { afterEach, describe, expect, it } from "vitest";
import { inTransaction, Refusal, type Tx } from "~/db/transaction";
import { MAX_BALANCE_CENTS } from "~/domain/coins/coins";
import { adjustCoins, writeLedgerEntry } from "~/domain/coins/coins.server";
import { registerCustomer } from "~/domain/accounts/accounts.server";
import { runLifecycle } from "~/domain/lifecycle/lifecycle.server";
import { PANEL_SYNC_JOB } from "~/domain/provisioning/panel-job-types";
import { deleteService } from "~/domain/hosting-services/admin-changes.server";
import { setAutoRenew } from "~/domain/hosting-services/customer-services.server";
import { renewService } from "~/domain/hosting-services/renewal.server";
import { autoRenewalKey } from "~/domain/lifecycle/lifecycle";
import { approveOrder, placeOrder, rejectOrder } from "~/domain/orders/orders.server";
import { defaultSettings } from "~/domain/settings/settings";
import { updateSettingsSection } from "~/domain/settings/settings.server";
import {
  adminId,
  balanceOf,
  customerWithCoins,
  customerWithRunningService,
  expectLedgerIntactAfterEach,
  insertVoucher,
  orderInput,
  placedOrder,
  productId,
  renewWithNewKey,
} from "../../../tests/support/money-fixtures";
import { latestRow, readRow, readRows } from "../../../tests/support/read-column";
import { refusal } from "../../../tests/support/results";
import { atOnce, describeEachDatabase } from "../../../tests/support/test-database";
import { getBillingDetails, saveBillingDetails } from "./billing-details.server";
import { documentPath, yearIn } from "./invoices";
import { recordRefund } from "./credit-notes.server";
import { getDocument, listCustomerDocuments, listDocumentsForAdmin } from "./documents.server";
import {
  issueDocument,
  issueDocumentNumberedAtCommit,
  issuePaymentReceipt,
  PENDING_NUMBER_PREFIX,
  type IssueDocumentInput,
} from "./issuing.server";
import { findInvoiceDiscrepancies } from "./reconciliation.server";
import type { AppServices } from "~/context.server";

const DAY = 86_400_000;

/**
 * A document for `userId` as a use-case would issue it, for 0 coins: it accounts for no ledger row, so
 * the ledger check (after each test) has nothing to match it with.
 */
function documentFor(
  userId: string,
  overrides: Partial<IssueDocumentInput> = {},
): IssueDocumentInput {
  return {
    kind: "receipt",
    userId,
    amounts: {
      pricesIncludeVat: true,
      vatRateBp: 0,
      subtotalCents: 0,
      vatCents: 0,
      totalCents: 0,
    },
    seller: { name: "Hostfront", address: "", taxId: "" },
    buyer: { name: "Buyer", email: "b@example.com", address: "", country: "" },
    lines: [
      {
        kind: "topUp",
        params: { reference: "T", method: "test" },
        quantity: 1,
        unitCents: 0,
        totalCents: 0,
      },
    ],
    timeZone: "UTC",
    ...overrides,
  };
}

/** The sequence numbers a series holds in a year, in order. */
async function sequenceOf(app: AppServices, prefix: string, year: number) {
  const rows = await app.db
    .selectFrom("invoices")
    .select("number")
    .where("number", "like", `${prefix}-${year}-%`)
    .execute();
  return rows.map((row) => Number(row.number.split("-")[2])).sort((a, b) => a - b);
}

/** 1, 2, …, n. */
const upTo = (n: number) => Array.from({ length: n }, (_, i) => i + 1);

/** The invoices of an order, oldest first. */
async function documentsOfOrder(app: AppServices, orderId: number) {
  return readRows(app.db, "invoices", "*", { order_id: orderId }, "id");
}

describeEachDatabase("invoices", (app, dialect) => {
  expectLedgerIntactAfterEach(app);
  afterEach(async () => {
    expect(await findInvoiceDiscrepancies(app().db)).toEqual([]);
    await updateSettingsSection(app().db, "invoicing", defaultSettings().invoicing);
  });

  /** Gives a customer a billing country and nothing else: the VAT of their documents follows it. */
  const billedIn = (userId: string, billingCountry: string) =>
    saveBillingDetails(app().db, { userId, billingName: "", billingAddress: "", billingCountry });

  /**
   * Issues 50 documents at once, each in its own transaction (on PostgreSQL, on the pool's parallel
   * connections); every fifth rolls back after issuing. The documents kept.
   */
  async function fiftyAtOnceEveryFifthRolledBack<D extends { id: number }>(
    issue: (trx: Tx, i: number) => Promise<D>,
  ): Promise<D[]> {
    const results = await Promise.all(
      upTo(50).map((i) =>
        inTransaction(app().db, async (trx) => {
          const issued = await issue(trx, i);
          if (i % 5 === 0) throw new Refusal({ rolledBack: issued.id });
          return issued;
        }),
      ),
    );
    return results.filter((r) => !("rolledBack" in r));
  }

  it("numbers each series per year from 1, with no gap and no reuse", async () => {
    const user = await customerWithCoins(app(), 0);
    const issue = (overrides: Partial<IssueDocumentInput>) =>
      inTransaction(app().db, (trx) => issueDocument(trx, documentFor(user, overrides)));
    // Years far from the others' so the suite's other documents are not counted.
    const at = (year: number) => new Date(`${year}-06-01T12:00:00Z`);
    expect((await issue({ now: at(2101) })).number).toBe("HFR-2101-000001");
    expect((await issue({ now: at(2101) })).number).toBe("HFR-2101-000002");
    expect((await issue({ kind: "credit_note", now: at(2101) })).number).toBe("HFC-2101-000001");
    expect((await issue({ now: at(2102) })).number).toBe("HFR-2102-000001");
    expect((await issue({ now: at(2101) })).number).toBe("HFR-2101-000003");
    // The year is the site's: 23:30 UTC on New Year's Eve is already 2104 in Paris.
    const eve = new Date("2103-12-31T23:30:00Z");
    expect((await issue({ now: eve, timeZone: "Europe/Paris" })).number).toBe("HFR-2104-000001");
    expect((await issue({ now: eve, timeZone: "UTC" })).number).toBe("HFR-2103-000001");
  });

  it("gives a rolled-back issue's number to the next document: no gap", async () => {
    const user = await customerWithCoins(app(), 0);
    const now = new Date("2110-03-01T00:00:00Z");
    const first = await inTransaction(app().db, (trx) =>
      issueDocument(trx, documentFor(user, { now })),
    );
    const rolledBack = await inTransaction(app().db, async (trx) => {
      const taken = await issueDocument(trx, documentFor(user, { now }));
      expect(taken.number).toBe("HFR-2110-000002");
      throw new Refusal({ ok: false, taken: taken.number });
    });
    expect(rolledBack).toEqual({ ok: false, taken: "HFR-2110-000002" });
    const next = await inTransaction(app().db, (trx) =>
      issueDocument(trx, documentFor(user, { now })),
    );
    expect([first.number, next.number]).toEqual(["HFR-2110-000001", "HFR-2110-000002"]);
    expect(await sequenceOf(app(), "HFR", 2110)).toEqual([1, 2]);
  });

  it(
    atOnce(
      dialect,
      "issues 50 documents at once without a gap or a duplicate, some of them rolled back",
    ),
    async () => {
      const user = await customerWithCoins(app(), 0);
      const now = new Date("2120-01-15T00:00:00Z");
      // Every fifth rolls back after taking its number, which the next one must take again.
      const kept = await fiftyAtOnceEveryFifthRolledBack((trx) =>
        issueDocument(trx, documentFor(user, { now })),
      );
      expect(kept).toHaveLength(40);
      expect(new Set(kept.map((r) => r.number)).size).toBe(40);
      expect(await sequenceOf(app(), "HFR", 2120)).toEqual(upTo(40));
      const counter = await readRow(app().db, "document_counters", ["next_number"], {
        series: "HFR",
        year: 2120,
      });
      expect(counter.next_number).toBe(41);
    },
    30_000,
  );

  it(
    atOnce(
      dialect,
      "numbers documents at commit beside documents numbered at once: 50 at once, some rolled back, no gap",
    ),
    async () => {
      const user = await customerWithCoins(app(), 0);
      const now = new Date("2121-01-15T00:00:00Z");
      // Half take their number at commit (orders and renewals: a deferred trigger on PostgreSQL), half at
      // once (receipts, credit notes), all in one series and year. Every fifth rolls back after issuing:
      // its number, taken or not, must go to another document.
      const kept = await fiftyAtOnceEveryFifthRolledBack(async (trx, i) => {
        const input = documentFor(user, { kind: "invoice", now });
        return i % 2 === 0
          ? await issueDocumentNumberedAtCommit(trx, input)
          : await issueDocument(trx, input);
      });
      expect(kept).toHaveLength(40);
      expect(await sequenceOf(app(), "HF", 2121)).toEqual(upTo(40));
      // Each kept document holds its number, and no placeholder was ever committed.
      const rows = await app()
        .db.selectFrom("invoices")
        .select(["id", "number"])
        .where(
          "id",
          "in",
          kept.map((r) => r.id),
        )
        .execute();
      expect(rows).toHaveLength(40);
      for (const row of rows) expect(row.number).toMatch(/^HF-2121-\d{6}$/);
      const pending = await app()
        .db.selectFrom("invoices")
        .select("number")
        .where("number", "like", `${PENDING_NUMBER_PREFIX}%`)
        .execute();
      expect(pending).toEqual([]);
    },
    30_000,
  );

  it("gives a document numbered at commit the number it holds once committed, counting on from the others", async () => {
    const user = await customerWithCoins(app(), 0);
    const now = new Date("2122-05-01T00:00:00Z");
    const input = documentFor(user, { kind: "invoice", now });
    await inTransaction(app().db, (trx) => issueDocument(trx, input));
    const pending = await inTransaction(app().db, async (trx) => {
      const issued = await issueDocumentNumberedAtCommit(trx, input);
      // Inside its transaction a PostgreSQL document has no number yet; SQLite's has one at once.
      const inside = await trx
        .selectFrom("invoices")
        .select("number")
        .where("id", "=", issued.id)
        .executeTakeFirstOrThrow();
      return { ...issued, inside: inside.number };
    });
    if (dialect === "postgres") expect(pending.inside.startsWith(PENDING_NUMBER_PREFIX)).toBe(true);
    else expect(pending.inside).toBe("HF-2122-000002");
    const after = await readRow(app().db, "invoices", ["number"], { id: pending.id });
    expect(after.number).toBe("HF-2122-000002");
    const next = await inTransaction(app().db, (trx) => issueDocument(trx, input));
    expect(next.number).toBe("HF-2122-000003");
  });

  it("gives a paid order exactly one invoice, its VAT taken out of the price for a customer in Morocco", async () => {
    const user = await customerWithCoins(app(), 100_000);
    await saveBillingDetails(app().db, {
      userId: user,
      billingName: "Atlas SARL",
      billingAddress: "12 rue des Oudayas\nRabat",
      billingCountry: "MA",
    });
    const input = orderInput({
      productId: await productId(app(), "samp-premium"),
      billingCycle: "quarterly",
      backup: "premium",
    });
    const placed = await placeOrder(app().db, user, input);
    if (!placed.ok) throw new Error(placed.error);
    // The same form sent again is the same order, and no second invoice.
    const replay = await placeOrder(app().db, user, input);
    expect(replay.ok && replay.duplicate).toBe(true);
    const documents = await documentsOfOrder(app(), placed.order.id);
    expect(documents).toHaveLength(1);
    const invoice = documents[0]!;
    const total = placed.order.totalCents;
    const vat = Math.floor((2 * total * 2000 + 12_000) / 24_000);
    expect(invoice).toMatchObject({
      kind: "invoice",
      state: "paid",
      user_id: user,
      currency: "EUR",
      total_cents: total,
      vat_rate_bp: 2000,
      vat_cents: vat,
      subtotal_cents: total - vat,
    });
    expect(invoice.number).toMatch(
      new RegExp(`^HF-${yearIn("Africa/Casablanca", new Date())}-\\d{6}$`),
    );
    expect(JSON.parse(invoice.buyer)).toEqual({
      name: "Atlas SARL",
      email: expect.stringContaining("@example.com"),
      address: "12 rue des Oudayas\nRabat",
      country: "MA",
    });
    expect(JSON.parse(invoice.seller)).toEqual({ name: "Hostfront", address: "", taxId: "" });
    expect(JSON.parse(invoice.lines)).toEqual([
      {
        kind: "order",
        params: {
          id: placed.order.id,
          product: placed.order.productName,
          cycle: "quarterly",
          server: "Test server",
        },
        quantity: 1,
        unitCents: placed.order.subtotalCents,
        totalCents: placed.order.subtotalCents,
      },
    ]);
    // Its ledger row is the order's payment, of its total.
    const entry = await readRow(app().db, "coin_ledger", ["amount_cents", "kind", "order_id"], {
      id: Number(invoice.ledger_entry_id),
    });
    expect(entry).toEqual({
      amount_cents: -total,
      kind: "order_payment",
      order_id: placed.order.id,
    });
    // Approving it issues nothing more.
    await approveOrder(app().db, { orderId: placed.order.id, actorId: await adminId(app()) });
    expect(await documentsOfOrder(app(), placed.order.id)).toHaveLength(1);
  });

  it("charges no VAT outside a country with a rate, nor with VAT off, and adds it when prices exclude it", async () => {
    const product = await productId(app(), "samp-starter");
    const abroad = await customerWithCoins(app(), 100_000);
    await billedIn(abroad, "FR");
    const french = await placedOrder(app(), abroad, { productId: product });
    expect((await documentsOfOrder(app(), french.id))[0]).toMatchObject({
      vat_rate_bp: 0,
      vat_cents: 0,
      subtotal_cents: french.totalCents,
      total_cents: french.totalCents,
    });
    // Without a billing name, the account's own.
    expect(JSON.parse((await documentsOfOrder(app(), french.id))[0]!.buyer).name).toBe("Buyer");
    // Without a billing address, none: the buyer whole.
    expect(JSON.parse((await documentsOfOrder(app(), french.id))[0]!.buyer)).toEqual({
      name: "Buyer",
      email: expect.stringContaining("@example.com"),
      address: "",
      country: "FR",
    });

    const moroccan = await customerWithCoins(app(), 100_000);
    await billedIn(moroccan, "MA");
    await updateSettingsSection(app().db, "invoicing", {
      ...defaultSettings().invoicing,
      vatEnabled: false,
    });
    const off = await placedOrder(app(), moroccan, { productId: product });
    expect((await documentsOfOrder(app(), off.id))[0]).toMatchObject({ vat_cents: 0 });

    await updateSettingsSection(app().db, "invoicing", {
      ...defaultSettings().invoicing,
      pricesIncludeVat: false,
    });
    const before = await balanceOf(app(), moroccan);
    const added = await placedOrder(app(), moroccan, { productId: product });
    const invoice = (await documentsOfOrder(app(), added.id))[0]!;
    // The price is the subtotal; the VAT comes on top and is charged with it.
    expect(invoice.subtotal_cents).toBe(off.totalCents);
    expect(invoice.vat_cents).toBe(Math.floor((2 * off.totalCents * 2000 + 10_000) / 20_000));
    expect(invoice.total_cents).toBe(invoice.subtotal_cents + invoice.vat_cents);
    expect(added.totalCents).toBe(invoice.total_cents);
    expect(before - (await balanceOf(app(), moroccan))).toBe(invoice.total_cents);
    expect(invoice.prices_include_vat).toBe(0);
    // Read back, the document says its prices exclude VAT (the page's and the PDF's column labels).
    const read = await getDocument(app().db, invoice.number, { userId: moroccan, isAdmin: false });
    expect(read?.pricesIncludeVat).toBe(false);
    const included = (await documentsOfOrder(app(), off.id))[0]!;
    expect(
      (await getDocument(app().db, included.number, { userId: moroccan, isAdmin: false }))
        ?.pricesIncludeVat,
    ).toBe(true);
  });

  it("gives a customer registered with a country that country's VAT on their first invoice", async () => {
    await updateSettingsSection(app().db, "invoicing", {
      ...defaultSettings().invoicing,
      vatRates: { MA: 2000, FR: 550 },
    });
    const product = await productId(app(), "samp-starter");
    const registered = async (country?: string) => {
      const result = await registerCustomer(
        app(),
        {
          name: "Nadia",
          email: `nadia${randomUUID()}@example.com`,
          password: "Nadia-pw-5521",
          confirmPassword: "Nadia-pw-5521",
          country,
        },
        { registrationOpen: true },
      );
      if (!result.ok) throw new Error(result.error);
      const credit = await adjustCoins(app().db, {
        userId: result.userId,
        amountCents: 100_000,
        reason: "test credit",
        actorId: await adminId(app()),
      });
      if (!credit.ok) throw new Error(credit.error);
      return result.userId;
    };
    for (const [country, rate] of [
      ["MA", 2000],
      ["FR", 550],
    ] as const) {
      const user = await registered(country);
      // Nothing saved on the account tab since: the country of the registration form.
      expect(await getBillingDetails(app().db, user)).toEqual({ name: "", address: "", country });
      const order = await placedOrder(app(), user, { productId: product });
      const [invoice] = await documentsOfOrder(app(), order.id);
      expect(invoice, country).toMatchObject({
        vat_rate_bp: rate,
        vat_cents: Math.floor(
          (2 * order.totalCents * rate + 10_000 + rate) / (2 * (10_000 + rate)),
        ),
      });
      expect(JSON.parse(invoice!.buyer).country).toBe(country);
    }
    // Registered without one (as before the form asked), none applies.
    const none = await placedOrder(app(), await registered(), { productId: product });
    expect((await documentsOfOrder(app(), none.id))[0]).toMatchObject({ vat_rate_bp: 0 });
  });

  it("lists a voucher's discount as a line of its own", async () => {
    const user = await customerWithCoins(app(), 100_000);
    const order = await placedOrder(app(), user, {
      productId: await productId(app(), "samp-premium"),
      billingCycle: "annual",
      voucherCode: "WELCOME10",
    });
    expect(order.discountCents).toBeGreaterThan(0);
    const lines = JSON.parse((await documentsOfOrder(app(), order.id))[0]!.lines) as {
      kind: string;
      totalCents: number;
    }[];
    expect(lines.map((line) => [line.kind, line.totalCents])).toEqual([
      ["order", order.subtotalCents],
      ["discount", -order.discountCents],
    ]);
    // The discount's line names its voucher, and takes the discount off.
    expect(lines[1]).toEqual({
      kind: "discount",
      params: { code: "WELCOME10" },
      quantity: 1,
      unitCents: -order.discountCents,
      totalCents: -order.discountCents,
    });
  });

  it("credits a rejected order's invoice with a credit note of the coins returned", async () => {
    const user = await customerWithCoins(app(), 100_000);
    await billedIn(user, "MA");
    const order = await placedOrder(app(), user, { productId: await productId(app(), "mta-pro") });
    const rejected = await rejectOrder(app().db, {
      orderId: order.id,
      actorId: await adminId(app()),
      reason: "Out of stock",
    });
    expect(rejected.ok).toBe(true);
    const [invoice, credit] = await documentsOfOrder(app(), order.id);
    expect(invoice).toMatchObject({ kind: "invoice", state: "credited" });
    expect(invoice!.vat_cents).toBeGreaterThan(0);
    expect(credit).toMatchObject({
      kind: "credit_note",
      state: "paid",
      credits_invoice_id: invoice!.id,
      total_cents: -order.totalCents,
      vat_cents: -invoice!.vat_cents,
      subtotal_cents: -invoice!.subtotal_cents,
      reason: "Out of stock",
      refund_method: "coins",
    });
    expect(credit!.number).toMatch(/^HFC-\d{4}-\d{6}$/);
    const entry = await readRow(app().db, "coin_ledger", ["amount_cents", "kind"], {
      id: Number(credit!.ledger_entry_id),
    });
    expect(entry).toEqual({ amount_cents: order.totalCents, kind: "order_refund" });
  });

  it("leaves an order from before invoices existed without one, and its rejection without a credit note", async () => {
    // The check looks at payments from the first invoice's on: another customer's invoiced order first,
    // so that the test stands alone (run by itself, no earlier test's invoice comes before).
    const product = await productId(app(), "mta-pro");
    await placedOrder(app(), await customerWithCoins(app(), 100_000), { productId: product });
    const user = await customerWithCoins(app(), 100_000);
    const order = await placedOrder(app(), user, { productId: product });
    // As if placed before migration 0034: no invoice.
    await app().db.deleteFrom("invoices").where("order_id", "=", order.id).execute();
    const rejected = await rejectOrder(app().db, {
      orderId: order.id,
      actorId: await adminId(app()),
      reason: "Old order",
    });
    expect(rejected.ok).toBe(true);
    expect(await documentsOfOrder(app(), order.id)).toEqual([]);
    // The order's payment has no invoice: the ledger check would say so, for this test only.
    const problems = await findInvoiceDiscrepancies(app().db);
    expect(problems.map((p) => p.problem)).toEqual(["a order_payment without an invoice"]);
    await app().db.deleteFrom("coin_ledger").where("order_id", "=", order.id).execute();
    await app()
      .db.updateTable("users")
      .set({ coin_balance_cents: 100_000 })
      .where("id", "=", user)
      .execute();
  });

  it("invoices every renewal, the customer's and the lifecycle's", async () => {
    const { user, serviceId } = await customerWithRunningService(app(), 100_000);
    await setAutoRenew(app().db, { userId: user, serviceId, autoRenew: true });
    const renewed = await renewWithNewKey(app(), user, serviceId);
    expect(renewed.ok).toBe(true);
    const ofService = () =>
      readRows(app().db, "invoices", "*", { hosting_service_id: serviceId }, "id");
    const [manual] = await ofService();
    const service = await readRow(
      app().db,
      "hosting_services",
      ["cycle_price_cents", "expires_at", "name"],
      { id: serviceId },
    );
    expect(manual).toMatchObject({
      kind: "invoice",
      total_cents: service.cycle_price_cents,
      actor_id: user,
    });
    expect(JSON.parse(manual!.lines)[0]).toMatchObject({
      kind: "renewal",
      params: { service: service.name, cycle: "monthly", until: service.expires_at },
    });

    // The lifecycle renews it automatically two days before it expires.
    await updateSettingsSection(app().db, "lifecycle", {
      ...defaultSettings().lifecycle,
      enabled: true,
    });
    try {
      const run = await runLifecycle(app().db, {
        now: new Date(Date.parse(service.expires_at) - 12 * 3_600_000),
      });
      expect(run.counts.renewed).toBeGreaterThanOrEqual(1);
    } finally {
      await updateSettingsSection(app().db, "lifecycle", defaultSettings().lifecycle);
    }
    const documents = await ofService();
    expect(documents).toHaveLength(2);
    expect(documents[1]).toMatchObject({ kind: "invoice", actor_id: null });
  });

  it("records a refund to the balance: the coins back, a credit note, the invoice credited once", async () => {
    const admin = await adminId(app());
    const user = await customerWithCoins(app(), 100_000);
    const order = await placedOrder(app(), user, { productId: await productId(app(), "mta-pro") });
    const [invoice] = await documentsOfOrder(app(), order.id);
    // A pending order is rejected, not refunded.
    expect(
      await recordRefund(app().db, {
        number: invoice!.number,
        method: "coins",
        reason: "14 days",
        actorId: admin,
      }),
    ).toEqual(refusal("conflict", "invoices.errors.orderPending"));
    await approveOrder(app().db, { orderId: order.id, actorId: admin });
    const before = await balanceOf(app(), user);
    const refunded = await recordRefund(app().db, {
      number: invoice!.number,
      method: "coins",
      reason: "Within 14 days",
      actorId: admin,
    });
    if (!refunded.ok) throw new Error(refunded.error);
    expect(await balanceOf(app(), user)).toBe(before + order.totalCents);
    expect(refunded.invoice.state).toBe("credited");
    // The page shows the invoice as it is now: credited by the new credit note.
    expect(refunded.invoice).toMatchObject({
      number: invoice!.number,
      creditsNumber: null,
      creditedBy: refunded.creditNote.number,
    });
    // No renewal's term, and no automatic renewal to switch off: the result says nothing of them.
    expect(refunded).not.toHaveProperty("termTakenBack");
    expect(refunded).not.toHaveProperty("autoRenewStopped");
    // The coins came back under a reason the customer's ledger reads in their language.
    const entry = await latestRow(
      app().db,
      "coin_ledger",
      ["amount_cents", "kind", "reason", "reason_key", "reason_params", "actor_id"],
      { user_id: user },
    );
    expect({ ...entry, reason_params: JSON.parse(entry.reason_params!) }).toEqual({
      amount_cents: order.totalCents,
      kind: "order_refund",
      reason: `Refund of invoice ${invoice!.number}`,
      reason_key: "invoiceRefund",
      reason_params: { number: invoice!.number },
      actor_id: admin,
    });
    // The audit entry says what changed, and the customer is told, with a link to the credit note.
    const recorded = await readRow(
      app().db,
      "audit_log",
      ["actor_id", "target_type", "before", "after"],
      { action: "invoice.refund", target_id: invoice!.number },
    );
    expect({
      ...recorded,
      before: JSON.parse(recorded.before!),
      after: JSON.parse(recorded.after!),
    }).toEqual({
      actor_id: admin,
      target_type: "invoice",
      before: { state: "paid" },
      after: {
        state: "credited",
        creditNote: refunded.creditNote.number,
        method: "coins",
        refundedCents: order.totalCents,
      },
    });
    const notice = await readRow(app().db, "notifications", ["kind", "params", "link"], {
      user_id: user,
      kind: "invoice_refunded",
    });
    expect({ ...notice, params: JSON.parse(notice.params) }).toEqual({
      kind: "invoice_refunded",
      params: {
        number: invoice!.number,
        creditNote: refunded.creditNote.number,
        amountCents: order.totalCents,
      },
      link: documentPath(refunded.creditNote.number),
    });
    const [, credit] = await documentsOfOrder(app(), order.id);
    expect(credit).toMatchObject({
      number: refunded.creditNote.number,
      kind: "credit_note",
      total_cents: -order.totalCents,
      refund_method: "coins",
      actor_id: admin,
    });
    // A second refund, of the invoice or of its credit note, is refused; so is an unknown number.
    for (const number of [invoice!.number, credit!.number])
      expect(
        await recordRefund(app().db, { number, method: "coins", reason: "again", actorId: admin }),
      ).toEqual(refusal("conflict", "invoices.errors.notRefundable"));
    expect(
      await recordRefund(app().db, {
        number: "HF-1999-000001",
        method: "coins",
        reason: "x",
        actorId: admin,
      }),
    ).toEqual(refusal("notFound", "invoices.errors.notFound"));
    const audit = await readRows(app().db, "audit_log", ["action", "target_id", "reason"], {
      action: "invoice.refund",
      target_id: invoice!.number,
    });
    expect(audit).toEqual([
      { action: "invoice.refund", target_id: invoice!.number, reason: "Within 14 days" },
    ]);
  });

  it("records money sent back outside the site: a credit note, and no coins move", async () => {
    const admin = await adminId(app());
    const { user, serviceId } = await customerWithRunningService(app(), 100_000);
    await renewWithNewKey(app(), user, serviceId);
    const renewal = await latestRow(app().db, "invoices", ["number", "total_cents"], {
      hosting_service_id: serviceId,
      kind: "invoice",
    });
    const before = await balanceOf(app(), user);
    const refunded = await recordRefund(app().db, {
      number: renewal.number,
      method: "outside",
      reason: "Sent back by bank transfer",
      actorId: admin,
    });
    if (!refunded.ok) throw new Error(refunded.error);
    expect(await balanceOf(app(), user)).toBe(before);
    const credit = await readRow(app().db, "invoices", "*", { number: refunded.creditNote.number });
    expect(credit).toMatchObject({
      kind: "credit_note",
      refund_method: "outside",
      ledger_entry_id: null,
      total_cents: -renewal.total_cents,
      hosting_service_id: serviceId,
    });
  });

  /** A service renewed `times` times from the customer's form: its renewals' invoices and expiries. */
  async function serviceRenewed(times: number) {
    const { user, serviceId } = await customerWithRunningService(app(), 100_000);
    await setAutoRenew(app().db, { userId: user, serviceId, autoRenew: true });
    const expiryOf = async () =>
      (await readRow(app().db, "hosting_services", ["expires_at"], { id: serviceId })).expires_at;
    const expiries = [await expiryOf()];
    for (let i = 0; i < times; i++) {
      expect((await renewWithNewKey(app(), user, serviceId)).ok).toBe(true);
      expiries.push(await expiryOf());
    }
    return { user, serviceId, expiryOf, expiries, numbers: await invoiceNumbersOf(serviceId) };
  }

  /** The numbers of a service's invoices, oldest first. */
  async function invoiceNumbersOf(serviceId: number) {
    const invoices = await readRows(
      app().db,
      "invoices",
      ["number"],
      { hosting_service_id: serviceId, kind: "invoice" },
      "id",
    );
    return invoices.map((row) => row.number);
  }

  it("finds the renewal an invoice paid for by its line, though a later renewal gave the same expiry", async () => {
    const admin = await adminId(app());
    const { user, serviceId, expiries } = await serviceRenewed(1);
    const [before, after] = expiries as [string, string];
    // An admin set the expiry back by hand; the lifecycle then renewed it to the same day.
    await app()
      .db.updateTable("hosting_services")
      .set({ expires_at: before })
      .where("id", "=", serviceId)
      .execute();
    const automatic = await renewService(app().db, {
      userId: user,
      serviceId,
      idempotencyKey: autoRenewalKey(serviceId, before),
      automatic: true,
    });
    expect(automatic).toMatchObject({ ok: true });
    const renewals = await readRows(
      app().db,
      "service_renewals",
      ["id", "new_expires_at"],
      { hosting_service_id: serviceId },
      "id",
    );
    expect(renewals.map((row) => Date.parse(row.new_expires_at))).toEqual([
      Date.parse(after),
      Date.parse(after),
    ]);
    const choices = [];
    for (const number of await invoiceNumbersOf(serviceId)) {
      const document = await getDocument(app().db, number, { userId: admin, isAdmin: true });
      choices.push(document?.renewalRefund);
    }
    // Each names its own renewal: the customer's, then the lifecycle's.
    expect(choices.map((choice) => choice?.renewalId)).toEqual(renewals.map((row) => row.id));
    expect(choices.map((choice) => choice?.automatic)).toEqual([false, true]);
    expect(choices.map((choice) => choice?.stopAutoRenewByDefault)).toEqual([false, true]);
  });

  it("takes back the term a refunded renewal paid for: the expiry set back, automatic renewal off", async () => {
    const admin = await adminId(app());
    const { user, serviceId, expiryOf, expiries, numbers } = await serviceRenewed(1);
    const [before, after] = expiries as [string, string];
    const [number] = numbers as [string];
    // The admin's page offers it; the customer's shows nothing of it.
    const asAdmin = await getDocument(app().db, number, { userId: admin, isAdmin: true });
    expect(asAdmin?.renewalRefund).toMatchObject({
      serviceId,
      canTakeBack: true,
      status: "active",
      autoRenew: true,
      automatic: false,
      suspendsAgain: false,
      renewsAtNextRun: false,
      stopAutoRenewByDefault: false,
    });
    expect(Date.parse(asAdmin!.renewalRefund!.from)).toBe(Date.parse(before));
    expect(Date.parse(asAdmin!.renewalRefund!.until)).toBe(Date.parse(after));
    expect(
      (await getDocument(app().db, number, { userId: user, isAdmin: false }))?.renewalRefund,
    ).toBeUndefined();

    const balance = await balanceOf(app(), user);
    const refunded = await recordRefund(app().db, {
      number,
      method: "coins",
      reason: "Did not want the renewal",
      actorId: admin,
      takeBackTerm: true,
      stopAutoRenew: true,
    });
    if (!refunded.ok) throw new Error(refunded.error);
    expect(refunded.termTakenBack).toMatchObject({ autoRenewOff: true, suspended: false });
    expect(Date.parse(await expiryOf())).toBe(Date.parse(before));
    expect(await balanceOf(app(), user)).toBeGreaterThan(balance);
    const service = await readRow(app().db, "hosting_services", ["auto_renew", "status"], {
      id: serviceId,
    });
    expect(service).toEqual({ auto_renew: 0, status: "active" });
    const audit = await readRow(app().db, "audit_log", ["actor_id", "before", "after", "reason"], {
      action: "service.renewal_refund",
      target_id: String(serviceId),
    });
    expect(audit).toMatchObject({ actor_id: admin, reason: "Did not want the renewal" });
    expect(JSON.parse(audit.before!)).toMatchObject({ autoRenew: true });
    expect(JSON.parse(audit.after!)).toMatchObject({ autoRenew: false, invoice: number });
    // The customer is told that the automatic renewal is off as well.
    const notice = await readRow(app().db, "notifications", ["params"], {
      user_id: user,
      kind: "service_renewal_refunded_auto_off",
    });
    expect(Date.parse(JSON.parse(notice.params).expires)).toBe(Date.parse(before));
    // The customer's notice names the server as well as the plan (serviceLabel).
    expect(JSON.parse(notice.params).service).toBe("SAMP Starter (Test server)");
  });

  it("leaves the automatic renewal on unless asked: a customer who renewed twice by mistake", async () => {
    const admin = await adminId(app());
    const { user, serviceId, expiryOf, expiries, numbers } = await serviceRenewed(2);
    const [last] = numbers.slice(-1) as [string];
    const refunded = await recordRefund(app().db, {
      number: last,
      method: "coins",
      reason: "Renewed twice",
      actorId: admin,
      takeBackTerm: true,
    });
    if (!refunded.ok) throw new Error(refunded.error);
    expect(refunded.termTakenBack).toMatchObject({ autoRenewOff: false, suspended: false });
    expect(Date.parse(await expiryOf())).toBe(Date.parse(expiries[1]!));
    expect(await readRow(app().db, "hosting_services", ["auto_renew"], { id: serviceId })).toEqual({
      auto_renew: 1,
    });
    const audit = await readRow(app().db, "audit_log", ["after"], {
      action: "service.renewal_refund",
      target_id: String(serviceId),
    });
    expect(JSON.parse(audit.after!)).toMatchObject({ autoRenew: true, status: "active" });
    const notices = await readRows(app().db, "notifications", ["kind"], { user_id: user });
    expect(notices.map((row) => row.kind)).toContain("service_renewal_refunded");
    expect(notices.map((row) => row.kind)).not.toContain("service_renewal_refunded_auto_off");
  });

  it("switches the automatic renewal off without taking the term back, when asked", async () => {
    const admin = await adminId(app());
    const { user, serviceId, expiryOf, expiries, numbers } = await serviceRenewed(1);
    const [number] = numbers as [string];
    const refunded = await recordRefund(app().db, {
      number,
      method: "outside",
      reason: "Goodwill, and no more automatic renewals",
      actorId: admin,
      takeBackTerm: false,
      stopAutoRenew: true,
    });
    if (!refunded.ok) throw new Error(refunded.error);
    expect(refunded).toMatchObject({ autoRenewStopped: true });
    expect(refunded.termTakenBack).toBeUndefined();
    expect(Date.parse(await expiryOf())).toBe(Date.parse(expiries[1]!));
    expect(await readRow(app().db, "hosting_services", ["auto_renew"], { id: serviceId })).toEqual({
      auto_renew: 0,
    });
    const notice = await readRow(app().db, "notifications", ["params"], {
      user_id: user,
      kind: "service_renewal_refunded_auto_off",
    });
    expect(Date.parse(JSON.parse(notice.params).expires)).toBe(Date.parse(expiries[1]!));
  });

  it("says when the expiry a refund goes back to is due at the lifecycle's next run", async () => {
    const admin = await adminId(app());
    const { user, serviceId } = await customerWithRunningService(app(), 100_000);
    await setAutoRenew(app().db, { userId: user, serviceId, autoRenew: true });
    // Renewed by the customer on its last day: taking it back lands where the lifecycle renews.
    await app()
      .db.updateTable("hosting_services")
      .set({ expires_at: new Date(Date.now() + 12 * 3_600_000).toISOString() })
      .where("id", "=", serviceId)
      .execute();
    expect((await renewWithNewKey(app(), user, serviceId)).ok).toBe(true);
    const { number } = await latestRow(app().db, "invoices", ["number"], {
      hosting_service_id: serviceId,
      kind: "invoice",
    });
    const page = await getDocument(app().db, number, { userId: admin, isAdmin: true });
    expect(page?.renewalRefund).toMatchObject({
      automatic: false,
      autoRenew: true,
      renewsAtNextRun: true,
      stopAutoRenewByDefault: true,
    });
    // Two days earlier the same expiry was not due yet.
    const before = await getDocument(
      app().db,
      number,
      { userId: admin, isAdmin: true },
      new Date(Date.now() - 2 * 86_400_000),
    );
    expect(before?.renewalRefund).toMatchObject({
      renewsAtNextRun: false,
      stopAutoRenewByDefault: false,
    });
  });

  describe("a renewal that reactivated a suspended service", () => {
    const suspendedAt = "2026-01-10T08:00:00.000Z";
    const expiredAt = "2026-01-07T08:00:00.000Z";
    async function reactivatedByRenewal() {
      const { user, serviceId } = await customerWithRunningService(app(), 100_000);
      // Suspended for expiry by the lifecycle, three days after it expired; a server on the panel.
      await app()
        .db.updateTable("hosting_services")
        .set({
          status: "suspended",
          suspension_reason: "expired",
          suspended_at: suspendedAt,
          expires_at: expiredAt,
          panel_state: "suspended",
          panel_server_id: 4242,
        })
        .where("id", "=", serviceId)
        .execute();
      expect((await renewWithNewKey(app(), user, serviceId)).ok).toBe(true);
      expect(await readRow(app().db, "hosting_services", ["status"], { id: serviceId })).toEqual({
        status: "active",
      });
      const { number } = await latestRow(app().db, "invoices", ["number"], {
        hosting_service_id: serviceId,
        kind: "invoice",
      });
      return { user, serviceId, number };
    }
    const stateOf = async (serviceId: number) => {
      const row = await readRow(
        app().db,
        "hosting_services",
        ["status", "suspension_reason", "suspended_at", "expires_at"],
        { id: serviceId },
      );
      return {
        ...row,
        suspended_at: row.suspended_at && new Date(row.suspended_at).toISOString(),
        expires_at: new Date(row.expires_at).toISOString(),
      };
    };

    it("suspends it again from the moment it was suspended, when its term is taken back", async () => {
      const admin = await adminId(app());
      const { user, serviceId, number } = await reactivatedByRenewal();
      const page = await getDocument(app().db, number, { userId: admin, isAdmin: true });
      expect(page?.renewalRefund).toMatchObject({
        canTakeBack: true,
        suspendsAgain: true,
        stopAutoRenewByDefault: false,
      });
      // Renewed ten months after it expired: the month billed starts at the renewal, not at the old
      // expiry; taking it back restores the old expiry all the same.
      const term = page!.renewalRefund!;
      expect(Date.parse(term.from)).toBeGreaterThan(Date.parse(expiredAt) + 300 * 86_400_000);
      expect(Date.parse(term.until) - Date.parse(term.from)).toBeLessThanOrEqual(31 * 86_400_000);
      expect(Date.parse(term.restoresExpiry)).toBe(Date.parse(expiredAt));
      // Refunded five days after the renewal: suspended again with the time it had left then.
      const { created_at: renewedAt } = await readRow(
        app().db,
        "service_renewals",
        ["created_at"],
        { hosting_service_id: serviceId },
      );
      const fiveDays = 5 * 86_400_000;
      const refunded = await recordRefund(app().db, {
        number,
        method: "coins",
        reason: "Renewed by mistake",
        actorId: admin,
        takeBackTerm: true,
        now: new Date(Date.parse(renewedAt) + fiveDays),
      });
      if (!refunded.ok) throw new Error(refunded.error);
      expect(refunded.termTakenBack).toMatchObject({ suspended: true, autoRenewOff: false });
      // The panel follows: a sync job for the reactivation, and one for this suspension.
      const syncs = await readRows(app().db, "jobs", ["payload"], { type: PANEL_SYNC_JOB });
      expect(syncs.filter((job) => JSON.parse(job.payload).serviceId === serviceId)).toHaveLength(
        2,
      );
      // The countdown to its termination is the one it had, not a new one from today.
      expect(await stateOf(serviceId)).toEqual({
        status: "suspended",
        suspension_reason: "expired",
        suspended_at: new Date(Date.parse(suspendedAt) + fiveDays).toISOString(),
        expires_at: expiredAt,
      });
      const notices = await readRows(app().db, "notifications", ["kind"], { user_id: user }, "id");
      expect(notices.map((row) => row.kind)).toContain("service_renewal_refunded_suspended");
      expect(notices.map((row) => row.kind)).not.toContain("service_renewal_refunded");
      const audit = await readRow(app().db, "audit_log", ["after"], {
        action: "service.renewal_refund",
        target_id: String(serviceId),
      });
      expect(JSON.parse(audit.after!)).toMatchObject({
        status: "suspended",
        suspensionReason: "expired",
        suspendedAt: new Date(Date.parse(suspendedAt) + fiveDays).toISOString(),
      });
    });

    it("says the automatic renewal is off too when the admin switched it off with the suspension", async () => {
      const admin = await adminId(app());
      const { user, serviceId, number } = await reactivatedByRenewal();
      await app()
        .db.updateTable("hosting_services")
        .set({ auto_renew: 1 })
        .where("id", "=", serviceId)
        .execute();
      const refunded = await recordRefund(app().db, {
        number,
        method: "coins",
        reason: "Renewed by mistake",
        actorId: admin,
        takeBackTerm: true,
        stopAutoRenew: true,
      });
      if (!refunded.ok) throw new Error(refunded.error);
      expect(refunded.termTakenBack).toMatchObject({ suspended: true, autoRenewOff: true });
      expect(
        await readRow(app().db, "hosting_services", ["auto_renew"], { id: serviceId }),
      ).toEqual({ auto_renew: 0 });
      const notices = await readRows(
        app().db,
        "notifications",
        ["kind", "params"],
        { user_id: user },
        "id",
      );
      const refundNotices = notices.filter((row) =>
        row.kind.startsWith("service_renewal_refunded"),
      );
      expect(refundNotices.map((row) => row.kind)).toEqual([
        "service_renewal_refunded_suspended_auto_off",
      ]);
      expect(JSON.parse(refundNotices[0]!.params)).toMatchObject({ expires: expiredAt });
    });

    it("keeps a suspension an admin made since, and restores nothing for a renewal from before", async () => {
      const admin = await adminId(app());
      const first = await reactivatedByRenewal();
      await app()
        .db.updateTable("hosting_services")
        .set({
          status: "suspended",
          suspension_reason: "admin",
          suspended_at: "2026-02-01T00:00:00.000Z",
        })
        .where("id", "=", first.serviceId)
        .execute();
      const asked = { method: "coins", reason: "r", actorId: admin, takeBackTerm: true } as const;
      const keptAdmin = await recordRefund(app().db, { ...asked, number: first.number });
      expect(keptAdmin.ok && keptAdmin.termTakenBack?.suspended).toBe(false);
      expect(await stateOf(first.serviceId)).toMatchObject({
        status: "suspended",
        suspension_reason: "admin",
        suspended_at: "2026-02-01T00:00:00.000Z",
        expires_at: expiredAt,
      });

      // A renewal recorded before migration 0039 did not keep what it lifted: the service runs on.
      const second = await reactivatedByRenewal();
      await app()
        .db.updateTable("service_renewals")
        .set({ reactivated_suspended_at: null })
        .where("hosting_service_id", "=", second.serviceId)
        .execute();
      expect(
        (await getDocument(app().db, second.number, { userId: admin, isAdmin: true }))
          ?.renewalRefund?.suspendsAgain,
      ).toBe(false);
      const ranOn = await recordRefund(app().db, { ...asked, number: second.number });
      expect(ranOn.ok && ranOn.termTakenBack?.suspended).toBe(false);
      expect(await stateOf(second.serviceId)).toMatchObject({
        status: "active",
        suspended_at: null,
        expires_at: expiredAt,
      });
    });
  });

  it("refunds without touching the service unless asked, and refuses a term a later renewal moved", async () => {
    const admin = await adminId(app());
    const { user, serviceId, expiryOf, expiries, numbers } = await serviceRenewed(2);
    const [, second, third] = expiries as [string, string, string];
    const [first, last] = numbers as [string, string];
    // The first renewal's term no longer ends the service: the page says so, and asking fails whole.
    const page = await getDocument(app().db, first, { userId: admin, isAdmin: true });
    expect(page?.renewalRefund).toMatchObject({ canTakeBack: false, status: "active" });
    expect(Date.parse(page!.renewalRefund!.expiresAt!)).toBe(Date.parse(third));
    const balance = await balanceOf(app(), user);
    const ask = { method: "coins", reason: "r", actorId: admin, takeBackTerm: true } as const;
    expect(await recordRefund(app().db, { number: first, ...ask })).toEqual(
      refusal("conflict", "invoices.errors.termChanged"),
    );
    expect(await balanceOf(app(), user)).toBe(balance);
    expect(await readRow(app().db, "invoices", ["state"], { number: first })).toEqual({
      state: "paid",
    });
    expect(
      await readRows(app().db, "audit_log", ["id"], { action: "invoice.refund", target_id: first }),
    ).toEqual([]);

    // The last one can; once it is taken back, the first one's term ends the service again.
    expect((await recordRefund(app().db, { number: last, ...ask })).ok).toBe(true);
    expect(Date.parse(await expiryOf())).toBe(Date.parse(second));
    expect(
      (await getDocument(app().db, first, { userId: admin, isAdmin: true }))?.renewalRefund
        ?.canTakeBack,
    ).toBe(true);
    // Refunded without the box ticked, the service keeps its term.
    expect((await recordRefund(app().db, { ...ask, number: first, takeBackTerm: false })).ok).toBe(
      true,
    );
    expect(Date.parse(await expiryOf())).toBe(Date.parse(second));
    // Nor was its automatic renewal switched off, which nobody asked for.
    expect(await readRow(app().db, "hosting_services", ["auto_renew"], { id: serviceId })).toEqual({
      auto_renew: 1,
    });
  });

  it("lets the lifecycle renew again from the date a refunded automatic renewal started from", async () => {
    const admin = await adminId(app());
    const { user, serviceId } = await customerWithRunningService(app(), 100_000);
    await setAutoRenew(app().db, { userId: user, serviceId, autoRenew: true });
    const { expires_at: expiry } = await readRow(app().db, "hosting_services", ["expires_at"], {
      id: serviceId,
    });
    const dueAt = new Date(Date.parse(expiry) - 12 * 3_600_000);
    await updateSettingsSection(app().db, "lifecycle", {
      ...defaultSettings().lifecycle,
      enabled: true,
    });
    try {
      const renewedBy = async () =>
        (
          await readRows(
            app().db,
            "invoices",
            ["number"],
            { hosting_service_id: serviceId, kind: "invoice" },
            "id",
          )
        ).map((row) => row.number);
      await runLifecycle(app().db, { now: dueAt });
      const [automatic] = await renewedBy();
      // The lifecycle's renewal: the form ticks switching it off.
      expect(
        (await getDocument(app().db, automatic!, { userId: admin, isAdmin: true }))?.renewalRefund,
      ).toMatchObject({ autoRenew: true, automatic: true, stopAutoRenewByDefault: true });
      const refunded = await recordRefund(app().db, {
        number: automatic!,
        method: "coins",
        reason: "Did not want it",
        actorId: admin,
        takeBackTerm: true,
        stopAutoRenew: true,
      });
      if (!refunded.ok) throw new Error(refunded.error);
      // Switched off by the refund, the lifecycle leaves it alone; switched on again, it renews it.
      await runLifecycle(app().db, { now: dueAt });
      expect(await renewedBy()).toHaveLength(1);
      await setAutoRenew(app().db, { userId: user, serviceId, autoRenew: true });
      await runLifecycle(app().db, { now: dueAt });
      expect(await renewedBy()).toHaveLength(2);
      const { expires_at: after } = await readRow(app().db, "hosting_services", ["expires_at"], {
        id: serviceId,
      });
      expect(Date.parse(after)).toBeGreaterThan(Date.parse(expiry));
    } finally {
      await updateSettingsSection(app().db, "lifecycle", defaultSettings().lifecycle);
    }
  });

  it("names the service an order created on its invoice's page, for an admin", async () => {
    const admin = await adminId(app());
    const { user, serviceId } = await customerWithRunningService(app(), 100_000);
    const invoice = await readRow(app().db, "invoices", ["number"], { user_id: user });
    const asAdmin = await getDocument(app().db, invoice.number, { userId: admin, isAdmin: true });
    expect(asAdmin?.orderService).toMatchObject({ id: serviceId, status: "active" });
    expect(asAdmin?.renewalRefund).toBeUndefined();
    const asOwner = await getDocument(app().db, invoice.number, { userId: user, isAdmin: false });
    expect(asOwner?.orderService).toBeUndefined();
    // Deleted since: no service to name.
    await deleteService(app().db, { actorId: admin, serviceId });
    expect(
      (await getDocument(app().db, invoice.number, { userId: admin, isAdmin: true }))?.orderService,
    ).toBeNull();
  });

  it(
    atOnce(dialect, "refuses two admins refunding one invoice at once: one credit note"),
    async () => {
      const admin = await adminId(app());
      const { user } = await customerWithRunningService(app(), 100_000);
      const invoice = await readRow(app().db, "invoices", ["number"], { user_id: user });
      const results = await Promise.all(
        upTo(6).map(() =>
          recordRefund(app().db, {
            number: invoice.number,
            method: "coins",
            reason: "race",
            actorId: admin,
          }),
        ),
      );
      expect(results.filter((r) => r.ok)).toHaveLength(1);
      const credits = await app()
        .db.selectFrom("invoices")
        .innerJoin("invoices as original", "original.id", "invoices.credits_invoice_id")
        .select("invoices.number")
        .where("original.number", "=", invoice.number)
        .execute();
      expect(credits).toHaveLength(1);
    },
  );

  it(
    atOnce(
      dialect,
      "refuses the admins who lost a race to refund a renewal as already refunded, not as a changed term",
    ),
    async () => {
      const admin = await adminId(app());
      const { user, expiryOf, expiries, numbers } = await serviceRenewed(1);
      const [number] = numbers as [string];
      const balance = await balanceOf(app(), user);
      const results = await Promise.all(
        upTo(6).map(() =>
          recordRefund(app().db, {
            number,
            method: "coins",
            reason: "race",
            actorId: admin,
            takeBackTerm: true,
          }),
        ),
      );
      expect(results.filter((r) => r.ok)).toHaveLength(1);
      expect(results.filter((r) => !r.ok)).toEqual(
        upTo(5).map(() => refusal("conflict", "invoices.errors.notRefundable")),
      );
      expect(Date.parse(await expiryOf())).toBe(Date.parse(expiries[0]!));
      const { total_cents } = await readRow(app().db, "invoices", ["total_cents"], { number });
      expect(await balanceOf(app(), user)).toBe(balance + total_cents);
    },
  );

  it("issues a top-up's payment receipt in its own series, without VAT", async () => {
    const user = await customerWithCoins(app(), 0);
    await billedIn(user, "MA");
    const receipt = await inTransaction(app().db, async (trx) => {
      const credited = await writeLedgerEntry(trx, {
        userId: user,
        amountCents: 2500,
        kind: "coin_purchase",
        reason: "top-up",
      });
      return issuePaymentReceipt(trx, {
        userId: user,
        amountCents: 2500,
        ledgerEntryId: credited!.entryId,
        reference: "HF7Q2K",
        method: "Orange Money",
        actorId: await adminId(app()),
      });
    });
    expect(receipt.number).toMatch(/^HFR-\d{4}-\d{6}$/);
    const row = await readRow(app().db, "invoices", "*", { id: receipt.id });
    expect(row).toMatchObject({
      kind: "receipt",
      vat_rate_bp: 0,
      vat_cents: 0,
      subtotal_cents: 2500,
      total_cents: 2500,
    });
    // Its one line names the top-up as the customer sent it.
    expect(JSON.parse(row.lines)).toEqual([
      {
        kind: "topUp",
        params: { reference: "HF7Q2K", method: "Orange Money" },
        quantity: 1,
        unitCents: 2500,
        totalCents: 2500,
      },
    ]);
    // A receipt is not refunded as an invoice is.
    expect(
      await recordRefund(app().db, {
        number: receipt.number,
        method: "coins",
        reason: "x",
        actorId: await adminId(app()),
      }),
    ).toEqual(refusal("conflict", "invoices.errors.notRefundable"));
  });

  it("shows a document to its owner and to admins only, and lists a customer's own", async () => {
    const owner = await customerWithCoins(app(), 100_000);
    const other = await customerWithCoins(app(), 100_000);
    const order = await placedOrder(app(), owner, { productId: await productId(app(), "mta-pro") });
    const [invoice] = await documentsOfOrder(app(), order.id);
    const number = invoice!.number;
    expect(await getDocument(app().db, number, { userId: other, isAdmin: false })).toBeUndefined();
    const mine = await getDocument(app().db, number, { userId: owner, isAdmin: false });
    expect(mine).toMatchObject({ number, kind: "invoice", totalCents: order.totalCents });
    expect(await getDocument(app().db, number, { userId: other, isAdmin: true })).toMatchObject({
      number,
    });
    expect((await listCustomerDocuments(app().db, other, { page: 1 })).documents).toEqual([]);
    expect((await listCustomerDocuments(app().db, owner, { page: 1 })).documents).toEqual([
      expect.objectContaining({ number, kind: "invoice", totalCents: order.totalCents }),
    ]);
    // The admin's list finds it by its number and by its customer's email, and filters by kind.
    const email = (await readRow(app().db, "users", ["email"], { id: owner })).email;
    for (const q of [number, email.toUpperCase()]) {
      const found = await listDocumentsForAdmin(app().db, { q, page: 1 });
      expect(
        found.documents.map((d) => d.number),
        q,
      ).toEqual([number]);
    }
    const receipts = await listDocumentsForAdmin(app().db, { kind: "receipt", q: email, page: 1 });
    expect(receipts.documents).toEqual([]);
  });

  it("finds a document whose ledger row does not match it", async () => {
    const user = await customerWithCoins(app(), 100_000);
    const order = await placedOrder(app(), user, { productId: await productId(app(), "mta-pro") });
    const [invoice] = await documentsOfOrder(app(), order.id);
    // An invoice's total is never updated; here the check is shown a forged one.
    await app()
      .db.insertInto("invoices")
      .values({
        number: "HF-1990-000001",
        kind: "invoice",
        user_id: user,
        ledger_entry_id: invoice!.ledger_entry_id,
        prices_include_vat: 1,
        subtotal_cents: 1,
        vat_rate_bp: 0,
        vat_cents: 0,
        total_cents: 1,
        seller: "{}",
        buyer: "{}",
        lines: "[]",
        state: "paid",
        issued_at: new Date(Date.now() - DAY).toISOString(),
      })
      .execute();
    expect(await findInvoiceDiscrepancies(app().db)).toEqual([
      {
        number: "HF-1990-000001",
        problem: `its ledger entry is ${-order.totalCents} cents, expected -1`,
      },
    ]);
    await app().db.deleteFrom("invoices").where("number", "=", "HF-1990-000001").execute();
    void dialect;
  });

  it("reports a document whose number is not a document number (a placeholder left behind, say)", async () => {
    const user = await customerWithCoins(app(), 0);
    await app()
      .db.insertInto("invoices")
      .values({
        number: "HF-1991-7",
        kind: "receipt",
        user_id: user,
        prices_include_vat: 1,
        subtotal_cents: 0,
        vat_rate_bp: 0,
        vat_cents: 0,
        total_cents: 0,
        seller: "{}",
        buyer: "{}",
        lines: "[]",
        state: "paid",
        issued_at: new Date().toISOString(),
      })
      .execute();
    expect(await findInvoiceDiscrepancies(app().db)).toEqual([
      { number: "HF-1991-7", problem: "its number is not a document number" },
    ]);
    await app().db.deleteFrom("invoices").where("number", "=", "HF-1991-7").execute();
  });

  it("reads back a customer's billing details, empty strings for what is not set", async () => {
    const user = await customerWithCoins(app(), 0);
    const none = { name: "", address: "", country: "" };
    expect(await getBillingDetails(app().db, user)).toEqual(none);
    expect(
      await saveBillingDetails(app().db, {
        userId: user,
        billingName: "Atlas SARL",
        billingAddress: "12 rue des Oudayas\nRabat",
        billingCountry: "MA",
      }),
    ).toEqual({ ok: true });
    expect(await getBillingDetails(app().db, user)).toEqual({
      name: "Atlas SARL",
      address: "12 rue des Oudayas\nRabat",
      country: "MA",
    });
    await saveBillingDetails(app().db, {
      userId: user,
      billingName: "",
      billingAddress: "",
      billingCountry: "",
    });
    expect(await getBillingDetails(app().db, user)).toEqual(none);
    // An account that is not there (deleted as the form was sent) has none either.
    expect(await getBillingDetails(app().db, randomUUID())).toEqual(none);
  });

  it("opens a document whose stored parties and lines no longer read as JSON, with them empty", async () => {
    const user = await customerWithCoins(app(), 0);
    // A row damaged by hand: the page still opens, with empty parties and no lines.
    const number = "HFR-1992-000001";
    await app()
      .db.insertInto("invoices")
      .values({
        number,
        kind: "receipt",
        user_id: user,
        prices_include_vat: 1,
        subtotal_cents: 0,
        vat_rate_bp: 0,
        vat_cents: 0,
        total_cents: 0,
        seller: "{",
        buyer: "not JSON",
        lines: "",
        state: "paid",
        issued_at: "1992-06-01T10:00:00.000Z",
      })
      .execute();
    try {
      const document = await getDocument(app().db, number, { userId: user, isAdmin: false });
      expect(document).toMatchObject({ number, kind: "receipt", pricesIncludeVat: true });
      expect({
        seller: document?.seller,
        buyer: document?.buyer,
        lines: document?.lines,
      }).toEqual({
        seller: { name: "", address: "", taxId: "" },
        buyer: { name: "", email: "", address: "", country: "" },
        lines: [],
      });
    } finally {
      await app().db.deleteFrom("invoices").where("number", "=", number).execute();
    }
  });

  it("refunds a free order's invoice without a ledger entry: a credit note of nothing", async () => {
    const admin = await adminId(app());
    const user = await customerWithCoins(app(), 100_000);
    const code = `FREE${dialect.toUpperCase()}`;
    await insertVoucher(app(), code, { percent: 100 });
    const order = await placedOrder(app(), user, {
      productId: await productId(app(), "mta-pro"),
      voucherCode: code,
    });
    expect(order.totalCents).toBe(0);
    await approveOrder(app().db, { orderId: order.id, actorId: admin });
    const before = await balanceOf(app(), user);
    const [invoice] = await documentsOfOrder(app(), order.id);
    const refunded = await recordRefund(app().db, {
      number: invoice!.number,
      method: "coins",
      reason: "Free, and not wanted",
      actorId: admin,
    });
    if (!refunded.ok) throw new Error(refunded.error);
    expect(await balanceOf(app(), user)).toBe(before);
    const [, credit] = await documentsOfOrder(app(), order.id);
    expect(credit).toMatchObject({
      kind: "credit_note",
      total_cents: 0,
      refund_method: "coins",
      ledger_entry_id: null,
    });
  });

  it("refuses a refund to a balance it would take past the maximum, and changes nothing", async () => {
    const admin = await adminId(app());
    const { user, serviceId } = await customerWithRunningService(app(), 100_000);
    const invoice = await readRow(app().db, "invoices", ["number", "total_cents"], {
      user_id: user,
      kind: "invoice",
    });
    // Topped up to the very maximum since.
    const room = MAX_BALANCE_CENTS - (await balanceOf(app(), user));
    await inTransaction(app().db, (trx) =>
      writeLedgerEntry(trx, {
        userId: user,
        amountCents: room,
        kind: "admin_adjustment",
        reason: "to the maximum",
      }),
    );
    const credits = () =>
      readRows(app().db, "invoices", ["id"], { user_id: user, kind: "credit_note" });
    expect(
      await recordRefund(app().db, {
        number: invoice.number,
        method: "coins",
        reason: "14 days",
        actorId: admin,
      }),
    ).toEqual(refusal("conflict", "coins.errors.balanceTooHigh"));
    expect(await balanceOf(app(), user)).toBe(MAX_BALANCE_CENTS);
    expect(await readRow(app().db, "invoices", ["state"], { number: invoice.number })).toEqual({
      state: "paid",
    });
    expect(await credits()).toEqual([]);
    // Sent back outside the site instead, nothing comes to the balance. An order's invoice has no
    // term: the renewal's boxes, sent all the same, change nothing.
    const outside = await recordRefund(app().db, {
      number: invoice.number,
      method: "outside",
      reason: "14 days, by bank transfer",
      actorId: admin,
      takeBackTerm: false,
      stopAutoRenew: true,
    });
    if (!outside.ok) throw new Error(outside.error);
    expect(outside).not.toHaveProperty("autoRenewStopped");
    expect(outside).not.toHaveProperty("termTakenBack");
    expect(await credits()).toHaveLength(1);
    expect(await balanceOf(app(), user)).toBe(MAX_BALANCE_CENTS);
    expect(await readRow(app().db, "hosting_services", ["status"], { id: serviceId })).toEqual({
      status: "active",
    });
  });

  it("offers an admin the order's service or the renewal's term on a paid invoice only", async () => {
    const admin = await adminId(app());
    const user = await customerWithCoins(app(), 100_000);
    const order = await placedOrder(app(), user, { productId: await productId(app(), "mta-pro") });
    await rejectOrder(app().db, { orderId: order.id, actorId: admin, reason: "Out of stock" });
    const [credited, credit] = await documentsOfOrder(app(), order.id);
    // An invoice of neither an order nor a renewal (a document issued by hand): nothing to offer.
    const plain = await inTransaction(app().db, (trx) =>
      issueDocument(trx, documentFor(user, { kind: "invoice" })),
    );
    for (const number of [credited!.number, credit!.number, plain.number]) {
      const page = await getDocument(app().db, number, { userId: admin, isAdmin: true });
      expect(page?.number, number).toBe(number);
      expect(page, number).not.toHaveProperty("orderService");
      expect(page, number).not.toHaveProperty("renewalRefund");
    }
  });

  it("offers nothing to take back on a renewal's invoice whose service was deleted since", async () => {
    const admin = await adminId(app());
    const { serviceId, numbers } = await serviceRenewed(1);
    await deleteService(app().db, { actorId: admin, serviceId });
    const page = await getDocument(app().db, numbers[0]!, { userId: admin, isAdmin: true });
    expect(page?.renewalRefund).toMatchObject({
      serviceId,
      expiresAt: null,
      status: null,
      canTakeBack: false,
      autoRenew: false,
      automatic: false,
      suspendsAgain: false,
    });
  });

  it("lists documents for admins by state, and by a search with spaces around it", async () => {
    const admin = await adminId(app());
    const user = await customerWithCoins(app(), 100_000);
    const product = await productId(app(), "mta-pro");
    const kept = await placedOrder(app(), user, { productId: product });
    const rejected = await placedOrder(app(), user, { productId: product });
    await rejectOrder(app().db, { orderId: rejected.id, actorId: admin, reason: "r" });
    const [keptInvoice] = await documentsOfOrder(app(), kept.id);
    const [creditedInvoice, creditNote] = await documentsOfOrder(app(), rejected.id);
    const { email } = await readRow(app().db, "users", ["email"], { id: user });
    const numbers = async (query: { q?: string; state?: "paid" | "credited" }) =>
      (await listDocumentsForAdmin(app().db, { page: 1, ...query })).documents.map(
        (document) => document.number,
      );
    // Newest first.
    expect(await numbers({ q: email })).toEqual([
      creditNote!.number,
      creditedInvoice!.number,
      keptInvoice!.number,
    ]);
    expect(await numbers({ q: email, state: "credited" })).toEqual([creditedInvoice!.number]);
    expect(await numbers({ q: email, state: "paid" })).toEqual([
      creditNote!.number,
      keptInvoice!.number,
    ]);
    expect(await numbers({ q: `  ${keptInvoice!.number}  ` })).toEqual([keptInvoice!.number]);
  });

  it("reports each way a document can disagree with the ledger, and a payment an invoice does not account for", async () => {
    const owner = await customerWithCoins(app(), 100_000);
    const stranger = await customerWithCoins(app(), 0);
    const product = await productId(app(), "mta-pro");
    const first = await placedOrder(app(), owner, { productId: product });
    const [firstInvoice] = await documentsOfOrder(app(), first.id);
    // A renewal's payment written without its invoice, between two invoiced payments.
    const unbilled = await inTransaction(app().db, (trx) =>
      writeLedgerEntry(trx, {
        userId: owner,
        amountCents: -100,
        kind: "renewal",
        reason: "no invoice",
      }),
    );
    const last = await placedOrder(app(), owner, { productId: product });
    const [lastInvoice] = await documentsOfOrder(app(), last.id);
    const forged = (
      number: string,
      values: {
        kind: "invoice" | "receipt" | "credit_note";
        user: string;
        total: number;
        state?: "paid" | "credited";
        entry?: number | null;
        credits?: number;
        method?: "coins" | "outside";
      },
    ) =>
      app()
        .db.insertInto("invoices")
        .values({
          number,
          kind: values.kind,
          user_id: values.user,
          ledger_entry_id: values.entry ?? null,
          credits_invoice_id: values.credits ?? null,
          refund_method: values.method ?? null,
          prices_include_vat: 1,
          subtotal_cents: values.total,
          vat_rate_bp: 0,
          vat_cents: 0,
          total_cents: values.total,
          seller: "{}",
          buyer: "{}",
          lines: "[]",
          state: values.state ?? "paid",
          issued_at: "1993-01-01T10:00:00.000Z",
        })
        .execute();
    const year = "1993";
    await forged(`HFR-${year}-000001`, {
      kind: "receipt",
      user: owner,
      total: 0,
      entry: Number(firstInvoice!.ledger_entry_id),
    });
    await forged(`HFR-${year}-000002`, { kind: "receipt", user: owner, total: 500 });
    // A reference to a ledger row that is not there (a plain reference, not a foreign key).
    await forged(`HFR-${year}-000003`, {
      kind: "receipt",
      user: owner,
      total: 500,
      entry: 2_000_000_000,
    });
    await forged(`HF-${year}-000001`, {
      kind: "invoice",
      user: stranger,
      total: first.totalCents,
      entry: Number(lastInvoice!.ledger_entry_id),
    });
    await forged(`HF-${year}-000002`, {
      kind: "invoice",
      user: owner,
      total: 0,
      state: "credited",
    });
    await forged(`HFC-${year}-000001`, {
      kind: "credit_note",
      user: owner,
      total: -1,
      credits: Number(firstInvoice!.id),
      method: "outside",
    });
    const byNumber = (
      a: { number: string; problem: string },
      b: { number: string; problem: string },
    ) => `${a.number} ${a.problem}`.localeCompare(`${b.number} ${b.problem}`);
    try {
      expect((await findInvoiceDiscrepancies(app().db)).sort(byNumber)).toEqual(
        [
          {
            number: firstInvoice!.number,
            problem: "has a credit note but is not credited",
          },
          {
            number: firstInvoice!.number,
            problem: `its credit notes come to -1 cents, expected ${-first.totalCents}`,
          },
          { number: `HF-${year}-000001`, problem: "its ledger entry is another customer's" },
          { number: `HF-${year}-000002`, problem: "is credited without a credit note" },
          { number: `HFR-${year}-000001`, problem: "has a ledger entry, but moved no coins" },
          { number: `HFR-${year}-000002`, problem: "has no ledger entry" },
          { number: `HFR-${year}-000003`, problem: "has no ledger entry" },
          { number: `ledger #${unbilled!.entryId}`, problem: "a renewal without an invoice" },
        ].sort(byNumber),
      );
    } finally {
      await app()
        .db.deleteFrom("invoices")
        .where("number", "in", [
          `HFR-${year}-000001`,
          `HFR-${year}-000002`,
          `HFR-${year}-000003`,
          `HF-${year}-000001`,
          `HF-${year}-000002`,
          `HFC-${year}-000001`,
        ])
        .execute();
      // The renewal's payment gets the invoice it lacked: the books agree again.
      await forged(`HF-${year}-000003`, {
        kind: "invoice",
        user: owner,
        total: 100,
        entry: unbilled!.entryId,
      });
    }
  });
});

describeEachDatabase("check:ledger before the first invoice", (app) => {
  expectLedgerIntactAfterEach(app);

  it("leaves alone the payments made before any invoice accounted for one", async () => {
    const user = await customerWithCoins(app(), 100_000);
    const order = await placedOrder(app(), user, { productId: await productId(app(), "mta-pro") });
    // As if placed before migration 0034, and no invoice issued since.
    await app().db.deleteFrom("invoices").where("order_id", "=", order.id).execute();
    expect(
      await app()
        .db.selectFrom("invoices")
        .select("id")
        .where("ledger_entry_id", "is not", null)
        .execute(),
    ).toEqual([]);
    expect(await findInvoiceDiscrepancies(app().db)).toEqual([]);
  });
});
