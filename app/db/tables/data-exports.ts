import type { Generated } from "kysely";
import type { Timestamp } from "./columns";

/**
 * A customer's archive of their data (migration 0057, docs/self-service.md): asked for from the account
 * tab, made by the worker, downloaded through a link that carries a token.
 */
export interface DataExportsTable {
  id: Generated<number>;
  user_id: string;
  /** queued | ready | failed | expired (a CHECK). */
  state: Generated<string>;
  /** The archive's size once made (kept after its bytes are deleted). */
  size_bytes: number | null;
  /** Hex SHA-256 of the link's token, once ready; the token itself is never stored. */
  token_hash: string | null;
  asked_at: Timestamp;
  ready_at: Timestamp | null;
  /** When the link stops working and the bytes are deleted. */
  expires_at: Timestamp | null;
  /** The worker's job that makes it. */
  job_id: number | null;
  downloads: Generated<number>;
  /** The ZIP's bytes while it is ready (a Buffer on both dialects), null otherwise. */
  archive: Buffer | null;
}

/** This capability's part of the Database interface (app/db/schema.ts). */
export interface DataExportTables {
  data_exports: DataExportsTable;
}
