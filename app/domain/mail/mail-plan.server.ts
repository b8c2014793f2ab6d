import { createHash, randomUUID } from "node:crypto";
import {
  messageExcerpt,
  REPLY_MAIL_MAX_CHARS,
  STAFF_MAIL_EXCERPT,
  staffTicketSummaryAt,
  type Department,
} from "~/domain/tickets/tickets";
import type { MailKind } from "./mail";
import type {
  DocumentRef,
  DocumentSource,
  MailEvent,
  RenewalTerms,
  ServiceMailEvent,
} from "./mail-events";

// What each event mails, and to whom (docs/mail.md): `planMail` turns one of the events use-cases queue
// (mail-events.ts) into the messages it sends, each with the event part of its unique key and the values
// its template is written from. No database here: mail-recipients.server.ts finds the recipients and
// mail.server.ts writes the rows.

/** A secret's stand-in in a unique key: the outbox's keys must not hold a token that opens an account. */
const fingerprint = (secret: string) =>
  createHash("sha256").update(secret).digest("hex").slice(0, 32);

/** The longest User-Agent kept with a sign-in notice (the template shows its browser and system). */
const MAX_USER_AGENT = 512;

/** A renewal's terms as a message's values. */
function renewalValues(terms: RenewalTerms) {
  return {
    priceCents: terms.priceCents,
    cycle: terms.billingCycle,
    missingCents: terms.missingCents,
  };
}

const isoTime = (time: string) => new Date(time).toISOString();

/** One message to queue: its template, who gets it, and the event part of its unique key. */
export interface Planned {
  kind: MailKind;
  eventKey: string;
  params: Record<string, unknown>;
  to: "customer" | "staff";
  /** Sent from then on rather than at once (a window's summary, once the window has ended). */
  runAt?: Date;
  userId?: string;
  /** Sent to this address instead of the account's (an email change's new or old address). */
  address?: string;
  /**
   * Sent instead when the customer turned `kind` off: the document the message carried, which reaches
   * the customer whatever the account tab says (docs/mail.md#documents-and-top-ups).
   */
  instead?: Planned;
}

/** The message an event sends the customer it concerns. */
function toCustomer(
  kind: MailKind,
  eventKey: string,
  params: Record<string, unknown>,
  userId: string,
): Planned {
  return { kind, eventKey, params, to: "customer", userId };
}

/**
 * An optional message that carries a document: the customer who turned its kind off gets the document
 * alone (`documentIssued`, one row either way), under the same event key.
 */
function withDocument(
  message: Planned,
  document: { document: DocumentRef } | { documentOf: DocumentSource } | null,
): Planned {
  if (!document) return message;
  return {
    ...message,
    params: { ...message.params, ...document },
    instead: toCustomer("documentIssued", message.eventKey, document, message.userId!),
  };
}

/** The message an event sends its customer, with the event's document when it carries one. */
function toCustomerWithDocument(
  kind: MailKind,
  eventKey: string,
  params: Record<string, unknown>,
  event: { userId: string; document?: DocumentRef | null },
): Planned {
  return withDocument(
    toCustomer(kind, eventKey, params, event.userId),
    event.document ? { document: event.document } : null,
  );
}

/**
 * A staff message's values about a customer's message on a ticket: its number, department and
 * subject, and the message's first lines (STAFF_MAIL_EXCERPT), whether they are all of it (`cut`).
 */
function staffTicketParams(event: {
  ticketId: number;
  department: Department;
  subject: string;
  message: string;
}) {
  const excerpt = messageExcerpt(event.message, STAFF_MAIL_EXCERPT);
  return {
    id: event.ticketId,
    department: event.department,
    subject: event.subject,
    excerpt: excerpt.text,
    cut: excerpt.cut,
  };
}

/** What an event mails, to whom. */
export function planMail(event: MailEvent): Planned[] {
  switch (event.kind) {
    case "orderReceived": {
      const params = { id: event.orderId, product: event.product, totalCents: event.totalCents };
      return [
        withDocument(toCustomer("orderReceived", `order:${event.orderId}`, params, event.userId), {
          documentOf: { orderId: event.orderId },
        }),
        { kind: "staffOrderWaiting", eventKey: `order:${event.orderId}`, params, to: "staff" },
      ];
    }
    case "orderApproved":
      return [
        toCustomer(
          "orderApproved",
          `order:${event.orderId}`,
          { id: event.orderId, product: event.product, setup: event.setup },
          event.userId,
        ),
      ];
    case "orderRejected":
      return [
        toCustomerWithDocument(
          "orderRejected",
          `order:${event.orderId}`,
          {
            id: event.orderId,
            product: event.product,
            ...(event.expiredDays === undefined
              ? { reason: event.reason }
              : { expiredDays: event.expiredDays }),
            refundCents: event.refundCents,
          },
          event,
        ),
      ];
    case "coinsChanged":
      return [
        toCustomerWithDocument(
          "coinsChanged",
          `coins:${event.eventKey ?? randomUUID()}`,
          {
            amountCents: event.amountCents,
            balanceCents: event.balanceCents,
            reason: event.reason,
          },
          event,
        ),
      ];
    case "documentIssued":
      return [
        toCustomer(
          "documentIssued",
          `document:${event.document.number}`,
          { document: event.document },
          event.userId,
        ),
      ];
    case "topUpRejected":
      return [
        toCustomer(
          "topUpRejected",
          `top-up:${event.requestId}`,
          { reference: event.reference, coins: event.coins, reason: event.reason },
          event.userId,
        ),
      ];
    case "ticketAnswered": {
      const reply = messageExcerpt(event.reply, { chars: REPLY_MAIL_MAX_CHARS });
      return [
        toCustomer(
          "ticketAnswered",
          `ticket:${event.ticketId}:reply:${event.replyKey ?? randomUUID()}`,
          { id: event.ticketId, subject: event.subject, reply: reply.text, replyCut: reply.cut },
          event.userId,
        ),
      ];
    }
    case "ticketOpened":
      // A busy window's tickets: one summary per window and admin (its key), sent once it has ended.
      if (event.summary)
        return [
          {
            kind: "staffTicketsOpened",
            eventKey: `window:${event.summary.from}`,
            params: { ...event.summary },
            to: "staff",
            runAt: staffTicketSummaryAt(new Date(event.summary.from)),
          },
        ];
      return [
        {
          kind: "staffTicketOpened",
          eventKey: `ticket:${event.ticketId}`,
          params: staffTicketParams(event),
          to: "staff",
        },
      ];
    case "ticketCustomerReplied":
      // A busy window's replies: one summary per window and admin who asked, once it has ended.
      if (event.summary)
        return [
          {
            kind: "staffTicketReplies",
            eventKey: `window:${event.summary.from}`,
            params: { ...event.summary },
            to: "staff",
            runAt: staffTicketSummaryAt(new Date(event.summary.from)),
          },
        ];
      return [
        {
          kind: "staffTicketReplied",
          eventKey: `ticket:${event.ticketId}:reply:${event.replyKey ?? randomUUID()}`,
          params: staffTicketParams(event),
          to: "staff",
        },
      ];
    case "passwordReset":
      return [
        toCustomer(
          event.kind,
          `reset:${fingerprint(event.token)}`,
          { token: event.token },
          event.userId,
        ),
      ];
    case "passwordChanged":
      return [
        toCustomer(
          event.kind,
          `reset:${fingerprint(event.token)}`,
          { at: isoTime(event.at) },
          event.userId,
        ),
      ];
    case "adminSignIn":
      return [
        toCustomer(
          event.kind,
          `signin:${event.eventKey}`,
          {
            at: isoTime(event.at),
            ip: event.ip,
            userAgent: event.userAgent?.slice(0, MAX_USER_AGENT) ?? null,
          },
          event.userId,
        ),
      ];
    case "twoFactorReset":
      return [
        toCustomer(
          "twoFactorReset",
          `user:${event.userId}:two-factor-reset:${isoTime(event.resetAt)}`,
          { resetAt: isoTime(event.resetAt) },
          event.userId,
        ),
      ];
    case "roleChanged":
      // One message per change: the moment and the roles on either side make its key.
      return [
        toCustomer(
          "roleChanged",
          `user:${event.userId}:role:${isoTime(event.at)}:${event.from ?? "none"}>${event.to ?? "none"}`,
          { change: event.change, from: event.from, to: event.to, at: isoTime(event.at) },
          event.userId,
        ),
      ];
    case "emailVerification":
      return [
        {
          ...toCustomer(
            "emailVerification",
            `verify:${event.sendKey}`,
            { token: event.token, change: event.newEmail !== undefined },
            event.userId,
          ),
          address: event.newEmail,
        },
      ];
    case "emailChanged":
      return [
        {
          ...toCustomer(
            "emailChanged",
            `change:${event.changeKey}`,
            { oldEmail: event.oldEmail, newEmail: event.newEmail },
            event.userId,
          ),
          address: event.oldEmail,
        },
      ];
    case "dataExportReady":
      // Once per archive; the key names it by its number, never by the link's token.
      return [
        toCustomer(
          "dataExportReady",
          `data-export:${event.exportId}`,
          { token: event.token, expiresAt: isoTime(event.expiresAt) },
          event.userId,
        ),
      ];
    default:
      return [planService(event)];
  }
}

/** A service's message: to its customer, keyed by the service and the date its event belongs to. */
function planService(event: ServiceMailEvent): Planned {
  const service = `service:${event.serviceId}`;
  const name = { service: event.service };
  switch (event.kind) {
    case "serviceExpiring":
      return toCustomer(
        event.kind,
        `${service}:${isoTime(event.expiresAt)}:remind:${event.days}`,
        { ...name, expiresAt: isoTime(event.expiresAt), days: event.days },
        event.userId,
      );
    case "serviceRenewalShort":
      return toCustomer(
        event.kind,
        `${service}:${isoTime(event.expiresAt)}:short:${event.day}`,
        {
          ...name,
          serviceId: event.serviceId,
          expiresAt: isoTime(event.expiresAt),
          expired: event.expired,
          suspendsAt: isoTime(event.suspendsAt),
          terminatesAt: isoTime(event.terminatesAt),
          ...renewalValues(event.renewal),
          missingCents: event.missingCents,
        },
        event.userId,
      );
    case "serviceRenewed":
      // Its invoice is numbered after this is queued: found by the ledger row that paid it.
      return withDocument(
        toCustomer(
          event.kind,
          `${service}:renewal:${event.renewalId}`,
          {
            ...name,
            expiresAt: isoTime(event.expiresAt),
            amountCents: event.amountCents,
            automatic: event.automatic,
            reactivated: event.reactivated,
          },
          event.userId,
        ),
        {
          documentOf: {
            serviceId: event.serviceId,
            until: isoTime(event.expiresAt),
            ...(event.ledgerEntryId === null ? {} : { ledgerEntryId: event.ledgerEntryId }),
          },
        },
      );
    case "serviceSuspended":
      return toCustomer(
        event.kind,
        `${service}:${isoTime(event.suspendedAt)}:suspended`,
        {
          ...name,
          serviceId: event.serviceId,
          reason: event.reason,
          suspendedAt: isoTime(event.suspendedAt),
          ...(event.terminatesAt ? { terminatesAt: isoTime(event.terminatesAt) } : {}),
          ...(event.renewal ? renewalValues(event.renewal) : {}),
        },
        event.userId,
      );
    case "serviceTerminationWarning":
      return toCustomer(
        event.kind,
        `${service}:${isoTime(event.suspendedAt)}:warn`,
        { ...name, terminatesAt: isoTime(event.terminatesAt), days: event.days },
        event.userId,
      );
    case "serviceTerminated":
      // A termination is final: once per service.
      return toCustomer(
        event.kind,
        `${service}:terminated`,
        { ...name, reason: event.reason },
        event.userId,
      );
    case "serviceReady":
      return toCustomer(
        event.kind,
        `${service}:ready:${isoTime(event.install)}`,
        {
          ...name,
          address: event.address,
          ports: event.ports,
          panelLink: event.panelLink,
          secretsDrawn: event.secretsDrawn,
        },
        event.userId,
      );
    case "serverOffline":
      return toCustomer(
        event.kind,
        `${service}:offline:${isoTime(event.offlineSince)}`,
        { ...name, offlineSince: isoTime(event.offlineSince), minutes: event.minutes },
        event.userId,
      );
    case "servicePlanChanged":
      // Once per change; its document is numbered in its transaction, so it travels with it.
      return toCustomer(
        event.kind,
        `${service}:plan-change:${event.planChangeId}`,
        {
          ...name,
          fromPlan: event.fromPlan,
          toPlan: event.toPlan,
          direction: event.direction,
          amountCents: event.amountCents,
          expiresAt: isoTime(event.expiresAt),
          resized: event.resized,
          document: event.document,
        },
        event.userId,
      );
  }
}
