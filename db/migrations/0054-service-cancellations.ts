import { sql, type ColumnDefinitionBuilder, type Kysely } from "kysely";
import { columnTypes } from "./column-types";

// A customer's cancellation of a service (docs/self-service.md, ADR 59): one row a request.
//
// - `kind`: `end_of_term` (the service runs to its expiry, then ends) or `refund` (within 14 days of the
//   order: everything paid for it back as coins, the service ended at once).
// - `state`: an end of term is `scheduled` until the expiry (`done`) or the customer keeps the server
//   (`withdrawn`); a refund is `requested` until the system or an admin decides it (`approved`,
//   `refused`) or the customer withdraws it. At most one open request (scheduled or requested) a
//   service: a second is refused by the partial unique index, whatever races.
// - `reason`: one of a fixed list (a CHECK), and the customer's own words if they gave any.
// - `refund_cents`: what the refund gives back (asked, then what was credited); 0 for an end of term.
// - `auto_renew_before`: the service's automatic renewal when the end of term switched it off, restored
//   when the customer keeps the server.
// - `decided_by`: the admin who decided a refund, null for the system (and for an end of term).
// - `credit_notes`: JSON, the numbers of the credit notes an approved refund issued.
// - `hosting_services.ends_at_expiry`: 1 while an end of term is scheduled: the lifecycle sends no
//   reminder, renewal or suspension for the service and terminates it at its expiry.
export async function up(db: Kysely<unknown>): Promise<void> {
  const t = columnTypes(db);
  const id = (c: ColumnDefinitionBuilder) =>
    t.postgres ? c.primaryKey() : c.primaryKey().autoIncrement();

  await db.schema
    .alterTable("hosting_services")
    // 0 or 1 on both dialects, as every flag of ours.
    .addColumn("ends_at_expiry", "integer", (c) => c.notNull().defaultTo(0))
    .execute();

  await db.schema
    .createTable("service_cancellations")
    .addColumn("id", t.autoId, id)
    .addColumn("hosting_service_id", "integer", (c) =>
      c.notNull().references("hosting_services.id").onDelete("cascade"),
    )
    .addColumn("user_id", "text", (c) => c.notNull().references("users.id").onDelete("cascade"))
    .addColumn("kind", "text", (c) => c.notNull().check(sql`kind in ('end_of_term', 'refund')`))
    .addColumn("reason", "text", (c) =>
      c
        .notNull()
        .check(
          sql`reason in ('tooExpensive', 'notUsing', 'switchingHost', 'technicalProblems', 'other')`,
        ),
    )
    .addColumn("reason_text", "text", (c) => c.check(sql`length(reason_text) <= 500`))
    .addColumn("state", "text", (c) => c.notNull())
    .addColumn("refund_cents", "integer", (c) =>
      c
        .notNull()
        .defaultTo(0)
        .check(sql`refund_cents >= 0`),
    )
    .addColumn("auto_renew_before", "integer")
    // The expiry an end of term runs to, as it was when it was scheduled.
    .addColumn("ends_at", t.timestamp)
    .addColumn("decided_by", "text", (c) => c.references("users.id").onDelete("set null"))
    .addColumn("decided_at", t.timestamp)
    // Why an admin refused a refund.
    .addColumn("decision_reason", "text", (c) => c.check(sql`length(decision_reason) <= 500`))
    .addColumn("credit_notes", "text", (c) => c.notNull().defaultTo("[]"))
    .addColumn("created_at", t.timestamp, (c) => c.notNull())
    .addColumn("updated_at", t.timestamp, (c) => c.notNull())
    .addCheckConstraint(
      "service_cancellations_state_check",
      sql`(kind = 'end_of_term' and state in ('scheduled', 'withdrawn', 'done')) or (kind = 'refund' and state in ('requested', 'withdrawn', 'approved', 'refused'))`,
    )
    .execute();
  // At most one open request a service: the second insert fails on this index, whatever races.
  await db.schema
    .createIndex("service_cancellations_open_idx")
    .on("service_cancellations")
    .column("hosting_service_id")
    .unique()
    .where(sql.ref("state"), "in", sql`('scheduled', 'requested')`)
    .execute();
  // The admins' queue (the requests waiting, oldest first) and the reports' period.
  await db.schema
    .createIndex("service_cancellations_state_idx")
    .on("service_cancellations")
    .columns(["state", "created_at"])
    .execute();
  await db.schema
    .createIndex("service_cancellations_created_idx")
    .on("service_cancellations")
    .column("created_at")
    .execute();
  // A service's own requests, newest first (the customer's cancel page).
  await db.schema
    .createIndex("service_cancellations_service_idx")
    .on("service_cancellations")
    .columns(["hosting_service_id", "id"])
    .execute();
  await db.schema
    .createIndex("service_cancellations_user_idx")
    .on("service_cancellations")
    .column("user_id")
    .execute();

  // An invoice may now have several credit notes: a downgrade of plan credits part of the invoice
  // paying the term, and a refund later credits what is left of it. Each crediting step claims the
  // invoice's state first (paid, then credited once), which is what keeps a refund once; the index
  // stays for the look-up of an invoice's credit notes. Another migration of this release may have
  // replaced it already.
  await db.schema.dropIndex("invoices_credits_idx").ifExists().execute();
  await db.schema
    .createIndex("invoices_credits_invoice_idx")
    .ifNotExists()
    .on("invoices")
    .column("credits_invoice_id")
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  // Back to one credit note an invoice: fails, as it should, while an invoice has two.
  await db.schema.dropIndex("invoices_credits_invoice_idx").ifExists().execute();
  await db.schema
    .createIndex("invoices_credits_idx")
    .ifNotExists()
    .on("invoices")
    .column("credits_invoice_id")
    .unique()
    .execute();
  await db.schema.dropTable("service_cancellations").execute();
  await db.schema.alterTable("hosting_services").dropColumn("ends_at_expiry").execute();
}
