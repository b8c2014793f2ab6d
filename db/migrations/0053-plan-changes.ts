import { sql, type ColumnDefinitionBuilder, type Kysely } from "kysely";
import { columnTypes } from "./column-types";

// A customer moving a service to another plan (docs/self-service.md, ADR 58):
// - `product_plan_paths`: the changes the admin allows, from one product to another of the same type
//   (the domain refuses a path between types; the database only refuses a product to itself). A
//   product that goes takes its paths with it.
// - `plan_changes`: one row a change made: the service and its customer, the plans before and after
//   (their names as they were), the cycle and monthly prices before and after, what was charged or
//   credited (`amount_cents`, VAT included, never negative) and which way (`direction`), the invoice or
//   credit note and the ledger row that moved the coins (plain references, as the invoices' own: the
//   ledger outlives a deleted service), the form's key (unique per customer: a double click changes
//   once), and where the resize of the server on the game panel stands (`resize_state`: none for a
//   service no panel knows, queued until the job ran, done or failed).
// - A ledger kind for the coins a change moves, 'plan_change' (a debit for an upgrade, a credit for a
//   downgrade), added to the kind check as migrations 0012 and 0023 added theirs: the kinds allowed
//   today are read from the database and the new one added.

const KIND = "plan_change";
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
 * list (every column added since kept), rows copied with their ids, and its indexes and triggers made
 * again as they were (migration 0023 says why that keeps the summed days right). Nothing references
 * coin_ledger (this migration's tables name its rows by plain integers), so dropping it breaks no key.
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
  const id = (c: ColumnDefinitionBuilder) =>
    t.postgres ? c.primaryKey() : c.primaryKey().autoIncrement();

  if (t.postgres) {
    const kinds = await postgresKinds(db);
    if (!kinds.includes(KIND)) await setPostgresKinds(db, [...kinds, KIND]);
  } else {
    await setSqliteKinds(db, (kinds) => (kinds.includes(KIND) ? kinds : [...kinds, KIND]));
  }

  await db.schema
    .createTable("product_plan_paths")
    .addColumn("from_product_id", "integer", (c) =>
      c.notNull().references("products.id").onDelete("cascade"),
    )
    .addColumn("to_product_id", "integer", (c) =>
      c.notNull().references("products.id").onDelete("cascade"),
    )
    .addColumn("created_at", t.timestamp, (c) => c.notNull())
    .addPrimaryKeyConstraint("product_plan_paths_pkey", ["from_product_id", "to_product_id"])
    .addCheckConstraint("product_plan_paths_other_check", sql`from_product_id <> to_product_id`)
    .execute();
  // A product's incoming paths: what a type change or a deletion looks for.
  await db.schema
    .createIndex("product_plan_paths_to_idx")
    .on("product_plan_paths")
    .column("to_product_id")
    .execute();

  await db.schema
    .createTable("plan_changes")
    .addColumn("id", t.autoId, id)
    .addColumn("hosting_service_id", "integer", (c) => c.notNull())
    .addColumn("user_id", "text", (c) => c.notNull().references("users.id"))
    .addColumn("from_product_id", "integer", (c) =>
      c.references("products.id").onDelete("set null"),
    )
    .addColumn("to_product_id", "integer", (c) => c.references("products.id").onDelete("set null"))
    // The plans' names as the service bore them: a product renamed or deleted later changes no history.
    .addColumn("from_name", "text", (c) => c.notNull())
    .addColumn("to_name", "text", (c) => c.notNull())
    .addColumn("billing_cycle", "text", (c) => c.notNull())
    .addColumn("previous_cycle_price_cents", "integer", (c) =>
      c.notNull().check(sql`previous_cycle_price_cents >= 0`),
    )
    .addColumn("new_cycle_price_cents", "integer", (c) =>
      c.notNull().check(sql`new_cycle_price_cents >= 0`),
    )
    .addColumn("previous_monthly_price_cents", "integer", (c) => c.notNull())
    .addColumn("new_monthly_price_cents", "integer", (c) => c.notNull())
    .addColumn("amount_cents", "integer", (c) => c.notNull().check(sql`amount_cents >= 0`))
    .addColumn("direction", "text", (c) =>
      c.notNull().check(sql`direction in ('upgrade', 'downgrade')`),
    )
    .addColumn("document_id", "integer")
    .addColumn("ledger_entry_id", "integer")
    // The expiry the change was prorated to (it stays the service's).
    .addColumn("expires_at", t.timestamp, (c) => c.notNull())
    .addColumn("idempotency_key", "text", (c) => c.notNull())
    .addColumn("resize_state", "text", (c) =>
      c
        .notNull()
        .defaultTo("none")
        .check(sql`resize_state in ('none', 'queued', 'done', 'failed')`),
    )
    .addColumn("created_at", t.timestamp, (c) => c.notNull())
    .addColumn("updated_at", t.timestamp, (c) => c.notNull())
    .addUniqueConstraint("plan_changes_user_key", ["user_id", "idempotency_key"])
    .execute();
  // A service's changes, newest first (its history, the resize job's marking).
  await db.schema
    .createIndex("plan_changes_service_idx")
    .on("plan_changes")
    .columns(["hosting_service_id", "id"])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  const t = columnTypes(db);
  const used = await sql<{ n: number }>`
    select count(*) as n from coin_ledger where kind = ${KIND}
  `.execute(db);
  if (Number(used.rows[0]?.n ?? 0) > 0)
    throw new Error("The ledger holds plan changes; it cannot go back before 0053.");
  await db.schema.dropTable("plan_changes").execute();
  await db.schema.dropTable("product_plan_paths").execute();
  if (t.postgres) {
    await setPostgresKinds(
      db,
      (await postgresKinds(db)).filter((k) => k !== KIND),
    );
  } else {
    await setSqliteKinds(db, (kinds) => kinds.filter((k) => k !== KIND));
  }
}
