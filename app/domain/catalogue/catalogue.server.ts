import type { Kysely, Selectable } from "kysely";
import type { Database, ProductsTable } from "~/db/schema";
import {
  categoryOf,
  emptyTranslations,
  isEmptyTexts,
  isProductTextLocale,
  PRODUCT_TEXT_LOCALES,
  textsWithFallback,
  type Product,
  type ProductCategory,
  type ProductStatus,
  type ProductTextLocale,
  type ProductTexts,
  type ProductTranslations,
  type ProductType,
} from "./catalogue";
import { SEED_PRODUCTS } from "./catalogue-seed.server";

type Reader = Pick<Kysely<Database>, "selectFrom">;

export function parseFeatures(raw: string): string[] {
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
    activateWhenPaid: row.activate_when_paid === 1,
    // Only the fact: the block itself is the admin's and the worker's, not the storefront's.
    ...(row.provisioning ? { provisioned: true as const } : {}),
  };
}

/**
 * The texts of these products in the languages asked (every language besides English by default), each
 * product's languages with nothing stored left empty.
 */
export async function readTranslations(
  db: Reader,
  productIds: number[],
  locales: readonly ProductTextLocale[] = PRODUCT_TEXT_LOCALES,
): Promise<Map<number, ProductTranslations>> {
  const found = new Map<number, ProductTranslations>();
  if (productIds.length === 0 || locales.length === 0) return found;
  const rows = await db
    .selectFrom("product_texts")
    .select(["product_id", "locale", "name", "description", "features"])
    .where("product_id", "in", productIds)
    .where("locale", "in", [...locales])
    .execute();
  for (const row of rows) {
    if (!isProductTextLocale(row.locale)) continue;
    const id = Number(row.product_id);
    const translations = found.get(id) ?? emptyTranslations();
    translations[row.locale] = {
      name: row.name,
      description: row.description,
      features: parseFeatures(row.features),
    };
    found.set(id, translations);
  }
  return found;
}

/**
 * The products as a reader of `locale` sees them: name, description and features in that language where
 * the admin wrote them, English where not (and for English, or a language we have no texts in).
 */
async function inLocale(db: Reader, products: Product[], locale: string): Promise<Product[]> {
  if (!isProductTextLocale(locale) || products.length === 0) return products;
  const translations = await readTranslations(
    db,
    products.map((product) => product.id),
    [locale],
  );
  return products.map((product) => ({
    ...product,
    ...textsWithFallback(product, translations.get(product.id)?.[locale]),
  }));
}

/**
 * Active products, in catalogue order, optionally of one type, with their texts in the reader's language
 * (English by default). Hidden products are never listed.
 */
export async function listActiveProducts(
  db: Kysely<Database>,
  type?: ProductType,
  locale = "en",
): Promise<Product[]> {
  let query = db.selectFrom("products").selectAll().where("status", "=", "active");
  if (type) query = query.where("type", "=", type);
  const rows = await query.orderBy("type").orderBy("position").orderBy("id").execute();
  return inLocale(db, rows.map(toProduct), locale);
}

/**
 * One active product, or undefined for an unknown or hidden one (ordering treats both alike); its texts
 * in `locale`, English by default (what an order copies).
 */
export async function findActiveProduct(
  db: Kysely<Database>,
  id: number,
  locale = "en",
): Promise<Product | undefined> {
  if (!Number.isSafeInteger(id) || id <= 0) return undefined;
  const row = await db
    .selectFrom("products")
    .selectAll()
    .where("id", "=", id)
    .where("status", "=", "active")
    .executeTakeFirst();
  return row ? (await inLocale(db, [toProduct(row)], locale))[0] : undefined;
}

/**
 * A product's name in `locale`, as a document issued now keeps it: the admin's name in that language,
 * else `english` (a language left empty, English itself, or one without texts).
 */
export async function productNameIn(
  db: Reader,
  product: { id: number; name: string },
  locale: string,
): Promise<string> {
  if (!isProductTextLocale(locale)) return product.name;
  const row = await db
    .selectFrom("product_texts")
    .select("name")
    .where("product_id", "=", product.id)
    .where("locale", "=", locale)
    .executeTakeFirst();
  return row?.name || product.name;
}

/** The rows of product_texts that hold a product's translations: none for a language left empty. */
export function translationRows(productId: number, translations: ProductTranslations, now: string) {
  return PRODUCT_TEXT_LOCALES.filter((locale) => !isEmptyTexts(translations[locale])).map(
    (locale) => {
      const texts: ProductTexts = translations[locale];
      return {
        product_id: productId,
        locale,
        name: texts.name,
        description: texts.description,
        features: JSON.stringify(texts.features),
        updated_at: now,
      };
    },
  );
}

/**
 * Inserts the spec's plans into an empty catalogue, once. Once there is any product the catalogue is the
 * admins' (/admin/products): a renamed slug or a deleted plan is never brought back at the next start, and
 * their edits are never overwritten.
 */
export async function seedCatalogue(db: Kysely<Database>): Promise<void> {
  const existing = await db.selectFrom("products").select("id").limit(1).executeTakeFirst();
  if (existing) return seedProductTexts(db);
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
  await seedProductTexts(db);
}

/**
 * The French and Arabic texts of the seeded plans, once: only while no product has any text in another
 * language yet (a new database, or one from before migration 0022), and only for a plan whose English
 * name, description and features are still the seed's, so an admin's rewording is never answered with a
 * translation of the old text. Once any translation exists the texts are the admins' (/admin/products).
 */
export async function seedProductTexts(db: Kysely<Database>): Promise<void> {
  const existing = await db.selectFrom("product_texts").select("id").limit(1).executeTakeFirst();
  if (existing) return;
  const rows = await db
    .selectFrom("products")
    .select(["id", "slug", "name", "description", "features"])
    .where(
      "slug",
      "in",
      SEED_PRODUCTS.map((product) => product.slug),
    )
    .execute();
  const now = new Date().toISOString();
  const values = rows.flatMap((row) => {
    const seed = SEED_PRODUCTS.find((product) => product.slug === row.slug);
    const unchanged =
      seed &&
      seed.name === row.name &&
      seed.description === row.description &&
      JSON.stringify(seed.features) === JSON.stringify(parseFeatures(row.features));
    return unchanged ? translationRows(Number(row.id), seed.texts, now) : [];
  });
  if (values.length === 0) return;
  await db
    .insertInto("product_texts")
    .values(values)
    .onConflict((oc) => oc.columns(["product_id", "locale"]).doNothing())
    .execute();
}
