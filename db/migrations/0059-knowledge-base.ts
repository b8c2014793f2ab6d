import { sql, type ColumnDefinitionBuilder, type Kysely } from "kysely";
import { columnTypes } from "./column-types";

// The knowledge base (docs/knowledgebase.md): categories of articles the staff write in each of the
// site's languages, read by visitors at /knowledgebase and suggested on the new-ticket page.
//
// - Names, titles and bodies are JSON objects, one text per language ({"en": "...", "fr": "...",
//   "ar": "..."}, "" where none is written), as canned replies' texts: always read and written whole,
//   English the fallback; a language added later needs no migration.
// - `slug`: the address's part, unique per table (an article's across every category, so an address
//   names one article whatever its category; one reached under another category is sent to its own).
// - `search_text`: every language's title and body folded by the application (lower case, accents and
//   Arabic diacritics removed) so both dialects search it alike with LIKE; `search_titles` the titles
//   alone, to list title matches first.
// - `department`: the ticket department a category's articles suit (billing, technical, sales), null for
//   any; the new-ticket page suggests those first.
// - `position`: the order the staff keep them in, ids breaking a tie.
export async function up(db: Kysely<unknown>): Promise<void> {
  const t = columnTypes(db);
  const id = (c: ColumnDefinitionBuilder) =>
    t.postgres ? c.primaryKey() : c.primaryKey().autoIncrement();
  await db.schema
    .createTable("kb_categories")
    .addColumn("id", t.autoId, id)
    .addColumn("slug", "text", (c) =>
      c
        .notNull()
        .unique()
        .check(sql`slug <> ''`),
    )
    .addColumn("names", "text", (c) => c.notNull().defaultTo("{}"))
    .addColumn("department", "text", (c) =>
      c.check(sql`department in ('billing', 'technical', 'sales')`),
    )
    .addColumn("position", "integer", (c) =>
      c
        .notNull()
        .defaultTo(0)
        .check(sql`position >= 0`),
    )
    .addColumn("created_at", t.timestamp, (c) => c.notNull())
    .addColumn("updated_at", t.timestamp, (c) => c.notNull())
    .execute();
  await db.schema
    .createTable("kb_articles")
    .addColumn("id", t.autoId, id)
    // A category with articles cannot be deleted: its articles are moved or deleted first.
    .addColumn("category_id", "integer", (c) =>
      c.notNull().references("kb_categories.id").onDelete("restrict"),
    )
    .addColumn("slug", "text", (c) =>
      c
        .notNull()
        .unique()
        .check(sql`slug <> ''`),
    )
    .addColumn("status", "text", (c) =>
      c
        .notNull()
        .defaultTo("draft")
        .check(sql`status in ('draft', 'published')`),
    )
    .addColumn("position", "integer", (c) =>
      c
        .notNull()
        .defaultTo(0)
        .check(sql`position >= 0`),
    )
    .addColumn("titles", "text", (c) => c.notNull().defaultTo("{}"))
    .addColumn("bodies", "text", (c) => c.notNull().defaultTo("{}"))
    .addColumn("search_titles", "text", (c) => c.notNull().defaultTo(""))
    .addColumn("search_text", "text", (c) => c.notNull().defaultTo(""))
    .addColumn("created_by", "text", (c) => c.references("users.id").onDelete("set null"))
    .addColumn("created_at", t.timestamp, (c) => c.notNull())
    .addColumn("updated_at", t.timestamp, (c) => c.notNull())
    .execute();
  // A category's page and the index list its published articles in order.
  await db.schema
    .createIndex("kb_articles_category_idx")
    .on("kb_articles")
    .columns(["category_id", "status", "position", "id"])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable("kb_articles").execute();
  await db.schema.dropTable("kb_categories").execute();
}
