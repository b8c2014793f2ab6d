import { keysOf } from "~/lib/keys-of";
import { labelKeys, messageKeys } from "~/lib/label-keys";
import { EURO_INPUT_REFUSALS, type EuroInputError } from "~/lib/euro-input";
import {
  PRODUCT_STATUSES,
  PRODUCT_TYPES,
  type Product,
  type ProductCategory,
  type ProductStatus,
  type ProductTextLocale,
  type ProductTexts,
  type ProductTranslations,
  type ProductType,
} from "./catalogue";
import type { ProductProvisioning } from "~/domain/provisioning/provisioning";

export type { ProductAction, ProductListQuery } from "./catalogue-admin.schemas";

// The admin's catalogue (/admin/products). Messages are catalogue keys ("admin-catalogue.…").

/** €10,000.00 a month: a typo guard (an extra zero or two), not a business limit. */
export const MAX_PRODUCT_PRICE_CENTS = 1_000_000;
export const MAX_PRODUCT_NAME_LENGTH = 80;
export const MAX_PRODUCT_DESCRIPTION_LENGTH = 500;
export const MAX_SLUG_LENGTH = 60;
export const MAX_FEATURES = 12;
export const MAX_FEATURE_LENGTH = 120;
/** Largest value of each spec, again only against typos. */
export const SPEC_LIMITS = {
  ramGb: 1024,
  storageGb: 100_000,
  cpuCores: 256,
  slots: 100_000,
} as const;
export type SpecField = keyof typeof SPEC_LIMITS;
export const SPEC_FIELDS = keysOf(SPEC_LIMITS);

// Catalogue keys (admin-catalogue namespace), one family a set of values (docs/i18n.md, ADR 26).
export const PRODUCT_TYPE_LABELS = labelKeys("admin-catalogue", "products.types", PRODUCT_TYPES);
export const PRODUCT_STATUS_LABELS = labelKeys(
  "admin-catalogue",
  "products.statuses",
  PRODUCT_STATUSES,
);
export const SPEC_LABELS = labelKeys("admin-catalogue", "products.fields", SPEC_FIELDS);
// The stored category names are the spec's English words, not key-shaped: written out.
export const PRODUCT_CATEGORY_LABELS = {
  "Game Hosting": "products.categories.game",
  "VPS Hosting": "products.categories.vps",
} as const satisfies Record<ProductCategory, string>;

/** Why a typed amount of euros was refused, for every euro field of the admin's catalogue forms. */
export const EURO_INPUT_ERRORS = messageKeys(
  "admin-catalogue",
  "money",
  EURO_INPUT_REFUSALS,
) satisfies Record<EuroInputError, string>;

export const SPEC_ERRORS = {
  ramGb: "admin-catalogue.products.errors.ramGbInvalid",
  storageGb: "admin-catalogue.products.errors.storageGbInvalid",
  cpuCores: "admin-catalogue.products.errors.cpuCoresInvalid",
  slots: "admin-catalogue.products.errors.slotsInvalid",
} as const satisfies Record<SpecField, string>;

/** Lower-case words joined by single hyphens: "samp-starter". */
export const SLUG_PATTERN = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;

/** The words of a name as a slug, which may be empty or one character ("خادم" → ""). */
export function slugWords(name: string): string {
  return name
    .normalize("NFKD")
    .replace(/[\u0300-\u036f]/g, "")
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-+|-+$/g, "")
    .slice(0, MAX_SLUG_LENGTH)
    .replace(/-+$/, "");
}

/** A slug made from a name: "SAMP Starter 2" → "samp-starter-2"; letters outside a-z are dropped. */
export function slugify(name: string): string {
  const slug = slugWords(name);
  return slug.length >= 2 ? slug : "product";
}

/**
 * The first of `base`, `base-2`, `base-3`… that `taken` says is free, cut to MAX_SLUG_LENGTH with no dash
 * left at the cut: a new row's slug (a product's, a payment method's code) made from its name.
 */
export async function firstFreeSlug(
  base: string,
  taken: (slug: string) => Promise<boolean>,
): Promise<string> {
  for (let n = 1; ; n++) {
    const suffix = n === 1 ? "" : `-${n}`;
    const candidate = `${base.slice(0, MAX_SLUG_LENGTH - suffix.length).replace(/-+$/, "")}${suffix}`;
    if (!(await taken(candidate))) return candidate;
  }
}

/** The feature list as typed, one per line: blank lines and repeats dropped. */
export function parseFeatureLines(text: string): string[] {
  const lines = text
    .split(/\r?\n/)
    .map((line) => line.trim())
    .filter((line) => line !== "");
  return [...new Set(lines)];
}

/**
 * The editor's fields of each language besides English (ADR 19), each optional and checked with the
 * English field's limits; empty, the storefront shows the English text.
 */
export const TEXT_FIELD_NAMES = {
  fr: { name: "nameFr", description: "descriptionFr", features: "featuresFr" },
  ar: { name: "nameAr", description: "descriptionAr", features: "featuresAr" },
} as const satisfies Record<ProductTextLocale, Record<keyof ProductTexts, string>>;

/** Why a translated field was refused, naming its language (admin-catalogue keys, written out). */
export const TEXT_ERRORS = {
  fr: {
    nameTooLong: "admin-catalogue.products.texts.errors.frNameTooLong",
    descriptionTooLong: "admin-catalogue.products.texts.errors.frDescriptionTooLong",
    tooManyFeatures: "admin-catalogue.products.texts.errors.frTooManyFeatures",
    featureTooLong: "admin-catalogue.products.texts.errors.frFeatureTooLong",
  },
  ar: {
    nameTooLong: "admin-catalogue.products.texts.errors.arNameTooLong",
    descriptionTooLong: "admin-catalogue.products.texts.errors.arDescriptionTooLong",
    tooManyFeatures: "admin-catalogue.products.texts.errors.arTooManyFeatures",
    featureTooLong: "admin-catalogue.products.texts.errors.arFeatureTooLong",
  },
} as const satisfies Record<ProductTextLocale, Record<string, string>>;

/** What a product is saved from: the form, with its category filled in and its specs together. */
export interface ProductInput {
  name: string;
  /** Empty: made from the name (create) or left as it is (update). */
  slug: string;
  type: ProductType;
  category: ProductCategory;
  description: string;
  priceCents: number;
  features: string[];
  specs: Product["specs"];
  recommended: boolean;
  /** Its orders paid from coins are approved by the system at once when the trust rule holds. */
  activateWhenPaid: boolean;
  status: ProductStatus;
  /** French and Arabic, each field empty where it falls back to English. */
  translations: ProductTranslations;
  /** How its servers are made: by hand, or on the game panel. */
  provisioning: ProductProvisioning;
  /**
   * The products of its type a customer may move a service of it to (plan-paths.ts); undefined when the
   * form did not say (its paths stay as they are).
   */
  changeTo?: number[];
}

export const MOVE_DIRECTIONS = ["up", "down"] as const;
export type MoveDirection = (typeof MOVE_DIRECTIONS)[number];

/** A product as a choice in another form (a voucher's products). */
export interface ProductChoice {
  id: number;
  name: string;
  type: ProductType;
  status: ProductStatus;
}

/** A product in the admin's list: what refers to it decides whether it may be deleted. */
export interface AdminProduct extends Product {
  /** Its French and Arabic texts as the admin wrote them (empty where they fall back to English). */
  translations: ProductTranslations;
  /** Its provisioning block as stored (`{ provisioner: "none" }` when none, or when it does not read). */
  provisioning: ProductProvisioning;
  /** The stored block does not read: the product is set up by hand until it is saved again. */
  provisioningUnreadable: boolean;
  orderCount: number;
  activeServiceCount: number;
  serviceCount: number;
  voucherCount: number;
  /** The products of its type a customer may move a service of it to. */
  changeTo: number[];
  createdAt: string;
  updatedAt: string;
}

/**
 * Only a hidden product that nothing refers to can be deleted: orders, hosting services and vouchers
 * point at products, and a product still listed could be in someone's order form right now.
 */
export function canDeleteProduct(product: AdminProduct): boolean {
  return (
    product.status === "hidden" &&
    product.orderCount === 0 &&
    product.serviceCount === 0 &&
    product.voucherCount === 0
  );
}

export const PRODUCT_NOTICES = ["created", "updated"] as const;
export type ProductNotice = (typeof PRODUCT_NOTICES)[number];
