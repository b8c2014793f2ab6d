import type { Db } from "~/db/transaction";
import type { OnlinePaymentState, PaymentProblem } from "./online-payments";
import type { QueuedOnlinePayment, QueuedRefund, RefundRowView } from "./online-payment-views";
import type { ProviderCode } from "./providers/provider";

/** The admin's refunds shown a payment, newest first. */
const REFUNDS_SHOWN = 5;

/**
 * The online payments of a page of top-up requests, by request id: each with what the customer's balance
 * is now and the admin's latest refunds. A refund whose job gave up (the provider kept timing out) shows
 * as failed.
 */
export async function onlinePaymentsOfRequests(
  db: Db,
  requestIds: number[],
): Promise<Record<number, QueuedOnlinePayment>> {
  if (requestIds.length === 0) return {};
  const rows = await db
    .selectFrom("online_payments")
    .innerJoin("top_up_requests", "top_up_requests.id", "online_payments.top_up_request_id")
    .innerJoin("users", "users.id", "online_payments.user_id")
    .selectAll("online_payments")
    .select(["top_up_requests.credited_coins", "top_up_requests.coins", "users.coin_balance_cents"])
    .where("online_payments.top_up_request_id", "in", requestIds)
    .execute();
  if (rows.length === 0) return {};
  const refunds = await db
    .selectFrom("online_payment_refunds")
    .leftJoin("jobs", "jobs.id", "online_payment_refunds.job_id")
    .select([
      "online_payment_refunds.id",
      "online_payment_refunds.online_payment_id",
      "online_payment_refunds.amount",
      "online_payment_refunds.state",
      "online_payment_refunds.detail",
      "online_payment_refunds.created_at",
      "jobs.state as job_state",
    ])
    .where(
      "online_payment_refunds.online_payment_id",
      "in",
      rows.map((row) => Number(row.id)),
    )
    .orderBy("online_payment_refunds.id", "desc")
    .execute();
  const byPayment = new Map<number, QueuedRefund[]>();
  for (const refund of refunds) {
    const list = byPayment.get(Number(refund.online_payment_id)) ?? [];
    if (list.length >= REFUNDS_SHOWN) continue;
    const gaveUp = refund.state === "asked" && refund.job_state === "dead";
    list.push({
      id: Number(refund.id),
      amount: Number(refund.amount),
      state: gaveUp ? "failed" : (refund.state as RefundRowView),
      detail: gaveUp ? "unavailable" : refund.detail,
      createdAt: refund.created_at,
    });
    byPayment.set(Number(refund.online_payment_id), list);
  }
  const result: Record<number, QueuedOnlinePayment> = {};
  for (const row of rows)
    result[Number(row.top_up_request_id)] = {
      id: Number(row.id),
      provider: row.provider as ProviderCode,
      providerRef: row.provider_ref,
      captureRef: row.capture_ref,
      state: row.state as OnlinePaymentState,
      problem: row.problem as PaymentProblem | null,
      amount: Number(row.amount),
      currency: row.currency,
      paidAmount: row.paid_amount === null ? null : Number(row.paid_amount),
      paidCurrency: row.paid_currency,
      refundedAmount: Number(row.refunded_amount),
      // As the refund's step reckons it: the coins credited, else those asked.
      creditedCents:
        row.state === "paid" || row.state === "refunded"
          ? Number(row.credited_coins ?? row.coins) * 100
          : 0,
      balanceCents: Number(row.coin_balance_cents),
      refunds: byPayment.get(Number(row.id)) ?? [],
    };
  return result;
}
