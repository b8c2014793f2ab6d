import { withoutDirectionalControls } from "~/lib/bidi";
import { dateTimeFormat, formatCalendarDay, numberFormat } from "~/lib/intl-format";
import { labelKeys } from "~/lib/label-keys";
import { formatEuros } from "~/lib/money";
import { BILLING_CYCLE_NAMES, type BillingCycle } from "~/domain/orders/orders";
import type { Settings } from "~/domain/settings/settings";
import { countryName } from "./billing-details";

// Numbered documents (docs/invoices.md, ADR 36 and 37): what they are, their VAT arithmetic
// in integer cents, and the view every reader of one is given (the page, and a PDF later), in the
// reader's language. Pure: safe in the browser.

export const DOCUMENT_KINDS = ["invoice", "receipt", "credit_note"] as const;
export type DocumentKind = (typeof DOCUMENT_KINDS)[number];
/** Catalogue keys (invoices namespace), one family (docs/i18n.md, ADR 26). */
export const DOCUMENT_KIND_LABELS = labelKeys("invoices", "kinds", DOCUMENT_KINDS);

/** Each kind's own series of numbers: HF-2026-000123, HFR-2026-000001, HFC-2026-000001. */
export const DOCUMENT_SERIES = {
  invoice: "HF",
  receipt: "HFR",
  credit_note: "HFC",
} as const satisfies Record<DocumentKind, string>;

export const DOCUMENT_STATES = ["paid", "credited"] as const;
export type DocumentState = (typeof DOCUMENT_STATES)[number];
/** The states as a filter names them, and as an invoice says its own. */
export const DOCUMENT_STATE_LABELS = labelKeys("invoices", "states", DOCUMENT_STATES);
/**
 * A receipt's and a credit note's own words for their state: French and Arabic agree the word with the
 * kind's gender (une facture payée, un reçu payé, un avoir payé).
 */
export const RECEIPT_STATE_LABELS = labelKeys("invoices", "receiptStates", DOCUMENT_STATES);
export const CREDIT_NOTE_STATE_LABELS = labelKeys("invoices", "creditNoteStates", DOCUMENT_STATES);
const STATE_LABELS_OF_KIND = {
  invoice: DOCUMENT_STATE_LABELS,
  receipt: RECEIPT_STATE_LABELS,
  credit_note: CREDIT_NOTE_STATE_LABELS,
} as const satisfies Record<DocumentKind, unknown>;

/** The catalogue key of a document's state, as its kind says it. */
export function documentStateLabel(kind: DocumentKind, state: DocumentState) {
  return STATE_LABELS_OF_KIND[kind][state];
}

/** How a refund reached the customer: coins back on the balance, or money sent back outside the site. */
export const REFUND_METHODS = ["coins", "outside"] as const;
export type RefundMethod = (typeof REFUND_METHODS)[number];
export const REFUND_METHOD_LABELS = labelKeys("invoices", "refundMethods", REFUND_METHODS);

/** The longest reason an admin may give a refund. */
export const REFUND_REASON_MAX = 500;

/** A document's number: its series, the year, and its place in the year on six digits (or more). */
export function documentNumber(series: string, year: number, sequence: number): string {
  return `${series}-${year}-${String(sequence).padStart(6, "0")}`;
}

/** Whether `value` is written as a document number is (a page's address, a search). */
export const DOCUMENT_NUMBER_PATTERN = /^HF[RC]?-\d{4}-\d{6,9}$/;

const years = new Map<string, Intl.DateTimeFormat>();

/** The year of `at` in the site's time zone: a document's number counts in it (ADR 37). */
export function yearIn(timeZone: string, at: Date): number {
  let format = years.get(timeZone);
  if (!format) {
    format = new Intl.DateTimeFormat("en", { timeZone, year: "numeric" });
    years.set(timeZone, format);
  }
  return Number(format.format(at));
}

// ---------------------------------------------------------------------------------------------------
// VAT, in integer cents. Rates are basis points (2000 is 20%); a half cent rounds up (ADR 10, 36).

/** `numerator / denominator` rounded half up, for whole numbers of either sign (symmetric). */
function divideRounded(numerator: number, denominator: number): number {
  const sign = numerator < 0 ? -1 : 1;
  return sign * Math.floor((2 * Math.abs(numerator) + denominator) / (2 * denominator));
}

/** The VAT inside a price that includes it: round(total × rate / (10000 + rate)). */
export function vatIncluded(totalCents: number, rateBp: number): number {
  return divideRounded(totalCents * rateBp, 10_000 + rateBp);
}

/** The VAT on a price without it: round(subtotal × rate / 10000). */
export function vatOnTop(subtotalCents: number, rateBp: number): number {
  return divideRounded(subtotalCents * rateBp, 10_000);
}

/** A document's figures: subtotal + VAT = total, always. */
export interface DocumentAmounts {
  pricesIncludeVat: boolean;
  vatRateBp: number;
  subtotalCents: number;
  vatCents: number;
  totalCents: number;
}

/**
 * The figures of a price (what the lines add up to) at a rate: with prices including VAT the total is
 * the price and the VAT part of it; without, the VAT is added and the total is what the customer pays.
 */
export function documentAmounts(
  priceCents: number,
  rateBp: number,
  pricesIncludeVat: boolean,
): DocumentAmounts {
  if (pricesIncludeVat) {
    const vatCents = vatIncluded(priceCents, rateBp);
    return {
      pricesIncludeVat,
      vatRateBp: rateBp,
      subtotalCents: priceCents - vatCents,
      vatCents,
      totalCents: priceCents,
    };
  }
  const vatCents = vatOnTop(priceCents, rateBp);
  return {
    pricesIncludeVat,
    vatRateBp: rateBp,
    subtotalCents: priceCents,
    vatCents,
    totalCents: priceCents + vatCents,
  };
}

/** A receipt for coins: money received, never VAT (ADR 36: VAT is charged where the coins are spent). */
export function receiptAmounts(amountCents: number): DocumentAmounts {
  return {
    pricesIncludeVat: true,
    vatRateBp: 0,
    subtotalCents: amountCents,
    vatCents: 0,
    totalCents: amountCents,
  };
}

export type InvoicingSettings = Settings["invoicing"];

/** The rate an invoice of a buyer in `country` carries: 0 when VAT is off or the country has none. */
export function vatRateFor(invoicing: InvoicingSettings, country: string | null): number {
  if (!invoicing.vatEnabled || !country) return 0;
  return Object.hasOwn(invoicing.vatRates, country) ? invoicing.vatRates[country]! : 0;
}

/**
 * The VAT on a customer's prices: their billing country's rate, and whether the catalogue's prices
 * include it (ADR 36). Without VAT: rate 0, prices include it (`NO_VAT`).
 */
export interface VatTerms {
  rateBp: number;
  pricesIncludeVat: boolean;
}

export const NO_VAT: VatTerms = { rateBp: 0, pricesIncludeVat: true };

/** The VAT on the prices of a customer whose billing country is `country`. */
export function customerVat(invoicing: InvoicingSettings, country: string | null): VatTerms {
  return { rateBp: vatRateFor(invoicing, country), pricesIncludeVat: invoicing.pricesIncludeVat };
}

// ---------------------------------------------------------------------------------------------------
// What a document holds.

export interface DocumentSeller {
  name: string;
  address: string;
  taxId: string;
}

export interface DocumentBuyer {
  name: string;
  email: string;
  address: string;
  /** ISO 3166 alpha-2, or empty. */
  country: string;
}

/** Each kind of line: a message of the invoices catalogue (`LINE_KEYS`), shown in the reader's language. */
export const LINE_KINDS = [
  "order",
  "renewal",
  "discount",
  "topUp",
  "ticketPayment",
  // A change of a service's plan for the rest of its term (its credit note's line when it went down).
  "planChange",
] as const;
export type LineKind = (typeof LINE_KINDS)[number];
export const LINE_KEYS = labelKeys("invoices", "lines", LINE_KINDS);

/**
 * One line: its kind and the values its message is written from (a product's name, a cycle id, an
 * ISO date, a voucher code), the quantity, the unit and line amounts in cents, as the prices were
 * written (including VAT or not, as the document says). A credit note's amounts are negative. A top-up's
 * line also keeps how the money came (`TopUpPaid`).
 */
export interface DocumentLine {
  kind: LineKind;
  params: Record<string, string | number>;
  quantity: number;
  unitCents: number;
  totalCents: number;
}

/**
 * What a top-up's receipt says of the payment, in its line's params beside `reference` and `method`
 * (receipts issued before these were kept have only those two): the money sent in the method's currency
 * (`sent`, minor units: the request's total, `currency`), the coins the request asked for (`asked`: when
 * the admin credited another number, the money that came is not the request's total), and what the
 * customer said when they marked it paid (`payer`, the phone or account that paid, and `paidOn`, a
 * calendar day), absent when the request was approved before they did. Paid online, the provider
 * that took the money (`provider`: paypal, youcanpay) and its reference of the payment (`providerRef`:
 * PayPal's capture id, YouCan Pay's transaction id).
 */
export interface TopUpPaid {
  currency: string;
  sent: number;
  asked: number;
  payer?: string;
  paidOn?: string;
  provider?: string;
  providerRef?: string;
}

/** A provider's name as a receipt writes it (a brand: the same in every language). */
export const PROVIDER_NAMES: Readonly<Record<string, string>> = {
  paypal: "PayPal",
  youcanpay: "YouCan Pay",
};

/** A document as every reader gets it, whoever asked. */
export interface InvoiceDocument extends DocumentAmounts {
  id: number;
  number: string;
  kind: DocumentKind;
  state: DocumentState;
  userId: string;
  orderId: number | null;
  hostingServiceId: number | null;
  currency: string;
  seller: DocumentSeller;
  buyer: DocumentBuyer;
  lines: DocumentLine[];
  reason: string | null;
  refundMethod: RefundMethod | null;
  issuedAt: string;
  /** A credit note: the number of the document it corrects. */
  creditsNumber: string | null;
  /** A credited document: the number of its credit note. */
  creditedBy: string | null;
  /** For an admin, on a paid renewal's invoice: what its refund may do to the service. */
  renewalRefund?: RenewalRefundChoice;
  /**
   * For an admin, on a paid order's invoice: the service the order created, where it stands now (null
   * when there is none, or it was deleted since).
   */
  orderService?: { id: number; name: string; status: string } | null;
  /** For an admin, on a paid invoice a downgrade credited part of: what it gave back, in cents. */
  creditedSoFarCents?: number;
}

/** One row of a list of documents (the billing tab, /admin/invoices). */
export interface DocumentSummary {
  id: number;
  number: string;
  kind: DocumentKind;
  state: DocumentState;
  totalCents: number;
  vatCents: number;
  currency: string;
  issuedAt: string;
  orderId: number | null;
  /** /admin/invoices: whose it is. */
  userId?: string;
  userName?: string;
  userEmail?: string;
}

/** Where a document opens, for its owner and for admins alike. */
export function documentPath(number: string): string {
  return `/invoices/${number}`;
}

/** Where a document downloads as a PDF (ADR 40), under the same rule as its page. */
export function documentPdfPath(number: string): string {
  return `/invoices/${number}/pdf`;
}

/** What a renewal's invoice bought: its service's term from `from` to `until` (ISO 8601). */
export interface RenewalTerm {
  serviceId: number;
  service: string;
  from: string;
  until: string;
  /**
   * The renewal it paid for (`service_renewals.id`); null on an invoice issued before its line named it,
   * whose renewal is then the service's latest one that gave the expiry `until`.
   */
  renewalId: number | null;
}

/** The term a renewal's invoice paid for, read from its line; null for any other document. */
export function renewalTermOf(
  doc: Pick<InvoiceDocument, "kind" | "hostingServiceId" | "lines">,
): RenewalTerm | null {
  if (doc.kind !== "invoice" || doc.hostingServiceId === null) return null;
  const line = doc.lines.find((candidate) => candidate.kind === "renewal");
  const { from, until, service, renewal } = line?.params ?? {};
  if (typeof from !== "string" || typeof until !== "string") return null;
  return {
    serviceId: doc.hostingServiceId,
    service: String(service ?? ""),
    from,
    until,
    renewalId: typeof renewal === "number" && Number.isSafeInteger(renewal) ? renewal : null,
  };
}

/**
 * What refunding a renewal's invoice may do to its service (the admin's refund form): set the expiry
 * back to the term's start, which only makes sense while the service runs to the end of that very term
 * (no later renewal or edit moved it) and is not terminated.
 */
export interface RenewalRefundChoice extends RenewalTerm {
  /**
   * The expiry taking the term back restores: the one the renewal renewed from (the term's `from`,
   * unless the service had expired: its term then started when it was renewed).
   */
  restoresExpiry: string;
  /** The service's expiry and status now; null when the service was deleted since. */
  expiresAt: string | null;
  status: string | null;
  /** The refund can take the term back. */
  canTakeBack: boolean;
  /** The service renews automatically now: the form offers to switch that off with the term. */
  autoRenew: boolean;
  /** The lifecycle made this renewal (the customer did not). */
  automatic: boolean;
  /**
   * The renewal reactivated the service from a suspension for expiry, and taking it back suspends it
   * again, with the time it had left (suspensionToRestore).
   */
  suspendsAgain: boolean;
  /**
   * The expiry it goes back to is due at the lifecycle's next run: left on, the automatic renewal
   * charges again then.
   */
  renewsAtNextRun: boolean;
  /** The form ticks switching the automatic renewal off (stopsAutoRenewByDefault). */
  stopAutoRenewByDefault: boolean;
}

/**
 * Whether the refund form ticks "Also switch off its automatic renewal" before the admin touches it:
 * when the customer did not ask for this renewal (the lifecycle made it), or when, left on, the
 * lifecycle would charge the refunded coins again at its next run. A customer who renewed twice by
 * mistake still wants it; a service suspended again renews by itself only once the customer has
 * renewed it, so the switch is left alone there.
 */
export function stopsAutoRenewByDefault(
  choice: Pick<RenewalRefundChoice, "automatic" | "renewsAtNextRun" | "suspendsAgain">,
): boolean {
  return !choice.suspendsAgain && (choice.automatic || choice.renewsAtNextRun);
}

/** What a refund did to a renewal's service (the refund form's outcome). */
export interface TermTakenBack {
  service: string;
  /** The expiry it runs to now (the one the renewal renewed from). */
  expiresAt: string;
  /** Its automatic renewal was on and is now off. */
  autoRenewOff: boolean;
  /** Suspended again, as before the renewal reactivated it. */
  suspended: boolean;
}

/**
 * The suspension a refunded renewal lifted, to restore with its term: when it reactivated a service
 * suspended for expiry (`reactivatedSuspendedAt`, migration 0039), a suspension with the time it had
 * left before its termination when it was renewed. Its moment moves by the time the service ran since
 * (`renewedAt` to `now`): restoring the moment itself would count that time against it, and a refund
 * within the guarantee could then terminate it at the next run with no warning left to send. Only for a
 * service running since; one an admin has suspended since keeps that suspension.
 */
export function suspensionToRestore(
  renewal: { reactivatedSuspendedAt: string | null; renewedAt: string } | undefined,
  status: string,
  now: Date,
): string | null {
  if (!renewal?.reactivatedSuspendedAt || status !== "active") return null;
  const ran = Math.max(0, now.getTime() - Date.parse(renewal.renewedAt));
  return new Date(Date.parse(renewal.reactivatedSuspendedAt) + ran).toISOString();
}

/** Whether a service's expiry `expiresAt` (status `status`) still ends the renewal's `term`. */
export function canTakeBackTerm(
  term: Pick<RenewalTerm, "until">,
  service: { expiresAt: string; status: string } | undefined,
): boolean {
  return (
    service !== undefined &&
    service.status !== "terminated" &&
    Date.parse(service.expiresAt) === Date.parse(term.until)
  );
}

/**
 * A credit note that gives back part of an invoice, not the whole of it, is a downgrade's: a service
 * moved down to a cheaper plan has the rest of its term's difference credited (docs/self-service.md).
 * Its `credits_invoice_id` names the order's or renewal's invoice that paid the term, which stays paid;
 * a refund of that invoice later gives back its total less what was credited (`creditedSoFar`). In SQL
 * it is told by its line, a change of plan's, on the `lines` column as written (JSON.stringify of lines
 * whose first key is `kind`): `lines like PARTIAL_CREDIT_LINES`, while the invoice it credits has no
 * such line (the whole credit note of an upgrade's invoice has one too). A reader that joins an invoice
 * to "its credit note" means the one that closed it, and leaves the parts out.
 */
export const PARTIAL_CREDIT_LINES = '%"kind":"planChange"%';

/** `-cents`, never JavaScript's -0 (which a test or a JSON reader would tell from 0). */
const negate = (cents: number) => (cents === 0 ? 0 : -cents);

/** A credit note's lines: the document's, negated. */
export function negatedLines(lines: readonly DocumentLine[]): DocumentLine[] {
  return lines.map((line) => ({
    ...line,
    unitCents: negate(line.unitCents),
    totalCents: negate(line.totalCents),
  }));
}

/** A credit note's figures: the document's, negated, at its rate. */
export function negatedAmounts(amounts: DocumentAmounts): DocumentAmounts {
  return {
    pricesIncludeVat: amounts.pricesIncludeVat,
    vatRateBp: amounts.vatRateBp,
    subtotalCents: negate(amounts.subtotalCents),
    vatCents: negate(amounts.vatCents),
    totalCents: negate(amounts.totalCents),
  };
}

// ---------------------------------------------------------------------------------------------------
// The view: every text of a document in the reader's language, for the page and a PDF alike.

// Literal keys (invoices namespace), written out for the catalogue test.
const TITLE_KEYS = {
  invoice: "document.titles.invoice",
  receipt: "document.titles.receipt",
  credit_note: "document.titles.credit_note",
} as const satisfies Record<DocumentKind, string>;

const TEXT = {
  creditsNote: "document.creditsNote",
  creditedBy: "document.creditedBy",
  reason: "document.reason",
  taxId: "document.taxId",
  seller: "document.seller",
  buyer: "document.buyer",
  description: "document.description",
  quantity: "document.quantity",
  unit: "document.unit",
  unitWithVat: "document.unitWithVat",
  amount: "document.amount",
  amountWithVat: "document.amountWithVat",
  subtotal: "document.subtotal",
  vat: "document.vat",
  vatAt: "document.vatAt",
  total: "document.total",
  issued: "document.issued",
  receiptNoVat: "document.receiptNoVat",
  noVat: "document.noVat",
  paidWithCoins: "document.paidWithCoins",
  payment: "document.payment.heading",
  amountSent: "document.payment.amountSent",
  amountAsked: "document.payment.amountAsked",
  method: "document.payment.method",
  reference: "document.payment.reference",
  payer: "document.payment.payer",
  paidOn: "document.payment.paidOn",
  provider: "document.payment.provider",
  providerRef: "document.payment.providerRef",
  notTakenBack: "document.notTakenBack",
  coinsCredited: "document.payment.coins",
} as const;

type Values<T> = T[keyof T];
/** Every key of the invoices namespace a document's view reads. */
export type DocumentTextKey =
  | Values<typeof TEXT>
  | Values<typeof TITLE_KEYS>
  | Values<typeof LINE_KEYS>
  | Values<typeof DOCUMENT_STATE_LABELS>
  | Values<typeof RECEIPT_STATE_LABELS>
  | Values<typeof CREDIT_NOTE_STATE_LABELS>
  | Values<typeof REFUND_METHOD_LABELS>;

/** The invoices namespace's `t` (`useTranslation("invoices").t`, or `getFixedT(null, "invoices")`). */
export type TranslateDocument = (
  key: DocumentTextKey,
  values?: Record<string, string | number>,
) => string;

export interface DocumentView {
  title: string;
  number: string;
  issued: string;
  state: string;
  /** "Credit note for HF-2026-000012", "Credited by HFC-2026-000003", the refund: the lines under the title. */
  notes: string[];
  seller: { heading: string; lines: string[] };
  buyer: { heading: string; lines: string[] };
  /**
   * A top-up's receipt: how the money came (the amount sent in the method's currency, the method, the
   * request's reference, who paid and when) and the coins it bought; null for any other document.
   */
  payment: { heading: string; rows: { label: string; value: string }[] } | null;
  columns: { description: string; quantity: string; unit: string; total: string };
  lines: { description: string; quantity: string; unit: string; total: string }[];
  totals: { label: string; amount: string; strong?: boolean }[];
  /** How it was paid, or why there is no VAT. */
  footer: string[];
}

export interface DocumentViewTools {
  t: TranslateDocument;
  locale: string;
  /** An amount in the document's currency, in the reader's language ("€12.00", "12,00 €"). */
  money: (cents: number) => string;
  /** A date in the reader's language. */
  date: (iso: string) => string;
  /** A calendar day ("2026-03-04", as a date input sends it) in the reader's language, whatever the zone. */
  day: (day: string) => string;
  /** Minor units of another currency, in the reader's language ("MAD 110.00", "110,00 MAD"). */
  amountIn: (minor: number, currency: string) => string;
  /** Cents of coins as a number of coins ("10", "12.50", "12,50"). */
  coins: (cents: number) => string;
  /** A billing cycle's name in the reader's language (orders namespace). */
  cycleName: (cycle: string) => string;
  /** A country's name in the reader's language. */
  countryName: (code: string) => string;
}

/**
 * The tools of a reader in `locale`: the page's and the PDF's alike, so both say the same. The page
 * gives no time zone (a date reads in the browser's); the PDF gives the site's.
 */
export function documentViewTools(reader: {
  t: TranslateDocument;
  /** The orders namespace's `t`, for a billing cycle's name. */
  tOrders: (key: (typeof BILLING_CYCLE_NAMES)[BillingCycle]) => string;
  locale: string;
  timeZone?: string;
}): DocumentViewTools {
  const { t, tOrders, locale, timeZone } = reader;
  const date = dateTimeFormat(
    locale,
    timeZone ? { dateStyle: "long", timeZone } : { dateStyle: "long" },
  );
  return {
    t,
    locale,
    money: (cents) => formatEuros(cents, locale),
    date: (iso) => date.format(new Date(iso)),
    day: (day) => formatCalendarDay(day, locale, "long"),
    amountIn: (minor, currency) => {
      try {
        return numberFormat(locale, {
          style: "currency",
          currency,
          minimumFractionDigits: 2,
          maximumFractionDigits: 2,
        }).format(minor / 100);
      } catch {
        // A currency Intl does not know (a document written by hand): the code, then the figure.
        return `${currency} ${numberFormat(locale, { minimumFractionDigits: 2 }).format(minor / 100)}`;
      }
    },
    coins: (cents) => numberFormat(locale, { maximumFractionDigits: 2 }).format(cents / 100),
    cycleName: (cycle) =>
      cycle in BILLING_CYCLE_NAMES ? tOrders(BILLING_CYCLE_NAMES[cycle as BillingCycle]) : cycle,
    countryName: (code) => countryName(code, locale),
  };
}

function lineDescription(line: DocumentLine, tools: DocumentViewTools): string {
  const params = { ...line.params };
  if (typeof params.cycle === "string") params.cycle = tools.cycleName(params.cycle);
  for (const name of ["from", "until"] as const)
    if (typeof params[name] === "string") params[name] = tools.date(params[name]);
  return tools.t(LINE_KEYS[line.kind], params);
}

/** A text param of a line, or undefined when it is missing or empty. */
function textParam(params: DocumentLine["params"], name: string): string | undefined {
  const value = params[name];
  return typeof value === "string" && value !== "" ? value : undefined;
}

/** A whole-number param of a line, or undefined. */
function countParam(params: DocumentLine["params"], name: string): number | undefined {
  const value = params[name];
  return typeof value === "number" && Number.isSafeInteger(value) ? value : undefined;
}

/** The payment block of a top-up's receipt (`TopUpPaid`), from what its line kept; null otherwise. */
function paymentView(doc: InvoiceDocument, tools: DocumentViewTools): DocumentView["payment"] {
  const line = doc.kind === "receipt" ? doc.lines.find((each) => each.kind === "topUp") : undefined;
  if (!line) return null;
  const { t } = tools;
  const plain = withoutDirectionalControls;
  const params = line.params;
  const rows: { label: string; value: string }[] = [];
  const currency = textParam(params, "currency");
  const sent = countParam(params, "sent");
  const asked = countParam(params, "asked");
  if (currency && sent !== undefined) {
    // Credited for another number of coins than asked: another amount came than the request's total.
    const other = asked !== undefined && asked * 100 !== line.totalCents;
    rows.push({
      label: other ? t(TEXT.amountAsked, { coins: asked }) : t(TEXT.amountSent),
      value: tools.amountIn(sent, currency),
    });
  }
  const method = textParam(params, "method");
  if (method) rows.push({ label: t(TEXT.method), value: plain(method) });
  const reference = textParam(params, "reference");
  if (reference) rows.push({ label: t(TEXT.reference), value: reference });
  const payer = textParam(params, "payer");
  if (payer) rows.push({ label: t(TEXT.payer), value: plain(payer) });
  const paidOn = textParam(params, "paidOn");
  if (paidOn) rows.push({ label: t(TEXT.paidOn), value: tools.day(paidOn) });
  const provider = textParam(params, "provider");
  if (provider)
    rows.push({ label: t(TEXT.provider), value: PROVIDER_NAMES[provider] ?? plain(provider) });
  const providerRef = textParam(params, "providerRef");
  if (providerRef) rows.push({ label: t(TEXT.providerRef), value: plain(providerRef) });
  rows.push({ label: t(TEXT.coinsCredited), value: tools.coins(line.totalCents) });
  return { heading: t(TEXT.payment), rows };
}

/** The receipt a credit note of an online top-up's refund corrects (its line's `receipt`), if it is one. */
function creditedReceipt(doc: InvoiceDocument): string | undefined {
  if (doc.kind !== "credit_note") return undefined;
  const line = doc.lines.find((each) => each.kind === "topUp");
  return line ? textParam(line.params, "receipt") : undefined;
}

/** A rate in basis points as the reader writes a percentage ("20", "5.5", "5,5"). */
export function ratePercent(rateBp: number, locale: string): string {
  return numberFormat(locale, { maximumFractionDigits: 2 }).format(rateBp / 100);
}

/** Every text of `doc` as its reader reads it, in their language. */
export function documentView(doc: InvoiceDocument, tools: DocumentViewTools): DocumentView {
  const { t, money } = tools;
  const notes: string[] = [];
  // A refund of an online top-up names the receipt it corrects in its line (it may be one of several).
  const corrected = doc.creditsNumber ?? creditedReceipt(doc);
  if (corrected) notes.push(t(TEXT.creditsNote, { number: corrected }));
  if (doc.creditedBy) notes.push(t(TEXT.creditedBy, { number: doc.creditedBy }));
  if (doc.kind === "credit_note" && doc.refundMethod)
    notes.push(t(REFUND_METHOD_LABELS[doc.refundMethod]));
  if (doc.reason) notes.push(t(TEXT.reason, { reason: doc.reason }));
  // A refund through a provider that took back fewer coins than it refunded: the balance ran out.
  const short =
    doc.kind === "credit_note" ? countParam(doc.lines[0]?.params ?? {}, "shortCents") : 0;
  if (short) notes.push(t(TEXT.notTakenBack, { coins: tools.coins(short) }));
  // A document issued before directional controls were taken out of its parties is drawn without them.
  const plain = withoutDirectionalControls;
  const address = (text: string) =>
    plain(text)
      .split(/\r?\n/)
      .filter((line) => line.trim());
  const seller = [plain(doc.seller.name), ...address(doc.seller.address)];
  if (doc.seller.taxId) seller.push(t(TEXT.taxId, { id: plain(doc.seller.taxId) }));
  const buyer = [plain(doc.buyer.name), doc.buyer.email, ...address(doc.buyer.address)];
  if (doc.buyer.country) buyer.push(tools.countryName(doc.buyer.country));
  const totals: DocumentView["totals"] = [
    { label: t(TEXT.subtotal), amount: money(doc.subtotalCents) },
    {
      label:
        doc.vatRateBp > 0
          ? t(TEXT.vatAt, { rate: ratePercent(doc.vatRateBp, tools.locale) })
          : t(TEXT.vat),
      amount: money(doc.vatCents),
    },
    { label: t(TEXT.total), amount: money(doc.totalCents), strong: true },
  ];
  const footer: string[] = [];
  if (doc.kind === "receipt") footer.push(t(TEXT.receiptNoVat));
  else if (doc.vatRateBp === 0) footer.push(t(TEXT.noVat));
  if (doc.kind === "invoice") footer.push(t(TEXT.paidWithCoins));
  // A receipt's amounts are money received, not prices: neither with nor without VAT.
  const withVat = doc.pricesIncludeVat && doc.kind !== "receipt";
  return {
    title: t(TITLE_KEYS[doc.kind]),
    number: doc.number,
    issued: t(TEXT.issued, { date: tools.date(doc.issuedAt) }),
    state: t(documentStateLabel(doc.kind, doc.state)),
    notes,
    seller: { heading: t(TEXT.seller), lines: seller },
    buyer: { heading: t(TEXT.buyer), lines: buyer },
    payment: paymentView(doc, tools),
    columns: {
      description: t(TEXT.description),
      quantity: t(TEXT.quantity),
      unit: withVat ? t(TEXT.unitWithVat) : t(TEXT.unit),
      total: withVat ? t(TEXT.amountWithVat) : t(TEXT.amount),
    },
    lines: doc.lines.map((line) => ({
      description: lineDescription(line, tools),
      quantity: String(line.quantity),
      unit: money(line.unitCents),
      total: money(line.totalCents),
    })),
    totals,
    footer,
  };
}
