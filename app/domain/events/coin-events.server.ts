import type { LedgerReason } from "~/domain/coins/ledger-reason";
import type { DocumentRef } from "~/domain/mail/mail-events";
import { mailedReason, type ReactionTable } from "./reaction.server";

export type CoinsEvent = {
  /** An admin (or a ticket's coin purchase) changed a balance by `appliedCents` of `requestedCents`. */
  type: "coins.adjusted";
  actorId: string;
  userId: string;
  /** The change's idempotency key, when it has one: its mail is told once per key. */
  key?: string;
  requestedCents: number;
  appliedCents: number;
  balanceBeforeCents: number;
  balanceCents: number;
  /** The admin's words, or a catalogue message (a ticket's purchase). */
  reason: string | LedgerReason;
  /** Where the notice leads (the billing tab by default). */
  link?: string;
  /** The payment receipt a credit that is a payment was given. */
  receipt?: DocumentRef;
};

/** What follows an admin's change to a balance. */
export const coinReactions: ReactionTable<CoinsEvent> = {
  "coins.adjusted": {
    audit: (event) => ({
      actorId: event.actorId,
      action: "coins.adjust",
      targetType: "user",
      targetId: event.userId,
      before: { balanceCents: event.balanceBeforeCents },
      after: {
        balanceCents: event.balanceCents,
        requestedCents: event.requestedCents,
        appliedCents: event.appliedCents,
        ...(event.receipt ? { receipt: event.receipt.number } : {}),
      },
      reason: mailedReason(event.reason).reason,
    }),
    notice: (event) => ({
      userId: event.userId,
      kind: event.appliedCents > 0 ? "coins_added" : "coins_removed",
      params: { amountCents: Math.abs(event.appliedCents), balanceCents: event.balanceCents },
      link: event.link ?? "/dashboard/billing",
    }),
    mail: (event) => ({
      kind: "coinsChanged",
      eventKey: event.key,
      userId: event.userId,
      amountCents: event.appliedCents,
      balanceCents: event.balanceCents,
      reason: mailedReason(event.reason),
      document: event.receipt,
    }),
  },
};
