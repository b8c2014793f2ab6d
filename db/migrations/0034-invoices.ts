import { sql, type ColumnDefinitionBuilder, type Kysely } from "kysely";
import { columnTypes } from "./column-types";

// Receipts and invoices (issue 26, docs/invoices.md, ADR 36 and 37).
//
// - The customer's billing details on `users`: the name and address an invoice is made out to, and the
//   country (ISO 3166 alpha-2) whose VAT rate applies. Empty until the customer fills them in.
// - `document_counters`: one row per series and year; the issuing transaction increments it (ADR 37),
//   so numbers have no gaps. No id: its key is the series and the year.
// - `invoices`: every numbered document (invoice, payment receipt, credit note), written once and never
//   updated but for `state` (paid, then credited when a credit note corrects it). Amounts are integer
//   cents, a credit note's negative. The seller, the buyer and the lines are JSON snapshots, so a
//   document reads the same after the settings or the account change. `ledger_entry_id`: the coin
//   ledger row the document accounts for (none for a refund paid outside the site), which
//   npm run check:ledger compares with it. Plain references, not foreign keys, like the ledger's: the
//   books outlive a deleted service or order.
export async function up(db: Kysely<unknown>): Promise<void> {
  const t = columnTypes(db);
  const id = (c: ColumnDefinitionBuilder) =>
    t.postgres ? c.primaryKey() : c.primaryKey().autoIncrement();
  await db.schema.alterTable("users").addColumn("billing_name", "text").execute();
  await db.schema.alterTable("users").addColumn("billing_address", "text").execute();
  await db.schema.alterTable("users").addColumn("billing_country", "text").execute();

  await db.schema
    .createTable("document_counters")
    .addColumn("series", "text", (c) => c.notNull())
    .addColumn("year", "integer", (c) => c.notNull())
    // The number the next document of the series and year gets.
    .addColumn("next_number", "integer", (c) => c.notNull().check(sql`next_number >= 1`))
    .addPrimaryKeyConstraint("document_counters_pkey", ["series", "year"])
    .execute();

  await db.schema
    .createTable("invoices")
    .addColumn("id", t.autoId, id)
    .addColumn("number", "text", (c) => c.notNull().unique())
    .addColumn("kind", "text", (c) => c.notNull())
    .addColumn("user_id", "text", (c) => c.notNull().references("users.id"))
    .addColumn("order_id", "integer")
    .addColumn("hosting_service_id", "integer")
    .addColumn("credits_invoice_id", "integer", (c) => c.references("invoices.id"))
    .addColumn("ledger_entry_id", "integer")
    .addColumn("currency", "text", (c) => c.notNull().defaultTo("EUR"))
    .addColumn("prices_include_vat", "integer", (c) => c.notNull())
    .addColumn("subtotal_cents", "integer", (c) => c.notNull())
    .addColumn("vat_rate_bp", "integer", (c) => c.notNull().check(sql`vat_rate_bp >= 0`))
    .addColumn("vat_cents", "integer", (c) => c.notNull())
    .addColumn("total_cents", "integer", (c) => c.notNull())
    .addColumn("seller", "text", (c) => c.notNull())
    .addColumn("buyer", "text", (c) => c.notNull())
    .addColumn("lines", "text", (c) => c.notNull())
    .addColumn("state", "text", (c) => c.notNull())
    // A credit note: why, and whether the coins came back to the balance or the money went back outside.
    .addColumn("reason", "text")
    .addColumn("refund_method", "text")
    .addColumn("actor_id", "text")
    .addColumn("issued_at", t.timestamp, (c) => c.notNull())
    .addCheckConstraint("invoices_kind_check", sql`kind in ('invoice', 'receipt', 'credit_note')`)
    .addCheckConstraint("invoices_state_check", sql`state in ('paid', 'credited')`)
    .addCheckConstraint("invoices_sum_check", sql`subtotal_cents + vat_cents = total_cents`)
    .addCheckConstraint(
      "invoices_refund_method_check",
      sql`refund_method is null or refund_method in ('coins', 'outside')`,
    )
    .execute();
  // A customer's documents, newest first (the billing tab); an order's and a service's (issuing a credit
  // note, the admin's filters); at most one credit note per document.
  await db.schema
    .createIndex("invoices_user_idx")
    .on("invoices")
    .columns(["user_id", "id"])
    .execute();
  await db.schema.createIndex("invoices_order_idx").on("invoices").column("order_id").execute();
  await db.schema
    .createIndex("invoices_credits_idx")
    .on("invoices")
    .column("credits_invoice_id")
    .unique()
    .execute();
  await db.schema.createIndex("invoices_kind_idx").on("invoices").columns(["kind", "id"]).execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable("invoices").execute();
  await db.schema.dropTable("document_counters").execute();
  await db.schema.alterTable("users").dropColumn("billing_country").execute();
  await db.schema.alterTable("users").dropColumn("billing_address").execute();
  await db.schema.alterTable("users").dropColumn("billing_name").execute();
}
