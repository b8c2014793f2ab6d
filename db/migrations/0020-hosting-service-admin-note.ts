import { sql, type Kysely } from "kysely";
import { columnTypes } from "./column-types";

// /admin/services (issue 20): an admin's note on a service, and the indexes its list needs at 100,000
// services. The list is sorted by expiry, creation, price or customer, filtered by status, type and
// "expiring within N days", and searched by customer and service name; each sort reads a page in the
// order of one index (the id breaks ties), so a page deep in the list does not sort every service.
export async function up(db: Kysely<unknown>): Promise<void> {
  const t = columnTypes(db);
  await db.schema.alterTable("hosting_services").addColumn("admin_note", "text").execute();
  await db.schema
    .createIndex("hosting_services_expires_idx")
    .on("hosting_services")
    .columns(["expires_at", "id"])
    .execute();
  await db.schema
    .createIndex("hosting_services_created_idx")
    .on("hosting_services")
    .columns(["created_at", "id"])
    .execute();
  await db.schema
    .createIndex("hosting_services_price_idx")
    .on("hosting_services")
    .columns(["cycle_price_cents", "id"])
    .execute();
  // With a status filter (most services are terminated after a while), the same orders within the status:
  // without these SQLite took every service of the status by (status, expires_at) and sorted them all,
  // seconds at 170,000 terminated services. (status, expires_at) of 0004 serves the expiry sort.
  await db.schema
    .createIndex("hosting_services_status_created_idx")
    .on("hosting_services")
    .columns(["status", "created_at", "id"])
    .execute();
  await db.schema
    .createIndex("hosting_services_status_price_idx")
    .on("hosting_services")
    .columns(["status", "cycle_price_cents", "id"])
    .execute();

  // Substring search of service names, as 0014 does for accounts: a LIKE '%…%' cannot use a B-tree.
  if (t.postgres) {
    // pg_trgm was created by 0014 where it could be; without it the search still works, unindexed.
    const { rows } = await sql<{ ok: boolean }>`
      select exists (select 1 from pg_extension where extname = 'pg_trgm') as ok
    `.execute(db);
    if (!rows[0]?.ok) return;
    await sql`create index hosting_services_name_trgm_idx on hosting_services using gin (lower(name) gin_trgm_ops)`.execute(
      db,
    );
    return;
  }
  // SQLite: an FTS5 trigram table keyed by the service's id (its rowid), kept in step by triggers. Derived
  // data only: migrate-to-postgres does not copy it.
  await sql`create virtual table hosting_services_search using fts5(name, tokenize = 'trigram')`.execute(
    db,
  );
  await sql`
    create trigger hosting_services_search_insert after insert on hosting_services begin
      insert into hosting_services_search (rowid, name) values (new.id, new.name);
    end
  `.execute(db);
  await sql`
    create trigger hosting_services_search_update after update of name on hosting_services begin
      update hosting_services_search set name = new.name where rowid = new.id;
    end
  `.execute(db);
  await sql`
    create trigger hosting_services_search_delete after delete on hosting_services begin
      delete from hosting_services_search where rowid = old.id;
    end
  `.execute(db);
  await sql`insert into hosting_services_search (rowid, name) select id, name from hosting_services`.execute(
    db,
  );
}

export async function down(db: Kysely<unknown>): Promise<void> {
  if (columnTypes(db).postgres) {
    await sql`drop index if exists hosting_services_name_trgm_idx`.execute(db);
  } else {
    for (const trigger of [
      "hosting_services_search_insert",
      "hosting_services_search_update",
      "hosting_services_search_delete",
    ])
      await sql`drop trigger if exists ${sql.raw(trigger)}`.execute(db);
    await sql`drop table if exists hosting_services_search`.execute(db);
  }
  for (const index of [
    "hosting_services_status_price_idx",
    "hosting_services_status_created_idx",
    "hosting_services_price_idx",
    "hosting_services_created_idx",
    "hosting_services_expires_idx",
  ])
    await db.schema.dropIndex(index).ifExists().execute();
  await db.schema.alterTable("hosting_services").dropColumn("admin_note").execute();
}
