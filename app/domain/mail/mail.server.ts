import type { Tx } from "~/db/transaction";
import { enqueueJobs, JOB_PRIORITY_URGENT } from "~/domain/jobs/jobs.server";
import { getSettings } from "~/domain/settings/settings.server";
import type { Settings } from "~/domain/settings/settings";
import { isMailKind, isSecurityMail } from "./mail";
import type { AddressedMail, MailEvent } from "./mail-events";
import { planMail, type Planned } from "./mail-plan.server";
import { chunks, recipientsOf, type Recipient } from "./mail-recipients.server";
import { MAIL_SEND_JOB } from "./mail-sender.server";
import { keepsMailUnsent } from "./outbox-mode.server";

// The outbox (docs/mail.md). A use-case queues the mail of its event with queueMail(trx, …) in
// its own transaction: one outbox row per recipient, unique for ever by event and recipient, and one
// worker job per row. The job writes the message (in the recipient's language) at its first attempt,
// stores it with a Message-ID made from the row, then sends it over SMTP, or keeps it when no SMTP_URL is
// set. Nothing is ever sent inside a request or a transaction: an SMTP outage only delays the job.
//
// This module is the outbox's writer, the only part of mail the events' reactions call
// (app/domain/events): what an event mails is in mail-plan.server.ts, who gets it in
// mail-recipients.server.ts, the send job in mail-sender.server.ts.

/** Attempts before the job is dead (with the worker's backoff, about a day at the default 30 s). */
const MAIL_MAX_ATTEMPTS = 10;

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
  const keepUnsent = keepsMailUnsent();
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
  return writeOutbox(trx, rows, runAts, keepUnsent, now);
}

type OutboxRow = {
  unique_key: string;
  kind: string;
  user_id: string | null;
  to_address: string;
  locale: string;
  params: string;
  state: string;
  created_at: string;
  updated_at: string;
};

/**
 * Step: the outbox rows written a few hundred at a time, each new one with its send job (none while mail
 * is kept unsent), at its time when `runAts` names one. Returns how many rows were new.
 */
async function writeOutbox(
  trx: Tx,
  rows: readonly OutboxRow[],
  runAts: ReadonlyMap<string, Date | undefined>,
  keepUnsent: boolean,
  now: Date,
): Promise<number> {
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

/**
 * A step: queues messages already addressed (docs/mail.md#campaigns) in the caller's transaction, one
 * outbox row and one send job each, as `queueMails` does for an event's. Returns how many it queued.
 */
export async function queueAddressedMail(
  trx: Tx,
  messages: readonly AddressedMail[],
  now = new Date(),
): Promise<number> {
  const at = now.toISOString();
  const keepUnsent = keepsMailUnsent();
  const runAts = new Map(messages.map((each) => [each.uniqueKey, each.runAt]));
  const rows = messages.map((each) => ({
    unique_key: each.uniqueKey,
    kind: each.kind,
    user_id: each.userId,
    to_address: each.address,
    locale: each.locale,
    params: JSON.stringify(each.params),
    state: keepUnsent ? "kept" : "queued",
    created_at: at,
    updated_at: at,
  }));
  return writeOutbox(trx, rows, runAts, keepUnsent, now);
}
