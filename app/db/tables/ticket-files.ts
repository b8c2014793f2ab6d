import type { Generated } from "kysely";
import type { Timestamp } from "./columns";

/**
 * A file sent with a ticket's message (migration 0055, docs/self-service.md#files-with-tickets): read as
 * the proofs are, served to the ticket's customer and to staff only, emptied by the retention purge.
 */
export interface TicketFilesTable {
  id: Generated<number>;
  ticket_id: number;
  message_id: number;
  /** Who sent it: the ticket's customer or a member of the staff. */
  uploader_id: string | null;
  /** image/jpeg | image/png | image/webp | application/pdf | text/plain (a CHECK), from the content. */
  content_type: string;
  /** The size as stored (an image's as written again), kept after the purge. */
  byte_size: number;
  /** Hex SHA-256 of the bytes as uploaded. */
  sha256: string;
  /** The sent name made safe, with its type's extension (.txt or .log for text). */
  file_name: string;
  /** An image's size in pixels as stored; null for anything else. */
  width: number | null;
  height: number | null;
  created_at: Timestamp;
  /** When the retention purge emptied it (its bytes are null from then on). */
  removed_at: Timestamp | null;
  /** What is served (a Buffer on both dialects); null once removed. */
  bytes: Buffer | null;
}

/** The tables of files with tickets, joined to `Database` (schema.ts). */
export interface TicketFileTables {
  ticket_files: TicketFilesTable;
}
