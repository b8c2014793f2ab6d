import { createHash, randomUUID } from "node:crypto";
import {
  activeAdminsOnce,
  activeAdminsRead,
  keepActiveAdmins,
} from "~/domain/accounts/user-directory.server";
import type { Selectable, Updateable } from "kysely";
import { countRows, fetchPage, pageWindow, type PageRequest } from "~/db/paging";
import type { MailOutboxTable } from "~/db/schema";
import { inTransaction, type Db, type Tx } from "~/db/transaction";
import type { StoredLedgerReason } from "~/domain/coins/ledger-reason";
import type { DocumentKind } from "~/domain/invoices/invoices";
import {
  enqueueJobs,
  JOB_PRIORITY_URGENT,
  PermanentJobError,
  type JobHandler,
} from "~/domain/jobs/jobs.server";
import { getSettings } from "~/domain/settings/settings.server";
import type { Settings } from "~/domain/settings/settings";
import {
  staffTicketSummaryAt,
  type Department,
  type StaffTicketSummary,
} from "~/domain/tickets/tickets";
import {
  isMailKind,
  isMailState,
  isSecurityMail,
  isPermanentSmtpRefusal,
  MAIL_PAGE_SIZE,
  OPTIONAL_MAIL_KINDS,
  redactTokenLinks,
  type MailKind,
  type MailState,
  type OptionalMailKind,
  type OutboxMessageView,
} from "./mail";
import { paramsToWrite, parseParams } from "./message-values.server";

// The outbox (docs/mail.md). A use-case queues the mail of its event with queueMail(trx, …) in
// its own transaction: one outbox row per recipient, unique for ever by event and recipient, and one
// worker job per row. The job writes the message (in the recipient's language) at its first attempt,
// stores it with a Message-ID made from the row, then sends it over SMTP, or keeps it when no SMTP_URL is
// set. Nothing is ever sent inside a request or a transaction: an SMTP outage only delays the job.

export const MAIL_SEND_JOB = "mail.send";
/** Attempts before the job is dead (with the worker's backoff, about a day at the default 30 s). */
const MAIL_MAX_ATTEMPTS = 10;

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
  | { kind: "orderApproved"; orderId: number; userId: string; product: string }
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
      /** The reply's idempotency key (random without one). */
      replyKey?: string;
    }
  /** A new ticket; with `summary`, told in its busy window's summary instead (docs/support.md). */
  | {
      kind: "ticketOpened";
      ticketId: number;
      department: Department;
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

export type ServiceMailEvent =
  /** A reminder before expiry: `days` is the threshold reached (7, 3, 1 by default). */
  | (ServiceRef & { kind: "serviceExpiring"; expiresAt: string; days: number })
  /** The automatic renewal lacks `missingCents`; told once a day (`day`, UTC) while it is due. */
  | (ServiceRef & {
      kind: "serviceRenewalShort";
      expiresAt: string;
      missingCents: number;
      day: string;
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
  | (ServiceRef & { kind: "serviceSuspended"; suspendedAt: string; reason: "expired" | "admin" })
  /** The service suspended for expiry at `suspendedAt` is terminated at `terminatesAt`. */
  | (ServiceRef & {
      kind: "serviceTerminationWarning";
      suspendedAt: string;
      terminatesAt: string;
      days: number;
    })
  | (ServiceRef & { kind: "serviceTerminated"; reason: "expired" | "admin" });

const isoTime = (time: string) => new Date(time).toISOString();

/** One message to queue: its template, who gets it, and the event part of its unique key. */
interface Planned {
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

/** What an event mails, to whom. */
function plan(event: MailEvent): Planned[] {
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
          { id: event.orderId, product: event.product },
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
    case "ticketAnswered":
      return [
        toCustomer(
          "ticketAnswered",
          `ticket:${event.ticketId}:reply:${event.replyKey ?? randomUUID()}`,
          { id: event.ticketId, subject: event.subject },
          event.userId,
        ),
      ];
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
          params: { id: event.ticketId, department: event.department },
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
        { ...name, expiresAt: isoTime(event.expiresAt), missingCents: event.missingCents },
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
        { ...name, reason: event.reason },
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
  }
}

interface Recipient {
  id: string;
  email: string;
  locale: string | null;
}

/** A few hundred rows a statement: well under SQLite's and PostgreSQL's limits on parameters. */
const CHUNK = 200;

function chunks<T>(items: readonly T[], size = CHUNK): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size));
  return out;
}

/**
 * The recipients of every planned message, read at once: the customers (active, and not having turned
 * the message's kind off in the account tab) in one query per few hundred, every active admin once. A
 * message the customer turned off is replaced by what it carries (`instead`), if anything. When staff
 * are mailed too and the transaction has not read its admins yet, the first query reads them as well
 * (an order mails its customer and every admin: one statement where there were two).
 */
async function recipientsOf(
  trx: Tx,
  planned: Planned[],
): Promise<{ message: Planned; recipients: Recipient[] }[]> {
  const customerIds = [
    ...new Set(planned.flatMap((each) => (each.to === "customer" ? [each.userId!] : []))),
  ];
  const customers = new Map<string, Recipient>();
  const optedOut = new Set<string>();
  const optional = planned.some((each) =>
    (OPTIONAL_MAIL_KINDS as readonly MailKind[]).includes(each.kind),
  );
  const staff = planned.some((each) => each.to === "staff");
  // The admins read beside the first customers, in activeAdmins' order, when they are still to read.
  const adminsBeside: Recipient[] | undefined =
    staff && customerIds.length > 0 && !activeAdminsRead(trx) ? [] : undefined;
  for (const [index, ids] of chunks(customerIds, 500).entries()) {
    const withAdmins = adminsBeside !== undefined && index === 0;
    // Each customer with the kinds they turned off, in one statement (a row per kind, or one row with
    // none). Only the kinds a customer may turn off: a kind that became essential is sent whatever
    // was chosen.
    const rows = await trx
      .selectFrom("users")
      .leftJoin("mail_opt_outs", (join) =>
        join
          .onRef("mail_opt_outs.user_id", "=", "users.id")
          .on("mail_opt_outs.kind", "in", optional ? OPTIONAL_MAIL_KINDS : ["-"]),
      )
      .select([
        "users.id",
        "users.email",
        "users.locale",
        "users.role",
        "mail_opt_outs.kind as optedOut",
      ])
      .where("users.status", "=", "active")
      .where((eb) =>
        withAdmins
          ? eb.or([eb("users.id", "in", ids), eb("users.role", "=", "admin")])
          : eb("users.id", "in", ids),
      )
      .$if(withAdmins, (query) => query.orderBy("users.id"))
      .execute();
    const asked = new Set(ids);
    for (const row of rows) {
      const recipient = { id: row.id, email: row.email, locale: row.locale };
      if (withAdmins && row.role === "admin" && adminsBeside!.at(-1)?.id !== row.id)
        adminsBeside!.push(recipient);
      if (!asked.has(row.id)) continue;
      customers.set(row.id, recipient);
      if (row.optedOut !== null) optedOut.add(`${row.id}\n${row.optedOut}`);
    }
  }
  if (adminsBeside) keepActiveAdmins(trx, adminsBeside);
  // Every active admin, in one order (two transactions inserting the same keys never deadlock).
  const admins = staff ? (adminsBeside ?? (await activeAdminsOnce(trx))) : [];
  return planned.map((each) => {
    if (each.to === "staff") return { message: each, recipients: admins };
    const customer = customers.get(each.userId!);
    if (!customer) return { message: each, recipients: [] };
    const message = optedOut.has(`${customer.id}\n${each.kind}`) ? each.instead : each;
    if (!message) return { message: each, recipients: [] };
    return {
      message,
      recipients: [message.address ? { ...customer, email: message.address } : customer],
    };
  });
}

/**
 * Whether this process keeps the mail it queues instead of sending it: true when no SMTP_URL is set,
 * decided once at boot (bootServices). A kept message is stored unwritten with no send job: writing it
 * (about 1.5 ms of CPU) and a job's claim and end for every message would cost the busy paths (each
 * order mails the customer and every admin) for a message nobody is sent. /admin/mail writes it when an
 * admin reads it. Off by default: a process that never boots (a test, a script) queues send jobs, whose
 * handler keeps the message when it has no transport.
 */
let keepUnsent = false;

/** Called at boot with whether SMTP_URL is missing (docs/mail.md, "Without SMTP_URL"). */
export function keepMailUnsent(keep: boolean): void {
  keepUnsent = keep;
}

/**
 * A step: queues the mail of `event` in the caller's transaction, one message per recipient, so it
 * exists if and only if the event committed. An event mails a recipient once, however often it is
 * queued (the outbox's unique key). Returns how many messages it queued.
 */
export async function queueMail(
  trx: Tx,
  event: MailEvent,
  now = new Date(),
  /** The settings the caller has already read; read here only when needed and not given. */
  settings?: Pick<Settings, "general">,
): Promise<number> {
  return queueMails(trx, [event], now, settings);
}

/**
 * A step: the mail of many events in the caller's transaction (the lifecycle's notices, written a few
 * hundred at a time), in a few statements per few hundred messages rather than a few per message. The
 * same rules as `queueMail`: once per event and recipient, none of a kind the customer turned off.
 */
export async function queueMails(
  trx: Tx,
  events: readonly MailEvent[],
  now = new Date(),
  settings?: Pick<Settings, "general">,
): Promise<number> {
  if (events.length === 0) return 0;
  const at = now.toISOString();
  const planned = await recipientsOf(trx, events.flatMap(plan));
  const fallbackLocale = planned.some(({ recipients }) => recipients.some((each) => !each.locale))
    ? (settings ?? (await getSettings(trx))).general.defaultLocale
    : undefined;
  const runAts = new Map<string, Date>();
  const rows = planned.flatMap(({ message: each, recipients }) =>
    recipients.map((recipient) => ({
      unique_key: keyOf(each, recipient, runAts),
      kind: each.kind,
      user_id: recipient.id,
      to_address: recipient.email,
      locale: recipient.locale ?? fallbackLocale!,
      params: JSON.stringify(each.params),
      state: keepUnsent ? "kept" : "queued",
      created_at: at,
      updated_at: at,
    })),
  );
  let queued = 0;
  for (const chunk of chunks(rows)) {
    const inserted = await trx
      .insertInto("mail_outbox")
      .values(chunk)
      .onConflict((conflict) => conflict.column("unique_key").doNothing())
      .returning(["id", "kind", "unique_key"])
      .execute();
    queued += inserted.length;
    if (inserted.length === 0 || keepUnsent) continue;
    await enqueueJobs(
      trx,
      inserted.map((row) => ({
        type: MAIL_SEND_JOB,
        payload: { outboxId: Number(row.id) },
        maxAttempts: MAIL_MAX_ATTEMPTS,
        uniqueKey: `mail:${row.id}`,
        runAt: runAts.get(row.unique_key),
        // Security mail goes before every other queued job: no flood of mail stands in front of it.
        priority: isMailKind(row.kind) && isSecurityMail(row.kind) ? JOB_PRIORITY_URGENT : 0,
        now,
      })),
    );
  }
  return queued;
}

/** A message's unique key for a recipient, noting when it is sent if not at once. */
function keyOf(message: Planned, recipient: Recipient, runAts: Map<string, Date>): string {
  const key = `${message.kind}:${message.eventKey}:${recipient.id}`;
  if (message.runAt) runAts.set(key, message.runAt);
  return key;
}

export type OutboxRow = Selectable<MailOutboxTable>;

/** A message as a template writes it. */
export interface WrittenMail {
  subject: string;
  html: string;
  text: string;
}

/** Writes a message from its row (kind, language, params): the server's templates (server/mail.ts). */
export type MailWriter = (message: {
  kind: MailKind;
  locale: string;
  params: Record<string, unknown>;
}) => Promise<WrittenMail>;

/** What sends a written message: nodemailer's SMTP transport in the server, null without SMTP_URL. */
export interface MailTransport {
  sendMail(message: {
    from: string;
    to: string;
    subject: string;
    html: string;
    text: string;
    messageId: string;
  }): Promise<unknown>;
}

/**
 * The Message-ID of an outbox row: made from its id and unique key, so every attempt at the same message
 * carries the same one (a server that took the message but whose answer was lost sees it again as the
 * same message), and two installs never make the same.
 */
export function messageIdOf(
  row: Pick<OutboxRow, "id" | "unique_key" | "created_at">,
  from: string,
) {
  const hash = createHash("sha256")
    .update(`${row.unique_key}\n${row.created_at}`)
    .digest("hex")
    .slice(0, 16);
  const domain =
    from
      .split("@")
      .pop()
      ?.replace(/[^A-Za-z0-9.-]/g, "") || "hostfront.invalid";
  return `<outbox.${row.id}.${hash}@${domain}>`;
}

/**
 * The send job's handler. `transport` null (no SMTP_URL): the message is written and kept in the outbox
 * for /admin/mail. A failed attempt marks the row failed with the server's answer and throws, so the
 * worker retries with its backoff and /admin/automation shows the job; a permanent refusal (a 5xx answer
 * to the message, `isPermanentSmtpRefusal`) marks it refused and throws a PermanentJobError, so the job
 * is dead at once and staff are alerted. A message sent or kept is never sent again (a job run twice
 * after a crash finds it done); a refused one only when staff Retry its job.
 */
export function mailSendHandlerWith(options: {
  write: MailWriter;
  transport: MailTransport | null;
  /** The From header (MAIL_FROM); its address's domain ends the Message-ID. */
  from: string;
}): JobHandler {
  return async ({ db, now, payload, complete }): Promise<Record<string, number>> => {
    const { outboxId } = payload as { outboxId?: unknown };
    if (typeof outboxId !== "number") return { missing: 1 };
    const row = await db
      .selectFrom("mail_outbox")
      .selectAll()
      .where("id", "=", outboxId)
      .executeTakeFirst();
    if (!row) return { missing: 1 };
    if (row.state === "sent" || (row.state === "kept" && !options.transport)) return { done: 1 };
    if (!isMailKind(row.kind)) throw new Error(`Unknown mail kind "${row.kind}"`);

    // A message is written once: a retry sends what the first attempt wrote. Its Message-ID comes from
    // the row alone, so writing it again after a crash (nothing stored yet) gives the same one.
    const stored = row.subject !== null && row.html !== null && row.text !== null && row.message_id;
    const message: WrittenMail & { messageId: string } = stored
      ? { subject: row.subject!, html: row.html!, text: row.text!, messageId: row.message_id! }
      : {
          ...(await options.write({
            kind: row.kind,
            locale: row.locale,
            params: await paramsToWrite(db, row.kind, row.params),
          })),
          messageId: messageIdOf(row, options.from.replace(/>\s*$/, "")),
        };
    const at = now.toISOString();
    const written = stored
      ? {}
      : {
          subject: message.subject,
          html: message.html,
          text: message.text,
          message_id: message.messageId,
        };
    // Each outcome is one write of the row (with the message, the first time), committed with the job's
    // end where the job ends: with the claim, two commits per message rather than four (docs/mail.md).
    const settle = (changes: Updateable<MailOutboxTable>, endsJob: boolean) =>
      inTransaction(db, async (trx) => {
        await trx
          .updateTable("mail_outbox")
          .set({ ...written, ...changes, updated_at: at })
          .where("id", "=", row.id)
          .execute();
        if (endsJob) await complete(trx);
      });

    if (!options.transport) {
      await settle({ state: "kept" }, true);
      return { kept: 1 };
    }
    try {
      await options.transport.sendMail({ from: options.from, to: row.to_address, ...message });
    } catch (error) {
      const text = error instanceof Error ? error.message : String(error);
      const refused = isPermanentSmtpRefusal(error);
      await settle(
        {
          state: refused ? "refused" : "failed",
          attempts: row.attempts + 1,
          last_error: text.slice(0, 2000),
        },
        false,
      );
      if (refused)
        throw new PermanentJobError(`The mail server refused the message for good: ${text}`, {
          cause: error,
        });
      throw error;
    }
    await settle(
      {
        state: "sent",
        attempts: row.attempts + 1,
        last_error: null,
        sent_at: at,
        ...withoutToken(row.params, message),
      },
      true,
    );
    return { sent: 1 };
  };
}

/**
 * What a sent message's row keeps of a link that opens an account (a reset or a verification link): the
 * link with its token redacted, and no token in its values. The mail carries the link; the table need
 * not hold a working one for whoever reads it later (a backup, a stolen admin session).
 */
function withoutToken(
  params: string,
  message: { html: string; text: string },
): Partial<Updateable<MailOutboxTable>> {
  const values = parseParams(params);
  if (!("token" in values)) return {};
  const { token: _sent, ...kept } = values;
  return {
    params: JSON.stringify(kept),
    html: redactTokenLinks(message.html),
    text: redactTokenLinks(message.text),
  };
}

function toView(row: OutboxRow): OutboxMessageView {
  return {
    id: Number(row.id),
    kind: isMailKind(row.kind) ? row.kind : "orderReceived",
    to: row.to_address,
    locale: row.locale,
    state: isMailState(row.state) ? row.state : "queued",
    subject: row.subject,
    // Never a token: an admin reads where a link leads, not the link that would open someone's account.
    text: row.text === null ? null : redactTokenLinks(row.text),
    messageId: row.message_id,
    attempts: row.attempts,
    lastError: row.last_error,
    createdAt: row.created_at,
    sentAt: row.sent_at,
  };
}

const LIST_COLUMNS = [
  "id",
  "unique_key",
  "kind",
  "user_id",
  "to_address",
  "locale",
  "params",
  "state",
  "subject",
  "message_id",
  "attempts",
  "last_error",
  "created_at",
  "updated_at",
  "sent_at",
] as const;

/** Writes kept messages that were never written (`keepMailUnsent`) for /admin/mail to show. */
export interface KeptMailWriter {
  write: MailWriter;
  subject: (message: Parameters<MailWriter>[0]) => Promise<string>;
}

/** A kept message's row, written now if it never was: its subject for a list, all of it when opened. */
async function writtenKept(
  db: Db,
  row: OutboxRow,
  writer: KeptMailWriter | undefined,
  part: "subject" | "all",
): Promise<OutboxRow> {
  if (!writer || row.state !== "kept" || row.subject !== null || !isMailKind(row.kind)) return row;
  // As the send job writes it: the document it names found first (the invoice's number).
  const params = await paramsToWrite(db, row.kind, row.params);
  const message = { kind: row.kind, locale: row.locale, params };
  if (part === "subject") return { ...row, subject: await writer.subject(message) };
  const written = await writer.write(message);
  return { ...row, subject: written.subject, html: written.html, text: written.text };
}

/**
 * /admin/mail: a page of the outbox, newest first, by state; and the message opened, in full. A kept
 * message never written is written for the page (not stored: reading a page changes nothing).
 */
export async function listOutbox(
  db: Db,
  query: PageRequest & { state?: MailState; open?: number },
  writer?: KeptMailWriter,
) {
  let base = db.selectFrom("mail_outbox");
  if (query.state) base = base.where("state", "=", query.state);
  const [{ rows, hasMore }, matching, opened] = await Promise.all([
    fetchPage(base.select(LIST_COLUMNS).orderBy("id", "desc"), pageWindow(query, MAIL_PAGE_SIZE)),
    countRows(base),
    query.open
      ? db.selectFrom("mail_outbox").selectAll().where("id", "=", query.open).executeTakeFirst()
      : undefined,
  ]);
  return {
    messages: await Promise.all(
      rows.map(async (row) =>
        toView(await writtenKept(db, { ...row, html: null, text: null }, writer, "subject")),
      ),
    ),
    hasMore,
    matching,
    opened: opened ? toView(await writtenKept(db, opened, writer, "all")) : null,
  };
}

/** The kinds of mail a customer receives, of those they may turn off (the account tab's switches). */
export async function mailPreferencesOf(db: Db | Tx, userId: string): Promise<OptionalMailKind[]> {
  const off = new Set(
    (
      await db.selectFrom("mail_opt_outs").select("kind").where("user_id", "=", userId).execute()
    ).map((row) => row.kind),
  );
  return OPTIONAL_MAIL_KINDS.filter((kind) => !off.has(kind));
}

/**
 * The account tab's form: the customer receives the kinds in `receive` and none of the other optional
 * ones. Security mail is not among them, so it cannot be turned off.
 */
export async function setMailPreferences(
  db: Db,
  input: { userId: string; receive: readonly OptionalMailKind[]; now?: Date },
): Promise<{ ok: true; receive: OptionalMailKind[] }> {
  const at = (input.now ?? new Date()).toISOString();
  const off = OPTIONAL_MAIL_KINDS.filter((kind) => !input.receive.includes(kind));
  return inTransaction(db, async (trx) => {
    await trx.deleteFrom("mail_opt_outs").where("user_id", "=", input.userId).execute();
    if (off.length > 0)
      await trx
        .insertInto("mail_opt_outs")
        .values(off.map((kind) => ({ user_id: input.userId, kind, created_at: at })))
        .execute();
    return { ok: true as const, receive: await mailPreferencesOf(trx, input.userId) };
  });
}

/**
 * A step of an account's deletion (ADR 19): its messages (address, what they said) and its email choices
 * are erased; a send job still waiting finds its row gone and does nothing.
 */
export async function forgetMailOf(trx: Tx, userId: string): Promise<number> {
  await trx.deleteFrom("mail_opt_outs").where("user_id", "=", userId).execute();
  const result = await trx
    .deleteFrom("mail_outbox")
    .where("user_id", "=", userId)
    .executeTakeFirst();
  return Number(result.numDeletedRows);
}

/** How many messages wait in the outbox because no SMTP server is set (the admin dashboard says so). */
export async function countKeptMail(db: Db): Promise<number> {
  return countRows(db.selectFrom("mail_outbox").where("state", "=", "kept"));
}
