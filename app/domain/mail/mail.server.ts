import { createHash } from "node:crypto";
import {
  activeAdminsOnce,
  activeAdminsRead,
  keepActiveAdmins,
} from "~/domain/accounts/user-directory.server";
import type { Selectable, Updateable } from "kysely";
import { containsAny } from "~/db/like-pattern";
import { countRows, fetchPage, pageWindow, type PageRequest } from "~/db/paging";
import type { MailOutboxTable } from "~/db/schema";
import { inTransaction, type Db, type Tx } from "~/db/transaction";
import {
  enqueueJobs,
  JOB_PRIORITY_URGENT,
  PermanentJobError,
  type JobHandler,
} from "~/domain/jobs/jobs.server";
import { getSettings } from "~/domain/settings/settings.server";
import type { Settings } from "~/domain/settings/settings";
import {
  isMailKind,
  isMailState,
  isSecurityMail,
  isPermanentSmtpRefusal,
  MAIL_PAGE_SIZE,
  OPTIONAL_MAIL_KINDS,
  redactTokenLinks,
  STAFF_MAIL_CHOICE_OF,
  type ClientMailView,
  type MailKind,
  type MailState,
  type OptionalMailKind,
  type OutboxMessageView,
} from "./mail";
import { planMail, type MailEvent, type Planned } from "./mail-plan.server";
import { paramsToWrite, parseParams } from "./message-values.server";

export type {
  AccountSecurityMailEvent,
  AddressMailEvent,
  DocumentRef,
  DocumentSource,
  MailEvent,
  RenewalTerms,
  ServiceMailEvent,
} from "./mail-plan.server";

// The outbox (docs/mail.md). A use-case queues the mail of its event with queueMail(trx, …) in
// its own transaction: one outbox row per recipient, unique for ever by event and recipient, and one
// worker job per row. The job writes the message (in the recipient's language) at its first attempt,
// stores it with a Message-ID made from the row, then sends it over SMTP, or keeps it when no SMTP_URL is
// set. Nothing is ever sent inside a request or a transaction: an SMTP outage only delays the job.

export const MAIL_SEND_JOB = "mail.send";
/** Attempts before the job is dead (with the worker's backoff, about a day at the default 30 s). */
const MAIL_MAX_ATTEMPTS = 10;

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
  const askedFor = await staffChoicesOf(trx, planned);
  // The admins are read only when one of them is to be mailed: a customer's reply, which mails only
  // the admins who asked for it, reads nothing more when none did.
  const staff = planned.some((each) => each.to === "staff" && askedFor(each.kind) !== "nobody");
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
    if (each.to === "staff") {
      const asked = askedFor(each.kind);
      if (asked === "nobody") return { message: each, recipients: [] };
      return {
        message: each,
        recipients: asked === "every" ? admins : admins.filter((admin) => asked.has(admin.id)),
      };
    }
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
 * Who asked for each staff message that needs a choice (STAFF_MAIL_CHOICE_OF), read in one statement
 * when such a message is planned: "every" admin for the others, "nobody" when no one asked.
 */
async function staffChoicesOf(
  trx: Tx,
  planned: Planned[],
): Promise<(kind: MailKind) => "every" | "nobody" | Set<string>> {
  const choices = [
    ...new Set(
      planned.flatMap((each) => {
        const choice = each.to === "staff" ? STAFF_MAIL_CHOICE_OF[each.kind] : undefined;
        return choice ? [choice] : [];
      }),
    ),
  ];
  const asked = new Map<string, Set<string>>();
  if (choices.length > 0)
    for (const row of await trx
      .selectFrom("mail_opt_ins")
      .select(["user_id", "kind"])
      .where("kind", "in", choices)
      .execute())
      asked.set(row.kind, (asked.get(row.kind) ?? new Set()).add(row.user_id));
  return (kind) => {
    const choice = STAFF_MAIL_CHOICE_OF[kind];
    if (!choice) return "every";
    return asked.get(choice) ?? "nobody";
  };
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
  const planned = await recipientsOf(trx, events.flatMap(planMail));
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
 * /admin/mail: a page of the outbox, newest first, by state and by part of the recipient's address
 * (any case, LIKE's wildcards taken literally); and the message opened, in full. A kept message never
 * written is written for the page (not stored: reading a page changes nothing).
 */
export async function listOutbox(
  db: Db,
  query: PageRequest & { state?: MailState; to?: string; open?: number },
  writer?: KeptMailWriter,
) {
  let base = db.selectFrom("mail_outbox");
  if (query.state) base = base.where("state", "=", query.state);
  const to = query.to?.trim().toLowerCase();
  if (to) base = base.where(containsAny(["lower(mail_outbox.to_address)"], to));
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

/**
 * The newest `size` messages sent (or kept) for an account, and whether older ones exist: one query by
 * the outbox's (user_id, id) index. The list at /admin/mail?to=… has the rest.
 */
export async function latestMailOf(db: Db, userId: string, size: number) {
  const { rows, hasMore } = await fetchPage(
    db
      .selectFrom("mail_outbox")
      .select(["id", "kind", "to_address", "state", "subject", "created_at", "sent_at"])
      .where("user_id", "=", userId)
      .orderBy("id", "desc"),
    { limit: size, offset: 0 },
  );
  return {
    rows: rows.map((row): ClientMailView => ({
      id: Number(row.id),
      kind: isMailKind(row.kind) ? row.kind : "orderReceived",
      to: row.to_address,
      state: isMailState(row.state) ? row.state : "queued",
      subject: row.subject,
      createdAt: row.created_at,
      sentAt: row.sent_at,
    })),
    hasMore,
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
  await trx.deleteFrom("mail_opt_ins").where("user_id", "=", userId).execute();
  const result = await trx
    .deleteFrom("mail_outbox")
    .where("user_id", "=", userId)
    .executeTakeFirst();
  return Number(result.numDeletedRows);
}
