import {
  extensionOf,
  isPlainText,
  KNOWN_EXTENSIONS,
  SIGNED_EXTENSIONS,
  signedTypeOf,
  type SignedFileType,
} from "~/domain/files/files";

// Files sent with a ticket's messages (docs/self-service.md#files-with-tickets): what a customer or the
// staff may attach, and how a file's type is read. Every upload's reading (app/domain/files), plus plain
// text logs. Pure and safe in the browser (the forms say the same limits the server checks).

/** The types a ticket's file may have: the proofs' images and PDF, and plain-text logs. */
export const TICKET_FILE_TYPES = [
  "image/jpeg",
  "image/png",
  "image/webp",
  "application/pdf",
  "text/plain",
] as const;
export type TicketFileType = (typeof TICKET_FILE_TYPES)[number];

/** What the file input offers to pick (a hint to the browser; the server reads the content). */
export const TICKET_FILE_ACCEPT = [...TICKET_FILE_TYPES, ".txt", ".log"].join(",");

/** Files one message may carry. */
export const MAX_TICKET_FILES_PER_MESSAGE = 5;
/** 8 MiB a file, as sent. */
export const MAX_TICKET_FILE_BYTES = 8 * 1024 * 1024;
/**
 * The files of one message together, as sent: 15 MiB, under the uploads' body limit (BODY_LIMIT_UPLOAD,
 * 16 MiB by default) with room for the message's text, so a post the page lets go is never cut off
 * with a bare 413 that would lose what was typed.
 */
export const MAX_TICKET_POST_FILE_BYTES = 15 * 1024 * 1024;
/**
 * Posts with files a customer may make in an hour, whatever becomes of them: each costs its images'
 * decoding before it can be refused. A person sends one or two a message, a few more when one is refused.
 */
export const TICKET_FILE_POSTS_PER_HOUR = 20;
export const TICKET_FILE_POST_WINDOW_MS = 60 * 60_000;
/** The longest stored name, extension included (characters). */
export const MAX_TICKET_FILE_NAME_LENGTH = 100;

/** The extensions a text file may be sent under: a log, or a text. */
const TEXT_EXTENSIONS = ["txt", "log"];

/** How a file's content reads as a ticket's file: its type and the extension it is stored under. */
export type TicketFileReading =
  | { type: TicketFileType; extension: string }
  /** `misnamed`: the name says another type than the bytes (`extension`, the name's). */
  | { reason: "type" | "misnamed"; extension?: string };

/**
 * A ticket's file read by its bytes: a JPEG, PNG or WebP image or a PDF by its signature, stored under
 * that type's extension; else plain text (valid UTF-8, no NUL byte) sent as a .txt or .log. A name whose
 * extension says one of these types and not the one its bytes have is refused (`misnamed`: a page saved
 * as "screenshot.png", a "log.txt" that is an image). Any other file is refused (`type`).
 */
export function ticketFileTypeOf(upload: { name: string; bytes: Uint8Array }): TicketFileReading {
  const sent = extensionOf(upload.name);
  const said = sent ? KNOWN_EXTENSIONS[sent] : undefined;
  const signed: SignedFileType | null = signedTypeOf(upload.bytes);
  const type: TicketFileType | null = signed ?? (isPlainText(upload.bytes) ? "text/plain" : null);
  if (said && said !== type) return { reason: "misnamed", extension: sent! };
  if (signed) return { type: signed, extension: SIGNED_EXTENSIONS[signed] };
  if (type === "text/plain" && sent && TEXT_EXTENSIONS.includes(sent))
    return { type, extension: sent };
  return { reason: "type" };
}

/** Why a ticket's files are refused, each a message of the tickets namespace naming the file. */
export type TicketFileError =
  | "tickets.files.errors.tooMany"
  | "tickets.files.errors.tooBig"
  | "tickets.files.errors.allTooBig"
  | "tickets.files.errors.type"
  | "tickets.files.errors.misnamed"
  | "tickets.files.errors.tooManyPixels"
  | "tickets.files.errors.unreadable";

export interface TicketFileProblem {
  error: TicketFileError;
  params: Record<string, string | number>;
}

/**
 * What can be told of a message's files by their names and sizes alone (the page before it sends them,
 * the server before it reads them): more than MAX_TICKET_FILES_PER_MESSAGE, one over
 * MAX_TICKET_FILE_BYTES (named), or all of them over MAX_TICKET_POST_FILE_BYTES; null when none is.
 */
export function pickedFilesProblem(
  files: readonly { name: string; size: number }[],
): TicketFileProblem | null {
  if (files.length > MAX_TICKET_FILES_PER_MESSAGE)
    return { error: "tickets.files.errors.tooMany", params: { max: MAX_TICKET_FILES_PER_MESSAGE } };
  const big = files.find((file) => file.size > MAX_TICKET_FILE_BYTES);
  if (big)
    return {
      error: "tickets.files.errors.tooBig",
      params: { name: big.name, max: MAX_TICKET_FILE_BYTES / 1024 / 1024 },
    };
  const total = files.reduce((sum, file) => sum + file.size, 0);
  if (total > MAX_TICKET_POST_FILE_BYTES)
    return {
      error: "tickets.files.errors.allTooBig",
      params: { max: MAX_TICKET_POST_FILE_BYTES / 1024 / 1024 },
    };
  return null;
}

/** A ticket's file as the thread lists it (never its bytes). */
export interface TicketFile {
  id: number;
  messageId: number;
  fileName: string;
  contentType: TicketFileType;
  byteSize: number;
  width: number | null;
  height: number | null;
  /** Emptied by the retention purge: the thread still names it, as removed. */
  removed: boolean;
}

/** Where a ticket's file is served: to the ticket's customer and to staff who answer tickets (else 404). */
export function ticketFilePath(ticketId: number, fileId: number): string {
  return `/support/${ticketId}/files/${fileId}`;
}

export function isImageFile(file: Pick<TicketFile, "contentType">): boolean {
  return file.contentType.startsWith("image/");
}

const DAY_MS = 24 * 60 * 60_000;

/** The moment before which a file is past its retention of `days` days at `now`. */
export function ticketFileCutoff(now: Date, days: number): Date {
  return new Date(now.getTime() - days * DAY_MS);
}
