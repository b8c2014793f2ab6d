import { sql } from "kysely";
import type { Db } from "~/db/transaction";

export interface DirectoryUser {
  id: string;
  name: string;
  email: string;
  role: string;
  coinBalanceCents: number;
}

/** Admin search by name or email, paged on the server; case-insensitive on both dialects. */
export async function searchUsers(db: Db, query: { q?: string; limit: number; offset: number }) {
  let select = db.selectFrom("users").select(["id", "name", "email", "role", "coin_balance_cents"]);
  const q = query.q?.trim().toLowerCase();
  if (q) {
    const pattern = `%${q.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
    // Emails are stored lower-case; names are compared lower-cased. LIKE's wildcards in q are escaped.
    select = select.where(
      sql<boolean>`(lower(name) like ${pattern} escape '\\' or email like ${pattern} escape '\\')`,
    );
  }
  const rows = await select
    .orderBy("created_at", "desc")
    .orderBy("id")
    .limit(query.limit + 1)
    .offset(query.offset)
    .execute();
  return {
    users: rows.slice(0, query.limit).map((row): DirectoryUser => ({
      id: row.id,
      name: row.name,
      email: row.email,
      role: row.role,
      coinBalanceCents: row.coin_balance_cents,
    })),
    hasMore: rows.length > query.limit,
  };
}
