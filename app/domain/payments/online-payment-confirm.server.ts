import { record } from "~/domain/events/events.server";
import { inTransaction, type Db, type Tx } from "~/db/transaction";
import type { ProviderWiring } from "./online-checkout.server";
import {
  ABANDON_AFTER_MS,
  verdictOf,
  type PaymentProblem,
  type ProviderVerdict,
} from "./online-payments";
import {
  cancelRequestOf,
  findOnlinePayment,
  movePayment,
  paymentRefOf,
  providerOf,
  settleNotifications,
  type OnlinePaymentRow,
} from "./online-payment-rows.server";
import { failedCall, tellStaff } from "./online-payment-alerts.server";
import { recordProviderRefunds } from "./online-refunds.server";
import type { LookUpResult, PaymentProvider, ProviderConfig } from "./providers/provider";
import { readProviderConfig } from "./providers/provider-config.server";
import { creditTopUp } from "./top-up-credit.server";
import { findRequest } from "./top-up-rows.server";

// The confirming job's work (docs/online-payments.md#exactly-once): the provider's word on a payment,
// asked by our job alone (never by a page, never trusted from a notification), and what it changes. A
// credit is one transaction: the payment's conditional move, the request's, and creditTopUp's ledger
// entry under the unique key `top-up:<request id>`, so a return, a notification and the reconciliation
// arriving together, or a job run twice, credit once.

type Payment = OnlinePaymentRow & { reference: string };

/** What `payments.confirm` carries: the payment, and what asked (a notification, a return's hint). */
export interface ConfirmPayload {
  paymentId: number;
  notificationId?: number;
  captureHint?: string | null;
  cancelled?: boolean;
}

/**
 * The notifications about the payment still waiting, checked with the provider when its signature
 * needs a call (PayPal's). A forged one is marked `badSignature` and told to staff. Says whether the
 * one that asked for this job (if any) is forged: then nothing else is done.
 */
async function verifyWaiting(
  db: Db,
  payment: Payment,
  provider: PaymentProvider,
  config: ProviderConfig,
  askedBy: number | undefined,
  now: Date,
): Promise<"forged" | "ok" | "providerError"> {
  const waiting = await db
    .selectFrom("provider_notifications")
    .select(["id", "headers", "body"])
    .where("online_payment_id", "=", Number(payment.id))
    .where("outcome", "=", "queued")
    .orderBy("id")
    .execute();
  let forged = false;
  for (const notification of waiting) {
    let headers: Record<string, string>;
    try {
      headers = JSON.parse(notification.headers) as Record<string, string>;
    } catch {
      headers = {};
    }
    const answer = await provider.verifyNotification(config, headers, notification.body);
    if (!answer.ok) {
      await failedCall(db, payment, answer, now);
      return "providerError";
    }
    if (answer.valid) continue;
    if (Number(notification.id) === askedBy) forged = true;
    await inTransaction(db, async (trx) => {
      await trx
        .updateTable("provider_notifications")
        .set({ outcome: "badSignature", handled_at: now.toISOString() })
        .where("id", "=", Number(notification.id))
        .execute();
      await tellStaff(
        trx,
        "badSignature",
        { provider: payment.provider, detail: `notification #${notification.id}` },
        now,
      );
    });
  }
  return forged ? "forged" : "ok";
}

/** The provider's word, asked with the return's hint first; a hint that names another payment is dropped. */
async function lookUp(
  provider: PaymentProvider,
  config: ProviderConfig,
  payment: Payment,
  hint: string | null | undefined,
): Promise<LookUpResult> {
  const hinted = !payment.capture_ref && hint;
  const answer = await provider.lookUp(config, paymentRefOf(payment, hinted ? hint : null));
  if (hinted && (!answer.ok || answer.reference !== payment.reference))
    return provider.lookUp(config, paymentRefOf(payment));
  return answer;
}

/**
 * Step: the credit of a payment the provider says is paid, as asked: the payment moved to paid (from
 * pending, or from cancelled or failed, where the provider wins and staff are told), the request moved
 * out of its open (or cancelled) state to approved, and creditTopUp with the system as the actor. False
 * when another confirmation credited it first.
 */
async function creditPayment(
  trx: Tx,
  payment: Payment,
  verdict: Extract<ProviderVerdict, { kind: "credit" }>,
  now: Date,
): Promise<boolean> {
  const at = now.toISOString();
  const moved = await trx
    .updateTable("online_payments")
    .set({
      state: "paid",
      problem: null,
      capture_ref: verdict.captureRef,
      paid_amount: verdict.amount,
      paid_currency: verdict.currency,
      settled_at: at,
      updated_at: at,
    })
    .where("id", "=", Number(payment.id))
    .where((eb) =>
      eb.or([
        eb("state", "=", "pending"),
        eb.and([
          eb("state", "in", ["cancelled", "failed"]),
          eb.or([eb("problem", "is", null), eb("problem", "!=", "mismatch")]),
        ]),
      ]),
    )
    .executeTakeFirst();
  if (Number(moved.numUpdatedRows) !== 1) return false;
  const requestId = payment.top_up_request_id;
  const before = (await findRequest(trx, requestId))!;
  const approved = await trx
    .updateTable("top_up_requests")
    .set({ state: "approved", decided_at: at, decided_by: null, updated_at: at })
    .where("id", "=", requestId)
    .where("state", "in", ["waiting_payment", "proof_sent", "cancelled"])
    .executeTakeFirst();
  if (Number(approved.numUpdatedRows) !== 1) {
    // An admin decided the request by hand meanwhile: the money is recorded, nothing credited twice.
    await trx
      .updateTable("online_payments")
      .set({ problem: "requestClosed" satisfies PaymentProblem })
      .where("id", "=", Number(payment.id))
      .execute();
    await tellStaff(
      trx,
      "requestClosed",
      {
        provider: payment.provider,
        reference: payment.reference,
        paymentId: Number(payment.id),
        detail: before.state,
      },
      now,
    );
    await settleNotifications(trx, Number(payment.id), "applied", now);
    return true;
  }
  const after = (await findRequest(trx, requestId))!;
  await creditTopUp(trx, {
    actorId: null,
    before,
    after,
    coins: before.coins,
    online: {
      provider: payment.provider,
      captureRef: verdict.captureRef,
      amount: verdict.amount,
      currency: verdict.currency,
    },
  });
  if (payment.state !== "pending")
    await record(
      trx,
      {
        type: "onlinePayment.lateCredit",
        provider: payment.provider,
        reference: payment.reference,
        paymentId: Number(payment.id),
        coins: before.coins,
      },
      now,
    );
  await settleNotifications(trx, Number(payment.id), "applied", now);
  return true;
}

/** Step: closes a pending payment (failed or cancelled at the provider, or left) and its request. */
async function closePayment(
  trx: Tx,
  payment: Payment,
  to: "failed" | "cancelled",
  problem: PaymentProblem | null,
  now: Date,
): Promise<boolean> {
  const moved = await movePayment(trx, Number(payment.id), ["pending"], to, { problem, now });
  if (moved) await cancelRequestOf(trx, payment.top_up_request_id, now);
  await settleNotifications(trx, Number(payment.id), "applied", now);
  return moved;
}

export type ConfirmOutcome =
  | "gone"
  | "forged"
  | "providerError"
  | "waiting"
  | "credited"
  | "alreadyDone"
  | "mismatch"
  | "failed"
  | "cancelled"
  | "refundsAligned";

/**
 * `payments.confirm`: asks the provider where the payment stands and brings ours in line, idempotent
 * whatever runs it and however often. Throws on a provider's timeout or outage (the worker retries:
 * PayPal's capture key keeps a retry from capturing twice).
 */
export async function confirmOnlinePayment(
  db: Db,
  payload: ConfirmPayload,
  wiring: ProviderWiring & { now: Date },
): Promise<ConfirmOutcome> {
  const outcome = await confirm(db, payload, wiring);
  // Once the provider was asked, every notification still waiting on this payment has been answered,
  // whichever confirmation moved the payment: one that came after the credit (the return was first)
  // is as applied as the one that caused it. A refused signature, a failed call or a vanished payment
  // leave them for the next confirmation.
  if (SETTLED_OUTCOMES.has(outcome))
    await inTransaction(db, (trx) =>
      settleNotifications(trx, payload.paymentId, "applied", wiring.now),
    );
  return outcome;
}

const SETTLED_OUTCOMES: ReadonlySet<ConfirmOutcome> = new Set([
  "waiting",
  "credited",
  "alreadyDone",
  "mismatch",
  "failed",
  "cancelled",
  "refundsAligned",
]);

async function confirm(
  db: Db,
  payload: ConfirmPayload,
  wiring: ProviderWiring & { now: Date },
): Promise<ConfirmOutcome> {
  const { now } = wiring;
  const payment = await findOnlinePayment(db, payload.paymentId);
  if (!payment) return "gone";
  const provider = wiring.providers[providerOf(payment)];
  const config = await readProviderConfig(db, providerOf(payment), { secret: wiring.secret });
  if (!provider || !config.ok) {
    await tellStaff(
      db,
      "providerError",
      { provider: payment.provider, detail: config.ok ? "noClient" : config.problem },
      now,
    );
    return "providerError";
  }
  const checked = await verifyWaiting(
    db,
    payment,
    provider,
    config.config,
    payload.notificationId,
    now,
  );
  if (checked !== "ok") return checked;
  if (payment.state === "refunded" || payment.problem === "mismatch") {
    await inTransaction(db, (trx) => settleNotifications(trx, Number(payment.id), "applied", now));
    return "alreadyDone";
  }
  const old = now.getTime() - new Date(payment.created_at).getTime() > ABANDON_AFTER_MS;
  if (!payment.provider_ref) {
    // The start never reached the provider, or its answer was lost: nothing can have been taken, since
    // the customer was never sent anywhere. Closed once the day has passed.
    if (payment.state !== "pending" || !old) return "waiting";
    await inTransaction(db, (trx) => closePayment(trx, payment, "cancelled", "abandoned", now));
    return "cancelled";
  }
  const answer = await lookUp(provider, config.config, payment, payload.captureHint);
  if (!answer.ok) return failedCall(db, payment, answer, now);
  const verdict = verdictOf(payment, answer);
  const paid = payment.state === "paid";
  switch (verdict.kind) {
    case "credit": {
      if (!paid) {
        const credited = await inTransaction(db, (trx) =>
          creditPayment(trx, payment, verdict, now),
        );
        if (answer.refundedAmount > 0)
          await recordProviderRefunds(db, payment.id, answer.refundedAmount, {
            actorId: null,
            now,
          });
        return credited ? "credited" : "alreadyDone";
      }
      const aligned = await recordProviderRefunds(db, payment.id, answer.refundedAmount, {
        actorId: null,
        now,
      });
      return aligned ? "refundsAligned" : "alreadyDone";
    }
    case "refunded": {
      if (paid) {
        const total =
          answer.refundedAmount > 0 ? answer.refundedAmount : (payment.paid_amount ?? 0);
        await recordProviderRefunds(db, payment.id, total, { actorId: null, now });
        return "refundsAligned";
      }
      if (payment.state !== "pending") return "alreadyDone";
      await inTransaction(db, (trx) =>
        closePayment(trx, payment, "cancelled", "refundedBeforeCredit", now),
      );
      return "cancelled";
    }
    case "mismatch": {
      if (paid) return "alreadyDone";
      await inTransaction(db, async (trx) => {
        const moved = await movePayment(
          trx,
          Number(payment.id),
          ["pending", "cancelled", "failed"],
          "failed",
          { problem: "mismatch", now },
        );
        if (!moved) return;
        await cancelRequestOf(trx, payment.top_up_request_id, now);
        await settleNotifications(trx, Number(payment.id), "mismatch", now, verdict.detail);
        await tellStaff(
          trx,
          "mismatch",
          {
            provider: payment.provider,
            reference: payment.reference,
            paymentId: Number(payment.id),
            detail: verdict.detail,
          },
          now,
        );
      });
      return "mismatch";
    }
    case "failed":
    case "cancelled": {
      if (payment.state !== "pending") return "alreadyDone";
      const to = verdict.kind;
      await inTransaction(db, (trx) =>
        closePayment(trx, payment, to, to === "failed" ? "declined" : null, now),
      );
      return to;
    }
    default: {
      // Pending there: the customer came back through the cancel address, or the day passed with
      // nothing taken: closed. Otherwise the reconciliation asks again.
      if (payment.state === "pending" && (payload.cancelled || (old && !answer.captureRef))) {
        const problem = payload.cancelled ? "cancelledByCustomer" : "abandoned";
        await inTransaction(db, (trx) => closePayment(trx, payment, "cancelled", problem, now));
        return "cancelled";
      }
      await inTransaction(db, (trx) =>
        settleNotifications(trx, Number(payment.id), "applied", now),
      );
      return "waiting";
    }
  }
}
