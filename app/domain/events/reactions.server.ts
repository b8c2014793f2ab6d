import { recordAudit, type AuditEntry } from "~/domain/audit/audit.server";
import { englishLedgerReason } from "~/domain/coins/ledger-reason";
import { queueStaffPost, type StaffNews } from "~/domain/jobs/staff-posts.server";
import { queueMail, type MailEvent } from "~/domain/mail/mail.server";
import { notify } from "~/domain/notifications/notifications.server";
import type { Tx } from "~/db/transaction";
import type { DomainEvent } from "./events.server";

/** A customer's notice, as `notify` writes it. */
type Notice = Parameters<typeof notify>[1];

/**
 * What follows one kind of event, each sink a function of the event: the audit row, the customer's
 * notice, their mail, and the staff's post (each admin's notice and the Discord post). The stored names
 * (audit actions, notification kinds, mail kinds) are the ones written before events existed.
 */
interface Reactions<E> {
  audit?: (event: E) => AuditEntry;
  notice?: (event: E) => Notice;
  mail?: (event: E) => MailEvent;
  staffPost?: (event: E) => StaffNews;
}

type Of<T extends DomainEvent["type"]> = Extract<DomainEvent, { type: T }>;

/** Where a customer follows their top-up request. */
const TOP_UP_PAGE = "/dashboard/top-up";

/** A ledger reason as the coins mail stores it: the English words and the catalogue key. */
const mailedReason = (reason: Of<"coins.adjusted">["reason"]) =>
  typeof reason === "string"
    ? { reason, reasonKey: null, reasonParams: null }
    : { reason: englishLedgerReason(reason), reasonKey: reason.id, reasonParams: reason.params };

/** The table: every event's reactions, in one place. */
export const REACTIONS: { [T in DomainEvent["type"]]: Reactions<Of<T>> } = {
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
      link: event.link ?? "/dashboard?tab=billing",
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

/** Writes `event`'s reactions in `trx`, in the order the use-cases wrote them: audit, notice, mail, post. */
export async function react(trx: Tx, event: DomainEvent, now?: Date): Promise<void> {
  const reactions = REACTIONS[event.type] as Reactions<DomainEvent>;
  if (reactions.audit) await recordAudit(trx, reactions.audit(event));
  if (reactions.notice) await notify(trx, { ...reactions.notice(event), ...(now ? { now } : {}) });
  if (reactions.mail) await queueMail(trx, reactions.mail(event), now);
  if (reactions.staffPost) await queueStaffPost(trx, reactions.staffPost(event), now);
}
