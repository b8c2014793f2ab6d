import { sql, type Kysely } from "kysely";
import { columnTypes } from "./column-types";

/**
 * A product's name, description and features in the languages other than English (ADR 19). English stays
 * in `products` (the source, required, and what orders copy); a row here holds one language's texts, each
 * field empty when that language falls back to English. Deleting a product deletes its texts.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  const t = columnTypes(db);
  await db.schema
    .createTable("product_texts")
    .addColumn("id", t.autoId, (c) =>
      t.postgres ? c.primaryKey() : c.primaryKey().autoIncrement(),
    )
    .addColumn("product_id", "integer", (c) =>
      c.notNull().references("products.id").onDelete("cascade"),
    )
    .addColumn("locale", "text", (c) => c.notNull())
    .addColumn("name", "text", (c) => c.notNull().defaultTo(""))
    .addColumn("description", "text", (c) => c.notNull().defaultTo(""))
    // JSON array of strings; [] falls back to the English list.
    .addColumn("features", "text", (c) => c.notNull().defaultTo("[]"))
    .addColumn("updated_at", t.timestamp, (c) => c.notNull())
    .addCheckConstraint("product_texts_locale_check", sql`locale in ('fr', 'ar')`)
    .execute();
  await db.schema
    .createIndex("product_texts_product_locale_idx")
    .unique()
    .on("product_texts")
    .columns(["product_id", "locale"])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable("product_texts").execute();
}
