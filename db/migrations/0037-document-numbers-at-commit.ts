import { sql, type Kysely } from "kysely";
import { columnTypes } from "./column-types";

// Document numbers taken at commit on PostgreSQL (ADR 37, "The lock at commit"; docs/invoices.md).
//
// A document of the hot paths (an order's invoice, a renewal's) is inserted with a placeholder number,
// `pending:<series>:<year>:<unique>`, and this deferred constraint trigger numbers it while the
// transaction commits: the series' counter row is then locked for the length of the commit alone,
// instead of from the number to the commit with every round trip of the transaction between them (each
// waiting for a busy server process's event loop), which made orders commit one at a time. The counter
// is the same row `takeNumber` increments, in the same transaction, so numbers stay gapless: a commit
// that fails gives its number back with everything else.
//
// SQLite has no deferred triggers and needs none: its writers take turns on the whole database, so the
// number is taken at once there, as before.
export async function up(db: Kysely<unknown>): Promise<void> {
  if (!columnTypes(db).postgres) return;
  await sql`
    create function take_document_number() returns trigger language plpgsql as $$
    declare
      v_series text := split_part(new.number, ':', 2);
      v_year integer := split_part(new.number, ':', 3)::integer;
      v_taken integer;
    begin
      insert into document_counters as c (series, year, next_number) values (v_series, v_year, 2)
        on conflict (series, year) do update set next_number = c.next_number + 1
        returning c.next_number - 1 into v_taken;
      update invoices
        set number = v_series || '-' || v_year || '-' || lpad(v_taken::text, greatest(6, length(v_taken::text)), '0')
        where id = new.id;
      return null;
    end
    $$`.execute(db);
  await sql`
    create constraint trigger invoices_number_at_commit
      after insert on invoices
      deferrable initially deferred
      for each row
      when (new.number like 'pending:%')
      execute function take_document_number()`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  if (!columnTypes(db).postgres) return;
  await sql`drop trigger invoices_number_at_commit on invoices`.execute(db);
  await sql`drop function take_document_number()`.execute(db);
}
