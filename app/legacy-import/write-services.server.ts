import { categoryOf } from "~/domain/catalogue/catalogue";
import type { ImportService } from "./dataset-types";
import { mapped, note, remember, type Writing } from "./write-context.server";
import { findProduct, type Catalogue, type ProductRow } from "./write-refs.server";

const PRODUCT_COLUMNS = ["id", "slug", "name", "type", "price_cents", "position"] as const;

/** Services: matched to a product of ours by slug or name (kept as it is), else a new product. */
export async function writeServices(w: Writing): Promise<Catalogue> {
  const products: ProductRow[] = await w.trx
    .selectFrom("products")
    .select(PRODUCT_COLUMNS)
    .execute();
  const catalogue: Catalogue = {
    products,
    productById: new Map(products.map((p) => [Number(p.id), p])),
    productByServiceKey: new Map(),
    legacyPriceByServiceKey: new Map(w.data.services.map((s) => [s.key, s.priceCents])),
  };
  for (const service of w.data.services) {
    const done = mapped(w, "services", service.key);
    if (done) {
      const product = catalogue.productById.get(Number(done.newId));
      if (product) catalogue.productByServiceKey.set(service.key, product);
      continue;
    }
    const existing = findProduct(catalogue, service.slug, service.name);
    if (existing) await matchProduct(w, catalogue, service, existing);
    else await createProduct(w, catalogue, service);
  }
  return catalogue;
}

async function matchProduct(
  w: Writing,
  catalogue: Catalogue,
  service: ImportService,
  existing: ProductRow,
) {
  await remember(w, "services", service.key, existing.id, "matched");
  catalogue.productByServiceKey.set(service.key, existing);
  if (existing.price_cents !== service.priceCents)
    note(w, "services", service.ref, service.name, {
      code: "productKept",
      slug: existing.slug,
      priceCents: existing.price_cents,
      legacyPriceCents: service.priceCents,
    });
}

async function createProduct(w: Writing, catalogue: Catalogue, service: ImportService) {
  const sameType = catalogue.products.filter((p) => p.type === service.type);
  const position = Math.max(-1, ...sameType.map((p) => p.position)) + 1;
  const row = await w.trx
    .insertInto("products")
    .values({
      slug: service.slug,
      type: service.type,
      category: categoryOf(service.type),
      name: service.name,
      description: service.description,
      price_cents: service.priceCents,
      features: JSON.stringify(service.features),
      ram_gb: service.specs.ramGb,
      storage_gb: service.specs.storageGb,
      cpu_cores: service.specs.cpuCores,
      slots: service.specs.slots,
      recommended: 0,
      status: service.status,
      position,
      created_at: service.createdAt ?? w.now,
      updated_at: w.now,
    })
    .returning(PRODUCT_COLUMNS)
    .executeTakeFirstOrThrow();
  const product = { ...row, id: Number(row.id) };
  catalogue.products.push(product);
  catalogue.productById.set(product.id, product);
  catalogue.productByServiceKey.set(service.key, product);
  await remember(w, "services", service.key, product.id, "created");
}
