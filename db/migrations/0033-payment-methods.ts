import { sql, type ColumnDefinitionBuilder, type Kysely } from "kysely";
import { columnTypes } from "./column-types";

// Payment methods (issue 26, docs/payments.md): how a customer may pay for coins outside the site, each
// with its currency, its rate, the bounds of one top-up and its fee. Coins stay 1 coin = 1 euro; every
// amount is an integer of the method's minor unit (euro cents, dirham centimes).
//
// - `rate`: minor units of the method's currency one coin costs (1100 = 11.00 MAD a coin); a euro
//   method's is 100, exactly one euro (a CHECK), so an amount in euros is never converted.
// - `fee_fixed` in minor units of the method's currency, `fee_percent_bp` in basis points (250 = 2.5%),
//   at most 10,000 (100%): the fee a customer is shown before they pay.
// - `names`, `instructions`: JSON objects, one text per language ({"en": "...", "fr": "...", "ar": "..."},
//   "" where none is written). Not one column per language: the row is always read and written whole
//   and never searched or sorted by a text, and a language added later needs no migration. Not a table
//   of texts (as products' and announcements'): they have a required English column and optional
//   translations, where a method's rule is about the site's default language, whichever it is.
// - `builtin`: the five methods of the service terms, which the application seeds at start-up
//   (seedPaymentMethods, like the catalogue and the settings, so a database moved by copy-database
//   arrives with its own rows and the target's migrations write none): an admin edits, enables and
//   disables them but cannot delete them, and their `code` never changes.
export async function up(db: Kysely<unknown>): Promise<void> {
  const t = columnTypes(db);
  const id = (c: ColumnDefinitionBuilder) =>
    t.postgres ? c.primaryKey() : c.primaryKey().autoIncrement();
  await db.schema
    .createTable("payment_methods")
    .addColumn("id", t.autoId, id)
    .addColumn("code", "text", (c) => c.notNull().unique())
    .addColumn("builtin", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("enabled", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("currency", "text", (c) => c.notNull().check(sql`currency in ('EUR', 'MAD')`))
    .addColumn("rate", "integer", (c) => c.notNull().check(sql`rate > 0`))
    .addColumn("min_coins", "integer", (c) => c.notNull().check(sql`min_coins >= 1`))
    .addColumn("max_coins", "integer", (c) => c.notNull())
    .addColumn("fee_fixed", "integer", (c) =>
      c
        .notNull()
        .defaultTo(0)
        .check(sql`fee_fixed >= 0`),
    )
    .addColumn("fee_percent_bp", "integer", (c) =>
      c
        .notNull()
        .defaultTo(0)
        .check(sql`fee_percent_bp between 0 and 10000`),
    )
    .addColumn("names", "text", (c) => c.notNull().defaultTo("{}"))
    .addColumn("instructions", "text", (c) => c.notNull().defaultTo("{}"))
    .addColumn("sort_order", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("created_at", t.timestamp, (c) => c.notNull())
    .addColumn("updated_at", t.timestamp, (c) => c.notNull())
    .addCheckConstraint("payment_methods_coin_bounds", sql`max_coins >= min_coins`)
    .addCheckConstraint("payment_methods_euro_rate", sql`currency <> 'EUR' or rate = 100`)
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable("payment_methods").execute();
}
