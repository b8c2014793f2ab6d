import { sql, type ColumnDefinitionBuilder, type Kysely } from "kysely";
import { columnTypes } from "./column-types";

export async function up(db: Kysely<unknown>): Promise<void> {
  const t = columnTypes(db);
  const id = (c: ColumnDefinitionBuilder) =>
    t.postgres ? c.primaryKey() : c.primaryKey().autoIncrement();

  // Append-only: rows are never updated or deleted; a mistake is corrected by a new row.
  await db.schema
    .createTable("coin_ledger")
    .addColumn("id", t.autoId, id)
    .addColumn("user_id", "text", (c) => c.notNull().references("users.id"))
    .addColumn("amount_cents", "integer", (c) => c.notNull().check(sql`amount_cents <> 0`))
    .addColumn("balance_after_cents", "integer", (c) =>
      c.notNull().check(sql`balance_after_cents >= 0`),
    )
    .addColumn("kind", "text", (c) => c.notNull())
    // Plain references, not foreign keys: the ledger outlives a deleted service.
    .addColumn("order_id", "integer")
    .addColumn("hosting_service_id", "integer")
    .addColumn("actor_id", "text")
    .addColumn("reason", "text", (c) => c.notNull().defaultTo(""))
    .addColumn("created_at", t.timestamp, (c) => c.notNull())
    .addCheckConstraint(
      "coin_ledger_kind_check",
      sql`kind in ('admin_adjustment', 'order_payment', 'order_refund', 'renewal')`,
    )
    .execute();
  await db.schema
    .createIndex("coin_ledger_user_idx")
    .on("coin_ledger")
    .columns(["user_id", "id"])
    .execute();
  await db.schema
    .createIndex("coin_ledger_created_idx")
    .on("coin_ledger")
    .column("created_at")
    .execute();
  await db.schema
    .createIndex("coin_ledger_kind_idx")
    .on("coin_ledger")
    .columns(["kind", "id"])
    .execute();

  await db.schema
    .createTable("vouchers")
    .addColumn("id", t.autoId, id)
    .addColumn("code", "text", (c) => c.notNull().unique())
    .addColumn("description", "text", (c) => c.notNull().defaultTo(""))
    .addColumn("discount_type", "text", (c) => c.notNull())
    // Whole percent for 'percentage', cents for 'fixed'.
    .addColumn("discount_value", "integer", (c) => c.notNull().check(sql`discount_value > 0`))
    .addColumn("min_purchase_cents", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("max_uses", "integer", (c) => c.notNull())
    .addColumn("used_count", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("is_active", "integer", (c) => c.notNull().defaultTo(1))
    .addColumn("valid_from", t.timestamp, (c) => c.notNull())
    .addColumn("valid_until", t.timestamp, (c) => c.notNull())
    // JSON: "all" or an array of product ids.
    .addColumn("applicable_services", "text", (c) => c.notNull().defaultTo('"all"'))
    .addColumn("created_at", t.timestamp, (c) => c.notNull())
    .addColumn("updated_at", t.timestamp, (c) => c.notNull())
    .addCheckConstraint("vouchers_type_check", sql`discount_type in ('percentage', 'fixed')`)
    .addCheckConstraint("vouchers_uses_check", sql`used_count >= 0 and used_count <= max_uses`)
    .execute();

  await db.schema
    .createTable("hosting_services")
    .addColumn("id", t.autoId, id)
    .addColumn("user_id", "text", (c) => c.notNull().references("users.id"))
    .addColumn("product_id", "integer", (c) => c.references("products.id"))
    .addColumn("name", "text", (c) => c.notNull())
    .addColumn("server_name", "text", (c) => c.notNull().defaultTo(""))
    .addColumn("type", "text")
    .addColumn("billing_cycle", "text", (c) => c.notNull().defaultTo("monthly"))
    .addColumn("monthly_price_cents", "integer", (c) =>
      c.notNull().check(sql`monthly_price_cents >= 0`),
    )
    .addColumn("cycle_price_cents", "integer", (c) =>
      c.notNull().check(sql`cycle_price_cents >= 0`),
    )
    .addColumn("status", "text", (c) => c.notNull().defaultTo("active"))
    .addColumn("expires_at", t.timestamp, (c) => c.notNull())
    .addColumn("created_at", t.timestamp, (c) => c.notNull())
    .addColumn("updated_at", t.timestamp, (c) => c.notNull())
    .addCheckConstraint(
      "hosting_services_status_check",
      sql`status in ('active', 'suspended', 'terminated')`,
    )
    .execute();
  await db.schema
    .createIndex("hosting_services_user_idx")
    .on("hosting_services")
    .columns(["user_id", "id"])
    .execute();
  await db.schema
    .createIndex("hosting_services_status_idx")
    .on("hosting_services")
    .columns(["status", "expires_at"])
    .execute();

  await db.schema
    .createTable("orders")
    .addColumn("id", t.autoId, id)
    .addColumn("user_id", "text", (c) => c.notNull().references("users.id"))
    .addColumn("product_id", "integer", (c) => c.notNull().references("products.id"))
    // What was bought, as it was then: later catalogue edits never change an order.
    .addColumn("product_name", "text", (c) => c.notNull())
    .addColumn("product_type", "text", (c) => c.notNull())
    .addColumn("product_price_cents", "integer", (c) => c.notNull())
    .addColumn("billing_cycle", "text", (c) => c.notNull())
    .addColumn("location", "text", (c) => c.notNull())
    .addColumn("ddos_protection", "integer", (c) => c.notNull())
    .addColumn("player_slots", "integer")
    .addColumn("backup", "text", (c) => c.notNull())
    .addColumn("server_name", "text", (c) => c.notNull())
    .addColumn("voucher_id", "integer", (c) => c.references("vouchers.id"))
    .addColumn("voucher_code", "text")
    .addColumn("monthly_price_cents", "integer", (c) => c.notNull())
    .addColumn("subtotal_cents", "integer", (c) => c.notNull())
    .addColumn("discount_cents", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("total_cents", "integer", (c) => c.notNull().check(sql`total_cents >= 0`))
    .addColumn("paid_with_coins", "integer", (c) => c.notNull().defaultTo(1))
    .addColumn("status", "text", (c) => c.notNull().defaultTo("pending"))
    .addColumn("idempotency_key", "text", (c) => c.notNull().unique())
    .addColumn("reject_reason", "text")
    .addColumn("decided_by", "text")
    .addColumn("decided_at", t.timestamp)
    .addColumn("hosting_service_id", "integer", (c) =>
      c.references("hosting_services.id").onDelete("set null"),
    )
    .addColumn("created_at", t.timestamp, (c) => c.notNull())
    .addColumn("updated_at", t.timestamp, (c) => c.notNull())
    .addCheckConstraint("orders_status_check", sql`status in ('pending', 'approved', 'rejected')`)
    .execute();
  await db.schema.createIndex("orders_status_idx").on("orders").columns(["status", "id"]).execute();
  await db.schema.createIndex("orders_user_idx").on("orders").columns(["user_id", "id"]).execute();

  await db.schema
    .createTable("service_renewals")
    .addColumn("id", t.autoId, id)
    .addColumn("hosting_service_id", "integer", (c) => c.notNull())
    .addColumn("user_id", "text", (c) => c.notNull().references("users.id"))
    .addColumn("idempotency_key", "text", (c) => c.notNull().unique())
    .addColumn("amount_cents", "integer", (c) => c.notNull())
    .addColumn("previous_expires_at", t.timestamp, (c) => c.notNull())
    .addColumn("new_expires_at", t.timestamp, (c) => c.notNull())
    .addColumn("created_at", t.timestamp, (c) => c.notNull())
    .execute();

  // Append-only record of what admins did.
  await db.schema
    .createTable("audit_log")
    .addColumn("id", t.autoId, id)
    .addColumn("actor_id", "text")
    .addColumn("action", "text", (c) => c.notNull())
    .addColumn("target_type", "text", (c) => c.notNull())
    .addColumn("target_id", "text", (c) => c.notNull())
    .addColumn("before", "text")
    .addColumn("after", "text")
    .addColumn("reason", "text", (c) => c.notNull().defaultTo(""))
    .addColumn("created_at", t.timestamp, (c) => c.notNull())
    .execute();
  await db.schema.createIndex("audit_log_created_idx").on("audit_log").column("id").execute();
  await db.schema
    .createIndex("audit_log_target_idx")
    .on("audit_log")
    .columns(["target_type", "target_id"])
    .execute();

  // Balances set before the ledger existed (the seed admin's coins) get an opening row, so that the sum
  // of the ledger equals every balance from the first day.
  await sql`
    insert into coin_ledger (user_id, amount_cents, balance_after_cents, kind, reason, created_at)
    select id, coin_balance_cents, coin_balance_cents, 'admin_adjustment', 'Opening balance', created_at
    from users where coin_balance_cents > 0
  `.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const table of [
    "audit_log",
    "service_renewals",
    "orders",
    "hosting_services",
    "vouchers",
    "coin_ledger",
  ]) {
    await db.schema.dropTable(table).execute();
  }
}
