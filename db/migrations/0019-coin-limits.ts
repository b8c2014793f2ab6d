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

  // The balance's ceiling behind postLedgerEntry's conditional update, as `>= 0` is its floor: refused are
  // a new row above the ceiling and a write that raises a balance above it, as the ledger step refuses.
  // Not a CHECK: a database from before this migration may hold a balance above the ceiling (repeated
  // admin credits), which a CHECK would fail the migration on or, added NOT VALID, check again on every
  // later write to that user's row (a name, a language, a ban, a debit bringing it down) and refuse it.
  // Such a balance is kept and can only go down: a write that leaves a balance as it was, or lowers it,
  // or touches other columns passes. (SQLite could not add a CHECK to the table without rebuilding it,
  // and every foreign key to users, anyway.)
  const ceiling = sql.lit(MAX_BALANCE_CENTS);
  if (columnTypes(db).postgres) {
    await sql`
      create function users_coin_balance_max() returns trigger language plpgsql as $$
      begin
        raise exception 'new row for relation "users" violates check constraint "users_coin_balance_max"'
          using errcode = 'check_violation', constraint = 'users_coin_balance_max', table = 'users';
      end
      $$
    `.execute(db);
    await sql`
      create trigger users_coin_balance_max_insert before insert on users
      for each row when (new.coin_balance_cents > ${ceiling})
      execute function users_coin_balance_max()
    `.execute(db);
    await sql`
      create trigger users_coin_balance_max_update before update of coin_balance_cents on users
      for each row when (new.coin_balance_cents > ${ceiling}
        and new.coin_balance_cents > old.coin_balance_cents)
      execute function users_coin_balance_max()
    `.execute(db);
    return;
  }
  await sql`
    create trigger users_coin_balance_max_insert before insert on users
    when new.coin_balance_cents > ${ceiling}
    begin
      select raise(abort, 'CHECK constraint failed: users_coin_balance_max');
    end
  `.execute(db);
  await sql`
    create trigger users_coin_balance_max_update before update of coin_balance_cents on users
    when new.coin_balance_cents > ${ceiling} and new.coin_balance_cents > old.coin_balance_cents
    begin
      select raise(abort, 'CHECK constraint failed: users_coin_balance_max');
    end
  `.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  if (columnTypes(db).postgres) {
    await sql`drop trigger if exists users_coin_balance_max_insert on users`.execute(db);
    await sql`drop trigger if exists users_coin_balance_max_update on users`.execute(db);
    await sql`drop function if exists users_coin_balance_max()`.execute(db);
  } else {
    await sql`drop trigger if exists users_coin_balance_max_insert`.execute(db);
    await sql`drop trigger if exists users_coin_balance_max_update`.execute(db);
  }
  await db.schema.dropIndex("coin_ledger_idempotency_key_idx").ifExists().execute();
  await db.schema.alterTable("coin_ledger").dropColumn("idempotency_key").execute();
}
