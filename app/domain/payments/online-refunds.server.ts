import { randomUUID } from "node:crypto";
import { writeLedgerEntry } from "~/domain/coins/coins.server";
import { ledgerReason } from "~/domain/coins/ledger-reason";
import { record } from "~/domain/events/events.server";
import { DOCUMENT_COLUMNS, toDocument } from "~/domain/invoices/documents.server";
import { negatedAmounts, receiptAmounts, PROVIDER_NAMES } from "~/domain/invoices/invoices";
import { issueDocument } from "~/domain/invoices/issuing.server";
import { enqueueJob } from "~/domain/jobs/jobs.server";
import { getSettings } from "~/domain/settings/settings.server";
import { inTransaction, type Db, type Tx } from "~/db/transaction";
import { requireStaffPermission, type StaffForbidden } from "~/domain/staff/staff-actor.server";
import type { FailureKind } from "~/lib/result";
import type { ProviderWiring } from "./online-checkout.server";
import { failedCall, tellStaff } from "./online-payment-alerts.server";
import { coinsForRefund, refundLedgerKey, REFUND_JOB } from "./online-payments";
import { findOnlinePayment, paymentRefOf, providerOf } from "./online-payment-rows.server";
import { readProviderConfig } from "./providers/provider-config.server";
import { topUpLedgerKey } from "./top-up-credit.server";
import { findRequest, topUpRef } from "./top-up-rows.server";

// Money of an online top-up given back (docs/online-payments.md#refunds-and-reversals): the admin's
// refund, which the provider makes (`payments.refund`), and the refunds and reversals the provider
// reports. Both end in one step, `recordProviderRefunds`, which follows the provider's running total:
// a credit note, the coins taken back down to 0 and no further, `topUp.refunded`.

export type RefundRefusal =
  | "payments.errors.adminOnly"
  | "payments.errors.paymentNotFound"
  | "payments.errors.notRefundable"
  | "payments.errors.refundTooLarge"
  | "payments.errors.refundInProgress";

export type RefundAsked =
  | { ok: true; jobId: number }
  | { ok: false; kind: FailureKind; error: RefundRefusal }
  /** A member of the staff whose role does not refund. */
  | StaffForbidden;

/** What `payments.refund` carries: the idempotency key is made once, so a retry is the same refund. */
export interface RefundPayload {
  paymentId: number;
  amount: number;
  adminId: string;
  key: string;
  /** The admin's refund row it settles (`online_payment_refunds`; absent in jobs queued before it). */
  refundId?: number;
}

/** Where an admin's refund ended, as its row keeps it (migration 0050). */
export type RefundRowState = "asked" | "pending" | "refunded" | "refused" | "manual" | "failed";

/** Step: an admin's refund row moved to where the provider's answer left it. */
async function settleRefund(
  db: Db | Tx,
  refundId: number | undefined,
  state: Exclude<RefundRowState, "asked">,
  now: Date,
  detail?: string | null,
): Promise<void> {
  if (refundId === undefined) return;
  await db
    .updateTable("online_payment_refunds")
    .set({ state, detail: detail?.slice(0, 500) ?? null, updated_at: now.toISOString() })
    .where("id", "=", refundId)
    .where("state", "in", ["asked", "pending", "manual"])
    .execute();
}

/**
 * An admin asks for `amount` minor units of a paid online payment back to the customer: queued as
 * `payments.refund` (one at a time a payment), which the provider makes. Refused: not a member of the
 * staff (`adminOnly`) or one whose role does not hold `invoices.refund`, not a paid payment, more than
 * was paid and not yet refunded. The refund job then runs as the system: the decision was made here.
 */
export async function refundOnlinePayment(
  db: Db,
  input: { adminId: string; paymentId: number; amount: number; now?: Date },
): Promise<RefundAsked> {
  const refused = (kind: FailureKind, error: RefundRefusal): RefundAsked => ({
    ok: false,
    kind,
    error,
  });
  return inTransaction(db, async (trx): Promise<RefundAsked> => {
    await requireStaffPermission(trx, input.adminId, "invoices.refund", {
      notStaff: { ok: false, kind: "forbidden", error: "payments.errors.adminOnly" },
    });
    const payment = await findOnlinePayment(trx, input.paymentId);
    if (!payment) return refused("notFound", "payments.errors.paymentNotFound");
    if (payment.state !== "paid") return refused("conflict", "payments.errors.notRefundable");
    const left = (payment.paid_amount ?? payment.amount) - payment.refunded_amount;
    if (!Number.isSafeInteger(input.amount) || input.amount <= 0 || input.amount > left)
      return refused("invalid", "payments.errors.refundTooLarge");
    const at = (input.now ?? new Date()).toISOString();
    // The row the admin's page follows; taken out again when another refund of it is on its way.
    const row = await trx
      .insertInto("online_payment_refunds")
      .values({
        online_payment_id: input.paymentId,
        amount: input.amount,
        asked_by: input.adminId,
        created_at: at,
        updated_at: at,
      })
      .returning("id")
      .executeTakeFirstOrThrow();
    const refundId = Number(row.id);
    const payload: RefundPayload = {
      paymentId: input.paymentId,
      amount: input.amount,
      adminId: input.adminId,
      key: `refund-${input.paymentId}-${randomUUID()}`,
      refundId,
    };
    const jobId = await enqueueJob(trx, {
      type: REFUND_JOB,
      payload,
      uniqueKey: `refund:${input.paymentId}`,
      now: input.now,
    });
    if (jobId === null) {
      await trx.deleteFrom("online_payment_refunds").where("id", "=", refundId).execute();
      return refused("conflict", "payments.errors.refundInProgress");
    }
    await trx
      .updateTable("online_payment_refunds")
      .set({ job_id: jobId })
      .where("id", "=", refundId)
      .execute();
    return { ok: true, jobId };
  });
}

/** The coins taken back from a balance: as many as `wanted`, as far as the balance goes. */
async function takeBack(
  trx: Tx,
  input: { userId: string; wanted: number; reference: string; provider: string; key: string },
): Promise<{ taken: number; balanceCents: number }> {
  for (let attempt = 0; ; attempt++) {
    const user = await trx
      .selectFrom("users")
      .select("coin_balance_cents")
      .where("id", "=", input.userId)
      .executeTakeFirstOrThrow();
    const taken = Math.min(input.wanted, Math.max(user.coin_balance_cents, 0));
    if (taken === 0) return { taken: 0, balanceCents: user.coin_balance_cents };
    const posted = await writeLedgerEntry(trx, {
      userId: input.userId,
      amountCents: -taken,
      kind: "admin_adjustment",
      reason: ledgerReason("topUpRefund", {
        reference: input.reference,
        provider: PROVIDER_NAMES[input.provider] ?? input.provider,
      }),
      actorId: null,
      idempotencyKey: input.key,
    });
    if (posted) return { taken, balanceCents: posted.balanceCents };
    // The balance moved between the read and the debit (a payment at the same moment): read again.
    if (attempt >= 3) throw new Error("The balance kept moving while coins were taken back");
  }
}

/**
 * Step (its own transaction): the provider says `providerTotal` minor units of the payment were given
 * back (by our refund or its own: a dispute, a reversal). What is new since we last recorded
 * (`refunded_amount`) is recorded once: the payment's running total moved conditionally (refunded when
 * whole), the coins it bought taken back in proportion down to 0 and no further (ledger key per total),
 * a credit note of the receipt stating what could not be taken back, and `topUp.refunded`. False when
 * there was nothing new.
 */
export async function recordProviderRefunds(
  db: Db,
  paymentId: number,
  providerTotal: number,
  options: { actorId: string | null; now: Date },
): Promise<boolean> {
  const { now } = options;
  return inTransaction(db, async (trx) => {
    const payment = await findOnlinePayment(trx, paymentId);
    if (!payment || payment.state !== "paid") return false;
    const paid = payment.paid_amount ?? payment.amount;
    const old = payment.refunded_amount;
    const total = Math.min(providerTotal, paid);
    if (total <= old) return false;
    const moved = await trx
      .updateTable("online_payments")
      .set({
        refunded_amount: total,
        state: total >= paid ? "refunded" : "paid",
        updated_at: now.toISOString(),
      })
      .where("id", "=", paymentId)
      .where("state", "=", "paid")
      .where("refunded_amount", "=", old)
      .executeTakeFirst();
    if (Number(moved.numUpdatedRows) !== 1) return false;
    // The refunds the admin was told the provider would finish, or to make in its dashboard, are made.
    await trx
      .updateTable("online_payment_refunds")
      .set({ state: "refunded", updated_at: now.toISOString() })
      .where("online_payment_id", "=", paymentId)
      .where("state", "in", ["pending", "manual"])
      .execute();
    const request = (await findRequest(trx, payment.top_up_request_id))!;
    const credited = (request.creditedCoins ?? request.coins) * 100;
    const wanted = coinsForRefund(credited, paid, total) - coinsForRefund(credited, paid, old);
    const { taken, balanceCents } = await takeBack(trx, {
      userId: request.userId,
      wanted,
      reference: request.reference,
      provider: payment.provider,
      key: refundLedgerKey(paymentId, total),
    });
    const short = wanted - taken;
    const receiptRow = await trx
      .selectFrom("invoices")
      .innerJoin("coin_ledger", "coin_ledger.id", "invoices.ledger_entry_id")
      .select(DOCUMENT_COLUMNS)
      .where("coin_ledger.idempotency_key", "=", topUpLedgerKey(request.id))
      .where("invoices.kind", "=", "receipt")
      .executeTakeFirstOrThrow();
    const receipt = toDocument(receiptRow, { creditsNumber: null, creditedBy: null });
    const { general } = await getSettings(trx);
    // The money went back through the provider, not as coins: a credit note "outside the site", of
    // the coins' worth refunded, which names no ledger row (the coins taken back are their own row).
    const creditNote = await issueDocument(trx, {
      kind: "credit_note",
      userId: request.userId,
      amounts: negatedAmounts(receiptAmounts(wanted)),
      seller: receipt.seller,
      buyer: receipt.buyer,
      lines: [
        {
          kind: "topUp",
          params: {
            reference: request.reference,
            method: request.methodName,
            currency: payment.paid_currency ?? payment.currency,
            refunded: total - old,
            provider: payment.provider,
            // The receipt it corrects, by number: a document is credited by one credit note at most
            // (a unique link), and a payment may be refunded in parts.
            receipt: receipt.number,
            ...(short > 0 ? { shortCents: short } : {}),
          },
          quantity: 1,
          unitCents: -wanted,
          totalCents: -wanted,
        },
      ],
      timeZone: general.timeZone,
      ledgerEntryId: null,
      refundMethod: "outside",
      actorId: options.actorId,
      now,
    });
    await record(
      trx,
      {
        type: "topUp.refunded",
        actorId: options.actorId,
        request: topUpRef(request),
        paymentId,
        provider: payment.provider,
        refunded: total - old,
        refundedTotal: total,
        currency: payment.paid_currency ?? payment.currency,
        takenBackCents: taken,
        shortCents: short,
        balanceCents,
        creditNote: {
          kind: creditNote.kind,
          number: creditNote.number,
          totalCents: creditNote.totalCents,
        },
      },
      now,
    );
    return true;
  });
}

/**
 * `payments.refund`: the provider gives the money back (the same key on a retry, so the same refund),
 * then its running total is recorded. A provider without a refund call (`manual`) has the admin told to
 * refund in its dashboard: its refund notification then records it. A refusal is told to staff.
 */
export async function runRefund(
  db: Db,
  payload: RefundPayload,
  wiring: ProviderWiring & { now: Date },
): Promise<"gone" | "providerError" | "manual" | "pending" | "refused" | "recorded"> {
  const { now } = wiring;
  const payment = await findOnlinePayment(db, payload.paymentId);
  if (!payment || payment.state !== "paid") {
    await settleRefund(db, payload.refundId, "failed", now, "notRefundable");
    return "gone";
  }
  const provider = wiring.providers[providerOf(payment)];
  const config = await readProviderConfig(db, providerOf(payment), { secret: wiring.secret });
  const facts = {
    provider: payment.provider,
    reference: payment.reference,
    paymentId: Number(payment.id),
  };
  if (!provider || !config.ok) {
    await tellStaff(db, "refundRefused", { ...facts, detail: "notConfigured" }, now);
    await settleRefund(db, payload.refundId, "failed", now, "notConfigured");
    return "providerError";
  }
  const ref = paymentRefOf(payment);
  const answer = await provider.refund(config.config, ref, payload.amount, payload.key);
  if (!answer.ok) {
    if (answer.failure === "refused") {
      await tellStaff(db, "refundRefused", { ...facts, detail: answer.detail ?? "refused" }, now);
      await settleRefund(db, payload.refundId, "refused", now, answer.detail ?? null);
      return "refused";
    }
    // A timeout or an outage is thrown (retried, the row still asked); any other failure is final.
    const failed = await failedCall(db, payment, answer, now);
    await settleRefund(db, payload.refundId, "failed", now, answer.failure);
    return failed;
  }
  if (answer.outcome === "manual") {
    await tellStaff(
      db,
      "refundManual",
      { ...facts, detail: `${payload.amount} ${payment.paid_currency ?? payment.currency}` },
      now,
    );
    await settleRefund(db, payload.refundId, "manual", now);
    return "manual";
  }
  if (answer.outcome === "pending") {
    await settleRefund(db, payload.refundId, "pending", now);
    return "pending";
  }
  const state = await provider.lookUp(config.config, ref);
  if (!state.ok) {
    const failed = await failedCall(db, payment, state, now);
    // The provider made the refund; its total is recorded when it is next seen (a notification).
    await settleRefund(db, payload.refundId, "pending", now);
    return failed;
  }
  await recordProviderRefunds(db, payment.id, state.refundedAmount, {
    actorId: payload.adminId,
    now,
  });
  await settleRefund(db, payload.refundId, "refunded", now);
  return "recorded";
}
