import { sql, type Kysely } from "kysely";

/**
 * The admin's catalogue and promotions pages: voucher codes unique whatever their case (the app stores
 * them upper-case; this makes the database refuse a second spelling too), and indexes for what those
 * pages count: the orders of a voucher, and the orders and hosting services of a product.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createIndex("vouchers_code_upper_idx")
    .unique()
    .on("vouchers")
    .expression(sql`upper(code)`)
    .execute();
  await db.schema
    .createIndex("orders_voucher_idx")
    .on("orders")
    .columns(["voucher_id", "id"])
    .execute();
  await db.schema.createIndex("orders_product_idx").on("orders").column("product_id").execute();
  await db.schema
    .createIndex("hosting_services_product_idx")
    .on("hosting_services")
    .columns(["product_id", "status"])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const index of [
    "hosting_services_product_idx",
    "orders_product_idx",
    "orders_voucher_idx",
    "vouchers_code_upper_idx",
  ])
    await db.schema.dropIndex(index).execute();
}
