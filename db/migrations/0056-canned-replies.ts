import { sql, type ColumnDefinitionBuilder, type Kysely } from "kysely";
import { columnTypes } from "./column-types";

// Canned replies (docs/self-service.md): texts the staff insert into a ticket's reply, written once in
// each of the site's languages and filled in with the customer's name and the ticket's number.
//
// - `title`: what the staff pick it by, as typed; `title_key` the same title folded (trimmed, spaces run
//   together, lower case, by the application so both dialects fold alike), unique: two replies a picker
//   could not tell apart are refused.
// - `texts`: a JSON object, one text per language ({"en": "...", "fr": "...", "ar": "..."}, "" where none
//   is written), as payment methods' `names`. Not a table of texts (as products' and announcements'): a
//   reply is always read and written whole, never searched or sorted by a text, and falls back to English
//   as a whole, never field by field; a language added later needs no migration.
// - `department`: the ticket department it suits (billing, technical, sales), null for any; the picker
//   offers a ticket's own department's replies first.
// - `position`: the order the staff keep them in (0, 1, 2…), ids breaking a tie.
// - `created_by`: who wrote it, null for the ones the application seeds on a new install (and for one
//   whose writer's account is gone).
export async function up(db: Kysely<unknown>): Promise<void> {
  const t = columnTypes(db);
  const id = (c: ColumnDefinitionBuilder) =>
    t.postgres ? c.primaryKey() : c.primaryKey().autoIncrement();
  await db.schema
    .createTable("canned_replies")
    .addColumn("id", t.autoId, id)
    .addColumn("title", "text", (c) => c.notNull().check(sql`title <> ''`))
    .addColumn("title_key", "text", (c) => c.notNull().unique())
    .addColumn("texts", "text", (c) => c.notNull().defaultTo("{}"))
    .addColumn("department", "text", (c) =>
      c.check(sql`department in ('billing', 'technical', 'sales')`),
    )
    .addColumn("position", "integer", (c) =>
      c
        .notNull()
        .defaultTo(0)
        .check(sql`position >= 0`),
    )
    .addColumn("created_by", "text", (c) => c.references("users.id").onDelete("set null"))
    .addColumn("created_at", t.timestamp, (c) => c.notNull())
    .addColumn("updated_at", t.timestamp, (c) => c.notNull())
    .execute();
  // The list's and the picker's order.
  await db.schema
    .createIndex("canned_replies_position_idx")
    .on("canned_replies")
    .columns(["position", "id"])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable("canned_replies").execute();
}
