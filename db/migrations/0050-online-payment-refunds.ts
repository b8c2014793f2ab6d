import { sql, type ColumnDefinitionBuilder, type Kysely } from "kysely";
import { columnTypes } from "./column-types";

// The refunds an admin asked of an online payment (docs/online-payments.md#refunds-and-reversals), one
// row each, so /admin/top-ups can say where each stands: `asked` while the job has not had the
// provider's answer, then `refunded` (recorded), `pending` (the provider will finish it), `refused`
// (with the provider's reason in `detail`), `manual` (no refund call: to be refunded in the provider's
// dashboard) or `failed` (the provider could not be used: no keys, keys refused).
export async function up(db: Kysely<unknown>): Promise<void> {
  const t = columnTypes(db);
  const id = (c: ColumnDefinitionBuilder) =>
    t.postgres ? c.primaryKey() : c.primaryKey().autoIncrement();
  await db.schema
    .createTable("online_payment_refunds")
    .addColumn("id", t.autoId, id)
    .addColumn("online_payment_id", "integer", (c) =>
      c.notNull().references("online_payments.id").onDelete("cascade"),
    )
    // Minor units of the payment's currency.
    .addColumn("amount", "integer", (c) => c.notNull().check(sql`amount > 0`))
    .addColumn("state", "text", (c) =>
      c
        .notNull()
        .defaultTo("asked")
        .check(sql`state in ('asked', 'pending', 'refunded', 'refused', 'manual', 'failed')`),
    )
    .addColumn("detail", "text")
    .addColumn("asked_by", "text", (c) => c.references("users.id").onDelete("set null"))
    // The `payments.refund` job that makes it: a dead job is a refund that did not happen.
    .addColumn("job_id", "integer")
    .addColumn("created_at", t.timestamp, (c) => c.notNull())
    .addColumn("updated_at", t.timestamp, (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex("online_payment_refunds_payment_idx")
    .on("online_payment_refunds")
    .columns(["online_payment_id", "id"])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable("online_payment_refunds").execute();
}
