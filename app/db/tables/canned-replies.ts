import type { Generated } from "kysely";
import type { Timestamp } from "./columns";

/**
 * A reply the staff insert into a ticket (migration 0056, docs/self-service.md), written in each of the
 * site's languages; app/domain/tickets/canned-replies.ts fills it in for one customer.
 */
export interface CannedRepliesTable {
  id: Generated<number>;
  title: string;
  /** The title folded (cannedTitleKey): unique, so no two replies share a title. */
  title_key: string;
  /** JSON: one text per language ({"en": "...", "fr": "...", "ar": "..."}), "" where none. */
  texts: Generated<string>;
  /** billing | technical | sales (a CHECK), null for any department. */
  department: string | null;
  position: Generated<number>;
  /** Who wrote it; null for a seeded reply, or a writer whose account is gone. */
  created_by: string | null;
  created_at: Timestamp;
  updated_at: Timestamp;
}

/** The canned replies' tables, joined to the Database interface (app/db/schema.ts). */
export interface CannedReplyTables {
  canned_replies: CannedRepliesTable;
}
