import { sql, type Kysely } from "kysely";
import { columnTypes } from "./column-types";

/*
 * Ledger reasons each reader sees in their language (issue 21, ADR 21):
 *
 * 1. coin_ledger.reason_key and reason_params: a message of the coins catalogue ("orderPayment") and its
 *    values as a JSON object ({"id": 1, "product": "SAMP Premium"}), written beside the English `reason`
 *    text, which stays for every reader that reads text (scripts, exports) and for the rows made before:
 *    those have no key and are shown as they were written.
 * 2. A ledger kind for coins bought through a support ticket, 'coin_purchase', so they are no longer
 *    labelled "Admin adjustment". The kind check is extended as migration 0012 extended it: the kinds
 *    allowed today are read from the database and the new one added.
 */

const KIND = "coin_purchase";
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
 * list (so the columns added since, these ones included, are kept), rows copied with their ids, and its
 * indexes and triggers (migration 0015's, which forget a summed day) made again, as they were. Nothing
 * references coin_ledger, so dropping the old table breaks no foreign key; dropping a table fires none of
 * its triggers, and the rows come back with the same ids and days, so the summed days stay right.
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
      .replace(/^CREATE TABLE\s+("?)coin_ledger\1(?=\s*\()/i, 'CREATE TABLE "coin_ledger_rebuild"')
      .replace(check, `constraint "${CHECK}" check (kind in (${quoted(kinds)}))`);
    if (!rebuilt.startsWith('CREATE TABLE "coin_ledger_rebuild"'))
      throw new Error("coin_ledger's CREATE statement was not understood");
    const attached = await sql<{ sql: string }>`
      select sql from sqlite_master
      where type in ('index', 'trigger') and tbl_name = 'coin_ledger' and sql is not null
      order by type, name
    `.execute(trx);
    await sql.raw(rebuilt).execute(trx);
    await sql`insert into coin_ledger_rebuild select * from coin_ledger`.execute(trx);
    await sql`drop table coin_ledger`.execute(trx);
    await sql`alter table coin_ledger_rebuild rename to coin_ledger`.execute(trx);
    for (const statement of attached.rows) await sql.raw(statement.sql).execute(trx);
  });
}

export async function up(db: Kysely<unknown>): Promise<void> {
  const t = columnTypes(db);
  await db.schema.alterTable("coin_ledger").addColumn("reason_key", "text").execute();
  await db.schema.alterTable("coin_ledger").addColumn("reason_params", "text").execute();
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
    throw new Error("The ledger holds coin purchases; it cannot go back before 0023.");
  if (t.postgres) {
    await setPostgresKinds(
      db,
      (await postgresKinds(db)).filter((k) => k !== KIND),
    );
  } else {
    await setSqliteKinds(db, (kinds) => kinds.filter((k) => k !== KIND));
  }
  await db.schema.alterTable("coin_ledger").dropColumn("reason_params").execute();
  await db.schema.alterTable("coin_ledger").dropColumn("reason_key").execute();
}
