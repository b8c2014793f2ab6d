import { parseEuroInput } from "~/lib/euro-input";
import { idField } from "~/lib/id-field";
import { editParam, filterParam, idParam } from "~/lib/query-params";
import { editorActionSchema, rowActions, saveActions, type SavedForm } from "~/lib/save-actions";
import { customIssue, requiredText, withFormField, z } from "~/lib/zod";
import { withPanelIdLists } from "~/domain/provisioning/product-editor";
import { productProvisioningFormSchema } from "~/domain/provisioning/provisioning.schemas";
import { parseChangeTo, PLAN_PATH_TYPE_ERROR, withChangeToList } from "./plan-paths";
import {
  categoryOf,
  hasPlayerSlots,
  PRODUCT_CATEGORIES,
  PRODUCT_STATUSES,
  PRODUCT_TYPES,
  type ProductStatus,
  type ProductType,
} from "./catalogue";
import {
  EURO_INPUT_ERRORS,
  MAX_FEATURE_LENGTH,
  MAX_FEATURES,
  MAX_PRODUCT_DESCRIPTION_LENGTH,
  MAX_PRODUCT_NAME_LENGTH,
  MAX_PRODUCT_PRICE_CENTS,
  MAX_SLUG_LENGTH,
  MOVE_DIRECTIONS,
  parseFeatureLines,
  PRODUCT_NOTICES,
  SLUG_PATTERN,
  SPEC_ERRORS,
  SPEC_LIMITS,
  TEXT_ERRORS,
  type ProductInput,
  type SpecField,
} from "./catalogue-admin";

// Schemas only: actions, loaders, *.server.ts and tests import this file, never a page's code, so zod
// never reaches the browser (docs/architecture.md).

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
  name: requiredText(
    "admin-catalogue.products.errors.nameRequired",
    MAX_PRODUCT_NAME_LENGTH,
    "admin-catalogue.products.errors.nameTooLong",
  ),
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
  activateWhenPaid: z
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
  /**
   * The form's fields as sent (see productActionSchema): the provisioning block's are read from them
   * by productProvisioningFormSchema, each refusal on its own field (provisioningCheck).
   */
  provisioning: z.record(z.string(), z.string()).default({}),
  /**
   * "Customers may change to": the ticked products' ids ("3,5", withChangeToList); not sent, the
   * product's paths stay as they are.
   */
  changeTo: z
    .string()
    .optional()
    .transform((value, ctx) => {
      if (value === undefined) return undefined;
      const ids = parseChangeTo(value);
      if (ids === null) {
        customIssue(ctx, PLAN_PATH_TYPE_ERROR);
        return z.NEVER;
      }
      return ids;
    }),
};

/** A VPS has no player slots (the storefront words its specs without them). */
function noSlotsOnVps(
  value: { type: ProductType; slots: number | null },
  ctx: z.RefinementCtx,
): void {
  if (!hasPlayerSlots(value.type) && value.slots !== null)
    customIssue(ctx, "admin-catalogue.products.errors.slotsVps", "slots");
}

/**
 * The provisioning block's fields, read where each refusal lands on its own form field ("memoryMb",
 * "env.MAX_PLAYERS"), not under one "provisioning" key. It runs even when a product field is refused
 * (`when`), so the admin sees every mistake of the form at once.
 */
const provisioningCheck = z.superRefine(
  (value: { provisioning: Record<string, string> }, ctx) => {
    const provisioning = productProvisioningFormSchema.safeParse(value.provisioning);
    if (!provisioning.success)
      for (const issue of provisioning.error.issues)
        ctx.addIssue({ code: "custom", message: issue.message, path: issue.path });
  },
  {
    when: (payload) => {
      const fields = (payload.value as { provisioning?: unknown } | undefined)?.provisioning;
      return typeof fields === "object" && fields !== null;
    },
  },
);

const [createAction, updateAction] = saveActions(productFieldShape, productIdSchema, noSlotsOnVps);

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
    activateWhenPaid: form.activateWhenPaid,
    status: form.status,
    translations: {
      fr: { name: form.nameFr, description: form.descriptionFr, features: form.featuresFr },
      ar: { name: form.nameAr, description: form.descriptionAr, features: form.featuresAr },
    },
    // Checked already (provisioningCheck): a refused block never gets here.
    provisioning: productProvisioningFormSchema.parse(form.provisioning),
    changeTo: form.changeTo,
  };
}

/**
 * The products page's one action, by intent; a create or update carries its product ready to save. The
 * provisioning block's fields are many and named by the panel (one `env.<VARIABLE>` each, a checkbox a
 * panel location or node), so the form's fields are handed to it whole, the checkboxes read as lists.
 */
export const productActionSchema = withFormField(
  "changeTo",
  withChangeToList,
  withFormField(
    "provisioning",
    withPanelIdLists,
    editorActionSchema("product", productInputFrom, "admin-catalogue.errors.unknownAction", [
      createAction.check(provisioningCheck),
      updateAction.check(provisioningCheck),
      z.object({
        intent: z.literal("move"),
        id: productIdSchema,
        direction: z.enum(MOVE_DIRECTIONS, "admin-catalogue.products.errors.notFound"),
      }),
      ...rowActions(productIdSchema, ["hide", "show", "delete"]),
    ]),
  ),
);
export type ProductAction = z.infer<typeof productActionSchema>;

/** /admin/products' query string: a value that does not parse is ignored, never an error. */
export const productListQuerySchema = z.object({
  type: filterParam(PRODUCT_TYPES),
  status: filterParam(PRODUCT_STATUSES),
  /** Which product's form to show; "new" for an empty one. */
  edit: editParam,
  /** The outcome of the last save, after its redirect. */
  notice: filterParam(PRODUCT_NOTICES),
  /** The panel egg chosen in the editor ("Choose egg"), before the product is saved with it. */
  eggId: idParam,
});
export type ProductListQuery = z.infer<typeof productListQuerySchema>;
