import type { UnverifiedEmailRefusal } from "~/domain/accounts/email-verification.server";
import type { Db, Tx } from "~/db/transaction";
import type { FailureKind } from "~/lib/result";
import { textIn, type PaymentCurrency, type TopUpQuoteRefusal } from "./payment-methods";
import type { ProofRefusal } from "./top-up-proofs.server";
import type { TopUpRequest, TopUpState } from "./top-ups";

// What every top-up module shares (docs/payments.md#top-up-requests): a request's row as it is read,
// what its audit entry and its events keep of it, and the refusals and results of its use-cases.

export type TopUpRefusal =
  | TopUpQuoteRefusal
  | ProofRefusal
  | "payments.errors.purchaseClosed"
  | "payments.errors.methodUnavailable"
  | "payments.errors.openTopUpExists"
  | "payments.errors.topUpNotFound"
  | "payments.errors.topUpNotOpen"
  | "payments.errors.paidOnFuture"
  | "payments.errors.paidOnTooOld"
  | "payments.errors.adminOnly"
  | "payments.errors.balanceTooHigh"
  | "payments.errors.tooManyProofPosts";

/**
 * A refusal names the form field it belongs to when it is one field's (the coins, the date paid, the
 * files), and the values its message takes (a method's bounds, a refused file's name).
 */
export type Refused = {
  ok: false;
  kind: FailureKind;
  error: TopUpRefusal;
  field?: string;
  params?: Record<string, string | number>;
};
export type TopUpResult = { ok: true; request: TopUpRequest } | Refused | UnverifiedEmailRefusal;

/** The requests with their method's names, as every read of them starts. */
export function requests(db: Db | Tx) {
  return db
    .selectFrom("top_up_requests")
    .innerJoin("payment_methods", "payment_methods.id", "top_up_requests.payment_method_id")
    .select([
      "top_up_requests.id",
      "top_up_requests.reference",
      "top_up_requests.user_id",
      "top_up_requests.payment_method_id",
      "payment_methods.names",
      "top_up_requests.coins",
      "top_up_requests.currency",
      "top_up_requests.amount",
      "top_up_requests.fee",
      "top_up_requests.total",
      "top_up_requests.credit_cents",
      "top_up_requests.payer_account",
      "top_up_requests.paid_on",
      "top_up_requests.state",
      "top_up_requests.credited_coins",
      "top_up_requests.reject_reason",
      "top_up_requests.decided_at",
      "top_up_requests.created_at",
      "top_up_requests.updated_at",
    ]);
}

type RequestRow = Awaited<ReturnType<ReturnType<typeof requests>["executeTakeFirstOrThrow"]>>;

/** A method's stored names (JSON per language), "" where one is missing or unreadable. */
export function namesOf(json: string) {
  try {
    const value = JSON.parse(json) as Record<string, unknown>;
    const text = (locale: string) =>
      typeof value[locale] === "string" ? (value[locale] as string) : "";
    return { en: text("en"), fr: text("fr"), ar: text("ar") };
  } catch {
    return { en: "", fr: "", ar: "" };
  }
}

export function toRequest(row: RequestRow, locale: string): TopUpRequest {
  return {
    id: Number(row.id),
    reference: row.reference,
    userId: row.user_id,
    methodId: Number(row.payment_method_id),
    // The method's name as the reader's language writes it (English, then any, as a fallback).
    methodName: textIn(namesOf(row.names), locale, "en"),
    coins: row.coins,
    currency: row.currency as PaymentCurrency,
    amount: row.amount,
    fee: row.fee,
    total: row.total,
    creditCents: row.credit_cents,
    payerAccount: row.payer_account,
    paidOn: row.paid_on,
    state: row.state as TopUpState,
    creditedCoins: row.credited_coins,
    rejectReason: row.reject_reason,
    decidedAt: row.decided_at,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
}

export async function findRequest(db: Db | Tx, id: number, locale = "en") {
  const row = await requests(db).where("top_up_requests.id", "=", id).executeTakeFirst();
  return row ? toRequest(row, locale) : undefined;
}

/** What the audit log keeps of a request. */
export function auditView(request: TopUpRequest) {
  const { methodName: _n, createdAt: _c, updatedAt: _u, ...fields } = request;
  return fields;
}

/** A request as its events name it. */
export function topUpRef(request: TopUpRequest) {
  const { id, userId, reference, methodName, coins, creditCents } = request;
  return { id, userId, reference, methodName, coins, creditCents };
}
