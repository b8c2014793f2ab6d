import { describe, expect, it } from "vitest";
import { COUNTRY_CODES, countryChoices, countryName, isCountryCode } from "./billing-details";
import { billingDetailsSchema } from "./billing-details.schemas";

describe("billing details", () => {
  it("knows the 249 ISO 3166 codes, each named in the reader's language", () => {
    expect(COUNTRY_CODES).toHaveLength(249);
    expect(new Set(COUNTRY_CODES).size).toBe(249);
    expect(isCountryCode("MA")).toBe(true);
    expect(isCountryCode("XX")).toBe(false);
    expect(countryName("MA", "en")).toBe("Morocco");
    expect(countryName("MA", "fr")).toBe("Maroc");
    expect(countryName("MA", "ar")).toBe("المغرب");
    const french = countryChoices("fr").map((choice) => choice.label);
    expect(french).toEqual([...french].sort(new Intl.Collator("fr").compare));
  });

  it("offers every country as a choice, its code the value and its name in the reader's language the label", () => {
    // German: a language no other test of this file asks for first.
    const choices = countryChoices("de");
    expect(choices).toHaveLength(249);
    expect(choices.map((choice) => choice.value).sort()).toEqual([...COUNTRY_CODES].sort());
    expect(choices.find((choice) => choice.value === "MA")).toEqual({
      value: "MA",
      label: "Marokko",
    });
    expect(countryChoices("ar").find((choice) => choice.value === "MA")).toEqual({
      value: "MA",
      label: "المغرب",
    });
  });

  it("accepts empty fields and a country in any case, and names each mistake", () => {
    expect(billingDetailsSchema.parse({ intent: "billing-details" })).toEqual({
      intent: "billing-details",
      billingName: "",
      billingAddress: "",
      billingCountry: "",
    });
    expect(
      billingDetailsSchema.parse({ intent: "billing-details", billingCountry: " ma " })
        .billingCountry,
    ).toBe("MA");
    // Spaces around a name or an address are not kept, nor counted against the limit.
    expect(
      billingDetailsSchema.parse({
        intent: "billing-details",
        billingName: `  ${"n".repeat(100)}  `,
        billingAddress: ` ${"a".repeat(300)} `,
      }),
    ).toMatchObject({ billingName: "n".repeat(100), billingAddress: "a".repeat(300) });
    // Directional controls (an override, an isolate, a mark) are taken out: they would reorder the
    // documents' lines (lib/bidi.ts); a name of nothing else is no name.
    expect(
      billingDetailsSchema.parse({
        intent: "billing-details",
        billingName: "\u202dعّ \u200f",
        billingAddress: "\u2067Rabat\u2069\n\u202e12 rue\u202c",
      }),
    ).toMatchObject({ billingName: "عّ", billingAddress: "Rabat\n12 rue" });
    expect(
      billingDetailsSchema.parse({ intent: "billing-details", billingName: "\u200e\u200f" })
        .billingName,
    ).toBe("");
    const refused = billingDetailsSchema.safeParse({
      intent: "billing-details",
      billingName: "n".repeat(101),
      billingAddress: "a".repeat(301),
      billingCountry: "Morocco",
    });
    expect(refused.error?.issues.map((issue) => [issue.path[0], issue.message])).toEqual([
      ["billingName", "invoices.errors.billingNameTooLong"],
      ["billingAddress", "invoices.errors.billingAddressTooLong"],
      ["billingCountry", "invoices.errors.countryInvalid"],
    ]);
  });
});
