import type { Selectable } from "kysely";
import type { OnlinePaymentsTable } from "~/db/schema";
import type { Db, Tx } from "~/db/transaction";
import type { OnlinePaymentState, PaymentProblem } from "./online-payments";
import type { PaymentRef, ProviderCode } from "./providers/provider";

// What the online payments' modules share (docs/online-payments.md): a payment's row as read, the
// reference a provider is asked about, and the conditional moves of its state.

export type OnlinePaymentRow = Selectable<OnlinePaymentsTable>;

/** A payment's row with its request's reference. */
export async function findOnlinePayment(
  db: Db | Tx,
  paymentId: number,
): Promise<(OnlinePaymentRow & { reference: string }) | undefined> {
  return db
    .selectFrom("online_payments")
    .innerJoin("top_up_requests", "top_up_requests.id", "online_payments.top_up_request_id")
    .selectAll("online_payments")
    .select("top_up_requests.reference")
    .where("online_payments.id", "=", paymentId)
    .executeTakeFirst();
}

/** What a provider is asked about: our ids and its own, never what a browser or notification claimed. */
export function paymentRefOf(
  row: OnlinePaymentRow & { reference: string },
  captureHint?: string | null,
): PaymentRef {
  return {
    paymentId: Number(row.id),
    providerRef: row.provider_ref,
    captureRef: row.capture_ref ?? captureHint ?? null,
    reference: row.reference,
    currency: row.currency,
  };
}

export function providerOf(row: OnlinePaymentRow): ProviderCode {
  return row.provider as ProviderCode;
}

/**
 * Step: moves a payment from one of `from` to `to`, in one conditional statement: of two confirmations
 * at once one moves it, the other finds it moved (false). On PostgreSQL the second waits for the first's
 * row lock and reads the row again; on SQLite writers take turns.
 */
export async function movePayment(
  trx: Tx,
  paymentId: number,
  from: readonly OnlinePaymentState[],
  to: OnlinePaymentState,
  change: {
    problem?: PaymentProblem | null;
    captureRef?: string | null;
    paidAmount?: number;
    paidCurrency?: string;
    now: Date;
  },
): Promise<boolean> {
  const at = change.now.toISOString();
  const moved = await trx
    .updateTable("online_payments")
    .set({
      state: to,
      updated_at: at,
      ...(to === "pending" ? {} : { settled_at: at }),
      ...(change.problem !== undefined ? { problem: change.problem } : {}),
      ...(change.captureRef ? { capture_ref: change.captureRef } : {}),
      ...(change.paidAmount !== undefined ? { paid_amount: change.paidAmount } : {}),
      ...(change.paidCurrency !== undefined ? { paid_currency: change.paidCurrency } : {}),
    })
    .where("id", "=", paymentId)
    .where("state", "in", from)
    .executeTakeFirst();
  return Number(moved.numUpdatedRows) === 1;
}

/**
 * Step: the payment's top-up request closed as cancelled while it is still open (the payment failed,
 * was cancelled or was left), so the customer may ask again. False when it was not open.
 */
export async function cancelRequestOf(trx: Tx, requestId: number, now: Date): Promise<boolean> {
  const at = now.toISOString();
  const moved = await trx
    .updateTable("top_up_requests")
    .set({ state: "cancelled", decided_at: at, updated_at: at })
    .where("id", "=", requestId)
    .where("state", "in", ["waiting_payment", "proof_sent"])
    .executeTakeFirst();
  return Number(moved.numUpdatedRows) === 1;
}

/** Step: the notifications about a payment still waiting, marked with what became of them. */
export async function settleNotifications(
  trx: Tx,
  paymentId: number,
  outcome: "applied" | "mismatch",
  now: Date,
  detail?: string,
): Promise<void> {
  await trx
    .updateTable("provider_notifications")
    .set({ outcome, handled_at: now.toISOString(), ...(detail ? { detail } : {}) })
    .where("online_payment_id", "=", paymentId)
    .where("outcome", "=", "queued")
    .execute();
}
