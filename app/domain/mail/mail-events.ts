import type { StoredLedgerReason } from "~/domain/coins/ledger-reason";
import type { DocumentKind } from "~/domain/invoices/invoices";
import type { Department, StaffTicketSummary } from "~/domain/tickets/tickets";
import type { BillingCycle } from "~/domain/orders/orders";
import type { PanelPorts } from "~/domain/provisioning/panel-plan";
import type { StaffRole } from "~/domain/staff/permissions";
import type { MailKind } from "./mail";

// The events that mail someone (docs/mail.md), as the use-cases and the events' reactions hand them to
// the outbox (`queueMail`): the facts each message is written from. Types only: `planMail`
// (mail-plan.server.ts) turns one into its messages, mail.server.ts writes them.

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
  /**
   * An Owner made the account a member of the staff (`from` null), changed its staff role, or removed
   * it from the staff (`to` null), at `at` (ISO); `from` is null too for a stored role that named none.
   */
  | {
      kind: "roleChanged";
      userId: string;
      change: "added" | "changed" | "removed";
      from: StaffRole | null;
      to: StaffRole | null;
      at: string;
    }
  // The service lifecycle's (docs/automation.md) and the services' own events. Times are ISO
  // strings; each key is made from the service and the date the event belongs to, normalized, so both
  // databases make the same and a run made again queues nothing new.
  | ServiceMailEvent
  // Security mail (docs/mail.md#security-mail): always sent, whatever the account tab says.
  | AccountSecurityMailEvent
  | AddressMailEvent
  /**
   * The archive of their data a customer asked for is ready: its link carries `token` and works until
   * `expiresAt` (ISO), for its owner signed in (docs/self-service.md).
   */
  | { kind: "dataExportReady"; userId: string; exportId: number; token: string; expiresAt: string };

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
  /** Ended by the lifecycle, an admin, or the customer's cancellation (at its term, or refunded). */
  | (ServiceRef & {
      kind: "serviceTerminated";
      reason: "expired" | "admin" | "cancelled" | "refunded";
    })
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
    })
  /**
   * A server whose customer turned its offline notice on has been offline for `minutes` since
   * `offlineSince`: once per offline spell (its start is the key).
   */
  | (ServiceRef & { kind: "serverOffline"; offlineSince: string; minutes: number })
  /**
   * The customer moved the service to another plan (`planChangeId`, once each): what was charged or
   * credited for the rest of the term (which ends at `expiresAt`), the invoice or credit note, and
   * whether its server on the game panel is being resized.
   */
  | (ServiceRef & {
      kind: "servicePlanChanged";
      planChangeId: number;
      fromPlan: string;
      toPlan: string;
      direction: "upgrade" | "downgrade";
      amountCents: number;
      expiresAt: string;
      resized: boolean;
      document: DocumentRef;
    });

/** A message to one address, without an event to plan it from (a campaign, the newsletter's link). */
export interface AddressedMail {
  /** Unique for ever, as every outbox row's: queued again, it mails nobody twice. */
  uniqueKey: string;
  kind: MailKind;
  /** The account it goes to, null for a newsletter subscriber without one. */
  userId: string | null;
  address: string;
  locale: string;
  params: Record<string, unknown>;
  /** Sent from then on rather than at once (a campaign's pace). */
  runAt?: Date;
}
