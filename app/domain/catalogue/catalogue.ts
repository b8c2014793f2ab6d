export const PRODUCT_TYPES = ["samp", "mta", "vps", "game"] as const;
export type ProductType = (typeof PRODUCT_TYPES)[number];
export const PRODUCT_CATEGORIES = ["Game Hosting", "VPS Hosting"] as const;
export type ProductCategory = (typeof PRODUCT_CATEGORIES)[number];
export const PRODUCT_STATUSES = ["active", "hidden"] as const;
export type ProductStatus = (typeof PRODUCT_STATUSES)[number];

/** A catalogue product as the rest of the app sees it: money in cents, specs as numbers. */
export interface Product {
  id: number;
  slug: string;
  type: ProductType;
  category: ProductCategory;
  name: string;
  description: string;
  priceCents: number;
  features: string[];
  specs: {
    ramGb: number | null;
    storageGb: number | null;
    cpuCores: number | null;
    slots: number | null;
  };
  recommended: boolean;
  status: ProductStatus;
  position: number;
  /** Set when the product is made on the game panel: its orders are checked for room. */
  provisioned?: true;
  /**
   * An order of it paid from coins is approved by the system at once when the customer is trusted and
   * the panel has room (docs/money.md#activation-on-payment); its plan card promises "Instant setup",
   * the others "Set up after approval".
   */
  activateWhenPaid: boolean;
}

/**
 * The languages a product's texts can be written in besides English (ADR 19). English is the product's
 * own columns, required; each of these is optional and falls back to English field by field.
 */
export const PRODUCT_TEXT_LOCALES = ["fr", "ar"] as const;
export type ProductTextLocale = (typeof PRODUCT_TEXT_LOCALES)[number];

export function isProductTextLocale(locale: unknown): locale is ProductTextLocale {
  return typeof locale === "string" && (PRODUCT_TEXT_LOCALES as readonly string[]).includes(locale);
}

/** What a customer reads of a product, in one language. */
export interface ProductTexts {
  name: string;
  description: string;
  features: string[];
}

/** A product's texts in each language besides English, each field empty where it falls back. */
export type ProductTranslations = Record<ProductTextLocale, ProductTexts>;

export function emptyProductTexts(): ProductTexts {
  return { name: "", description: "", features: [] };
}

export function emptyTranslations(): ProductTranslations {
  return { fr: emptyProductTexts(), ar: emptyProductTexts() };
}

/** True when a language has nothing of its own (every field falls back to English). */
export function isEmptyTexts(texts: ProductTexts): boolean {
  return texts.name === "" && texts.description === "" && texts.features.length === 0;
}

/**
 * The texts a reader of `translated`'s language sees: each field of that language, or the English one
 * where it is empty (a name, a description, the whole feature list).
 */
export function textsWithFallback(
  english: ProductTexts,
  translated: ProductTexts | undefined,
): ProductTexts {
  if (!translated) return english;
  return {
    name: translated.name || english.name,
    description: translated.description || english.description,
    features: translated.features.length > 0 ? translated.features : english.features,
  };
}

export function categoryOf(type: ProductType): ProductCategory {
  return type === "vps" ? "VPS Hosting" : "Game Hosting";
}

/** Game types have player slots; a VPS does not. */
export function hasPlayerSlots(type: ProductType): boolean {
  return type !== "vps";
}
