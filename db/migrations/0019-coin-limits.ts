import { sql, type Kysely } from "kysely";
import { columnTypes } from "./column-types";

// Frozen with this migration: MAX_BALANCE_CENTS in app/domain/coins/coins.ts when it was written.
const MAX_BALANCE_CENTS = 1_000_000_000;

export async function up(db: Kysely<unknown>): Promise<void> {
  // The key an admin's coin form carries (ADR 10): unique, so a replayed post writes one entry. Rows
  // written by anything else have none, and both dialects let a unique index hold many NULLs.
  await db.schema.alterTable("coin_ledger").addColumn("idempotency_key", "text").execute();
  await db.schema
    .createIndex("coin_ledger_idempotency_key_idx")
    .on("coin_ledger")
    .column("idempotency_key")
    .unique()
    .execute();

  // The balance's ceiling behind postLedgerEntry's conditional update, as `>= 0` is its floor. PostgreSQL
  // adds the CHECK to the table; SQLite cannot add one to an existing table without rebuilding it (and
  // every foreign key to users), so two triggers refuse the same writes.
  if (columnTypes(db).postgres) {
    await sql`
      alter table users add constraint users_coin_balance_max
      check (coin_balance_cents <= ${sql.lit(MAX_BALANCE_CENTS)})
    `.execute(db);
    return;
  }
  for (const event of ["insert", "update of coin_balance_cents"]) {
    await sql`
      create trigger ${sql.raw(`users_coin_balance_max_${event.split(" ")[0]}`)}
      before ${sql.raw(event)} on users
      when new.coin_balance_cents > ${sql.lit(MAX_BALANCE_CENTS)}
      begin
        select raise(abort, 'CHECK constraint failed: users_coin_balance_max');
      end
    `.execute(db);
  }
}

export async function down(db: Kysely<unknown>): Promise<void> {
  if (columnTypes(db).postgres) {
    await sql`alter table users drop constraint if exists users_coin_balance_max`.execute(db);
  } else {
    await sql`drop trigger if exists users_coin_balance_max_insert`.execute(db);
    await sql`drop trigger if exists users_coin_balance_max_update`.execute(db);
  }
  await db.schema.dropIndex("coin_ledger_idempotency_key_idx").ifExists().execute();
  await db.schema.alterTable("coin_ledger").dropColumn("idempotency_key").execute();
}
