import { describe, expect, it } from "vitest";
import { SUPPORTED_LOCALES } from "~/i18n/locales";
import {
  formatBasisPoints,
  formatMethodAmount,
  MAX_FEE_BASIS_POINTS,
  MAX_FEE_FIXED,
  MAX_INSTRUCTIONS_LENGTH,
  MAX_METHOD_NAME_LENGTH,
  MAX_RATE,
  MAX_SORT_ORDER,
  MAX_TOP_UP_COINS,
  PAYMENT_TEXT_LOCALES,
  paymentMethodProblem,
  percentOf,
  quoteTopUp,
  textIn,
  type PaymentCurrency,
  type PaymentMethodInput,
  type PaymentMethodTerms,
} from "./payment-methods";

const euros: PaymentMethodTerms = {
  currency: "EUR",
  rate: 100,
  minCoins: 1,
  maxCoins: 1000,
  feeFixed: 0,
  feePercentBp: 0,
};
/** 11.00 MAD a coin. */
const dirhams: PaymentMethodTerms = { ...euros, currency: "MAD", rate: 1100 };

function quoted(method: PaymentMethodTerms, coins: number) {
  const result = quoteTopUp(method, coins);
  if (!result.ok) throw new Error(result.error);
  return result.quote;
}

describe("quoteTopUp", () => {
  it("prices euros one coin to one euro, with no fee", () => {
    expect(quoted(euros, 25)).toEqual({
      coins: 25,
      currency: "EUR",
      creditCents: 2500,
      amount: 2500,
      feeFixed: 0,
      feePercent: 0,
      fee: 0,
      total: 2500,
    });
  });

  it("prices dirhams at the method's rate, in centimes", () => {
    // 10 coins at 11.00 MAD: 110.00 MAD; the balance still gets 10 coins (€10.00).
    const quote = quoted(dirhams, 10);
    expect(quote).toMatchObject({ currency: "MAD", amount: 11_000, total: 11_000 });
    expect(quote.creditCents).toBe(1000);
    // A rate with centimes: 10.85 MAD a coin.
    expect(quoted({ ...dirhams, rate: 1085 }, 7).amount).toBe(7595);
  });

  it("adds the fixed fee and the percentage of the amount", () => {
    // 110.00 MAD + 5.00 MAD + 2.5% of 110.00 (2.75) = 117.75 MAD.
    const quote = quoted({ ...dirhams, feeFixed: 500, feePercentBp: 250 }, 10);
    expect(quote).toMatchObject({
      amount: 11_000,
      feeFixed: 500,
      feePercent: 275,
      fee: 775,
      total: 11_775,
    });
    // The percentage is of the amount, not of the amount plus the fixed fee.
    expect(quoted({ ...euros, feeFixed: 100, feePercentBp: 1000 }, 10).feePercent).toBe(100);
  });

  it("rounds the percentage half up to the minor unit", () => {
    // 2.5% of 11.00 MAD is 27.5 centimes: 28.
    expect(quoted({ ...dirhams, feePercentBp: 250 }, 1).feePercent).toBe(28);
    // 2.49% of it is 27.39: 27.
    expect(quoted({ ...dirhams, feePercentBp: 249 }, 1).feePercent).toBe(27);
    // Exactly half a centime goes up, just under half goes down.
    expect(quoted({ ...dirhams, rate: 1, feePercentBp: 5000 }, 1).feePercent).toBe(1);
    expect(quoted({ ...dirhams, rate: 1, feePercentBp: 4999 }, 1).feePercent).toBe(0);
    expect(quoted({ ...dirhams, rate: 3, feePercentBp: 5000 }, 1).feePercent).toBe(2);
    // 1.75% of €3.00 is 5.25 cents: 5; of €1.00, 1.75: 2.
    expect(quoted({ ...euros, feePercentBp: 175 }, 3).feePercent).toBe(5);
    expect(quoted({ ...euros, feePercentBp: 175 }, 1).feePercent).toBe(2);
  });

  it("takes a 100% fee and the largest amounts exactly, within a 32-bit integer", () => {
    expect(quoted({ ...euros, feePercentBp: 10_000 }, 3)).toMatchObject({
      amount: 300,
      fee: 300,
      total: 600,
    });
    const largest = quoted(
      {
        currency: "MAD",
        rate: MAX_RATE,
        minCoins: 1,
        maxCoins: MAX_TOP_UP_COINS,
        feeFixed: MAX_FEE_FIXED,
        feePercentBp: MAX_FEE_BASIS_POINTS,
      },
      MAX_TOP_UP_COINS,
    );
    expect(largest.amount).toBe(1_000_000_000);
    expect(largest.total).toBe(2_000_100_000);
    expect(largest.total).toBeLessThan(2 ** 31);
  });

  it("refuses coins that are not whole or outside the method's bounds, which are inclusive", () => {
    const bounded = { ...dirhams, minCoins: 5, maxCoins: 50 };
    const refused = (error: string) => ({ ok: false, kind: "invalid", error });
    expect(quoteTopUp(bounded, 10.5)).toEqual(refused("payments.errors.coinsNotWhole"));
    expect(quoteTopUp(bounded, Number.NaN)).toEqual(refused("payments.errors.coinsNotWhole"));
    expect(quoteTopUp(bounded, Infinity)).toEqual(refused("payments.errors.coinsNotWhole"));
    expect(quoteTopUp(bounded, 4)).toEqual(refused("payments.errors.coinsBelowMin"));
    expect(quoteTopUp(bounded, 0)).toEqual(refused("payments.errors.coinsBelowMin"));
    expect(quoteTopUp(bounded, -5)).toEqual(refused("payments.errors.coinsBelowMin"));
    expect(quoteTopUp(bounded, 51)).toEqual(refused("payments.errors.coinsAboveMax"));
    expect(quoted(bounded, 5).amount).toBe(5500);
    expect(quoted(bounded, 50).amount).toBe(55_000);
  });
});

describe("percentOf", () => {
  it("stays exact where a float product would not", () => {
    // 1,000,000,000 × 9,999 is far beyond what a float percentage would round right.
    expect(percentOf(1_000_000_000, 9999)).toBe(999_900_000);
    expect(percentOf(1_000_000_001, 5000)).toBe(500_000_001);
    expect(percentOf(0, 250)).toBe(0);
    expect(percentOf(1234, 0)).toBe(0);
  });
});

const valid: PaymentMethodInput = {
  ...dirhams,
  names: { en: "Orange Money", fr: "", ar: "" },
  instructions: { en: "Send to 0600000000", fr: "", ar: "" },
  enabled: true,
  sortOrder: 1,
};

describe("paymentMethodProblem", () => {
  it("accepts a whole method", () => {
    expect(paymentMethodProblem(valid, "en")).toBeNull();
  });

  it("asks for the name, and the instructions of an enabled method, in the site's default language", () => {
    expect(paymentMethodProblem(valid, "fr")).toEqual({
      field: "nameFr",
      error: "payments.errors.nameRequiredFr",
    });
    const named = { ...valid, names: { en: "Orange Money", fr: "Orange Money", ar: "" } };
    expect(paymentMethodProblem(named, "fr")).toEqual({
      field: "instructionsFr",
      error: "payments.errors.instructionsRequiredFr",
    });
    // Disabled, it may wait for its instructions.
    expect(paymentMethodProblem({ ...named, enabled: false }, "fr")).toBeNull();
    expect(
      paymentMethodProblem({ ...valid, instructions: { en: "  ", fr: "", ar: "" } }, "en"),
    ).toEqual({ field: "instructionsEn", error: "payments.errors.instructionsRequiredEn" });
    // English is not required when it is not the default language.
    const arabic = { en: "", fr: "", ar: "أورنج" };
    expect(paymentMethodProblem({ ...valid, names: arabic, instructions: arabic }, "ar")).toBe(
      null,
    );
  });

  it("refuses a rate, bounds, fee or place out of range", () => {
    const problem = (change: Partial<PaymentMethodInput>) =>
      paymentMethodProblem({ ...valid, ...change }, "en");
    expect(problem({ currency: "EUR", rate: 1100 })).toEqual({
      field: "rate",
      error: "payments.errors.euroRate",
    });
    expect(problem({ currency: "EUR", rate: 100 })).toBeNull();
    expect(problem({ rate: 0 })?.error).toBe("payments.errors.rateZero");
    expect(problem({ rate: 10.5 })?.error).toBe("payments.errors.rateZero");
    expect(problem({ rate: MAX_RATE + 1 })?.error).toBe("payments.errors.rateTooLarge");
    expect(problem({ minCoins: 0 })).toEqual({
      field: "minCoins",
      error: "payments.errors.coinsInvalid",
    });
    expect(problem({ maxCoins: MAX_TOP_UP_COINS + 1 })?.field).toBe("maxCoins");
    expect(problem({ minCoins: 20, maxCoins: 10 })).toEqual({
      field: "maxCoins",
      error: "payments.errors.maxBelowMin",
    });
    expect(problem({ minCoins: 10, maxCoins: 10 })).toBeNull();
    expect(problem({ feeFixed: -1 })?.field).toBe("feeFixed");
    expect(problem({ feeFixed: MAX_FEE_FIXED + 1 })?.field).toBe("feeFixed");
    expect(problem({ feePercentBp: 10_001 })).toEqual({
      field: "feePercent",
      error: "payments.errors.feePercentTooLarge",
    });
    expect(problem({ sortOrder: -1 })?.error).toBe("payments.errors.sortOrderInvalid");
    expect(problem({ names: { en: "x".repeat(61), fr: "", ar: "" } })?.error).toBe(
      "payments.errors.nameTooLong",
    );
  });

  it("names the field and the message of each refusal", () => {
    const problem = (change: Partial<PaymentMethodInput>) =>
      paymentMethodProblem({ ...valid, ...change }, "en");
    // Too long in a language that is not the default one is still too long.
    expect(
      problem({
        instructions: { en: "Send to 0600", fr: "x".repeat(MAX_INSTRUCTIONS_LENGTH + 1), ar: "" },
      }),
    ).toEqual({ field: "instructionsFr", error: "payments.errors.instructionsTooLong" });
    expect(problem({ currency: "USD" as PaymentCurrency })).toEqual({
      field: "currency",
      error: "payments.errors.currencyInvalid",
    });
    expect(problem({ rate: 0 })).toEqual({ field: "rate", error: "payments.errors.rateZero" });
    expect(problem({ rate: MAX_RATE + 1 })).toEqual({
      field: "rate",
      error: "payments.errors.rateTooLarge",
    });
    expect(problem({ maxCoins: MAX_TOP_UP_COINS + 1 })).toEqual({
      field: "maxCoins",
      error: "payments.errors.coinsInvalid",
    });
    expect(problem({ feeFixed: MAX_FEE_FIXED + 1 })).toEqual({
      field: "feeFixed",
      error: "payments.errors.feeFixedTooLarge",
    });
    expect(problem({ sortOrder: MAX_SORT_ORDER + 1 })).toEqual({
      field: "sortOrder",
      error: "payments.errors.sortOrderInvalid",
    });
  });

  it("takes each limit itself", () => {
    const problem = (change: Partial<PaymentMethodInput>) =>
      paymentMethodProblem({ ...valid, ...change }, "en");
    const longest = "x".repeat(MAX_METHOD_NAME_LENGTH);
    expect(problem({ names: { en: longest, fr: longest, ar: longest } })).toBeNull();
    const instructions = "x".repeat(MAX_INSTRUCTIONS_LENGTH);
    expect(problem({ instructions: { en: instructions, fr: instructions, ar: "" } })).toBeNull();
    expect(problem({ rate: MAX_RATE })).toBeNull();
    expect(problem({ minCoins: MAX_TOP_UP_COINS, maxCoins: MAX_TOP_UP_COINS })).toBeNull();
    expect(problem({ feeFixed: MAX_FEE_FIXED })).toBeNull();
    expect(problem({ feePercentBp: MAX_FEE_BASIS_POINTS })).toBeNull();
    expect(problem({ sortOrder: MAX_SORT_ORDER })).toBeNull();
  });
});

describe("texts per language", () => {
  it("are written in the site's languages", () => {
    expect([...PAYMENT_TEXT_LOCALES]).toEqual([...SUPPORTED_LOCALES]);
  });

  it("fall back to the default language, then English, then any", () => {
    const texts = { en: "Bank transfer", fr: "Virement bancaire", ar: "" };
    expect(textIn(texts, "fr", "en")).toBe("Virement bancaire");
    expect(textIn(texts, "ar", "fr")).toBe("Virement bancaire");
    expect(textIn(texts, "ar", "ar")).toBe("Bank transfer");
    expect(textIn(texts, "de", "en")).toBe("Bank transfer");
    expect(textIn({ en: "", fr: "", ar: "تحويل" }, "en", "en")).toBe("تحويل");
  });

  it("skip a text of spaces, give one without the spaces around it, and give none when none is written", () => {
    expect(textIn({ en: "   ", fr: " Virement bancaire ", ar: "" }, "en", "en")).toBe(
      "Virement bancaire",
    );
    expect(textIn({ en: "", fr: " ", ar: "" }, "fr", "en")).toBe("");
  });
});

describe("formatting", () => {
  // Intl puts narrow no-break spaces and, in Arabic, direction marks; compare without them.
  const plain = (text: string) => text.replace(/[\u00a0\u202f\u200e\u200f\u061c]/g, " ").trim();

  it("writes an amount in its currency in the reader's language", () => {
    expect(plain(formatMethodAmount(11_775, "MAD", "en"))).toBe("MAD 117.75");
    expect(plain(formatMethodAmount(11_775, "MAD", "fr"))).toBe("117,75 MAD");
    expect(formatMethodAmount(2500, "EUR", "en")).toBe("€25.00");
  });

  it("writes basis points as a percentage", () => {
    expect(formatBasisPoints(250, "en")).toBe("2.5%");
    expect(formatBasisPoints(1, "en")).toBe("0.01%");
    expect(plain(formatBasisPoints(250, "fr"))).toBe("2,5 %");
  });
});
