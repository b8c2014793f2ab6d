/**
 * The reason of a coin movement, stored as a message of the coins catalogue and its values (migration
 * 0023, ADR 21) so every reader sees it in their language: the customer's billing tab and activity, the
 * admin's transactions and a client's coin history. Rows written before, and an admin's own words, keep
 * their text and are shown as written.
 */

// Catalogue keys (coins namespace) written out, so the catalogue test sees every one in use.
export const LEDGER_REASON_KEYS = {
  /** "Order #{{id}}: {{product}}" */
  orderPayment: "reasons.orderPayment",
  /** "Order #{{id}} rejected: {{reason}}" (the admin's reason, as typed) */
  orderRefund: "reasons.orderRefund",
  /** "Order #{{id}} not reviewed in time: refunded" (the service lifecycle) */
  orderExpiredRefund: "reasons.orderExpiredRefund",
  /** "Renewal of {{service}}" */
  renewal: "reasons.renewal",
  /** "Ticket #{{id}}: {{subject}}" (coins bought through a support ticket) */
  ticketPurchase: "reasons.ticketPurchase",
  /** "Ticket #{{id}}: {{subject}} ({{note}})" (the admin's note) */
  ticketPurchaseNote: "reasons.ticketPurchaseNote",
  /** "Ticket #{{id}}: {{subject}}, goodwill credit" (a ticket's credit that is not a payment) */
  ticketGoodwill: "reasons.ticketGoodwill",
  /** "Ticket #{{id}}: {{subject}}, goodwill credit ({{note}})" */
  ticketGoodwillNote: "reasons.ticketGoodwillNote",
  /** "Top-up {{reference}} ({{method}})" (a top-up request approved) */
  topUp: "reasons.topUp",
  /** "Seed admin coins" */
  seedAdmin: "reasons.seedAdmin",
  /** "Balance imported from the old storefront" */
  legacyBalance: "reasons.legacyBalance",
  /** "Refund of invoice {{number}}" (an admin's refund to the balance) */
  invoiceRefund: "reasons.invoiceRefund",
  /** "Top-up {{reference}} refunded through {{provider}}" (the coins an online refund takes back) */
  topUpRefund: "reasons.topUpRefund",
  /** "Plan change of {{service}}: {{from}} → {{to}}" (a customer's change of plan, either way) */
  planChange: "reasons.planChange",
  /** "Referral reward: {{name}}'s first order" (docs/referrals.md; the referred customer's masked name) */
  referralReward: "reasons.referralReward",
} as const;
export type LedgerReasonId = keyof typeof LEDGER_REASON_KEYS;
export type LedgerReasonKey = (typeof LEDGER_REASON_KEYS)[LedgerReasonId];
export type LedgerReasonParams = Record<string, string | number>;

/** A reason to store: the message and its values. */
export interface LedgerReason {
  id: LedgerReasonId;
  params: LedgerReasonParams;
}

/**
 * The English of each message, the text written in `coin_ledger.reason` beside the key: what scripts and
 * anything reading the column see. A unit test holds it equal to the English catalogue.
 */
export const LEDGER_REASON_ENGLISH: Record<LedgerReasonId, string> = {
  orderPayment: "Order #{{id}}: {{product}}",
  orderRefund: "Order #{{id}} rejected: {{reason}}",
  orderExpiredRefund: "Order #{{id}} not reviewed in time: refunded",
  renewal: "Renewal of {{service}}",
  ticketPurchase: "Ticket #{{id}}: {{subject}}",
  ticketPurchaseNote: "Ticket #{{id}}: {{subject}} ({{note}})",
  ticketGoodwill: "Ticket #{{id}}: {{subject}}, goodwill credit",
  ticketGoodwillNote: "Ticket #{{id}}: {{subject}}, goodwill credit ({{note}})",
  topUp: "Top-up {{reference}} ({{method}})",
  seedAdmin: "Seed admin coins",
  legacyBalance: "Balance imported from the old storefront",
  invoiceRefund: "Refund of invoice {{number}}",
  topUpRefund: "Top-up {{reference}} refunded through {{provider}}",
  planChange: "Plan change of {{service}}: {{from}} → {{to}}",
  referralReward: "Referral reward: {{name}}'s first order",
};

export function isLedgerReasonId(value: unknown): value is LedgerReasonId {
  return typeof value === "string" && Object.hasOwn(LEDGER_REASON_KEYS, value);
}

export function ledgerReason(id: LedgerReasonId, params: LedgerReasonParams = {}): LedgerReason {
  return { id, params };
}

/** The English text of a reason (the `reason` column); a value it does not name stays a placeholder. */
export function englishLedgerReason(reason: LedgerReason): string {
  return LEDGER_REASON_ENGLISH[reason.id].replace(/\{\{(\w+)\}\}/g, (whole, name: string) =>
    Object.hasOwn(reason.params, name) ? String(reason.params[name]) : whole,
  );
}

/** What a reader is given of a ledger row's reason: its text, and its message when it has one. */
export interface StoredLedgerReason {
  reason: string;
  reasonKey: string | null;
  reasonParams: LedgerReasonParams | null;
}

/**
 * A row's `reason_params` column as values: a JSON object of strings and numbers, else null (a row shows
 * its text when its values cannot be read).
 */
export function parseReasonParams(text: string | null | undefined): LedgerReasonParams | null {
  if (!text) return null;
  try {
    const value: unknown = JSON.parse(text);
    if (typeof value !== "object" || value === null || Array.isArray(value)) return null;
    const params: LedgerReasonParams = {};
    for (const [name, item] of Object.entries(value)) {
      if (typeof item !== "string" && typeof item !== "number") return null;
      params[name] = item;
    }
    return params;
  } catch {
    return null;
  }
}

/** The reason columns of a coin_ledger row as a reader is given them (select `LEDGER_REASON_COLUMNS`). */
export function storedLedgerReason(row: {
  reason: string;
  reason_key: string | null;
  reason_params: string | null;
}): StoredLedgerReason {
  return {
    reason: row.reason,
    reasonKey: row.reason_key,
    reasonParams: parseReasonParams(row.reason_params),
  };
}

export const LEDGER_REASON_COLUMNS = ["reason", "reason_key", "reason_params"] as const;

/** A translation of the coins namespace, as `useTranslation("coins").t` gives it. */
export type TranslateReason = (key: LedgerReasonKey, params: LedgerReasonParams) => string;

/**
 * The reason as the reader reads it: the message in their language when the row has one we know,
 * otherwise the text it was written with (an older row, an admin's own words).
 */
export function ledgerReasonText(entry: StoredLedgerReason, t: TranslateReason): string {
  if (!isLedgerReasonId(entry.reasonKey) || !entry.reasonParams) return entry.reason;
  return t(LEDGER_REASON_KEYS[entry.reasonKey], entry.reasonParams);
}
