import type { Kysely, Selectable } from "kysely";
import type { Database, ProductsTable } from "~/db/schema";
import {
  categoryOf,
  SEED_PRODUCTS,
  type Product,
  type ProductCategory,
  type ProductStatus,
  type ProductType,
} from "./catalogue";

function parseFeatures(raw: string): string[] {
  try {
    const value: unknown = JSON.parse(raw);
    return Array.isArray(value)
      ? value.filter((item): item is string => typeof item === "string")
      : [];
  } catch {
    return [];
  }
}

export function toProduct(row: Selectable<ProductsTable>): Product {
  return {
    id: Number(row.id),
    slug: row.slug,
    type: row.type as ProductType,
    category: row.category as ProductCategory,
    name: row.name,
    description: row.description,
    priceCents: row.price_cents,
    features: parseFeatures(row.features),
    specs: {
      ramGb: row.ram_gb,
      storageGb: row.storage_gb,
      cpuCores: row.cpu_cores,
      slots: row.slots,
    },
    recommended: row.recommended === 1,
    status: row.status as ProductStatus,
    position: row.position,
  };
}

/** Active products, in catalogue order, optionally of one type. Hidden products are never listed. */
export async function listActiveProducts(
  db: Kysely<Database>,
  type?: ProductType,
): Promise<Product[]> {
  let query = db.selectFrom("products").selectAll().where("status", "=", "active");
  if (type) query = query.where("type", "=", type);
  const rows = await query.orderBy("type").orderBy("position").orderBy("id").execute();
  return rows.map(toProduct);
}

/** One active product, or undefined for an unknown or hidden one (ordering treats both alike). */
export async function findActiveProduct(
  db: Kysely<Database>,
  id: number,
): Promise<Product | undefined> {
  if (!Number.isSafeInteger(id) || id <= 0) return undefined;
  const row = await db
    .selectFrom("products")
    .selectAll()
    .where("id", "=", id)
    .where("status", "=", "active")
    .executeTakeFirst();
  return row ? toProduct(row) : undefined;
}

/**
 * Inserts the spec's plans into an empty catalogue, once. Once there is any product the catalogue is the
 * admins' (/admin/products): a renamed slug or a deleted plan is never brought back at the next start, and
 * their edits are never overwritten.
 */
export async function seedCatalogue(db: Kysely<Database>): Promise<void> {
  const existing = await db.selectFrom("products").select("id").limit(1).executeTakeFirst();
  if (existing) return;
  const now = new Date().toISOString();
  await db
    .insertInto("products")
    .values(
      SEED_PRODUCTS.map((product, index) => ({
        slug: product.slug,
        type: product.type,
        category: categoryOf(product.type),
        name: product.name,
        description: product.description,
        price_cents: product.priceCents,
        features: JSON.stringify(product.features),
        ram_gb: product.ramGb,
        storage_gb: product.storageGb,
        cpu_cores: product.cpuCores,
        slots: product.slots,
        recommended: product.recommended ? 1 : 0,
        status: "active",
        position: index % 3,
        created_at: now,
        updated_at: now,
      })),
    )
    .onConflict((oc) => oc.column("slug").doNothing())
    .execute();
}
