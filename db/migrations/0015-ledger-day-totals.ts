import { sql, type Kysely } from "kysely";
import { columnTypes } from "./column-types";

// The totals of the admin transactions page come from per-day sums of the coin ledger, kept for closed
// days, so summing a million entries is done once and not on every view (docs/money.md, "Totals").
export async function up(db: Kysely<unknown>): Promise<void> {
  const t = columnTypes(db);
  // A day (YYYY-MM-DD, UTC) listed here has its totals, one row per kind with entries, in
  // ledger_day_totals; a day not listed is summed from the ledger when it is next asked for.
  await db.schema
    .createTable("ledger_days")
    .addColumn("day", "text", (c) => c.primaryKey())
    .addColumn("summed_at", t.timestamp, (c) => c.notNull())
    .execute();
  await db.schema
    .createTable("ledger_day_totals")
    .addColumn("day", "text", (c) => c.notNull())
    .addColumn("kind", "text", (c) => c.notNull())
    .addColumn("entries", "bigint", (c) => c.notNull())
    .addColumn("credits_cents", "bigint", (c) => c.notNull())
    .addColumn("debits_cents", "bigint", (c) => c.notNull())
    .addPrimaryKeyConstraint("ledger_day_totals_pk", ["day", "kind"])
    .execute();

  // Entries are written for now, so a summed day never changes; but an entry written with an earlier
  // date (a test, a bulk load, a repair by hand) makes its day be summed again rather than be wrong.
  if (t.postgres) {
    await sql`
      create function ledger_day_forget() returns trigger language plpgsql as $$
      declare
        forgotten text;
      begin
        foreach forgotten in array array[
          case when tg_op <> 'INSERT' then to_char(old.created_at at time zone 'UTC', 'YYYY-MM-DD') end,
          case when tg_op <> 'DELETE' then to_char(new.created_at at time zone 'UTC', 'YYYY-MM-DD') end
        ] loop
          if forgotten is not null then
            delete from ledger_days where day = forgotten;
            delete from ledger_day_totals where day = forgotten;
          end if;
        end loop;
        return null;
      end
      $$
    `.execute(db);
    await sql`
      create trigger coin_ledger_day_forget after insert or update or delete on coin_ledger
      for each row execute function ledger_day_forget()
    `.execute(db);
    return;
  }
  for (const [name, event, row] of [
    ["insert", "insert", "new"],
    ["update_old", "update", "old"],
    ["update_new", "update", "new"],
    ["delete", "delete", "old"],
  ] as const) {
    await sql`
      create trigger ${sql.raw(`coin_ledger_day_forget_${name}`)} after ${sql.raw(event)} on coin_ledger
      begin
        delete from ledger_days where day = substr(${sql.raw(row)}.created_at, 1, 10);
        delete from ledger_day_totals where day = substr(${sql.raw(row)}.created_at, 1, 10);
      end
    `.execute(db);
  }
}

export async function down(db: Kysely<unknown>): Promise<void> {
  if (columnTypes(db).postgres) {
    await sql`drop trigger if exists coin_ledger_day_forget on coin_ledger`.execute(db);
    await sql`drop function if exists ledger_day_forget()`.execute(db);
  } else {
    for (const name of ["insert", "update_old", "update_new", "delete"])
      await sql`drop trigger if exists ${sql.raw(`coin_ledger_day_forget_${name}`)}`.execute(db);
  }
  await db.schema.dropTable("ledger_day_totals").ifExists().execute();
  await db.schema.dropTable("ledger_days").ifExists().execute();
}
