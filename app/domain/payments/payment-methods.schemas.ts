import { parseEuroInput } from "~/lib/euro-input";
import { idField } from "~/lib/id-field";
import { editParam, filterParam } from "~/lib/query-params";
import { editorActionSchema, rowActions, saveActions, type SavedForm } from "~/lib/save-actions";
import { westernDigits } from "~/lib/western-digits";
import { customIssue, z } from "~/lib/zod";
import {
  AMOUNT_INPUT_ERRORS,
  EURO_RATE,
  MAX_FEE_BASIS_POINTS,
  MAX_FEE_FIXED,
  MAX_INSTRUCTIONS_LENGTH,
  MAX_METHOD_NAME_LENGTH,
  MAX_RATE,
  MAX_SORT_ORDER,
  MAX_TOP_UP_COINS,
  PAYMENT_CURRENCIES,
  PAYMENT_METHOD_NOTICES,
  type PaymentMethodInput,
} from "./payment-methods";

// Schemas only: actions, loaders, *.server.ts and tests import this file, never a page's code, so zod
// never reaches the browser (docs/architecture.md).

/**
 * A typed amount with two decimals at most ("11", "11.5", "11,50") read into minor units, inside a zod
 * transform; a refused one adds an issue with why and gives z.NEVER. The rate, the fixed fee and the
 * percentage (two decimals of a percent are basis points: "2.5" is 250) are all read this way.
 */
function amountOf(text: string, max: number, tooLarge: string, ctx: z.RefinementCtx): number {
  const parsed = parseEuroInput(text, max);
  if (parsed.ok) return parsed.cents;
  customIssue(ctx, parsed.error === "tooLarge" ? tooLarge : AMOUNT_INPUT_ERRORS[parsed.error]);
  return z.NEVER;
}

/** An amount that may be left empty, which is 0 (no fee). */
function optionalAmount(max: number, tooLarge: string) {
  return z
    .string()
    .optional()
    .transform((value, ctx) => {
      const text = (value ?? "").trim();
      return text === "" ? 0 : amountOf(text, max, tooLarge, ctx);
    });
}

/** A whole number from `min` to `max`; empty is `empty` when given, else refused. */
function wholeNumber(min: number, max: number, error: string, empty?: number) {
  return z
    .string({ error })
    .optional()
    .transform((value, ctx) => {
      const text = westernDigits(value ?? "").trim();
      if (text === "" && empty !== undefined) return empty;
      if (!/^\d{1,9}$/.test(text) || Number(text) < min || Number(text) > max) {
        customIssue(ctx, error);
        return z.NEVER;
      }
      return Number(text);
    });
}

/** A text typed in one language, trimmed, line ends made "\n"; empty when left out. */
function textField(max: number, tooLong: string) {
  return z
    .string()
    .optional()
    .transform((value) => (value ?? "").replace(/\r\n?/g, "\n").trim())
    .refine((value) => value.length <= max, tooLong);
}
const nameField = () => textField(MAX_METHOD_NAME_LENGTH, "payments.errors.nameTooLong");
const instructionsField = () =>
  textField(MAX_INSTRUCTIONS_LENGTH, "payments.errors.instructionsTooLong");

export const paymentMethodIdSchema = idField("payments.errors.notFound");

const methodFieldShape = {
  nameEn: nameField(),
  nameFr: nameField(),
  nameAr: nameField(),
  currency: z.enum(PAYMENT_CURRENCIES, "payments.errors.currencyInvalid"),
  // Read against the currency below: a euro method's rate is fixed and its field ignored.
  rate: z
    .string()
    .optional()
    .transform((value) => (value ?? "").trim()),
  minCoins: wholeNumber(1, MAX_TOP_UP_COINS, "payments.errors.coinsInvalid"),
  maxCoins: wholeNumber(1, MAX_TOP_UP_COINS, "payments.errors.coinsInvalid"),
  feeFixed: optionalAmount(MAX_FEE_FIXED, "payments.errors.feeFixedTooLarge"),
  feePercent: optionalAmount(MAX_FEE_BASIS_POINTS, "payments.errors.feePercentTooLarge"),
  sortOrder: wholeNumber(0, MAX_SORT_ORDER, "payments.errors.sortOrderInvalid", 0),
  enabled: z
    .string()
    .optional()
    .transform((value) => value === "on" || value === "true" || value === "1"),
  instructionsEn: instructionsField(),
  instructionsFr: instructionsField(),
  instructionsAr: instructionsField(),
};
type MethodForm = SavedForm<typeof methodFieldShape>;

/** The rate in minor units: EURO_RATE for euros, else the typed dirhams a coin. */
function rateOf(form: Pick<MethodForm, "currency" | "rate">): number {
  if (form.currency === "EUR") return EURO_RATE;
  const parsed = parseEuroInput(form.rate, MAX_RATE);
  return parsed.ok ? parsed.cents : 0;
}

/**
 * What the fields cannot say alone: a dirham rate is typed and above 0, the maximum not below the
 * minimum. Run with the fields' own refusals too (a rate of -5 is said beside a bad fee), so a field that
 * failed holds what was typed: the bounds are compared only when both were read.
 */
function checkMethod(form: MethodForm, ctx: z.RefinementCtx): void {
  if (form.currency === "MAD" && typeof form.rate === "string") {
    const parsed = parseEuroInput(form.rate, MAX_RATE);
    if (!parsed.ok)
      customIssue(
        ctx,
        parsed.error === "tooLarge"
          ? "payments.errors.rateTooLarge"
          : AMOUNT_INPUT_ERRORS[parsed.error],
        "rate",
      );
    else if (parsed.cents === 0) customIssue(ctx, "payments.errors.rateZero", "rate");
  }
  if (
    typeof form.minCoins === "number" &&
    typeof form.maxCoins === "number" &&
    form.maxCoins < form.minCoins
  )
    customIssue(ctx, "payments.errors.maxBelowMin", "maxCoins");
}

export function paymentMethodInputFrom(form: MethodForm): PaymentMethodInput {
  return {
    names: { en: form.nameEn, fr: form.nameFr, ar: form.nameAr },
    instructions: { en: form.instructionsEn, fr: form.instructionsFr, ar: form.instructionsAr },
    currency: form.currency,
    rate: rateOf(form),
    minCoins: form.minCoins,
    maxCoins: form.maxCoins,
    feeFixed: form.feeFixed,
    feePercentBp: form.feePercent,
    enabled: form.enabled,
    sortOrder: form.sortOrder,
  };
}

/**
 * /admin/gateways' one action, by intent: a save (create, update) carries its method ready to save; a
 * row's button (enable, disable, delete) names its method.
 */
export const paymentMethodActionSchema = editorActionSchema(
  "method",
  paymentMethodInputFrom,
  "payments.errors.unknownAction",
  [
    ...saveActions(methodFieldShape, paymentMethodIdSchema, checkMethod, { whenFieldsFail: true }),
    ...rowActions(paymentMethodIdSchema, ["enable", "disable", "delete"]),
  ],
);
export type PaymentMethodAction = z.infer<typeof paymentMethodActionSchema>;

/** /admin/gateways' query string: a value that does not parse is ignored, never an error. */
export const paymentMethodListQuerySchema = z.object({
  /** Which method's form to show; "new" for an empty one. */
  edit: editParam,
  /** The outcome of the last save, after its redirect. */
  notice: filterParam(PAYMENT_METHOD_NOTICES),
});
export type PaymentMethodListQuery = z.infer<typeof paymentMethodListQuerySchema>;
