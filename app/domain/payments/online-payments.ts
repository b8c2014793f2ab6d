import { labelKeys } from "~/lib/label-keys";
import type { LookUpResult } from "./providers/provider";

// Online payments (docs/online-payments.md, ADR 55): a checkout at a provider beside the top-up request
// it pays. Pure and safe in the browser: the states, the limits, the names of the jobs and what the
// provider's word on a payment means for it. The use-cases are `online-*.server.ts` beside.

export const ONLINE_PAYMENT_STATES = [
  "pending",
  "paid",
  "failed",
  "cancelled",
  "refunded",
] as const;
export type OnlinePaymentState = (typeof ONLINE_PAYMENT_STATES)[number];

/** A payment's state as a badge's colour, the same for the customer and the staff. */
export const ONLINE_STATE_TONES = {
  pending: "blue",
  paid: "green",
  failed: "red",
  cancelled: "grey",
  refunded: "grey",
} as const satisfies Record<OnlinePaymentState, string>;

// Catalogue keys (payments namespace) of the customer's payment page, one family each (ADR 26).
export const PAYMENT_RETURN_STATE_LABELS = labelKeys(
  "payments",
  "paymentReturn.states",
  ONLINE_PAYMENT_STATES,
);
export const PAYMENT_RETURN_SAYS = labelKeys(
  "payments",
  "paymentReturn.says",
  ONLINE_PAYMENT_STATES,
);

/** The return page's address of a payment (the provider sends the customer back there). */
export function onlinePaymentPath(paymentId: number): string {
  return `/dashboard/top-up/payments/${paymentId}`;
}

/** Checkouts a customer may start in an hour: each one is a call to the provider. */
export const MAX_CHECKOUTS_PER_HOUR = 5;

/** A pending payment older than this is asked about by the reconciliation. */
export const RECONCILE_AFTER_MS = 15 * 60 * 1000;
/** A pending payment older than this, on which the provider took nothing, is cancelled. */
export const ABANDON_AFTER_MS = 24 * 60 * 60 * 1000;

export const CONFIRM_JOB = "payments.confirm";
export const RECONCILE_JOB = "payments.reconcile";
export const REFUND_JOB = "payments.refund";

/** The one confirmation waiting for a payment: a return, a notification and the reconciliation share it. */
export function confirmKey(paymentId: number): string {
  return `confirm:${paymentId}`;
}

/** The ledger key of the coins taken back when the provider's refunds of a payment reach `total`. */
export function refundLedgerKey(paymentId: number, total: number): string {
  return `top-up-refund:${paymentId}:${total}`;
}

/** Why a payment failed or was flagged (`online_payments.problem`). */
export type PaymentProblem =
  | "mismatch"
  | "declined"
  | "cancelledByCustomer"
  | "abandoned"
  | "superseded"
  | "refundedBeforeCredit"
  | "requestClosed";

/** A payment as the confirmation reads it. */
export interface OnlinePaymentFacts {
  amount: number;
  currency: string;
  reference: string;
}

/**
 * What the provider's word on a payment does to it: credit it (paid for exactly the asked amount, in
 * the asked currency, naming our reference), refuse it as a mismatch (paid, but not that), close it
 * (failed or cancelled there), or nothing yet (pending).
 */
export type ProviderVerdict =
  | { kind: "credit"; amount: number; currency: string; captureRef: string | null }
  | { kind: "mismatch"; detail: string }
  | { kind: "failed"; detail?: string }
  | { kind: "cancelled" }
  | { kind: "refunded" }
  | { kind: "pending" };

export function verdictOf(
  payment: OnlinePaymentFacts,
  answer: Extract<LookUpResult, { ok: true }>,
): ProviderVerdict {
  switch (answer.state) {
    case "paid": {
      const differs: string[] = [];
      if (answer.reference !== payment.reference)
        differs.push(`reference ${answer.reference ?? "none"}`);
      if (answer.amount !== payment.amount) differs.push(`amount ${answer.amount}`);
      if (answer.currency.toUpperCase() !== payment.currency.toUpperCase())
        differs.push(`currency ${answer.currency}`);
      if (differs.length > 0) return { kind: "mismatch", detail: differs.join(", ") };
      return {
        kind: "credit",
        amount: answer.amount,
        currency: payment.currency,
        captureRef: answer.captureRef,
      };
    }
    case "failed":
      return answer.detail ? { kind: "failed", detail: answer.detail } : { kind: "failed" };
    case "cancelled":
      return { kind: "cancelled" };
    case "refunded":
      return { kind: "refunded" };
    default:
      return { kind: "pending" };
  }
}

/**
 * The coins (in cents) that `refunded` minor units of a payment of `paid` minor units take back of the
 * `creditedCents` it bought, in proportion; computed on the running total, so successive partial refunds
 * add up to the whole credit and never one cent more.
 */
export function coinsForRefund(creditedCents: number, paid: number, refunded: number): number {
  if (paid <= 0) return 0;
  const share = Math.min(Math.max(refunded, 0), paid);
  return Math.round((creditedCents * share) / paid);
}

/** Whether a claimed capture or transaction id can be passed on to the provider (never trusted). */
export function isPlausibleHint(value: string): boolean {
  return /^[A-Za-z0-9_-]{1,100}$/.test(value);
}

/** The hour a staff alert counts in: a storm of refusals makes one notice per kind per hour. */
export function alertHour(now: Date): string {
  return now.toISOString().slice(0, 13);
}
