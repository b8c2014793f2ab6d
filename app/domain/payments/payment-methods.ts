import { numberFormat } from "~/lib/intl-format";
import { labelKeys } from "~/lib/label-keys";
import { localeFieldNames } from "~/lib/locale-fields";
import type { EuroInputError } from "~/lib/euro-input";

export type { PaymentMethodAction, PaymentMethodListQuery } from "./payment-methods.schemas";

// Payment methods (docs/payments.md): how a customer pays for coins outside the site. Pure and
// safe in the browser: the types, the limits, the checks a method must pass and the amounts of a top-up.
// Messages are catalogue keys ("payments.…").

export const PAYMENT_CURRENCIES = ["EUR", "MAD"] as const;
export type PaymentCurrency = (typeof PAYMENT_CURRENCIES)[number];

/**
 * How a method is paid (ADR 55): `manual`, the customer pays elsewhere and sends a proof; or the online
 * provider that takes the money on its own page. Set when a method is seeded, never edited.
 */
export const PAYMENT_METHOD_KINDS = ["manual", "paypal", "youcanpay"] as const;
export type PaymentMethodKind = (typeof PAYMENT_METHOD_KINDS)[number];
export type OnlineMethodKind = Exclude<PaymentMethodKind, "manual">;

/** The currency each provider charges in: an online method's currency is this one, never edited. */
export const ONLINE_METHOD_CURRENCY = {
  paypal: "EUR",
  youcanpay: "MAD",
} as const satisfies Record<OnlineMethodKind, PaymentCurrency>;

export function isOnlineKind(kind: PaymentMethodKind): kind is OnlineMethodKind {
  return kind !== "manual";
}

/** The languages a method's name and instructions are written in: the site's (SUPPORTED_LOCALES). */
export const PAYMENT_TEXT_LOCALES = ["en", "fr", "ar"] as const;
export type PaymentTextLocale = (typeof PAYMENT_TEXT_LOCALES)[number];
/** One text per language, "" where none is written. */
export type PaymentTexts = Record<PaymentTextLocale, string>;

/** Minor units in one unit of either currency (cents, centimes): both have two decimals. */
export const MINOR_UNITS = 100;
/** A euro method's rate: one coin is one euro, always. */
export const EURO_RATE = 100;
/** 1,000.00 of the currency a coin: a typo guard (a rate of 11 MAD typed 1100.00), not a policy. */
export const MAX_RATE = 100_000;
/** The most coins one top-up may buy, whatever a method allows. */
export const MAX_TOP_UP_COINS = 10_000;
/** 1,000.00 of the method's currency. */
export const MAX_FEE_FIXED = 100_000;
/** 100%, in basis points (hundredths of a percent). */
export const MAX_FEE_BASIS_POINTS = 10_000;
export const MAX_METHOD_NAME_LENGTH = 60;
export const MAX_INSTRUCTIONS_LENGTH = 2000;
export const MAX_SORT_ORDER = 1000;
// With these limits the largest total (10,000 coins × 1,000.00, twice over with a 100% fee, plus the
// fixed fee) stays below 2^31: every amount fits PostgreSQL's `integer`.

/** What a quote needs of a method: its currency, rate, bounds and fee. */
export interface PaymentMethodTerms {
  currency: PaymentCurrency;
  /** Minor units of `currency` one coin costs (1100: 11.00 MAD); EURO_RATE for a euro method. */
  rate: number;
  /** Whole coins, inclusive. */
  minCoins: number;
  maxCoins: number;
  /** Minor units of `currency`. */
  feeFixed: number;
  /** Basis points of the amount (250: 2.5%). */
  feePercentBp: number;
}

/** A payment method as the admin sees it. */
export interface PaymentMethod extends PaymentMethodTerms {
  id: number;
  code: string;
  kind: PaymentMethodKind;
  builtin: boolean;
  enabled: boolean;
  names: PaymentTexts;
  instructions: PaymentTexts;
  sortOrder: number;
  createdAt: string;
  updatedAt: string;
}

/** What the admin's form saves (the code is made when a method is added, and never changes). */
export interface PaymentMethodInput extends PaymentMethodTerms {
  names: PaymentTexts;
  instructions: PaymentTexts;
  enabled: boolean;
  sortOrder: number;
}

/** An enabled method as a customer sees it, its texts in their language (listEnabledPaymentMethods). */
export interface OfferedPaymentMethod extends PaymentMethodTerms {
  id: number;
  code: string;
  kind: PaymentMethodKind;
  name: string;
  instructions: string;
}

// Catalogue keys (payments namespace), one family (docs/i18n.md, ADR 26).
export const CURRENCY_LABELS = labelKeys("payments", "currencies", PAYMENT_CURRENCIES);
/** An online method's provider, as the methods' table names it ("PayPal", "YouCan Pay"). */
export const ONLINE_KIND_LABELS = labelKeys("payments", "kinds", ["paypal", "youcanpay"] as const);

/** The languages' names, for the editor's group of each one's texts. */
export const TEXT_LOCALE_LABELS = labelKeys("payments", "admin.languages", PAYMENT_TEXT_LOCALES);

/** The form's field of each language's name and instructions. */
export const NAME_FIELDS = localeFieldNames("name", PAYMENT_TEXT_LOCALES);
export const INSTRUCTIONS_FIELDS = localeFieldNames("instructions", PAYMENT_TEXT_LOCALES);

/** A method has a name in the site's default language, whichever it is. */
export const NAME_REQUIRED = {
  en: "payments.errors.nameRequiredEn",
  fr: "payments.errors.nameRequiredFr",
  ar: "payments.errors.nameRequiredAr",
} as const satisfies Record<PaymentTextLocale, string>;
/** An enabled method has instructions in the site's default language. */
export const INSTRUCTIONS_REQUIRED = {
  en: "payments.errors.instructionsRequiredEn",
  fr: "payments.errors.instructionsRequiredFr",
  ar: "payments.errors.instructionsRequiredAr",
} as const satisfies Record<PaymentTextLocale, string>;

/** Why a typed amount (a rate, a fixed fee, a percentage) was refused; "too large" is the field's own. */
export const AMOUNT_INPUT_ERRORS = {
  required: "payments.errors.amountRequired",
  invalid: "payments.errors.amountInvalid",
  negative: "payments.errors.amountNegative",
  decimals: "payments.errors.amountDecimals",
} as const satisfies Record<Exclude<EuroInputError, "tooLarge">, string>;

/** What the admin's form and the use-cases refuse, each with its message. */
export type PaymentMethodProblem =
  | (typeof NAME_REQUIRED)[PaymentTextLocale]
  | (typeof INSTRUCTIONS_REQUIRED)[PaymentTextLocale]
  | "payments.errors.nameTooLong"
  | "payments.errors.instructionsTooLong"
  | "payments.errors.currencyInvalid"
  | "payments.errors.currencyFixed"
  | "payments.errors.rateZero"
  | "payments.errors.rateTooLarge"
  | "payments.errors.euroRate"
  | "payments.errors.coinsInvalid"
  | "payments.errors.maxBelowMin"
  | "payments.errors.feeFixedTooLarge"
  | "payments.errors.feePercentTooLarge"
  | "payments.errors.sortOrderInvalid";

const isWhole = (value: number, min: number, max: number) =>
  Number.isInteger(value) && value >= min && value <= max;

/**
 * The first thing wrong with a method about to be saved, with the form field it belongs to, or null.
 * The form's schema refuses most of these already; the use-cases ask again (they may be called without
 * the form), and only they know the site's default language, in which a method must have its name and,
 * once enabled, its instructions (a manual method's: an online one's provider shows how to pay). An
 * online method (`kind`) keeps its provider's currency.
 */
export function paymentMethodProblem(
  method: PaymentMethodInput,
  defaultLocale: PaymentTextLocale,
  kind: PaymentMethodKind = "manual",
): { field: string; error: PaymentMethodProblem } | null {
  for (const locale of PAYMENT_TEXT_LOCALES) {
    if (method.names[locale].length > MAX_METHOD_NAME_LENGTH)
      return { field: NAME_FIELDS[locale], error: "payments.errors.nameTooLong" };
    if (method.instructions[locale].length > MAX_INSTRUCTIONS_LENGTH)
      return { field: INSTRUCTIONS_FIELDS[locale], error: "payments.errors.instructionsTooLong" };
  }
  if (method.names[defaultLocale].trim() === "")
    return { field: NAME_FIELDS[defaultLocale], error: NAME_REQUIRED[defaultLocale] };
  if (!(PAYMENT_CURRENCIES as readonly string[]).includes(method.currency))
    return { field: "currency", error: "payments.errors.currencyInvalid" };
  if (isOnlineKind(kind) && method.currency !== ONLINE_METHOD_CURRENCY[kind])
    return { field: "currency", error: "payments.errors.currencyFixed" };
  if (method.currency === "EUR" && method.rate !== EURO_RATE)
    return { field: "rate", error: "payments.errors.euroRate" };
  if (!Number.isInteger(method.rate) || method.rate <= 0)
    return { field: "rate", error: "payments.errors.rateZero" };
  if (method.rate > MAX_RATE) return { field: "rate", error: "payments.errors.rateTooLarge" };
  if (!isWhole(method.minCoins, 1, MAX_TOP_UP_COINS))
    return { field: "minCoins", error: "payments.errors.coinsInvalid" };
  if (!isWhole(method.maxCoins, 1, MAX_TOP_UP_COINS))
    return { field: "maxCoins", error: "payments.errors.coinsInvalid" };
  if (method.maxCoins < method.minCoins)
    return { field: "maxCoins", error: "payments.errors.maxBelowMin" };
  if (!isWhole(method.feeFixed, 0, MAX_FEE_FIXED))
    return { field: "feeFixed", error: "payments.errors.feeFixedTooLarge" };
  if (!isWhole(method.feePercentBp, 0, MAX_FEE_BASIS_POINTS))
    return { field: "feePercent", error: "payments.errors.feePercentTooLarge" };
  if (!isWhole(method.sortOrder, 0, MAX_SORT_ORDER))
    return { field: "sortOrder", error: "payments.errors.sortOrderInvalid" };
  // An online method's provider shows the customer how to pay: it needs no instructions of ours.
  if (kind === "manual" && method.enabled && method.instructions[defaultLocale].trim() === "")
    return {
      field: INSTRUCTIONS_FIELDS[defaultLocale],
      error: INSTRUCTIONS_REQUIRED[defaultLocale],
    };
  return null;
}

/**
 * A method's text in `locale`: the reader's language, else the site's default one, else English, else
 * whichever is written (a method is never shown nameless).
 */
export function textIn(
  texts: PaymentTexts,
  locale: string,
  defaultLocale: PaymentTextLocale,
): string {
  const order = [locale, defaultLocale, "en", ...PAYMENT_TEXT_LOCALES];
  for (const language of order) {
    const text = texts[language as PaymentTextLocale]?.trim();
    if (text) return text;
  }
  return "";
}

/**
 * `basisPoints` of `amount` (both whole, not negative), rounded half up to the minor unit: 2.5% of
 * 1,100 centimes is 27.5, so 28. Integer arithmetic only: amount × basis points stays far below 2^53.
 */
export function percentOf(amount: number, basisPoints: number): number {
  return Math.floor((amount * basisPoints + MAX_FEE_BASIS_POINTS / 2) / MAX_FEE_BASIS_POINTS);
}

/** The amounts of a top-up, each a whole number of the method's minor unit. */
export interface TopUpQuote {
  coins: number;
  currency: PaymentCurrency;
  /** What the customer's balance is credited (coins are euros: cents). */
  creditCents: number;
  /** The coins' price in the method's currency: coins × rate. */
  amount: number;
  /** The fixed part of the fee and the percentage part (of `amount`, rounded half up). */
  feeFixed: number;
  feePercent: number;
  /** feeFixed + feePercent. */
  fee: number;
  /** What the customer sends: amount + fee. */
  total: number;
}

export type TopUpQuoteRefusal =
  | "payments.errors.coinsNotWhole"
  | "payments.errors.coinsBelowMin"
  | "payments.errors.coinsAboveMax";

export type TopUpQuoteResult =
  { ok: true; quote: TopUpQuote } | { ok: false; kind: "invalid"; error: TopUpQuoteRefusal };

/**
 * What buying `coins` with `method` costs, exactly: the amount in the method's currency (coins × rate),
 * the fee (fixed, plus the percentage of the amount rounded half up to the minor unit) and the total to
 * send. Refused: a number of coins that is not whole, or outside the method's bounds (the messages take
 * `{{min}}` and `{{max}}`: the method's minCoins and maxCoins).
 */
export function quoteTopUp(method: PaymentMethodTerms, coins: number): TopUpQuoteResult {
  if (!Number.isSafeInteger(coins))
    return { ok: false, kind: "invalid", error: "payments.errors.coinsNotWhole" };
  if (coins < method.minCoins)
    return { ok: false, kind: "invalid", error: "payments.errors.coinsBelowMin" };
  if (coins > method.maxCoins)
    return { ok: false, kind: "invalid", error: "payments.errors.coinsAboveMax" };
  const amount = coins * method.rate;
  const feePercent = percentOf(amount, method.feePercentBp);
  const fee = method.feeFixed + feePercent;
  return {
    ok: true,
    quote: {
      coins,
      currency: method.currency,
      creditCents: coins * 100,
      amount,
      feeFixed: method.feeFixed,
      feePercent,
      fee,
      total: amount + fee,
    },
  };
}

/** What /admin/gateways says after a save sent it back to the list (?notice=). */
export const PAYMENT_METHOD_NOTICES = ["created", "updated"] as const;

/** An amount in minor units of `currency` as the reader's language writes it: "MAD 110.00", "110,00 MAD". */
export function formatMethodAmount(
  minor: number,
  currency: PaymentCurrency,
  locale: string,
): string {
  return numberFormat(locale, {
    style: "currency",
    currency,
    minimumFractionDigits: 2,
    maximumFractionDigits: 2,
  }).format(minor / MINOR_UNITS);
}

/** Basis points as a percentage in the reader's language: "2.5%", "2,5 %". */
export function formatBasisPoints(basisPoints: number, locale: string): string {
  return numberFormat(locale, { style: "percent", maximumFractionDigits: 2 }).format(
    basisPoints / MAX_FEE_BASIS_POINTS,
  );
}
