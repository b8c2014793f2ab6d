import type { JobHandler } from "~/domain/jobs/jobs.server";
import { enqueueJobs } from "~/domain/jobs/jobs.server";
import type { ScheduleDefinition } from "~/domain/jobs/schedule-slots";
import { inTransaction, type Db } from "~/db/transaction";
import type { ProviderWiring } from "./online-checkout.server";
import { confirmOnlinePayment, type ConfirmPayload } from "./online-payment-confirm.server";
import {
  CONFIRM_JOB,
  confirmKey,
  RECONCILE_AFTER_MS,
  RECONCILE_JOB,
  REFUND_JOB,
} from "./online-payments";
import { runRefund, type RefundPayload } from "./online-refunds.server";

// The online payments' jobs (docs/online-payments.md#where-each-step-runs): the confirmation (the only
// place a provider is asked where a payment stands, and money taken for PayPal), the refund, and the
// reconciliation that asks again about the checkouts left pending.

/**
 * The reconciliation at `now`: a confirmation queued for each payment pending for more than
 * RECONCILE_AFTER_MS (one waiting at a time each); the confirmation closes those left for a day.
 */
export async function reconcileOnlinePayments(db: Db, now: Date): Promise<number> {
  const stale = await db
    .selectFrom("online_payments")
    .select("id")
    .where("state", "=", "pending")
    .where("created_at", "<", new Date(now.getTime() - RECONCILE_AFTER_MS).toISOString())
    .orderBy("created_at")
    .limit(1000)
    .execute();
  if (stale.length === 0) return 0;
  return inTransaction(db, (trx) =>
    enqueueJobs(
      trx,
      stale.map((row) => ({
        type: CONFIRM_JOB,
        payload: { paymentId: Number(row.id) } satisfies ConfirmPayload,
        uniqueKey: confirmKey(Number(row.id)),
        now,
      })),
    ),
  );
}

function isConfirmPayload(value: unknown): value is ConfirmPayload {
  return (
    typeof value === "object" &&
    value !== null &&
    Number.isSafeInteger((value as { paymentId?: unknown }).paymentId)
  );
}

function isRefundPayload(value: unknown): value is RefundPayload {
  const payload = value as Partial<RefundPayload> | null;
  return (
    typeof payload === "object" &&
    payload !== null &&
    Number.isSafeInteger(payload.paymentId) &&
    Number.isSafeInteger(payload.amount) &&
    typeof payload.adminId === "string" &&
    typeof payload.key === "string"
  );
}

/** The handlers, made with the providers and the auth secret their keys are encrypted with. */
export function onlinePaymentHandlers(wiring: ProviderWiring): Record<string, JobHandler> {
  return {
    [CONFIRM_JOB]: async ({ db, now, payload }) => {
      if (!isConfirmPayload(payload)) return { invalid: 1 };
      const outcome = await confirmOnlinePayment(db, payload, { ...wiring, now });
      return { [outcome]: 1 };
    },
    [REFUND_JOB]: async ({ db, now, payload }) => {
      if (!isRefundPayload(payload)) return { invalid: 1 };
      const outcome = await runRefund(db, payload, { ...wiring, now });
      return { [outcome]: 1 };
    },
    [RECONCILE_JOB]: async ({ db, now }) => ({ queued: await reconcileOnlinePayments(db, now) }),
  };
}

export const onlinePaymentSchedules: ScheduleDefinition[] = [
  { name: RECONCILE_JOB, cron: "*/10 * * * *", jobType: RECONCILE_JOB },
];
