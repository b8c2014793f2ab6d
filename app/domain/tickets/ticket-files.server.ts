import type { Db, Tx } from "~/db/transaction";
import { inTransaction } from "~/db/transaction";
import {
  countUploadPost,
  prepareUpload,
  type PreparedUpload,
  type Upload,
  type UploadPolicy,
  type UploadRefusalReason,
} from "~/domain/files/uploads.server";
import { getSettings } from "~/domain/settings/settings.server";
import { can, staffRoleOf } from "~/domain/staff/permissions";
import {
  MAX_TICKET_FILE_BYTES,
  MAX_TICKET_FILE_NAME_LENGTH,
  pickedFilesProblem,
  TICKET_FILE_POST_WINDOW_MS,
  TICKET_FILE_POSTS_PER_HOUR,
  ticketFileCutoff,
  ticketFileTypeOf,
  type TicketFile,
  type TicketFileError,
  type TicketFileType,
} from "./ticket-files";

// Files sent with a ticket's messages (docs/self-service.md#files-with-tickets, ADR 60): read through the
// proofs' pipeline (app/domain/files) before the message's transaction, stored with the message in it,
// listed with the thread, served to the ticket's customer and to staff only, and emptied once the
// settings' retention has passed.

/** A file read and ready to store with its message. */
export type PreparedTicketFile = PreparedUpload<TicketFileType>;

/** A refused post of files: the form's `files` field, the file's name or the limit in the message. */
export type TicketFileRefusal =
  | { ok: false; kind: "invalid"; error: TicketFileError; field: "files"; params: FileParams }
  /** Too many posts with files lately: the wait in whole minutes (`count`). */
  | {
      ok: false;
      kind: "limited";
      error: "tickets.files.errors.tooManyPosts";
      field: "files";
      params: { count: number };
    };
type FileParams = Record<string, string | number>;

/** The ticket a post with files is for, when it is the customer's own (else "not found"). */
export type TicketNotFound = { ok: false; kind: "notFound"; error: "tickets.errors.notFound" };

const TICKET_FILE_POLICY: UploadPolicy<TicketFileType> = {
  maxBytes: MAX_TICKET_FILE_BYTES,
  typeOf: ticketFileTypeOf,
  fallbackName: "file",
  maxNameLength: MAX_TICKET_FILE_NAME_LENGTH,
};

/** Each reason an upload is refused for, in the tickets' words. */
const REFUSALS: Record<UploadRefusalReason, TicketFileError> = {
  tooBig: "tickets.files.errors.tooBig",
  type: "tickets.files.errors.type",
  misnamed: "tickets.files.errors.misnamed",
  tooManyPixels: "tickets.files.errors.tooManyPixels",
  unreadable: "tickets.files.errors.unreadable",
};

function invalid(error: TicketFileError, params: FileParams): TicketFileRefusal {
  return { ok: false, kind: "invalid", error, field: "files", params };
}

/**
 * The files of one message, read before its transaction (decoding an image takes a while and no write
 * lock may wait on it): refused as a whole at the first problem, so nobody wonders which were kept. What
 * their count and sizes tell is checked first, reading nothing; then a customer's post is counted against
 * TICKET_FILE_POSTS_PER_HOUR (staff are not limited, as with tickets); then, when `ticket` is given, the
 * ticket must be there (and the customer's own): another's is "not found" before anything is decoded;
 * then each file is read by its content, one after the other.
 */
export async function prepareTicketFiles(
  db: Db,
  input: {
    uploaderId: string;
    uploads: readonly Upload[];
    /** A customer's post: counted against the hourly limit. */
    limited: boolean;
    /** The ticket the message is for, with its customer when the uploader is one. */
    ticket?: { id: number; userId?: string };
    now: Date;
  },
): Promise<{ ok: true; files: PreparedTicketFile[] } | TicketFileRefusal | TicketNotFound> {
  if (input.uploads.length === 0) return { ok: true, files: [] };
  const problem = pickedFilesProblem(
    input.uploads.map((upload) => ({ name: upload.name, size: upload.bytes.length })),
  );
  if (problem) return invalid(problem.error, problem.params);
  if (input.limited) {
    const minutes = await countUploadPost(
      db,
      {
        form: `ticket-files/${input.uploaderId}`,
        limit: TICKET_FILE_POSTS_PER_HOUR,
        windowMs: TICKET_FILE_POST_WINDOW_MS,
      },
      input.now,
    );
    if (minutes !== null)
      return {
        ok: false,
        kind: "limited",
        error: "tickets.files.errors.tooManyPosts",
        field: "files",
        params: { count: minutes },
      };
  }
  if (input.ticket && !(await ticketIsThere(db, input.ticket)))
    return { ok: false, kind: "notFound", error: "tickets.errors.notFound" };
  const files: PreparedTicketFile[] = [];
  for (const upload of input.uploads) {
    const prepared = await prepareUpload(upload, TICKET_FILE_POLICY);
    if (!prepared.ok) {
      const { name, max, extension } = prepared.params;
      return invalid(REFUSALS[prepared.reason], {
        name,
        ...(max === undefined ? {} : { max }),
        ...(extension === undefined ? {} : { extension }),
      });
    }
    files.push(prepared.file);
  }
  return { ok: true, files };
}

/**
 * Reads a message's files (prepareTicketFiles), then stores the message with them (`store`, which opens
 * its transaction), or says why the files were refused and stores nothing.
 */
export async function withTicketFiles<R>(
  db: Db,
  input: Parameters<typeof prepareTicketFiles>[1],
  store: (files: readonly PreparedTicketFile[]) => Promise<R>,
): Promise<R | TicketFileRefusal | TicketNotFound> {
  const files = await prepareTicketFiles(db, input);
  return files.ok ? store(files.files) : files;
}

async function ticketIsThere(db: Db, ticket: { id: number; userId?: string }) {
  let query = db.selectFrom("tickets").select("id").where("id", "=", ticket.id);
  if (ticket.userId !== undefined) query = query.where("user_id", "=", ticket.userId);
  return (await query.executeTakeFirst()) !== undefined;
}

/** A step: stores a message's files with it, in the transaction that stores the message. */
export async function attachTicketFiles(
  trx: Tx,
  message: { ticketId: number; messageId: number; uploaderId: string },
  files: readonly PreparedTicketFile[],
  now: Date,
): Promise<void> {
  if (files.length === 0) return;
  await trx
    .insertInto("ticket_files")
    .values(
      files.map((file) => ({
        ticket_id: message.ticketId,
        message_id: message.messageId,
        uploader_id: message.uploaderId,
        content_type: file.contentType,
        byte_size: file.bytes.length,
        sha256: file.sha256,
        file_name: file.fileName,
        width: file.width,
        height: file.height,
        created_at: now.toISOString(),
        bytes: file.bytes,
      })),
    )
    .execute();
}

/** The files of `messageIds`, by message, oldest first (the thread's list: never their bytes). */
export async function filesOfMessages(
  db: Db | Tx,
  messageIds: readonly number[],
): Promise<Map<number, TicketFile[]>> {
  const byMessage = new Map<number, TicketFile[]>();
  if (messageIds.length === 0) return byMessage;
  const rows = await db
    .selectFrom("ticket_files")
    .select([
      "id",
      "message_id",
      "file_name",
      "content_type",
      "byte_size",
      "width",
      "height",
      "removed_at",
    ])
    .where("message_id", "in", messageIds)
    .orderBy("id")
    .execute();
  for (const row of rows) {
    const file: TicketFile = {
      id: Number(row.id),
      messageId: Number(row.message_id),
      fileName: row.file_name,
      contentType: row.content_type as TicketFileType,
      byteSize: Number(row.byte_size),
      width: row.width,
      height: row.height,
      removed: row.removed_at !== null,
    };
    const list = byMessage.get(file.messageId) ?? [];
    list.push(file);
    byMessage.set(file.messageId, list);
  }
  return byMessage;
}

/** A ticket's file as served: its bytes, with what the response says of them. */
export interface ServedTicketFile {
  fileName: string;
  contentType: TicketFileType;
  bytes: Buffer;
}

export type TicketFileResult =
  | { ok: true; file: ServedTicketFile }
  | { ok: false; kind: "notFound"; error: "tickets.files.errors.notFound" };

const fileNotFound = {
  ok: false as const,
  kind: "notFound" as const,
  error: "tickets.files.errors.notFound" as const,
};

/**
 * A ticket's file for `viewerId`: the ticket's customer's (but a file of a note the staff wrote for each
 * other), or any for an active member of the staff whose role answers tickets (the role is read here,
 * whatever the route checked). Anyone else, a file of another ticket than the address says, a removed
 * file and an id that does not exist get the same "not found": a file's existence is never confirmed to
 * someone who may not see it.
 */
export async function readTicketFile(
  db: Db,
  input: { ticketId: number; fileId: number; viewerId: string },
): Promise<TicketFileResult> {
  const row = await db
    .selectFrom("ticket_files")
    .innerJoin("tickets", "tickets.id", "ticket_files.ticket_id")
    .innerJoin("ticket_messages", "ticket_messages.id", "ticket_files.message_id")
    .select([
      "tickets.user_id",
      "ticket_messages.internal",
      "ticket_files.file_name",
      "ticket_files.content_type",
      "ticket_files.bytes",
    ])
    .where("ticket_files.id", "=", input.fileId)
    .where("ticket_files.ticket_id", "=", input.ticketId)
    .executeTakeFirst();
  if (!row?.bytes) return fileNotFound;
  const customers = row.user_id === input.viewerId && row.internal === 0;
  if (!customers && !(await answersTickets(db, input.viewerId))) return fileNotFound;
  return {
    ok: true,
    file: {
      fileName: row.file_name,
      contentType: row.content_type as TicketFileType,
      bytes: Buffer.from(row.bytes),
    },
  };
}

/** Whether `userId` is an active member of the staff whose role answers tickets. */
async function answersTickets(db: Db, userId: string): Promise<boolean> {
  const user = await db
    .selectFrom("users")
    .select(["role", "staff_role", "status"])
    .where("id", "=", userId)
    .executeTakeFirst();
  return (
    user?.role === "admin" &&
    user.status === "active" &&
    can(staffRoleOf(user.staff_role), "tickets.reply")
  );
}

/** Files emptied in one statement, so a backlog never makes one long write. */
export const TICKET_FILE_PURGE_BATCH = 100;

/**
 * Empties the files sent longer ago than the settings' `selfService.ticketFileRetentionDays`, in batches
 * of TICKET_FILE_PURGE_BATCH, and returns how many went. Each row stays, without its bytes and marked
 * removed, so its message still says a file was there; a second run finds nothing more to do.
 */
export async function purgeExpiredTicketFiles(
  db: Db,
  input: { now: Date; batchSize?: number },
): Promise<number> {
  const { ticketFileRetentionDays } = (await getSettings(db)).selfService;
  const cutoff = ticketFileCutoff(input.now, ticketFileRetentionDays).toISOString();
  const batch = input.batchSize ?? TICKET_FILE_PURGE_BATCH;
  let removed = 0;
  for (;;) {
    const due = await db
      .selectFrom("ticket_files")
      .select("id")
      .where("removed_at", "is", null)
      .where("created_at", "<", cutoff)
      .orderBy("created_at")
      .orderBy("id")
      .limit(batch)
      .execute();
    if (due.length === 0) return removed;
    const ids = due.map((row) => row.id);
    const result = await inTransaction(db, (trx) =>
      trx
        .updateTable("ticket_files")
        .set({ bytes: null, removed_at: input.now.toISOString() })
        .where("id", "in", ids)
        .where("removed_at", "is", null)
        .executeTakeFirst(),
    );
    removed += Number(result.numUpdatedRows);
    if (due.length < batch) return removed;
  }
}
