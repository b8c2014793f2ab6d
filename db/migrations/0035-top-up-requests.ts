import { sql, type ColumnDefinitionBuilder, type Kysely } from "kysely";
import { columnTypes } from "./column-types";

// Top-up requests (issue 26, docs/payments.md): a customer asks to buy coins with a payment method, pays
// outside the site writing the request's reference in the transfer, says so, and an admin approves
// (crediting the coins through the ledger, once: the ledger entry's idempotency key is `top-up:<id>`) or
// rejects it.
//
// - The quote is frozen at request time (`currency`, `amount`, `fee`, `total` in minor units of the
//   method's currency, `credit_cents`): an admin changing the method's rate later changes no request.
// - `payment_method_id` has no ON DELETE: a custom method some request names cannot be deleted
//   (deletePaymentMethod refuses it with a message first; the key is the backstop).
// - At most one open request (waiting_payment or proof_sent) a customer: a partial unique index, which
//   both dialects have.
export async function up(db: Kysely<unknown>): Promise<void> {
  const t = columnTypes(db);
  const id = (c: ColumnDefinitionBuilder) =>
    t.postgres ? c.primaryKey() : c.primaryKey().autoIncrement();
  await db.schema
    .createTable("top_up_requests")
    .addColumn("id", t.autoId, id)
    .addColumn("reference", "text", (c) => c.notNull().unique())
    .addColumn("user_id", "text", (c) => c.notNull().references("users.id"))
    .addColumn("payment_method_id", "integer", (c) => c.notNull().references("payment_methods.id"))
    .addColumn("coins", "integer", (c) => c.notNull().check(sql`coins >= 1`))
    .addColumn("currency", "text", (c) => c.notNull().check(sql`currency in ('EUR', 'MAD')`))
    .addColumn("amount", "integer", (c) => c.notNull().check(sql`amount > 0`))
    .addColumn("fee", "integer", (c) => c.notNull().check(sql`fee >= 0`))
    .addColumn("total", "integer", (c) => c.notNull())
    .addColumn("credit_cents", "integer", (c) => c.notNull().check(sql`credit_cents > 0`))
    .addColumn("payer_account", "text")
    .addColumn("paid_on", "text")
    .addColumn("state", "text", (c) =>
      c
        .notNull()
        .check(
          sql`state in ('waiting_payment', 'proof_sent', 'approved', 'rejected', 'cancelled')`,
        ),
    )
    .addColumn("credited_coins", "integer", (c) => c.check(sql`credited_coins >= 1`))
    .addColumn("reject_reason", "text")
    .addColumn("decided_by", "text", (c) => c.references("users.id"))
    .addColumn("decided_at", t.timestamp)
    .addColumn("created_at", t.timestamp, (c) => c.notNull())
    .addColumn("updated_at", t.timestamp, (c) => c.notNull())
    .addCheckConstraint("top_up_requests_total", sql`total = amount + fee`)
    .execute();
  // The admin's queue: a state, oldest first.
  await db.schema
    .createIndex("top_up_requests_state_idx")
    .on("top_up_requests")
    .columns(["state", "updated_at"])
    .execute();
  await db.schema
    .createIndex("top_up_requests_user_idx")
    .on("top_up_requests")
    .columns(["user_id", "created_at"])
    .execute();
  await db.schema
    .createIndex("top_up_requests_method_idx")
    .on("top_up_requests")
    .column("payment_method_id")
    .execute();
  await sql`create unique index top_up_requests_one_open_idx on top_up_requests (user_id) where state in ('waiting_payment', 'proof_sent')`.execute(
    db,
  );
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable("top_up_requests").execute();
}
