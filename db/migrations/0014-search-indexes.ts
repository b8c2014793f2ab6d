import { sql, type Kysely } from "kysely";
import { columnTypes } from "./column-types";

// Indexes the scale benchmark asked for (measured: git log -p docs/performance.md, "Scale").
export async function up(db: Kysely<unknown>): Promise<void> {
  const t = columnTypes(db);
  // A customer's active services are counted on every dashboard view and per row of the clients list; by
  // (user_id, id) alone a customer with thousands of past services had all of them read.
  await db.schema
    .createIndex("hosting_services_user_status_idx")
    .on("hosting_services")
    .columns(["user_id", "status"])
    .execute();

  // Substring search of account names and emails (the clients list, the transactions page's customer
  // filter) through an index of trigrams, so a search for one customer does not read every account: a
  // LIKE '%…%' cannot use a B-tree index.
  if (t.postgres) {
    // pg_trgm ships with PostgreSQL (contrib) and is a trusted extension since PostgreSQL 13, so the
    // database's owner may create it. Where it cannot be created, the search still works, unindexed.
    const { rows } = await sql<{ ok: boolean }>`
      select exists (select 1 from pg_available_extensions where name = 'pg_trgm')
        and (exists (select 1 from pg_extension where extname = 'pg_trgm')
          or has_database_privilege(current_database(), 'CREATE')) as ok
    `.execute(db);
    if (!rows[0]?.ok) return;
    await sql`create extension if not exists pg_trgm`.execute(db);
    // The search compares lower(name) and email (stored lower-case), so those are what is indexed.
    await sql`create index users_name_trgm_idx on users using gin (lower(name) gin_trgm_ops)`.execute(
      db,
    );
    await sql`create index users_email_trgm_idx on users using gin (email gin_trgm_ops)`.execute(
      db,
    );
    return;
  }
  // SQLite: an FTS5 table with the trigram tokenizer (case-insensitive), kept in step with users by
  // triggers and keyed by the users row's rowid. It holds derived data only: migrate-to-postgres does not
  // copy it, and a VACUUM (which may renumber rowids of a table with a text key) would need a rebuild:
  // delete from users_search; insert into users_search(rowid, name, email) select rowid, name, email from users.
  await sql`create virtual table users_search using fts5(name, email, tokenize = 'trigram')`.execute(
    db,
  );
  await sql`
    create trigger users_search_insert after insert on users begin
      insert into users_search (rowid, name, email) values (new.rowid, new.name, new.email);
    end
  `.execute(db);
  await sql`
    create trigger users_search_update after update of name, email on users begin
      update users_search set name = new.name, email = new.email where rowid = new.rowid;
    end
  `.execute(db);
  await sql`
    create trigger users_search_delete after delete on users begin
      delete from users_search where rowid = old.rowid;
    end
  `.execute(db);
  await sql`insert into users_search (rowid, name, email) select rowid, name, email from users`.execute(
    db,
  );
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropIndex("hosting_services_user_status_idx").ifExists().execute();
  if (columnTypes(db).postgres) {
    await sql`drop index if exists users_email_trgm_idx`.execute(db);
    await sql`drop index if exists users_name_trgm_idx`.execute(db);
    return;
  }
  for (const trigger of ["users_search_insert", "users_search_update", "users_search_delete"])
    await sql`drop trigger if exists ${sql.raw(trigger)}`.execute(db);
  await sql`drop table if exists users_search`.execute(db);
}
