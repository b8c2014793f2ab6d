import { sql, type Kysely } from "kysely";
import { columnTypes } from "./column-types";

/*
 * 1. legacy_imports: what each import from the old storefront brought in, so running the same file again
 *    imports nothing twice (docs/legacy-import.md).
 * 2. A ledger kind for balances brought in by an import, 'legacy_import'.
 *
 * The ledger's kind check is extended rather than rewritten: the kinds it allows today are read from the
 * database and 'legacy_import' is added, so a kind another migration added is kept whatever the order.
 */

const KIND = "legacy_import";
const CHECK = "coin_ledger_kind_check";

async function postgresKinds(db: Kysely<unknown>): Promise<string[]> {
  const result = await sql<{ def: string }>`
    select pg_get_constraintdef(c.oid) as def
    from pg_constraint c join pg_class t on t.oid = c.conrelid
    where t.relname = 'coin_ledger' and c.conname = ${CHECK}
      and t.relnamespace = to_regnamespace(current_schema())
  `.execute(db);
  const def = result.rows[0]?.def;
  if (!def) throw new Error(`${CHECK} not found`);
  return [...def.matchAll(/'([^']+)'/g)].map((m) => m[1]!);
}

const quoted = (kinds: string[]) => kinds.map((k) => `'${k.replace(/'/g, "''")}'`).join(", ");

async function setPostgresKinds(db: Kysely<unknown>, kinds: string[]) {
  await sql
    .raw(
      `alter table coin_ledger drop constraint ${CHECK}, add constraint ${CHECK} check (kind in (${quoted(kinds)}))`,
    )
    .execute(db);
}

/**
 * SQLite cannot alter a check constraint: the table is rebuilt from its own CREATE statement with the new
 * list (so any column added since is kept), rows copied with their ids, indexes recreated. Nothing
 * references coin_ledger, so dropping the old table breaks no foreign key.
 */
async function setSqliteKinds(db: Kysely<unknown>, change: (kinds: string[]) => string[]) {
  await db.transaction().execute(async (trx) => {
    const table = await sql<{ sql: string }>`
      select sql from sqlite_master where type = 'table' and name = 'coin_ledger'
    `.execute(trx);
    const create = table.rows[0]?.sql;
    const check = new RegExp(`constraint "${CHECK}" check \\(kind in \\(([^)]*)\\)\\)`, "i");
    const match = create ? check.exec(create) : null;
    if (!create || !match) throw new Error(`${CHECK} not found in coin_ledger`);
    const kinds = change([...match[1]!.matchAll(/'([^']+)'/g)].map((m) => m[1]!));
    const rebuilt = create
      .replace(/^CREATE TABLE "coin_ledger"/i, 'CREATE TABLE "coin_ledger_rebuild"')
      .replace(check, `constraint "${CHECK}" check (kind in (${quoted(kinds)}))`);
    const indexes = await sql<{ sql: string }>`
      select sql from sqlite_master
      where type = 'index' and tbl_name = 'coin_ledger' and sql is not null
    `.execute(trx);
    await sql.raw(rebuilt).execute(trx);
    await sql`insert into coin_ledger_rebuild select * from coin_ledger`.execute(trx);
    await sql`drop table coin_ledger`.execute(trx);
    await sql`alter table coin_ledger_rebuild rename to coin_ledger`.execute(trx);
    for (const index of indexes.rows) await sql.raw(index.sql).execute(trx);
  });
}

export async function up(db: Kysely<unknown>): Promise<void> {
  const t = columnTypes(db);
  await db.schema
    .createTable("legacy_imports")
    .addColumn("id", t.autoId, (c) =>
      t.postgres ? c.primaryKey() : c.primaryKey().autoIncrement(),
    )
    // users, services, orders, userServices, announcements, vouchers, settings
    .addColumn("collection", "text", (c) => c.notNull())
    // The old record's identity: a user's email, a voucher's code, a setting's path, else its id.
    .addColumn("legacy_key", "text", (c) => c.notNull())
    // What it became here (a user id, a product id...), as text.
    .addColumn("new_id", "text", (c) => c.notNull())
    // created: a new row; matched: an existing row stood for it (a product of the same name).
    .addColumn("outcome", "text", (c) => c.notNull())
    .addColumn("imported_at", t.timestamp, (c) => c.notNull())
    .addUniqueConstraint("legacy_imports_key_unique", ["collection", "legacy_key"])
    .addCheckConstraint("legacy_imports_outcome_check", sql`outcome in ('created', 'matched')`)
    .execute();

  if (t.postgres) {
    const kinds = await postgresKinds(db);
    if (!kinds.includes(KIND)) await setPostgresKinds(db, [...kinds, KIND]);
  } else {
    await setSqliteKinds(db, (kinds) => (kinds.includes(KIND) ? kinds : [...kinds, KIND]));
  }
}

export async function down(db: Kysely<unknown>): Promise<void> {
  const t = columnTypes(db);
  const used = await sql<{ n: number }>`
    select count(*) as n from coin_ledger where kind = ${KIND}
  `.execute(db);
  if (Number(used.rows[0]?.n ?? 0) > 0)
    throw new Error("The ledger holds imported balances; it cannot go back before 0012.");
  if (t.postgres) {
    await setPostgresKinds(
      db,
      (await postgresKinds(db)).filter((k) => k !== KIND),
    );
  } else {
    await setSqliteKinds(db, (kinds) => kinds.filter((k) => k !== KIND));
  }
  await db.schema.dropTable("legacy_imports").execute();
}
