import type { LedgerReason } from "~/domain/coins/ledger-reason";
import type { DocumentRef } from "~/domain/mail/mail-events";
import { TOP_UP_PAGE, topUpQueuePath } from "~/domain/payments/top-ups";
import { mailedReason, type Change, type ReactionTable } from "./reaction.server";

/** A top-up request as its events carry it: who asked, its reference and the coins asked. */
interface TopUpRef {
  id: number;
  userId: string;
  reference: string;
  methodName: string;
  /** The coins it asked for, and what the request credits (`creditCents`). */
  coins: number;
  creditCents: number;
}

export type TopUpEvent =
  /** The customer says they paid (the proofs attached): the staff are told, once per request. */
  | { type: "topUp.paid"; request: TopUpRef }
  /**
   * An admin credited `coins` for the request, with its payment receipt; or the system (`actorId`
   * null), when the request's online payment was confirmed by its provider.
   */
  | {
      type: "topUp.approved";
      actorId: string | null;
      request: TopUpRef;
      change: Change;
      coins: number;
      balanceCents: number;
      /** The ledger entry's key: the coins mail is told once per credit. */
      ledgerKey: string;
      reason: LedgerReason;
      receipt: DocumentRef;
    }
  | { type: "topUp.rejected"; actorId: string; request: TopUpRef; change: Change; reason: string }
  /**
   * Money of a paid online top-up went back to the customer through its provider (an admin's refund,
   * or a refund or reversal the provider reported: `actorId` null): the credit note, and the coins
   * taken back down to 0 (`shortCents`: what the balance could not give back).
   */
  | {
      type: "topUp.refunded";
      actorId: string | null;
      request: TopUpRef;
      paymentId: number;
      provider: string;
      /** Minor units of `currency` given back by this refund, and by all of them so far. */
      refunded: number;
      refundedTotal: number;
      currency: string;
      takenBackCents: number;
      shortCents: number;
      balanceCents: number;
      creditNote: DocumentRef;
    };

/** What follows a top-up's payment, approval and rejection. */
export const topUpReactions: ReactionTable<TopUpEvent> = {
  "topUp.paid": {
    staffPost: ({ request }) => ({
      kind: "topUpPaid",
      requestId: request.id,
      reference: request.reference,
      method: request.methodName,
      amountCents: request.creditCents,
    }),
  },
  "topUp.approved": {
    audit: ({ actorId, request, change }) => ({
      actorId,
      action: "top_up.approve",
      targetType: "top_up_request",
      targetId: request.id,
      ...change,
    }),
    notice: ({ request, coins }) => ({
      userId: request.userId,
      kind: "top_up_approved",
      params: { reference: request.reference, amountCents: coins * 100 },
      link: TOP_UP_PAGE,
    }),
    // The coins mail says the reference (its reason) and links the receipt (docs/mail.md).
    mail: ({ request, coins, balanceCents, ledgerKey, reason, receipt }) => ({
      kind: "coinsChanged",
      eventKey: ledgerKey,
      userId: request.userId,
      amountCents: coins * 100,
      balanceCents,
      reason: mailedReason(reason),
      document: { kind: receipt.kind, number: receipt.number, totalCents: receipt.totalCents },
    }),
  },
  "topUp.refunded": {
    audit: ({
      actorId,
      request,
      paymentId,
      provider,
      refunded,
      refundedTotal,
      currency,
      ...rest
    }) => ({
      actorId,
      action: "top_up.refund",
      targetType: "top_up_request",
      targetId: request.id,
      after: {
        paymentId,
        provider,
        refunded,
        refundedTotal,
        currency,
        takenBackCents: rest.takenBackCents,
        shortCents: rest.shortCents,
        creditNote: rest.creditNote.number,
      },
    }),
    notice: ({ request, takenBackCents }) => ({
      userId: request.userId,
      kind: "top_up_refunded",
      params: { reference: request.reference, amountCents: takenBackCents },
      link: TOP_UP_PAGE,
    }),
    // Each admin is told, a reversal or dispute above all (the provider took the money back).
    staffNotice: ({ request, paymentId, refundedTotal, takenBackCents, shortCents }) => ({
      kind: shortCents > 0 ? "top_up_refund_short" : "top_up_refund_recorded",
      params: {
        reference: request.reference,
        amountCents: shortCents > 0 ? shortCents : takenBackCents,
      },
      link: topUpQueuePath(request.reference),
      dedupeKey: `top-up-refunded:${paymentId}:${refundedTotal}`,
    }),
  },
  "topUp.rejected": {
    audit: ({ actorId, request, change, reason }) => ({
      actorId,
      action: "top_up.reject",
      targetType: "top_up_request",
      targetId: request.id,
      ...change,
      reason,
    }),
    notice: ({ request, reason }) => ({
      userId: request.userId,
      kind: "top_up_rejected",
      params: { reference: request.reference, reason },
      link: TOP_UP_PAGE,
    }),
    mail: ({ request, reason }) => ({
      kind: "topUpRejected",
      requestId: request.id,
      userId: request.userId,
      reference: request.reference,
      coins: request.coins,
      reason,
    }),
  },
};
