import { slugWords } from "~/domain/catalogue/catalogue-admin";
import { mappingKey, sameName } from "./import-state.server";
import type { SkipReason } from "./report-types";
import { mapped, skip, type Writing } from "./write-context.server";
import type { Accounts } from "./write-users.server";

// Orders, user services and vouchers point at users and services by the old ids: these find ours.

export interface ProductRow {
  id: number;
  slug: string;
  name: string;
  type: string;
  price_cents: number;
  position: number;
}

/** The catalogue as the import left it, and which product each old service became. */
export interface Catalogue {
  products: ProductRow[];
  productById: Map<number, ProductRow>;
  productByServiceKey: Map<string, ProductRow>;
  legacyPriceByServiceKey: Map<string, number>;
}

export function findProduct(catalogue: Catalogue, slug: string, name: string) {
  const { products } = catalogue;
  return products.find((p) => p.slug === slug) ?? products.find((p) => sameName(p.name, name));
}

export function resolveProduct(
  w: Writing,
  catalogue: Catalogue,
  serviceId: string | null,
  name: string | null,
): ProductRow | undefined {
  if (serviceId) {
    const product = catalogue.productByServiceKey.get(serviceId);
    if (product) return product;
    const earlier = w.mappings.get(mappingKey("services", serviceId));
    if (earlier) return catalogue.productById.get(Number(earlier.newId));
  }
  return name ? findProduct(catalogue, slugWords(name), name) : undefined;
}

/** The price a record names, else its old service's price in the file (undefined when neither). */
export function legacyPrice(
  catalogue: Catalogue,
  item: { priceCents: number | null; serviceId: string | null },
): number | undefined {
  return (
    item.priceCents ??
    (item.serviceId ? catalogue.legacyPriceByServiceKey.get(item.serviceId) : undefined)
  );
}

function resolveUser(
  w: Writing,
  accounts: Accounts,
  legacyId: string | null,
): { ok: true; id: string } | { ok: false; reason: SkipReason } {
  const email = legacyId === null ? undefined : w.data.userEmailById.get(legacyId);
  if (!email) return { ok: false, reason: { code: "userMissing", userId: legacyId } };
  const id = accounts.userIds.get(email);
  if (id) return { ok: true, id };
  const ref = accounts.skippedUsers.get(email);
  return ref
    ? { ok: false, reason: { code: "userNotImported", userRef: ref } }
    : { ok: false, reason: { code: "userMissing", userId: legacyId } };
}

/** The account an order or a user service belongs to; without one, the record is skipped (reported). */
export function ownerOf(
  w: Writing,
  accounts: Accounts,
  collection: "orders" | "userServices",
  item: { ref: string; userId: string | null },
  label: string,
): string | null {
  const user = resolveUser(w, accounts, item.userId);
  if (user.ok) return user.id;
  skip(w, collection, item.ref, label, user.reason);
  return null;
}

/** What an order or a user service is called in the report when it has no service name. */
const UNNAMED = { orders: "order", userServices: "service" } as const;

/**
 * The orders or user services still to write, each with its label and its owner's id, one at a time (so
 * each is checked after the one before is written): one imported before is counted as such, one whose
 * owner is unknown is skipped with the reason.
 */
export function* ownedToWrite<C extends "orders" | "userServices">(
  w: Writing,
  accounts: Accounts,
  collection: C,
): Generator<{ item: Writing["data"][C][number]; label: string; userId: string }> {
  for (const item of w.data[collection]) {
    const label = item.serviceName ?? `${UNNAMED[collection]} ${item.key}`;
    if (mapped(w, collection, item.key)) continue;
    const userId = ownerOf(w, accounts, collection, item, label);
    if (userId !== null) yield { item, label, userId };
  }
}
