import { sql, type Kysely } from "kysely";
import { columnTypes } from "./column-types";

export async function up(db: Kysely<unknown>): Promise<void> {
  const t = columnTypes(db);
  await db.schema
    .createTable("products")
    .addColumn("id", t.autoId, (c) =>
      t.postgres ? c.primaryKey() : c.primaryKey().autoIncrement(),
    )
    .addColumn("slug", "text", (c) => c.notNull().unique())
    .addColumn("type", "text", (c) => c.notNull())
    .addColumn("category", "text", (c) => c.notNull())
    .addColumn("name", "text", (c) => c.notNull())
    .addColumn("description", "text", (c) => c.notNull().defaultTo(""))
    .addColumn("price_cents", "integer", (c) => c.notNull().check(sql`price_cents >= 0`))
    // JSON array of strings.
    .addColumn("features", "text", (c) => c.notNull().defaultTo("[]"))
    .addColumn("ram_gb", "integer")
    .addColumn("storage_gb", "integer")
    .addColumn("cpu_cores", "integer")
    .addColumn("slots", "integer")
    .addColumn("recommended", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("status", "text", (c) => c.notNull().defaultTo("active"))
    .addColumn("position", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("created_at", t.timestamp, (c) => c.notNull())
    .addColumn("updated_at", t.timestamp, (c) => c.notNull())
    .addCheckConstraint("products_type_check", sql`type in ('samp', 'mta', 'vps', 'game')`)
    .addCheckConstraint("products_category_check", sql`category in ('Game Hosting', 'VPS Hosting')`)
    .addCheckConstraint("products_status_check", sql`status in ('active', 'hidden')`)
    .execute();
  await db.schema
    .createIndex("products_type_status_position_idx")
    .on("products")
    .columns(["type", "status", "position"])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable("products").execute();
}
