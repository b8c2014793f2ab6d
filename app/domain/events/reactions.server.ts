import { recordAudit, type AuditEntry } from "~/domain/audit/audit.server";
import { englishLedgerReason } from "~/domain/coins/ledger-reason";
import { queueStaffPost, type StaffNews } from "~/domain/jobs/staff-posts.server";
import { queueMail, type MailEvent } from "~/domain/mail/mail.server";
import { notify } from "~/domain/notifications/notifications.server";
import { queuePanelSync, type PanelLink } from "~/domain/provisioning/provisioning.server";
import { serviceLabel } from "~/domain/hosting-services/hosting-services";
import type { Tx } from "~/db/transaction";
import type { Settings } from "~/domain/settings/settings";
import type { DomainEvent } from "./events.server";

/** A customer's notice, as `notify` writes it. */
type Notice = Parameters<typeof notify>[1];

/** None, one or several of a sink's writes. */
type Some<T> = T | readonly T[] | null;

/**
 * What follows one kind of event, each sink a function of the event (none, one or several writes): the
 * game panel's sync job, the audit row, the customer's notice, their mail, and the staff's post (each
 * admin's notice and the Discord post). The stored names (audit actions, notification kinds, mail
 * kinds) are the ones written before events existed.
 */
interface Reactions<E> {
  panelSync?: (event: E) => PanelLink | null;
  audit?: (event: E) => Some<AuditEntry>;
  notice?: (event: E) => Some<Notice>;
  mail?: (event: E) => Some<MailEvent>;
  staffPost?: (event: E) => StaffNews;
}

const all = <T>(some: Some<T>): readonly T[] =>
  some === null ? [] : Array.isArray(some) ? some : [some as T];

/** Where a customer follows their services. */
const SERVICES_TAB = "/dashboard?tab=services";

type Of<T extends DomainEvent["type"]> = Extract<DomainEvent, { type: T }>;

/** Where a customer follows their top-up request. */
const TOP_UP_PAGE = "/dashboard/top-up";

/** A ledger reason as the coins mail stores it: the English words and the catalogue key. */
const mailedReason = (reason: Of<"coins.adjusted">["reason"]) =>
  typeof reason === "string"
    ? { reason, reasonKey: null, reasonParams: null }
    : { reason: englishLedgerReason(reason), reasonKey: reason.id, reasonParams: reason.params };

/** An order's plan and server, as every notice and mail names a service (`serviceLabel`). */
const orderLabel = (order: Of<"order.placed">["order"]) =>
  serviceLabel({ name: order.productName, serverName: order.serverName });

/** The table: every event's reactions, in one place. */
export const REACTIONS: { [T in DomainEvent["type"]]: Reactions<Of<T>> } = {
  "ticket.opened": {
    // Each admin's "new ticket" mail with its subject and first lines, or the window's summary
    // (docs/mail.md).
    mail: ({ ticketId, department, subject, message, summary }) => ({
      kind: "ticketOpened",
      ticketId,
      department,
      ...(summary ? { summary } : {}),
      subject,
      message,
    }),
    // Each admin's notification, and the staff's Discord (when set): its number and department,
    // nothing the customer wrote; or the window's summary post.
    staffPost: ({ ticketId, department, summary }) => ({
      kind: "ticketOpened",
      ticketId,
      department,
      ...(summary ? { summary } : {}),
    }),
  },
  "ticket.customerReplied": {
    mail: ({ ticketId, department, subject, message, replyKey, summary }) => ({
      kind: "ticketCustomerReplied",
      ticketId,
      department,
      subject,
      message,
      replyKey,
      ...(summary ? { summary } : {}),
    }),
  },
  "ticket.answered": {
    notice: ({ ticketId, userId, subject }) => ({
      userId,
      kind: "ticket_answered",
      params: { id: ticketId, subject },
      link: `/support/${ticketId}`,
    }),
    mail: ({ ticketId, userId, subject, reply, replyKey }) => ({
      kind: "ticketAnswered",
      ticketId,
      userId,
      subject,
      reply,
      replyKey,
    }),
  },
  "ticket.fieldChanged": {
    audit: ({ actorId, ticketId, field, change }) => ({
      actorId,
      action: field === "status" ? "ticket.status" : "ticket.priority",
      targetType: "ticket",
      targetId: ticketId,
      ...change,
    }),
  },
  "order.placed": {
    // The customer's "order received" and each admin's "order waiting" (docs/mail.md).
    mail: ({ order, totalCents }) => ({
      kind: "orderReceived",
      orderId: order.id,
      userId: order.userId,
      product: orderLabel(order),
      totalCents,
    }),
    // Every new order waits for an admin's approval: the staff's Discord hears of it (when set), told
    // the plan alone (nothing the customer wrote); the admins' notifications name it as their mail does.
    staffPost: ({ order, totalCents }) => ({
      kind: "orderWaiting",
      orderId: order.id,
      product: order.productName,
      service: orderLabel(order),
      totalCents,
    }),
  },
  "order.approved": {
    audit: ({ actorId, order, serviceId, expiresAt }) => ({
      actorId,
      action: "order.approve",
      targetType: "order",
      targetId: order.id,
      before: { status: "pending" },
      after: { status: "approved", hostingServiceId: serviceId, expiresAt },
    }),
    notice: ({ order }) => ({
      userId: order.userId,
      kind: "order_approved",
      params: { id: order.id, product: orderLabel(order) },
      link: SERVICES_TAB,
    }),
    // Approved is not ready: a server made on the panel is mailed again once installed (serviceReady).
    mail: ({ order, setup }) => ({
      kind: "orderApproved",
      orderId: order.id,
      userId: order.userId,
      product: orderLabel(order),
      setup,
    }),
  },
  "order.rejected": {
    audit: ({ actorId, order, reason, totalCents, expired }) => ({
      actorId,
      action: expired ? "order.expire" : "order.reject",
      targetType: "order",
      targetId: order.id,
      before: { status: "pending" },
      after: { status: "rejected", refundedCents: totalCents },
      reason,
    }),
    notice: ({ order, reason, expired }): Notice =>
      expired
        ? {
            userId: order.userId,
            kind: "order_expired",
            params: { id: order.id, product: orderLabel(order), count: expired.days },
            link: "/dashboard?tab=billing",
          }
        : {
            userId: order.userId,
            kind: "order_rejected",
            params: { id: order.id, product: orderLabel(order), reason },
            link: "/dashboard?tab=billing",
          },
    mail: ({ order, reason, refundCents, expired, creditNote }) => ({
      kind: "orderRejected",
      orderId: order.id,
      userId: order.userId,
      product: orderLabel(order),
      reason,
      refundCents,
      // The lifecycle's reason is the audit log's English: the message says it in the reader's words.
      expiredDays: expired?.days,
      // The credit note, named and linked in the same message (docs/mail.md#documents-and-top-ups).
      document: creditNote && {
        kind: creditNote.kind,
        number: creditNote.number,
        totalCents: creditNote.totalCents,
      },
    }),
  },
  "service.added": {
    audit: ({ actorId, service }) => ({
      actorId,
      action: "service.add",
      targetType: "hosting_service",
      targetId: service.id,
      after: service,
    }),
  },
  "service.statusChanged": {
    panelSync: ({ panel }) => panel,
    audit: (event) => ({
      actorId: event.actorId,
      action: `service.${event.action}`,
      targetType: "hosting_service",
      targetId: event.service.id,
      before: { status: event.from },
      after: { status: event.to },
      reason: event.reason,
    }),
    notice: ({ action, service }) =>
      action === "terminate"
        ? null
        : {
            userId: service.userId,
            kind: action === "suspend" ? "service_suspended" : "service_reactivated",
            params: { service: serviceLabel(service) },
            link: SERVICES_TAB,
          },
    // Stopped or ended by an admin: the customer is told by mail too (docs/mail.md); a reactivation
    // is in their list only.
    mail: ({ action, service, at }) => {
      const mailed = {
        userId: service.userId,
        serviceId: service.id,
        service: serviceLabel(service),
      };
      if (action === "suspend")
        return { kind: "serviceSuspended", ...mailed, suspendedAt: at, reason: "admin" };
      if (action === "terminate") return { kind: "serviceTerminated", ...mailed, reason: "admin" };
      return null;
    },
  },
  "service.edited": {
    audit: ({ actorId, serviceId, change }) => ({
      actorId,
      action: "service.edit",
      targetType: "hosting_service",
      targetId: serviceId,
      ...change,
    }),
  },
  "service.deleted": {
    panelSync: ({ panel }) => panel,
    audit: ({ actorId, service }) => ({
      actorId,
      action: "service.delete",
      targetType: "hosting_service",
      targetId: service.id,
      before: service,
    }),
  },
  "service.renewed": {
    panelSync: ({ reactivated, panel }) => (reactivated ? panel : null),
    audit: (event): AuditEntry[] => [
      ...(event.reactivated
        ? [
            {
              actorId: event.actorId,
              action: "service.reactivate",
              targetType: "hosting_service" as const,
              targetId: event.service.id,
              before: {
                status: event.reactivated.status,
                suspensionReason: event.reactivated.suspensionReason,
                expiresAt: event.previousExpiresAt,
              },
              after: { status: "active", expiresAt: event.expiresAt },
              reason: "renewal",
            },
          ]
        : []),
      ...(event.automatic
        ? [
            {
              actorId: null,
              action: "service.auto_renew",
              targetType: "hosting_service" as const,
              targetId: event.service.id,
              before: { expiresAt: event.previousExpiresAt },
              after: { expiresAt: event.expiresAt, chargedCents: event.amountCents },
            },
          ]
        : []),
    ],
    // The customer's notices and mail name the server too (two servers of one plan).
    notice: (event): Notice[] => [
      ...(event.reactivated
        ? [
            {
              userId: event.service.userId,
              kind: "service_reactivated" as const,
              params: { service: serviceLabel(event.service) },
              link: SERVICES_TAB,
            },
          ]
        : []),
      ...(event.automatic
        ? [
            {
              userId: event.service.userId,
              kind: "service_auto_renewed" as const,
              params: { service: serviceLabel(event.service), amountCents: event.amountCents },
              link: SERVICES_TAB,
            },
          ]
        : []),
    ],
    // A receipt by mail, whoever renewed it: once per renewal (docs/mail.md).
    mail: (event) => ({
      kind: "serviceRenewed",
      userId: event.service.userId,
      serviceId: event.service.id,
      renewalId: event.renewalId,
      ledgerEntryId: event.ledgerEntryId,
      service: serviceLabel(event.service),
      expiresAt: event.expiresAt,
      amountCents: event.amountCents,
      automatic: event.automatic,
      reactivated: event.reactivated !== null,
    }),
  },
  "service.suspendedForExpiry": {
    panelSync: ({ panel }) => panel,
    audit: ({ service, expiresAt }) => ({
      actorId: null,
      action: "service.suspend",
      targetType: "hosting_service",
      targetId: service.id,
      before: { status: "active", expiresAt },
      after: { status: "suspended", suspensionReason: "expired" },
      reason: "expired",
    }),
    notice: ({ service }) => ({
      userId: service.userId,
      kind: "service_suspended_expired",
      params: { service: serviceLabel(service) },
      link: SERVICES_TAB,
    }),
    // Until when it can be saved, and what that costs from the balance it has now.
    mail: ({ service, suspendedAt, terminatesAt, renewal }) => ({
      kind: "serviceSuspended",
      userId: service.userId,
      serviceId: service.id,
      service: serviceLabel(service),
      suspendedAt,
      reason: "expired",
      terminatesAt,
      renewal,
    }),
  },
  "service.terminatedForExpiry": {
    panelSync: ({ panel }) => panel,
    audit: ({ service, suspendedAt }) => ({
      actorId: null,
      action: "service.terminate",
      targetType: "hosting_service",
      targetId: service.id,
      before: { status: "suspended", suspensionReason: "expired", suspendedAt },
      after: { status: "terminated" },
      reason: "expired",
    }),
    notice: ({ service }) => ({
      userId: service.userId,
      kind: "service_terminated",
      params: { service: serviceLabel(service) },
      link: SERVICES_TAB,
    }),
    mail: ({ service }) => ({
      kind: "serviceTerminated",
      userId: service.userId,
      serviceId: service.id,
      service: serviceLabel(service),
      reason: "expired",
    }),
  },
  "service.renewalRefunded": {
    panelSync: ({ panel }) => panel,
    audit: ({ actorId, service, change, reason }) => ({
      actorId,
      action: "service.renewal_refund",
      targetType: "hosting_service",
      targetId: service.id,
      ...change,
      reason,
    }),
    // No mail of a suspension again: its own went when the service was first suspended (its key is
    // that moment), and the credit note's mail tells of the refund. Each notice says whether the
    // automatic renewal went off too: suspended again, a customer who renews by hand would otherwise
    // find it off without having been told.
    notice: ({ service, expiresAt, suspended, autoRenewOff }) => ({
      userId: service.userId,
      kind: suspended
        ? autoRenewOff
          ? "service_renewal_refunded_suspended_auto_off"
          : "service_renewal_refunded_suspended"
        : autoRenewOff
          ? "service_renewal_refunded_auto_off"
          : "service_renewal_refunded",
      params: { service: serviceLabel(service), expires: expiresAt },
      link: SERVICES_TAB,
    }),
  },
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

/**
 * Writes `event`'s reactions in `trx`, in the order the use-cases wrote them: the panel's sync, the
 * audit, the notices, the mail, the staff's post; `now` is when it happened (a clock's), now by default.
 */
export async function react(
  trx: Tx,
  event: DomainEvent,
  now?: Date,
  settings?: Pick<Settings, "general" | "alerts">,
): Promise<void> {
  const reactions = REACTIONS[event.type] as Reactions<DomainEvent>;
  const panel = reactions.panelSync?.(event);
  if (panel) await queuePanelSync(trx, panel, now);
  for (const entry of all(reactions.audit?.(event) ?? null)) await recordAudit(trx, entry);
  for (const notice of all(reactions.notice?.(event) ?? null))
    await notify(trx, { ...notice, ...(now ? { now } : {}) });
  for (const mail of all(reactions.mail?.(event) ?? null))
    await queueMail(trx, mail, now, settings);
  if (reactions.staffPost) await queueStaffPost(trx, reactions.staffPost(event), now, settings);
}
