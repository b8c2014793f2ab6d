import type { Db } from "~/db/transaction";
import { DOCUMENT_NUMBER_PATTERN, PARTIAL_CREDIT_LINES } from "./invoices";

// The documents checked against the coin ledger (npm run check:ledger, docs/invoices.md): what each
// document's money and the top-ups' credits must agree with.

export interface InvoiceDiscrepancy {
  number: string;
  problem: string;
}

/**
 * Every document whose money does not match the coin ledger (npm run check:ledger): an invoice's total
 * is exactly the coins its ledger row debited (none for a total of 0), a receipt's the coins credited,
 * a credit note's the coins given back (or none, for money sent back outside the site), each row the
 * document's customer's. A credited invoice has exactly one credit note of the whole of it, and its
 * credit notes add up to its total (the whole, or a change of plan's parts and then what was left, by a
 * refund: docs/self-service.md); a paid invoice's credit notes are a change of plan's parts
 * (`PARTIAL_CREDIT_LINES`), giving back no more than it. Every payment of an order, a renewal or a
 * change of plan written since the first invoice has one, as every coin a change of plan gave back has
 * its credit note. The top-ups' credits and receipts agree too (`findTopUpDiscrepancies`). Empty means
 * the books agree.
 */
export async function findInvoiceDiscrepancies(db: Db): Promise<InvoiceDiscrepancy[]> {
  const problems: InvoiceDiscrepancy[] = [];
  const rows = await db
    .selectFrom("invoices")
    .leftJoin("coin_ledger", "coin_ledger.id", "invoices.ledger_entry_id")
    // What its credit notes gave back, and how many of them credit the whole of it: a change of plan's
    // part is not such a one, unless what it credits is itself a change of plan's invoice.
    .select((eb) => [
      eb
        .selectFrom("invoices as credit")
        .select((inner) => inner.fn.sum<number>("credit.total_cents").as("n"))
        .whereRef("credit.credits_invoice_id", "=", "invoices.id")
        .as("credit_total"),
      eb
        .selectFrom("invoices as credit")
        .select((inner) => inner.fn.countAll<number>().as("n"))
        .whereRef("credit.credits_invoice_id", "=", "invoices.id")
        .where((inner) =>
          inner.or([
            inner("credit.lines", "not like", PARTIAL_CREDIT_LINES),
            inner("invoices.lines", "like", PARTIAL_CREDIT_LINES),
          ]),
        )
        .as("whole_credits"),
    ])
    .select([
      "invoices.number",
      "invoices.kind",
      "invoices.state",
      "invoices.user_id",
      "invoices.total_cents",
      "invoices.ledger_entry_id",
      "invoices.refund_method",
      "coin_ledger.user_id as entry_user",
      "coin_ledger.amount_cents as entry_cents",
    ])
    .execute();
  for (const row of rows) {
    const report = (problem: string) => problems.push({ number: row.number, problem });
    // A number taken at commit replaces its placeholder in the same commit (migration 0037): a
    // placeholder or any other shape in the books is a fault of the numbering.
    if (!DOCUMENT_NUMBER_PATTERN.test(row.number)) report("its number is not a document number");
    // What the ledger row must hold: an invoice debits its total, a receipt and a credit note credit it.
    const expected =
      row.kind === "invoice"
        ? -row.total_cents
        : row.kind === "receipt"
          ? row.total_cents
          : -row.total_cents;
    const noEntryExpected =
      row.total_cents === 0 || (row.kind === "credit_note" && row.refund_method === "outside");
    if (noEntryExpected) {
      if (row.ledger_entry_id !== null) report("has a ledger entry, but moved no coins");
    } else if (row.ledger_entry_id === null || row.entry_cents === null) {
      report("has no ledger entry");
    } else {
      if (row.entry_user !== row.user_id) report("its ledger entry is another customer's");
      if (row.entry_cents !== expected)
        report(`its ledger entry is ${row.entry_cents} cents, expected ${expected}`);
    }
    if (row.kind === "invoice") {
      const creditTotal = row.credit_total === null ? 0 : Number(row.credit_total);
      const wholeCredits = Number(row.whole_credits ?? 0);
      const credited = wholeCredits > 0;
      if ((row.state === "credited") !== credited)
        report(
          credited ? "has a credit note but is not credited" : "is credited without a credit note",
        );
      if (wholeCredits > 1) report(`has ${wholeCredits} credit notes of the whole of it`);
      if (credited && creditTotal !== -row.total_cents)
        report(`its credit notes come to ${creditTotal} cents, expected ${-row.total_cents}`);
    }
  }
  // Payments since invoicing began (the first invoice's ledger row) that no invoice accounts for.
  const first = await db
    .selectFrom("invoices")
    .select((eb) => eb.fn.min("ledger_entry_id").as("id"))
    .where("kind", "=", "invoice")
    .executeTakeFirst();
  const topUps = await findTopUpDiscrepancies(db);
  if (first?.id === null || first?.id === undefined) return [...problems, ...topUps];
  const unbilled = await db
    .selectFrom("coin_ledger")
    .select(["coin_ledger.id", "coin_ledger.kind"])
    .where("coin_ledger.kind", "in", ["order_payment", "renewal", "plan_change"])
    .where("coin_ledger.id", ">=", Number(first.id))
    .where((eb) =>
      eb.not(
        eb.exists(
          eb
            .selectFrom("invoices")
            .select("invoices.id")
            .whereRef("invoices.ledger_entry_id", "=", "coin_ledger.id"),
        ),
      ),
    )
    .execute();
  for (const entry of unbilled)
    problems.push({
      number: `ledger #${entry.id}`,
      problem: `a ${entry.kind} without ${entry.kind === "plan_change" ? "a document" : "an invoice"}`,
    });
  return [...problems, ...(await findPartialCreditDiscrepancies(db)), ...topUps];
}

/**
 * Every invoice whose partial credit notes (a change of plan's, `PARTIAL_CREDIT_LINES`) give back more
 * than its total: what a downgrade credits against an invoice must fit in what that invoice paid.
 */
async function findPartialCreditDiscrepancies(db: Db): Promise<InvoiceDiscrepancy[]> {
  const rows = await db
    .selectFrom("invoices as credit")
    .innerJoin("invoices", "invoices.id", "credit.credits_invoice_id")
    .select((eb) => [
      "invoices.number",
      "invoices.total_cents",
      eb.fn.sum<number>("credit.total_cents").as("credited"),
    ])
    .where("credit.lines", "like", PARTIAL_CREDIT_LINES)
    .groupBy(["invoices.id", "invoices.number", "invoices.total_cents"])
    .execute();
  return rows
    .filter((row) => -Number(row.credited) > row.total_cents)
    .map((row) => ({
      number: row.number,
      problem: `its partial credit notes give back ${-Number(row.credited)} cents, more than its ${row.total_cents}`,
    }));
}

/** The ledger key of a top-up's one credit (top-up-credit.server.ts's `topUpLedgerKey`). */
const TOP_UP_KEY = /^top-up:(\d+)$/;

/**
 * Every top-up request whose money does not match the ledger (npm run check:ledger): an
 * approved request has exactly one ledger credit (key `top-up:<id>`) of `credited_coins ?? coins`
 * coins to its customer, and exactly one payment receipt for that credit; a request not approved has
 * no credit; and no credit names a request that does not exist. Each is reported as
 * "top-up #<id> (<reference>)".
 */
export async function findTopUpDiscrepancies(db: Db): Promise<InvoiceDiscrepancy[]> {
  const [requests, credits, receipts] = await Promise.all([
    db
      .selectFrom("top_up_requests")
      .select(["id", "reference", "user_id", "state", "coins", "credited_coins"])
      .execute(),
    db
      .selectFrom("coin_ledger")
      .select(["id", "user_id", "amount_cents", "idempotency_key"])
      .where("idempotency_key", "like", "top-up:%")
      .execute(),
    db
      .selectFrom("invoices")
      .innerJoin("coin_ledger", "coin_ledger.id", "invoices.ledger_entry_id")
      .select(["invoices.ledger_entry_id"])
      .where("invoices.kind", "=", "receipt")
      .where("coin_ledger.idempotency_key", "like", "top-up:%")
      .execute(),
  ]);
  const creditOf = new Map<number, (typeof credits)[number]>();
  const problems: InvoiceDiscrepancy[] = [];
  for (const credit of credits) {
    const id = TOP_UP_KEY.exec(credit.idempotency_key ?? "")?.[1];
    if (id) creditOf.set(Number(id), credit);
  }
  const receiptsOf = new Map<number, number>();
  for (const receipt of receipts) {
    const entry = Number(receipt.ledger_entry_id);
    receiptsOf.set(entry, (receiptsOf.get(entry) ?? 0) + 1);
  }
  const known = new Set<number>();
  for (const request of requests) {
    const id = Number(request.id);
    known.add(id);
    const report = (problem: string) =>
      problems.push({ number: `top-up #${id} (${request.reference})`, problem });
    const credit = creditOf.get(id);
    if (request.state !== "approved") {
      if (credit) report(`is ${request.state} but has a ledger credit (#${credit.id})`);
      continue;
    }
    if (!credit) {
      report("is approved without a ledger credit");
      continue;
    }
    const expected = (request.credited_coins ?? request.coins) * 100;
    if (credit.user_id !== request.user_id) report("its ledger credit is another customer's");
    if (credit.amount_cents !== expected)
      report(`its ledger credit is ${credit.amount_cents} cents, expected ${expected}`);
    const count = receiptsOf.get(Number(credit.id)) ?? 0;
    if (count !== 1)
      report(count === 0 ? "has no payment receipt" : `has ${count} payment receipts, expected 1`);
  }
  for (const [id, credit] of creditOf)
    if (!known.has(id))
      problems.push({
        number: `ledger #${credit.id}`,
        problem: `a credit of top-up #${id}, which does not exist`,
      });
  return problems;
}
