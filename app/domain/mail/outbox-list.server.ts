import { containsAny } from "~/db/like-pattern";
import { countRows, fetchPage, pageWindow, type PageRequest } from "~/db/paging";
import type { Db } from "~/db/transaction";
import {
  isMailKind,
  isMailState,
  MAIL_PAGE_SIZE,
  redactTokenLinks,
  type MailState,
  type OutboxMessageView,
} from "./mail";
import type { MailWriter, OutboxRow } from "./mail-sender.server";
import { paramsToWrite } from "./message-values.server";

// /admin/mail's reads of the outbox: a page of it, searched by state and recipient, and one message
// opened. Reading changes nothing.

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
