import { labelKeys } from "~/lib/label-keys";
import {
  coinsForRefund,
  ONLINE_PAYMENT_STATES,
  type OnlinePaymentState,
  type PaymentProblem,
} from "./online-payments";
import type { ProviderCode } from "./providers/provider";

// An online payment as the staff's list of top-ups shows it (/admin/top-ups): what was paid and given
// back, where the admin's refunds stand, and what a refund of an amount would take back. Pure and
// safe in the browser.

export const REFUND_ROW_STATES = [
  "asked",
  "pending",
  "refunded",
  "refused",
  "manual",
  "failed",
] as const;
/** `failed` also stands for a refund whose job gave up (the provider could not be reached). */
export type RefundRowView = (typeof REFUND_ROW_STATES)[number];

export interface QueuedRefund {
  id: number;
  amount: number;
  state: RefundRowView;
  /** The provider's reason for a refusal, or why it could not be asked. */
  detail: string | null;
  createdAt: string;
}

export interface QueuedOnlinePayment {
  id: number;
  provider: ProviderCode;
  /** PayPal's order, YouCan Pay's token: null while the provider had not answered the start. */
  providerRef: string | null;
  /** PayPal's capture, YouCan Pay's transaction, once paid. */
  captureRef: string | null;
  state: OnlinePaymentState;
  problem: PaymentProblem | null;
  /** What was asked, and what the provider took (null until it said), in minor units. */
  amount: number;
  currency: string;
  paidAmount: number | null;
  paidCurrency: string | null;
  refundedAmount: number;
  /** The coins the payment credited, in cents (0 before the credit). */
  creditedCents: number;
  /** The customer's balance now, in cents: how much a refund can take back. */
  balanceCents: number;
  /** The admin's refunds, newest first. */
  refunds: QueuedRefund[];
}

/** What may still be refunded of a payment, in minor units (0 unless it is paid). */
export function refundableAmount(payment: QueuedOnlinePayment): number {
  if (payment.state !== "paid") return 0;
  return Math.max(0, (payment.paidAmount ?? payment.amount) - payment.refundedAmount);
}

/** Whether a refund of the payment is on its way (the admin waits for the provider's answer). */
export function refundInProgress(payment: QueuedOnlinePayment): boolean {
  return payment.refunds.some((refund) => refund.state === "asked");
}

/**
 * What refunding `amount` minor units would do to the coins: `wanted` cents taken back in proportion,
 * of which `taken` the balance allows (never below 0) and `short` that cannot be.
 */
export function refundEffect(
  payment: QueuedOnlinePayment,
  amount: number,
): { wanted: number; taken: number; short: number } {
  const paid = payment.paidAmount ?? payment.amount;
  const before = payment.refundedAmount;
  const after = Math.min(before + Math.max(amount, 0), paid);
  const wanted =
    coinsForRefund(payment.creditedCents, paid, after) -
    coinsForRefund(payment.creditedCents, paid, before);
  const taken = Math.min(wanted, Math.max(payment.balanceCents, 0));
  return { wanted, taken, short: wanted - taken };
}

/** Minor units as typed back into the amount field ("12.50"): a dot and two decimals. */
export function minorToInput(minor: number): string {
  return `${Math.floor(minor / 100)}.${String(minor % 100).padStart(2, "0")}`;
}

/** Why a payment failed or was flagged, every value of `online_payments.problem`. */
export const PAYMENT_PROBLEMS = [
  "mismatch",
  "declined",
  "cancelledByCustomer",
  "abandoned",
  "superseded",
  "refundedBeforeCredit",
  "requestClosed",
] as const satisfies readonly PaymentProblem[];

/** Why a refund was not made, as its row's `detail` says when it is ours (not the provider's words). */
export const REFUND_FAILURES = [
  "notConfigured",
  "notRefundable",
  "unauthorized",
  "unavailable",
  "timeout",
  "refused",
] as const;

export function isRefundFailure(detail: string | null): detail is (typeof REFUND_FAILURES)[number] {
  return (REFUND_FAILURES as readonly (string | null)[]).includes(detail);
}

// Catalogue keys (payments namespace), one family each (docs/i18n.md, ADR 26).
export const ONLINE_STATE_LABELS = labelKeys(
  "payments",
  "topUps.admin.online.states",
  ONLINE_PAYMENT_STATES,
);
export const PAYMENT_PROBLEM_LABELS = labelKeys(
  "payments",
  "topUps.admin.online.problems",
  PAYMENT_PROBLEMS,
);
export const REFUND_STATE_LABELS = labelKeys(
  "payments",
  "topUps.admin.online.refundStates",
  REFUND_ROW_STATES,
);
export const REFUND_FAILURE_LABELS = labelKeys(
  "payments",
  "topUps.admin.online.refundFailures",
  REFUND_FAILURES,
);
