import { writeLedgerEntry } from "~/domain/coins/coins.server";
import { ledgerReason } from "~/domain/coins/ledger-reason";
import { record } from "~/domain/events/events.server";
import { issuePaymentReceipt } from "~/domain/invoices/issuing.server";
import { refuse, type Tx } from "~/db/transaction";
import { auditView, topUpRef, type TopUpResult } from "./top-up-rows.server";
import type { TopUpRequest } from "./top-ups";

// The credit of a top-up request (docs/payments.md#exactly-once): the one step that turns a request
// moved to approved into coins, whoever confirmed the money arrived.

/** The key of the one ledger credit an approved request gets (unique in the ledger). */
export function topUpLedgerKey(requestId: number): string {
  return `top-up:${requestId}`;
}

/**
 * Step: credits `coins` for the request `before` → `after`, in the transaction that moved it out of
 * its open state (that conditional move is the first guard of exactly once; the ledger's unique
 * `topUpLedgerKey` the last). It writes the ledger entry, the payment receipt naming it, and the
 * `topUp.approved` event (the audit entry, the customer's notification and coins mail). An admin's
 * approval calls it, and so does the confirmation of an online payment (online-payment-confirm.server.ts),
 * after its own move, with the system as the actor. A credit past
 * the balance limit is refused, and with it the whole transaction.
 */
export async function creditTopUp(
  trx: Tx,
  input: {
    /** The admin who approved; null for the system (an online payment its provider confirmed). */
    actorId: string | null;
    before: TopUpRequest;
    after: TopUpRequest;
    coins: number;
    /** Paid online: the provider, its reference of the capture, and what it took (minor units). */
    online?: { provider: string; captureRef: string | null; amount: number; currency: string };
  },
): Promise<{ balanceCents: number }> {
  const { actorId, before, after, coins, online } = input;
  const reason = ledgerReason("topUp", {
    reference: before.reference,
    method: before.methodName,
  });
  const posted = await writeLedgerEntry(trx, {
    userId: before.userId,
    amountCents: coins * 100,
    kind: "coin_purchase",
    reason,
    actorId,
    idempotencyKey: topUpLedgerKey(before.id),
  });
  if (posted === null) refuse<TopUpResult>("conflict", "payments.errors.balanceTooHigh");
  const balance = posted.balanceCents;
  // The payment receipt (its own series, no VAT: ADR 36), in the transaction that credits the coins:
  // a request has its receipt if and only if it has its credit.
  const receipt = await issuePaymentReceipt(trx, {
    userId: before.userId,
    amountCents: coins * 100,
    ledgerEntryId: posted.entryId,
    reference: before.reference,
    method: before.methodName,
    // The money as the customer sent it, beside the coins (docs/invoices.md).
    paid: online
      ? {
          currency: online.currency,
          sent: online.amount,
          asked: before.coins,
          provider: online.provider,
          providerRef: online.captureRef ?? undefined,
        }
      : {
          currency: before.currency,
          sent: before.total,
          asked: before.coins,
          payer: before.payerAccount ?? undefined,
          paidOn: before.paidOn ?? undefined,
        },
    actorId,
  });
  await record(trx, {
    type: "topUp.approved",
    actorId,
    request: topUpRef(before),
    change: { before: auditView(before), after: auditView(after) },
    coins,
    balanceCents: balance,
    ledgerKey: topUpLedgerKey(before.id),
    reason,
    receipt,
  });
  return { balanceCents: balance };
}
