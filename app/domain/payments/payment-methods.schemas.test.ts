import { describe, expect, it } from "vitest";
import { expectRefusals } from "../../../tests/support/form-errors";
import { paymentMethodActionSchema, paymentMethodListQuerySchema } from "./payment-methods.schemas";

/** A dirham method as the editor sends it. */
const form = {
  intent: "create",
  nameEn: " Orange Money ",
  nameFr: "",
  nameAr: "أورنج",
  currency: "MAD",
  rate: "11,50",
  minCoins: "5",
  maxCoins: "500",
  feeFixed: "2.5",
  feePercent: "1.75",
  sortOrder: "3",
  enabled: "on",
  instructionsEn: "Send to 0600 000 000\r\nReference: your code ",
  instructionsFr: "",
  instructionsAr: "",
};

/** The form without some of its fields, as a client that leaves them out sends it. */
function without(fields: Record<string, string>, ...names: string[]) {
  return Object.fromEntries(Object.entries(fields).filter(([name]) => !names.includes(name)));
}

function saved(fields: Record<string, string>) {
  const parsed = paymentMethodActionSchema.parse(fields);
  if (parsed.intent !== "create" && parsed.intent !== "update") throw new Error("not a save");
  return parsed.method;
}

describe("the payment method form", () => {
  it("reads typed amounts into minor units and basis points", () => {
    expect(saved(form)).toEqual({
      names: { en: "Orange Money", fr: "", ar: "أورنج" },
      instructions: {
        en: "Send to 0600 000 000\nReference: your code",
        fr: "",
        ar: "",
      },
      currency: "MAD",
      rate: 1150,
      minCoins: 5,
      maxCoins: 500,
      feeFixed: 250,
      feePercentBp: 175,
      enabled: true,
      sortOrder: 3,
    });
  });

  it("leaves empty fees at none and an unticked box off", () => {
    const method = saved({ ...form, feeFixed: "", feePercent: " ", sortOrder: "", enabled: "" });
    expect(method).toMatchObject({ feeFixed: 0, feePercentBp: 0, sortOrder: 0, enabled: false });
  });

  it("fixes a euro method's rate at one euro a coin, whatever the rate field holds", () => {
    expect(saved({ ...form, currency: "EUR", rate: "" }).rate).toBe(100);
    expect(saved({ ...form, currency: "EUR", rate: "not a number" }).rate).toBe(100);
  });

  it("refuses each wrong field with its message", () => {
    expectRefusals(paymentMethodActionSchema, form, [
      [{ currency: "USD" }, { currency: "payments.errors.currencyInvalid" }],
      [{ rate: "" }, { rate: "payments.errors.amountRequired" }],
      [{ rate: "0" }, { rate: "payments.errors.rateZero" }],
      [{ rate: "0.001" }, { rate: "payments.errors.amountDecimals" }],
      [{ rate: "11 MAD" }, { rate: "payments.errors.amountInvalid" }],
      [{ rate: "-3" }, { rate: "payments.errors.amountNegative" }],
      [{ rate: "1000.01" }, { rate: "payments.errors.rateTooLarge" }],
      [{ rate: "1000" }, {}],
      [{ minCoins: "0" }, { minCoins: "payments.errors.coinsInvalid" }],
      [{ minCoins: "2.5" }, { minCoins: "payments.errors.coinsInvalid" }],
      [{ maxCoins: "" }, { maxCoins: "payments.errors.coinsInvalid" }],
      [{ maxCoins: "10001" }, { maxCoins: "payments.errors.coinsInvalid" }],
      [{ minCoins: "50", maxCoins: "10" }, { maxCoins: "payments.errors.maxBelowMin" }],
      [{ feeFixed: "1000.01" }, { feeFixed: "payments.errors.feeFixedTooLarge" }],
      [{ feePercent: "100.01" }, { feePercent: "payments.errors.feePercentTooLarge" }],
      [{ feePercent: "100" }, {}],
      [{ sortOrder: "1001" }, { sortOrder: "payments.errors.sortOrderInvalid" }],
      // The bounds themselves are allowed, and a maximum equal to the minimum.
      [{ minCoins: "1", maxCoins: "10000" }, {}],
      [{ minCoins: "50", maxCoins: "50" }, {}],
      // A minimum refused for its own sake is not compared with the maximum.
      [{ minCoins: "20000", maxCoins: "10" }, { minCoins: "payments.errors.coinsInvalid" }],
      [{ nameFr: "x".repeat(60) }, {}],
      [{ nameFr: "x".repeat(61) }, { nameFr: "payments.errors.nameTooLong" }],
      [
        { instructionsAr: "x".repeat(2001) },
        { instructionsAr: "payments.errors.instructionsTooLong" },
      ],
      // Every mistake at once: the rate's (checked against the currency) beside the fields' own, and
      // no comparison of bounds that were not read.
      [
        { rate: "-5", minCoins: "0", maxCoins: "99999999", feePercent: "abc" },
        {
          rate: "payments.errors.amountNegative",
          minCoins: "payments.errors.coinsInvalid",
          maxCoins: "payments.errors.coinsInvalid",
          feePercent: "payments.errors.amountInvalid",
        },
      ],
      [
        { rate: "0", minCoins: "abc", maxCoins: "10" },
        { rate: "payments.errors.rateZero", minCoins: "payments.errors.coinsInvalid" },
      ],
      [
        { currency: "EUR", rate: "-5", feeFixed: "x" },
        { feeFixed: "payments.errors.amountInvalid" },
      ],
    ]);
  });

  it("reads fields left out as empty, spaces around numbers, any line end, and a ticked box however sent", () => {
    const rest = without(form, "nameFr", "feeFixed", "feePercent", "sortOrder", "instructionsFr");
    expect(saved(rest)).toMatchObject({
      names: { fr: "" },
      instructions: { fr: "" },
      feeFixed: 0,
      feePercentBp: 0,
      sortOrder: 0,
    });
    const euro = without({ ...form, currency: "EUR" }, "rate");
    expect(saved(euro).rate).toBe(100);
    expect(saved({ ...form, minCoins: " 5 ", rate: " 11,50 " })).toMatchObject({
      minCoins: 5,
      rate: 1150,
    });
    expect(saved({ ...form, instructionsEn: "a\rb\r\nc\nd" }).instructions.en).toBe("a\nb\nc\nd");
    for (const enabled of ["on", "true", "1"])
      expect(saved({ ...form, enabled }).enabled).toBe(true);
    // A dirham method must say its rate, sent or not.
    expectRefusals(paymentMethodActionSchema, without(form, "rate"), [
      [{}, { rate: "payments.errors.amountRequired" }],
    ]);
    const noMinimum = without(form, "minCoins");
    expectRefusals(paymentMethodActionSchema, noMinimum, [
      [{}, { minCoins: "payments.errors.coinsInvalid" }],
    ]);
    expect(
      paymentMethodActionSchema.safeParse({ ...form, minCoins: 5 }).error?.issues[0]?.message,
    ).toBe("payments.errors.coinsInvalid");
  });

  it("reads a row's buttons and refuses an unknown intent or id", () => {
    for (const intent of ["enable", "disable", "delete"])
      expect(paymentMethodActionSchema.parse({ intent, id: "4" })).toEqual({ intent, id: 4 });
    expect(paymentMethodActionSchema.parse({ intent: "enable", id: "4" })).toEqual({
      intent: "enable",
      id: 4,
    });
    expectRefusals(paymentMethodActionSchema, { intent: "delete", id: "4" }, [
      [{ id: "x" }, { id: "payments.errors.notFound" }],
      [{ intent: "explode" }, { intent: "payments.errors.unknownAction" }],
    ]);
  });

  it("ignores a query value that does not parse", () => {
    expect(paymentMethodListQuerySchema.parse({ edit: "new", notice: "created" })).toEqual({
      edit: "new",
      notice: "created",
    });
    expect(paymentMethodListQuerySchema.parse({ edit: "-1", notice: "boom" })).toEqual({
      edit: undefined,
      notice: undefined,
    });
  });
});
