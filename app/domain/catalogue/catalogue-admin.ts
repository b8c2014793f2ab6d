import { keysOf } from "~/lib/keys-of";
import { labelKeys } from "~/lib/label-keys";
import { parseEuroInput, type EuroInputError } from "~/lib/euro-input";
import { idField } from "~/lib/id-field";
import { editParam, filterParam } from "~/lib/query-params";
import { saveActions, withSavedItem, type SavedForm } from "~/lib/save-actions";
import { customIssue, z } from "~/lib/zod";
import {
  categoryOf,
  hasPlayerSlots,
  PRODUCT_CATEGORIES,
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
export const EURO_INPUT_ERRORS = {
  required: "admin-catalogue.money.required",
  invalid: "admin-catalogue.money.invalid",
  negative: "admin-catalogue.money.negative",
  decimals: "admin-catalogue.money.decimals",
  tooLarge: "admin-catalogue.money.tooLarge",
} as const satisfies Record<EuroInputError, string>;

const SPEC_ERRORS = {
  ramGb: "admin-catalogue.products.errors.ramGbInvalid",
  storageGb: "admin-catalogue.products.errors.storageGbInvalid",
  cpuCores: "admin-catalogue.products.errors.cpuCoresInvalid",
  slots: "admin-catalogue.products.errors.slotsInvalid",
} as const satisfies Record<SpecField, string>;

/**
 * A typed amount of euros in cents, inside a zod transform: a refused amount adds an issue with why (and
 * zero one with `zeroError`, unless that is null) and gives z.NEVER.
 */
export function eurosToCents(
  text: string,
  max: number,
  zeroError: string | null,
  ctx: z.RefinementCtx,
): number {
  const parsed = parseEuroInput(text, max);
  if (!parsed.ok) {
    customIssue(ctx, EURO_INPUT_ERRORS[parsed.error]);
    return z.NEVER;
  }
  if (parsed.cents === 0 && zeroError !== null) {
    customIssue(ctx, zeroError);
    return z.NEVER;
  }
  return parsed.cents;
}

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

/** An optional text, trimmed, at most `max` characters. */
function optionalTextSchema(max: number, tooLong: string) {
  return z
    .string()
    .optional()
    .transform((value) => (value ?? "").trim())
    .refine((value) => value.length <= max, tooLong);
}
const descriptionSchema = (tooLong: string) =>
  optionalTextSchema(MAX_PRODUCT_DESCRIPTION_LENGTH, tooLong);
/** A translated name: empty falls back to English, and it is at most as long as an English one. */
const translatedNameSchema = (tooLong: string) =>
  optionalTextSchema(MAX_PRODUCT_NAME_LENGTH, tooLong);

/** A feature list, one per line: at most MAX_FEATURES lines of MAX_FEATURE_LENGTH characters. */
function featuresSchema(errors: { tooManyFeatures: string; featureTooLong: string }) {
  return z
    .string()
    .optional()
    .transform((value, ctx) => {
      const lines = parseFeatureLines(value ?? "");
      if (lines.length > MAX_FEATURES) {
        customIssue(ctx, errors.tooManyFeatures);
        return z.NEVER;
      }
      if (lines.some((line) => line.length > MAX_FEATURE_LENGTH)) {
        customIssue(ctx, errors.featureTooLong);
        return z.NEVER;
      }
      return lines;
    });
}

export const productIdSchema = idField("admin-catalogue.products.errors.notFound");

function specSchema(field: SpecField) {
  return z
    .string()
    .optional()
    .transform((value, ctx) => {
      const text = (value ?? "").trim();
      if (text === "") return null;
      const limit = SPEC_LIMITS[field];
      if (!/^\d{1,9}$/.test(text) || Number(text) < 1 || Number(text) > limit) {
        customIssue(ctx, SPEC_ERRORS[field]);
        return z.NEVER;
      }
      return Number(text);
    });
}

const productFieldShape = {
  name: z
    .string({ error: "admin-catalogue.products.errors.nameRequired" })
    .trim()
    .min(1, "admin-catalogue.products.errors.nameRequired")
    .max(MAX_PRODUCT_NAME_LENGTH, "admin-catalogue.products.errors.nameTooLong"),
  // Empty: made from the name when the product is created, kept as it is when it is edited.
  slug: z
    .string()
    .optional()
    .transform((value) => (value ?? "").trim().toLowerCase())
    .refine(
      (value) =>
        value === "" ||
        (value.length >= 2 && value.length <= MAX_SLUG_LENGTH && SLUG_PATTERN.test(value)),
      "admin-catalogue.products.errors.slugInvalid",
    ),
  type: z.enum(PRODUCT_TYPES, "admin-catalogue.products.errors.typeInvalid"),
  // Empty: the usual category of the type (VPS Hosting for a VPS, Game Hosting otherwise).
  category: z
    .union([z.enum(PRODUCT_CATEGORIES), z.literal("")], {
      error: "admin-catalogue.products.errors.categoryInvalid",
    })
    .optional()
    .transform((value) => (value ? value : undefined)),
  description: descriptionSchema("admin-catalogue.products.errors.descriptionTooLong"),
  price: z
    .string({ error: EURO_INPUT_ERRORS.required })
    .transform((value, ctx) =>
      eurosToCents(
        value,
        MAX_PRODUCT_PRICE_CENTS,
        "admin-catalogue.products.errors.priceZero",
        ctx,
      ),
    ),
  features: featuresSchema({
    tooManyFeatures: "admin-catalogue.products.errors.tooManyFeatures",
    featureTooLong: "admin-catalogue.products.errors.featureTooLong",
  }),
  ramGb: specSchema("ramGb"),
  storageGb: specSchema("storageGb"),
  cpuCores: specSchema("cpuCores"),
  slots: specSchema("slots"),
  recommended: z
    .string()
    .optional()
    .transform((value) => value === "on" || value === "true" || value === "1"),
  status: z
    .union([z.enum(PRODUCT_STATUSES), z.literal("")], {
      error: "admin-catalogue.products.errors.statusInvalid",
    })
    .optional()
    .transform((value): ProductStatus => (value ? value : "active")),
  nameFr: translatedNameSchema(TEXT_ERRORS.fr.nameTooLong),
  descriptionFr: descriptionSchema(TEXT_ERRORS.fr.descriptionTooLong),
  featuresFr: featuresSchema(TEXT_ERRORS.fr),
  nameAr: translatedNameSchema(TEXT_ERRORS.ar.nameTooLong),
  descriptionAr: descriptionSchema(TEXT_ERRORS.ar.descriptionTooLong),
  featuresAr: featuresSchema(TEXT_ERRORS.ar),
};

/** A VPS has no player slots (the storefront words its specs without them). */
function noSlotsOnVps(
  value: { type: ProductType; slots: number | null },
  ctx: z.RefinementCtx,
): void {
  if (!hasPlayerSlots(value.type) && value.slots !== null)
    customIssue(ctx, "admin-catalogue.products.errors.slotsVps", "slots");
}

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
  status: ProductStatus;
  /** French and Arabic, each field empty where it falls back to English. */
  translations: ProductTranslations;
}

export function productInputFrom(form: SavedForm<typeof productFieldShape>): ProductInput {
  return {
    name: form.name,
    slug: form.slug,
    type: form.type,
    category: form.category ?? categoryOf(form.type),
    description: form.description,
    priceCents: form.price,
    features: form.features,
    specs: {
      ramGb: form.ramGb,
      storageGb: form.storageGb,
      cpuCores: form.cpuCores,
      slots: form.slots,
    },
    recommended: form.recommended,
    status: form.status,
    translations: {
      fr: { name: form.nameFr, description: form.descriptionFr, features: form.featuresFr },
      ar: { name: form.nameAr, description: form.descriptionAr, features: form.featuresAr },
    },
  };
}

export const MOVE_DIRECTIONS = ["up", "down"] as const;
export type MoveDirection = (typeof MOVE_DIRECTIONS)[number];

/** The products page's one action, by intent; a create or update carries its product ready to save. */
export const productActionSchema = z
  .discriminatedUnion(
    "intent",
    [
      ...saveActions(productFieldShape, productIdSchema, noSlotsOnVps),
      z.object({
        intent: z.literal("move"),
        id: productIdSchema,
        direction: z.enum(MOVE_DIRECTIONS, "admin-catalogue.products.errors.notFound"),
      }),
      z.object({ intent: z.literal("hide"), id: productIdSchema }),
      z.object({ intent: z.literal("show"), id: productIdSchema }),
      z.object({ intent: z.literal("delete"), id: productIdSchema }),
    ],
    { error: "admin-catalogue.errors.unknownAction" },
  )
  .transform(withSavedItem("product", productInputFrom));
export type ProductAction = z.infer<typeof productActionSchema>;

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
  orderCount: number;
  activeServiceCount: number;
  serviceCount: number;
  voucherCount: number;
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

/** /admin/products' query string: a value that does not parse is ignored, never an error. */
export const productListQuerySchema = z.object({
  type: filterParam(PRODUCT_TYPES),
  status: filterParam(PRODUCT_STATUSES),
  /** Which product's form to show; "new" for an empty one. */
  edit: editParam,
  /** The outcome of the last save, after its redirect. */
  notice: filterParam(PRODUCT_NOTICES),
});
export type ProductListQuery = z.infer<typeof productListQuerySchema>;
