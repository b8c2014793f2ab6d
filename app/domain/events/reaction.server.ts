import type { AuditEntry } from "~/domain/audit/audit.server";
import { englishLedgerReason, type LedgerReason } from "~/domain/coins/ledger-reason";
import type { NewJob } from "~/domain/jobs/jobs.server";
import type { StaffNews } from "~/domain/jobs/staff-posts.server";
import type { AddressedMail, MailEvent } from "~/domain/mail/mail-events";
import type { KeyedNotice, notify, notifyStaff } from "~/domain/notifications/notifications.server";
import type { PanelLink } from "~/domain/provisioning/panel-link.server";

/** A customer's notice, as `notify` writes it. */
export type Notice = Parameters<typeof notify>[1];

/** Each active admin's notice (the admin bell), as `notifyStaff` writes it: once per admin and key. */
export type StaffNotice = Omit<Parameters<typeof notifyStaff>[1], "now">;

/**
 * What the reactions tell the use-case back, for a rule of its own: how many active admins a staff
 * notice found and how many of them it was new to (null: the event has none).
 */
export interface Recorded {
  staffTold: { admins: number; written: number } | null;
}

/** None, one or several of a sink's writes. */
export type Some<T> = T | readonly T[] | null;

/**
 * What follows one kind of event, each sink a function of the event (none, one or several writes): the
 * game panel's sync job, the audit row, the customer's notice, each admin's notice (`staffNotice`), the
 * customer's mail, and the staff's post (each admin's notice and the Discord post). The stored names
 * (audit actions, notification kinds, mail kinds) are the ones written before events existed.
 */
export interface Reactions<E> {
  panelSync?: (event: E) => PanelLink | null;
  audit?: (event: E) => Some<AuditEntry>;
  notice?: (event: E) => Some<Notice>;
  /**
   * A notice told once by its key, of an event that is time passing (the lifecycle's reminders and
   * warnings): an event recorded in a batch (`recordAll`) has its batch's written in a few statements.
   */
  keyedNotice?: (event: E) => KeyedNotice;
  /** Null: this one is not told to staff (a refund the system decides is told by its approval). */
  staffNotice?: (event: E) => StaffNotice | null;
  mail?: (event: E) => Some<MailEvent>;
  /**
   * Messages already addressed (a campaign to its list, the newsletter's confirmation link): no account
   * event to plan them from, so the event carries them, written by the use-case (docs/mail.md#campaigns).
   */
  addressedMail?: (event: E) => Some<AddressedMail>;
  /** Null: this one is not told to staff (an order the system approved is told by its approval). */
  staffPost?: (event: E) => StaffNews | null;
  /** The account whose mail (the outbox's messages, its choices) is erased with it (ADR 19). */
  forgetMail?: (event: E) => string;
  /**
   * Work for the worker that the change asks for beyond the panel's sync (a server resized after a
   * change of plan), queued in the same transaction: it exists if and only if the change committed.
   */
  jobs?: (event: E) => Some<NewJob>;
}

/** An area's part of the table: each of its events' reactions. */
export type ReactionTable<E extends { type: string }> = {
  [T in E["type"]]: Reactions<Extract<E, { type: T }>>;
};

/** What the audit log keeps of a change: the record before and after it, as the use-case shows it. */
export interface Change<T = unknown> {
  before: T;
  after: T;
}

/** Where a customer follows their services. */
export const SERVICES_TAB = "/dashboard/services";

/** A ledger reason as the coins mail stores it: the English words and the catalogue key. */
export const mailedReason = (reason: string | LedgerReason) =>
  typeof reason === "string"
    ? { reason, reasonKey: null, reasonParams: null }
    : { reason: englishLedgerReason(reason), reasonKey: reason.id, reasonParams: reason.params };
