import { createHash, randomUUID } from "node:crypto";
import type { StoredLedgerReason } from "~/domain/coins/ledger-reason";
import type { DocumentKind } from "~/domain/invoices/invoices";
import {
  messageExcerpt,
  REPLY_MAIL_MAX_CHARS,
  STAFF_MAIL_EXCERPT,
  staffTicketSummaryAt,
  type Department,
  type StaffTicketSummary,
} from "~/domain/tickets/tickets";
import type { BillingCycle } from "~/domain/orders/orders";
import type { PanelPorts } from "~/domain/provisioning/panel-plan";
import type { MailKind } from "./mail";

// What each event mails, and to whom (docs/mail.md): the events use-cases queue, and `planMail`, which
// turns one into the messages it sends, each with the event part of its unique key and the values its
// template is written from. No database here: mail.server.ts finds the recipients and writes the rows.

/**
 * A numbered document a message names and links to (docs/invoices.md): its kind, number and
 * total (negative for a credit note).
 */
export interface DocumentRef {
  kind: DocumentKind;
  number: string;
  totalCents: number;
}

/**
 * Where the document of an event is found when its message is written: an order's or a renewal's
 * invoice is numbered last in its transaction, after the mail is queued (ADR 37: nothing more is done
 * while the year's counter is locked), so the message reads its number after the commit.
 */
export type DocumentSource =
  | { orderId: number }
  /**
   * A renewal's: by the ledger row that paid it, or (free of charge) by the expiry it gave (`until`;
   * `from`, the expiry it renewed from, in messages queued before `until` was: a renewal of an expired
   * service bills from the moment it was made, which its line names instead).
   */
  | { serviceId: number; until?: string; from?: string; ledgerEntryId?: number };

/** Something that happened which mails someone. */
export type MailEvent =
  /** The customer's message names the order's invoice (read when it is written: `DocumentSource`). */
  | { kind: "orderReceived"; orderId: number; userId: string; product: string; totalCents: number }
  /**
   * `setup`: "panel" when the server is made on the game panel now (its address is mailed once it is
   * installed, `serviceReady`), "manual" when our team sets it up by hand.
   */
  | {
      kind: "orderApproved";
      orderId: number;
      userId: string;
      product: string;
      setup: "panel" | "manual";
    }
  | {
      kind: "orderRejected";
      orderId: number;
      userId: string;
      product: string;
      reason: string;
      refundCents: number;
      /**
       * The lifecycle gave up on it after this many days: the message says so in the reader's
       * language rather than quoting `reason`, which is written for the audit log.
       */
      expiredDays?: number;
      /** The credit note of its invoice (none for an order placed before invoices). */
      document?: DocumentRef | null;
    }
  | {
      kind: "coinsChanged";
      /** What makes this movement unique (the adjustment's idempotency key; random without one). */
      eventKey?: string;
      userId: string;
      amountCents: number;
      balanceCents: number;
      reason: StoredLedgerReason;
      /** The payment receipt of coins bought (a top-up approved, a ticket's payment). */
      document?: DocumentRef | null;
    }
  /** A document no other message of its event carries: a refund's credit note. */
  | { kind: "documentIssued"; userId: string; document: DocumentRef }
  /** An admin rejected a top-up request, with the reason the customer reads. */
  | {
      kind: "topUpRejected";
      requestId: number;
      userId: string;
      reference: string;
      coins: number;
      reason: string;
    }
  | {
      kind: "ticketAnswered";
      ticketId: number;
      userId: string;
      subject: string;
      /** What staff wrote: the message carries it, up to REPLY_MAIL_MAX_CHARS. */
      reply: string;
      /** The reply's idempotency key (random without one). */
      replyKey?: string;
    }
  /**
   * A new ticket, its subject and its first message (the staff's mail carries its first lines); with
   * `summary`, told in its busy window's summary instead (docs/support.md).
   */
  | {
      kind: "ticketOpened";
      ticketId: number;
      department: Department;
      subject: string;
      message: string;
      summary?: StaffTicketSummary;
    }
  /**
   * A customer replied to their ticket: told to the admins who asked for it (STAFF_MAIL_CHOICES), at
   * once or, with `summary`, in its busy window's summary of replies, as new tickets are.
   */
  | {
      kind: "ticketCustomerReplied";
      ticketId: number;
      department: Department;
      subject: string;
      message: string;
      /** The reply's idempotency key (random without one). */
      replyKey?: string;
      summary?: StaffTicketSummary;
    }
  /** An admin (or the command line) turned off the user's two-factor sign-in; `resetAt` ISO. */
  | { kind: "twoFactorReset"; userId: string; resetAt: string }
  // The service lifecycle's (docs/automation.md) and the services' own events. Times are ISO
  // strings; each key is made from the service and the date the event belongs to, normalized, so both
  // databases make the same and a run made again queues nothing new.
  | ServiceMailEvent
  // Security mail (docs/mail.md#security-mail): always sent, whatever the account tab says.
  | AccountSecurityMailEvent
  | AddressMailEvent;

export type AccountSecurityMailEvent =
  /** A reset link was asked for: `token` is better-auth's, valid for an hour, used once. */
  | { kind: "passwordReset"; userId: string; token: string }
  /** The password was set from the reset link of `token` (once per link). */
  | { kind: "passwordChanged"; userId: string; token: string; at: string }
  /** An admin signed in: when, from where, with what browser (`eventKey`: the sign-in attempt). */
  | {
      kind: "adminSignIn";
      userId: string;
      eventKey: string;
      at: string;
      ip: string;
      userAgent: string | null;
    };

/** A secret's stand-in in a unique key: the outbox's keys must not hold a token that opens an account. */
const fingerprint = (secret: string) =>
  createHash("sha256").update(secret).digest("hex").slice(0, 32);

/** The longest User-Agent kept with a sign-in notice (the template shows its browser and system). */
const MAX_USER_AGENT = 512;

/**
 * Verified addresses (docs/accounts.md): security mail, never optional. `emailVerification` carries the
 * link's token (better-auth's) and goes to the account's address, or to `newEmail` for an email change
 * (the new address proves itself before it becomes the login); `emailChanged` tells the old address.
 */
export type AddressMailEvent =
  | {
      kind: "emailVerification";
      userId: string;
      token: string;
      /** What makes this message unique: each one sent (the first, a resend, a change) has its own. */
      sendKey: string;
      /** An email change: the address asked for, which the message goes to. */
      newEmail?: string;
    }
  | {
      kind: "emailChanged";
      userId: string;
      oldEmail: string;
      newEmail: string;
      /** The change (the token that confirmed it), so a change is told once. */
      changeKey: string;
    };

interface ServiceRef {
  userId: string;
  serviceId: number;
  /** The service as the customer knows it: its plan and its server's name (`serviceLabel`). */
  service: string;
}

/**
 * What renewing a service costs the customer, as its renewal's quote says (`renewalQuote`): the price of
 * a cycle, the cycle, and what their balance lacks for it (0 when it covers it).
 */
export interface RenewalTerms {
  priceCents: number;
  billingCycle: BillingCycle;
  missingCents: number;
}

/** A renewal's terms as a message's values. */
function renewalValues(terms: RenewalTerms) {
  return {
    priceCents: terms.priceCents,
    cycle: terms.billingCycle,
    missingCents: terms.missingCents,
  };
}

export type ServiceMailEvent =
  /** A reminder before expiry: `days` is the threshold reached (7, 3, 1 by default). */
  | (ServiceRef & { kind: "serviceExpiring"; expiresAt: string; days: number })
  /** The automatic renewal lacks `missingCents`; told once a day (`day`, UTC) while it is due. */
  | (ServiceRef & {
      kind: "serviceRenewalShort";
      expiresAt: string;
      missingCents: number;
      day: string;
      /** What renewing costs; its `missingCents` is the event's. */
      renewal: RenewalTerms;
      /** Whether `expiresAt` had passed when it was told (the message says "ended", not "ends"). */
      expired: boolean;
      /** When it is suspended, then terminated, unless renewed (`suspensionDate`, `terminationDate`). */
      suspendsAt: string;
      terminatesAt: string;
    })
  /**
   * Renewed from coins, by the lifecycle (`automatic`) or by the customer; once per renewal
   * (`service_renewals.id`): a service renews from one expiry date twice when the first renewal's term
   * was taken back by a refund.
   */
  | (ServiceRef & {
      kind: "serviceRenewed";
      renewalId: number;
      /** The coins' ledger row that paid it (null when it was free): its invoice is found by it. */
      ledgerEntryId: number | null;
      /** The new expiry (a free renewal's invoice is found by it). */
      expiresAt: string;
      amountCents: number;
      automatic: boolean;
      /** It was suspended for expiry and runs again. */
      reactivated: boolean;
    })
  /**
   * Suspended by the lifecycle for its expiry (then with when it is terminated unless renewed, and what
   * renewing costs) or by an admin.
   */
  | (ServiceRef & {
      kind: "serviceSuspended";
      suspendedAt: string;
      reason: "expired" | "admin";
      terminatesAt?: string;
      renewal?: RenewalTerms;
    })
  /** The service suspended for expiry at `suspendedAt` is terminated at `terminatesAt`. */
  | (ServiceRef & {
      kind: "serviceTerminationWarning";
      suspendedAt: string;
      terminatesAt: string;
      days: number;
    })
  | (ServiceRef & { kind: "serviceTerminated"; reason: "expired" | "admin" })
  /**
   * The server made on the game panel finished installing: where it answers and how to manage it. Once
   * per install (`install`: when it began), so a look made twice tells nothing twice and a reinstall,
   * which wipes the server, is told again when it is back.
   */
  | (ServiceRef & {
      kind: "serviceReady";
      install: string;
      address: string | null;
      ports: PanelPorts | null;
      /** The server's page on the game panel. */
      panelLink: string | null;
      /** Its remote-admin password was drawn for it alone at its creation (`generatedVariables`). */
      secretsDrawn: boolean;
    });

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
  }
}
