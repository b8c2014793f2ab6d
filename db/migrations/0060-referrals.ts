import { sql, type ColumnDefinitionBuilder, type Kysely } from "kysely";
import { columnTypes } from "./column-types";

// Referrals (docs/referrals.md):
// - `referral_codes`: each customer's code, made the first time it is asked for; unique, so a link
//   names one referrer.
// - `referrals`: who brought whom, one row per referred customer (unique: a customer is referred once)
//   and never oneself (a CHECK as well as the domain's refusal); the address the new account registered
//   from, where it stands (`state`), why it is flagged (`flags`, a JSON list) and whether an admin let it
//   through (`flag_cleared`), the first order it waits for and what it gave.
// - `referral_rewards`: the one reward of a referral, keyed by the referral: a second is refused by the
//   database whatever retries or races; the month it counts in (for the referrer's monthly cap), what
//   it was worth, what was paid and what the cap left unpaid, and the ledger row that paid it.
// - A ledger kind for the reward, 'referral_reward', added to the kind check as migration 0053 added
//   its own: the kinds allowed today are read from the database and the new one added.

const KIND = "referral_reward";
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
    .createTable("referral_codes")
    .addColumn("user_id", "text", (c) => c.primaryKey().references("users.id").onDelete("cascade"))
    .addColumn("code", "text", (c) =>
      c
        .notNull()
        .unique()
        .check(sql`code <> ''`),
    )
    .addColumn("created_at", t.timestamp, (c) => c.notNull())
    .execute();

  await db.schema
    .createTable("referrals")
    .addColumn("id", t.autoId, id)
    .addColumn("referrer_id", "text", (c) => c.notNull().references("users.id").onDelete("cascade"))
    .addColumn("referred_id", "text", (c) =>
      c.notNull().unique().references("users.id").onDelete("cascade"),
    )
    .addColumn("code", "text", (c) => c.notNull())
    .addColumn("registered_ip", "text")
    .addColumn("state", "text", (c) =>
      c
        .notNull()
        .defaultTo("waiting")
        .check(sql`state in ('waiting', 'flagged', 'paid', 'over_cap', 'rejected', 'refunded')`),
    )
    .addColumn("flags", "text", (c) => c.notNull().defaultTo("[]"))
    .addColumn("flag_cleared", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("order_id", "integer")
    .addColumn("decided_by", "text", (c) => c.references("users.id").onDelete("set null"))
    .addColumn("decided_at", t.timestamp)
    .addColumn("created_at", t.timestamp, (c) => c.notNull())
    .addColumn("updated_at", t.timestamp, (c) => c.notNull())
    .addCheckConstraint("referrals_not_self_check", sql`referrer_id <> referred_id`)
    .execute();
  // A referrer's list, and the job's walk over the ones still waiting.
  await db.schema
    .createIndex("referrals_referrer_idx")
    .on("referrals")
    .columns(["referrer_id", "id"])
    .execute();
  await db.schema
    .createIndex("referrals_state_idx")
    .on("referrals")
    .columns(["state", "id"])
    .execute();

  await db.schema
    .createTable("referral_rewards")
    .addColumn("referral_id", "integer", (c) =>
      c.primaryKey().references("referrals.id").onDelete("cascade"),
    )
    .addColumn("referrer_id", "text", (c) => c.notNull().references("users.id").onDelete("cascade"))
    .addColumn("month", "text", (c) => c.notNull())
    .addColumn("order_id", "integer", (c) => c.notNull())
    .addColumn("order_total_cents", "integer", (c) =>
      c.notNull().check(sql`order_total_cents >= 0`),
    )
    .addColumn("reward_cents", "integer", (c) => c.notNull().check(sql`reward_cents >= 0`))
    .addColumn("paid_cents", "integer", (c) => c.notNull().check(sql`paid_cents >= 0`))
    .addColumn("unpaid_cents", "integer", (c) => c.notNull().check(sql`unpaid_cents >= 0`))
    .addColumn("ledger_entry_id", "integer")
    .addColumn("created_at", t.timestamp, (c) => c.notNull())
    .addCheckConstraint("referral_rewards_sum_check", sql`paid_cents + unpaid_cents = reward_cents`)
    .execute();
  // The monthly cap's sum: a referrer's rewards of one month.
  await db.schema
    .createIndex("referral_rewards_month_idx")
    .on("referral_rewards")
    .columns(["referrer_id", "month"])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  const used = await sql<{ n: number }>`
    select count(*) as n from coin_ledger where kind = ${KIND}
  `.execute(db);
  if (Number(used.rows[0]?.n ?? 0) > 0)
    throw new Error("The ledger holds referral rewards; it cannot go back before 0060.");
  await db.schema.dropTable("referral_rewards").execute();
  await db.schema.dropTable("referrals").execute();
  await db.schema.dropTable("referral_codes").execute();
  const t = columnTypes(db);
  if (t.postgres) {
    const kinds = await postgresKinds(db);
    await setPostgresKinds(
      db,
      kinds.filter((kind) => kind !== KIND),
    );
  } else {
    await setSqliteKinds(db, (kinds) => kinds.filter((kind) => kind !== KIND));
  }
}
