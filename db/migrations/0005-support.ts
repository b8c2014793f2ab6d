import { sql, type ColumnDefinitionBuilder, type Kysely } from "kysely";
import { columnTypes } from "./column-types";

export async function up(db: Kysely<unknown>): Promise<void> {
  const t = columnTypes(db);
  const id = (c: ColumnDefinitionBuilder) =>
    t.postgres ? c.primaryKey() : c.primaryKey().autoIncrement();

  await db.schema
    .createTable("tickets")
    .addColumn("id", t.autoId, id)
    .addColumn("user_id", "text", (c) => c.notNull().references("users.id"))
    .addColumn("department", "text", (c) => c.notNull())
    .addColumn("subject", "text", (c) => c.notNull())
    .addColumn("priority", "text", (c) => c.notNull().defaultTo("medium"))
    .addColumn("status", "text", (c) => c.notNull().defaultTo("open"))
    .addColumn("hosting_service_id", "integer", (c) =>
      c.references("hosting_services.id").onDelete("set null"),
    )
    // When the customer last wrote without an answer yet: the admin queue serves the oldest first.
    .addColumn("waiting_since", t.timestamp)
    .addColumn("created_at", t.timestamp, (c) => c.notNull())
    .addColumn("updated_at", t.timestamp, (c) => c.notNull())
    .addCheckConstraint(
      "tickets_department_check",
      sql`department in ('billing', 'technical', 'sales')`,
    )
    .addCheckConstraint("tickets_priority_check", sql`priority in ('low', 'medium', 'high')`)
    .addCheckConstraint(
      "tickets_status_check",
      sql`status in ('open', 'answered', 'customer_reply', 'closed')`,
    )
    .execute();
  await db.schema
    .createIndex("tickets_user_idx")
    .on("tickets")
    .columns(["user_id", "id"])
    .execute();
  await db.schema
    .createIndex("tickets_queue_idx")
    .on("tickets")
    .columns(["status", "waiting_since"])
    .execute();

  await db.schema
    .createTable("ticket_messages")
    .addColumn("id", t.autoId, id)
    .addColumn("ticket_id", "integer", (c) =>
      c.notNull().references("tickets.id").onDelete("cascade"),
    )
    .addColumn("author_id", "text", (c) => c.references("users.id"))
    .addColumn("is_staff", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("body", "text", (c) => c.notNull())
    .addColumn("created_at", t.timestamp, (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex("ticket_messages_ticket_idx")
    .on("ticket_messages")
    .columns(["ticket_id", "id"])
    .execute();

  await db.schema
    .createTable("notifications")
    .addColumn("id", t.autoId, id)
    .addColumn("user_id", "text", (c) => c.notNull().references("users.id"))
    .addColumn("kind", "text", (c) => c.notNull())
    // JSON parameters for the message text (order number, amounts...).
    .addColumn("params", "text", (c) => c.notNull().defaultTo("{}"))
    .addColumn("link", "text", (c) => c.notNull())
    // Set for notifications that must exist once only (an expiry warning per service and expiry date).
    .addColumn("dedupe_key", "text", (c) => c.unique())
    .addColumn("read_at", t.timestamp)
    .addColumn("created_at", t.timestamp, (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex("notifications_user_idx")
    .on("notifications")
    .columns(["user_id", "id"])
    .execute();

  await db.schema
    .createTable("announcements")
    .addColumn("id", t.autoId, id)
    .addColumn("title", "text", (c) => c.notNull())
    .addColumn("content", "text", (c) => c.notNull())
    .addColumn("type", "text", (c) => c.notNull().defaultTo("info"))
    .addColumn("is_active", "integer", (c) => c.notNull().defaultTo(1))
    .addColumn("target_audience", "text", (c) => c.notNull().defaultTo("all"))
    .addColumn("seed_key", "text", (c) => c.unique())
    .addColumn("created_at", t.timestamp, (c) => c.notNull())
    .addColumn("updated_at", t.timestamp, (c) => c.notNull())
    .addCheckConstraint("announcements_type_check", sql`type in ('info', 'success', 'warning')`)
    .addCheckConstraint(
      "announcements_audience_check",
      sql`target_audience in ('all', 'customers', 'admins')`,
    )
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const table of ["announcements", "notifications", "ticket_messages", "tickets"]) {
    await db.schema.dropTable(table).execute();
  }
}
