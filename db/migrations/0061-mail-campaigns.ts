import { sql, type ColumnDefinitionBuilder, type Kysely } from "kysely";
import { columnTypes } from "./column-types";

// Mail campaigns and the newsletter's double opt-in (docs/mail.md#campaigns).
//
// - `mail_campaigns`: one campaign, written per language and addressed to an audience. `texts` is a JSON
//   object ({"en": {"subject", "body"}, "fr": ..., "ar": ...}, "" where not written); `audience` a JSON
//   object ({"newsletter": bool, "productTypes": [...], "locales": [...]}). Both are read and written
//   whole, as canned replies' texts. `state` is `draft` until it is sent (`sent`): the one update from
//   draft to sent is what makes a campaign go out once. `recipients` is how many it was queued to;
//   `tested_at` when the staff last sent it to themselves (a send needs one after the last edit).
// - `campaign_unsubscribes`: an address that asked for no more campaigns (one row per address, the
//   campaign whose link it followed, for that campaign's report).
// - `newsletter_subscribers` gains `confirmed_at` (null: the confirmation link was not opened yet, and
//   no campaign goes to it) and `locale` (the page's language when it subscribed).
export async function up(db: Kysely<unknown>): Promise<void> {
  const t = columnTypes(db);
  const id = (c: ColumnDefinitionBuilder) =>
    t.postgres ? c.primaryKey() : c.primaryKey().autoIncrement();
  await db.schema
    .createTable("mail_campaigns")
    .addColumn("id", t.autoId, id)
    .addColumn("texts", "text", (c) => c.notNull().defaultTo("{}"))
    .addColumn("audience", "text", (c) => c.notNull().defaultTo("{}"))
    .addColumn("state", "text", (c) =>
      c
        .notNull()
        .defaultTo("draft")
        .check(sql`state in ('draft', 'sent')`),
    )
    .addColumn("recipients", "integer", (c) =>
      c
        .notNull()
        .defaultTo(0)
        .check(sql`recipients >= 0`),
    )
    .addColumn("created_by", "text", (c) => c.references("users.id").onDelete("set null"))
    .addColumn("sent_by", "text", (c) => c.references("users.id").onDelete("set null"))
    .addColumn("created_at", t.timestamp, (c) => c.notNull())
    .addColumn("updated_at", t.timestamp, (c) => c.notNull())
    .addColumn("tested_at", t.timestamp)
    .addColumn("sent_at", t.timestamp)
    .execute();
  await db.schema
    .createIndex("mail_campaigns_created_idx")
    .on("mail_campaigns")
    .columns(["created_at", "id"])
    .execute();

  await db.schema
    .createTable("campaign_unsubscribes")
    .addColumn("id", t.autoId, id)
    .addColumn("email", "text", (c) => c.notNull().unique())
    .addColumn("campaign_id", "integer", (c) =>
      c.references("mail_campaigns.id").onDelete("set null"),
    )
    .addColumn("created_at", t.timestamp, (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex("campaign_unsubscribes_campaign_idx")
    .on("campaign_unsubscribes")
    .column("campaign_id")
    .execute();

  await db.schema
    .alterTable("newsletter_subscribers")
    .addColumn("confirmed_at", t.timestamp)
    .execute();
  await db.schema.alterTable("newsletter_subscribers").addColumn("locale", "text").execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable("newsletter_subscribers").dropColumn("locale").execute();
  await db.schema.alterTable("newsletter_subscribers").dropColumn("confirmed_at").execute();
  await db.schema.dropTable("campaign_unsubscribes").execute();
  await db.schema.dropTable("mail_campaigns").execute();
}
