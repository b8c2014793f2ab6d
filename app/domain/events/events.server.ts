import type { LedgerReason } from "~/domain/coins/ledger-reason";
import type {
  HostingService,
  ServiceAction,
  ServiceStatus,
  SuspensionReason,
} from "~/domain/hosting-services/hosting-services";
import type { PanelLink } from "~/domain/provisioning/provisioning.server";
import type {
  Department,
  Priority,
  StaffTicketSummary,
  TicketStatus,
} from "~/domain/tickets/tickets";
import type { DocumentRef, RenewalTerms } from "~/domain/mail/mail.server";
import type { Tx } from "~/db/transaction";
import type { Settings } from "~/domain/settings/settings";
import { react } from "./reactions.server";

/**
 * What happened, as the use-case that did it records it (`record`), in its transaction: the facts the
 * reactions need (who, what, the amounts, the state before and after), never what to do about it. Its
 * name is `<area>.<past participle>`. What is the rule stays in the use-case (the ledger, numbering,
 * guards); what follows from the change (the audit row, the customer's notice and mail, the staff's
 * post) is the reactions' table's (reactions.server.ts), so that a provider's webhook, an API call or an
 * admin's click that makes the same change get the same tail.
 */
export type DomainEvent = TopUpEvent | CoinsEvent | ServiceEvent | OrderEvent | TicketEvent;

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

/** What the audit log keeps of a change: the record before and after it, as the use-case shows it. */
export interface Change<T = unknown> {
  before: T;
  after: T;
}

export type TopUpEvent =
  /** The customer says they paid (the proofs attached): the staff are told, once per request. */
  | { type: "topUp.paid"; request: TopUpRef }
  /** An admin credited `coins` for the request, with its payment receipt. */
  | {
      type: "topUp.approved";
      actorId: string;
      request: TopUpRef;
      change: Change;
      coins: number;
      balanceCents: number;
      /** The ledger entry's key: the coins mail is told once per credit. */
      ledgerKey: string;
      reason: LedgerReason;
      receipt: DocumentRef;
    }
  | { type: "topUp.rejected"; actorId: string; request: TopUpRef; change: Change; reason: string };

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

export type TicketEvent =
  /**
   * A customer opened a ticket: told to staff at once, or in its busy window's summary (`summary`); the
   * staff's post never carries what the customer wrote, their mail does.
   */
  | {
      type: "ticket.opened";
      ticketId: number;
      department: Department;
      subject: string;
      message: string;
      summary: StaffTicketSummary | null;
    }
  /** A customer replied (`replyKey`: the reply's form key): the staff who asked are told by mail. */
  | {
      type: "ticket.customerReplied";
      ticketId: number;
      department: Department;
      subject: string;
      message: string;
      replyKey?: string;
      summary: StaffTicketSummary | null;
    }
  /** Staff answered: the customer is told, in the list and by mail with the reply's text. */
  | {
      type: "ticket.answered";
      ticketId: number;
      userId: string;
      subject: string;
      reply: string;
      replyKey?: string;
    }
  /** An admin changed its status or its priority. */
  | {
      type: "ticket.fieldChanged";
      actorId: string;
      ticketId: number;
      field: "status" | "priority";
      change: Change<{ status: TicketStatus; priority: Priority }>;
    };

/** An order as its events name it: whose it is, its plan and its server's name. */
export interface OrderRef {
  id: number;
  userId: string;
  productName: string;
  serverName: string;
}

export type OrderEvent =
  /** Placed and paid from coins; it waits for an admin. */
  | { type: "order.placed"; order: OrderRef; totalCents: number }
  /** Approved: its service made (`setup`: a server made on the game panel, or by hand). */
  | {
      type: "order.approved";
      actorId: string;
      order: OrderRef;
      serviceId: number;
      expiresAt: string;
      setup: "panel" | "manual";
    }
  /**
   * Rejected by an admin, or given up on by the lifecycle (`expired`, no actor): the coins paid back
   * (`refundCents`) with its invoice's credit note.
   */
  | {
      type: "order.rejected";
      actorId: string | null;
      order: OrderRef;
      reason: string;
      totalCents: number;
      refundCents: number;
      expired?: { days: number; now: Date };
      creditNote: DocumentRef | null;
    };

/** A service as its events name it: whose it is, its plan and its server's name. */
export interface ServiceRef {
  id: number;
  userId: string;
  name: string;
  serverName: string;
}

export type ServiceEvent =
  | { type: "service.added"; actorId: string; service: HostingService }
  /** An admin suspended, reactivated or terminated it (`at`: when); the game panel follows. */
  | {
      type: "service.statusChanged";
      actorId: string;
      action: ServiceAction;
      service: ServiceRef;
      from: string;
      to: ServiceStatus;
      reason?: string;
      panel: PanelLink;
      at: string;
    }
  | { type: "service.edited"; actorId: string; serviceId: number; change: Change }
  /** Deleted by an admin (`service` as it was); the game panel's server goes too. */
  | { type: "service.deleted"; actorId: string; service: HostingService; panel: PanelLink }
  /**
   * One term paid from coins (`renewalId`), by the customer or by the lifecycle (`automatic`, no actor);
   * `reactivated`: the suspension for expiry it lifted (the game panel follows).
   */
  | {
      type: "service.renewed";
      actorId: string | null;
      automatic: boolean;
      service: ServiceRef;
      renewalId: number;
      ledgerEntryId: number | null;
      amountCents: number;
      previousExpiresAt: string;
      expiresAt: string;
      reactivated: { status: ServiceStatus; suspensionReason: SuspensionReason | null } | null;
      panel: PanelLink;
    }
  /**
   * The lifecycle suspended it, its expiry passed by the grace days (no actor): told when it will be
   * terminated and what renewing costs from the balance it has (`renewal`).
   */
  | {
      type: "service.suspendedForExpiry";
      service: ServiceRef;
      expiresAt: string;
      suspendedAt: string;
      terminatesAt: string;
      renewal: RenewalTerms;
      panel: PanelLink;
    }
  /** The lifecycle terminated it, suspended for expiry since `suspendedAt` (no actor). */
  | {
      type: "service.terminatedForExpiry";
      service: ServiceRef;
      suspendedAt: string | null;
      panel: PanelLink;
    }
  /**
   * A renewal's invoice refunded: the term taken back (`expiresAt` restored, `suspended` again when the
   * renewal had lifted a suspension) or kept, and the automatic renewal switched off (`autoRenewOff`).
   */
  | {
      type: "service.renewalRefunded";
      actorId: string;
      service: ServiceRef;
      change: Change;
      reason: string;
      expiresAt: string;
      suspended: boolean;
      autoRenewOff: boolean;
      /** The game panel follows a service suspended again. */
      panel: PanelLink | null;
    };

/**
 * Step: records `event` in the caller's transaction: its reactions (the audit row, the notices, the
 * outbox's mail, the staff's post) are written now and commit or roll back with the change. `now`: when
 * it happened (a clock's), now by default; `settings`: what the caller read already, so that the mail
 * and the staff's post do not read them again.
 */
export async function record(
  trx: Tx,
  event: DomainEvent,
  now?: Date,
  settings?: Pick<Settings, "general" | "alerts">,
): Promise<void> {
  await react(trx, event, now, settings);
}
