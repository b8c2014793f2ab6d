import { describe, expect, it } from "vitest";
import { SUPPORTED_LOCALES } from "~/i18n/locales";
import {
  isEmptyTexts,
  isProductTextLocale,
  PRODUCT_TEXT_LOCALES,
  textsWithFallback,
} from "./catalogue";
import {
  MAX_FEATURE_LENGTH,
  MAX_FEATURES,
  MAX_PRODUCT_DESCRIPTION_LENGTH,
  MAX_PRODUCT_NAME_LENGTH,
} from "./catalogue-admin";
import { SEED_PRODUCTS } from "./catalogue-seed.server";

const english = { name: "MTA Starter", description: "English", features: ["DDoS protection"] };

describe("product texts per language", () => {
  it("has a text language for every language of the site but English", () => {
    expect([...PRODUCT_TEXT_LOCALES]).toEqual(SUPPORTED_LOCALES.filter((l) => l !== "en"));
    expect(isProductTextLocale("fr")).toBe(true);
    expect(isProductTextLocale("en")).toBe(false);
    expect(isProductTextLocale(undefined)).toBe(false);
  });

  it("falls back to English field by field", () => {
    expect(textsWithFallback(english, undefined)).toEqual(english);
    expect(textsWithFallback(english, { name: "", description: "Français", features: [] })).toEqual(
      { name: "MTA Starter", description: "Français", features: ["DDoS protection"] },
    );
    expect(
      textsWithFallback(english, { name: "Nom", description: "", features: ["Un", "Deux"] }),
    ).toEqual({ name: "Nom", description: "English", features: ["Un", "Deux"] });
    expect(isEmptyTexts({ name: "", description: "", features: [] })).toBe(true);
    expect(isEmptyTexts({ name: "", description: "", features: ["x"] })).toBe(false);
  });

  it("seeds every plan in French and Arabic within the editor's limits", () => {
    for (const product of SEED_PRODUCTS)
      for (const locale of PRODUCT_TEXT_LOCALES) {
        const texts = product.texts[locale];
        expect(texts.name.length, product.slug).toBeGreaterThan(0);
        expect(texts.name.length).toBeLessThanOrEqual(MAX_PRODUCT_NAME_LENGTH);
        expect(texts.description.length, product.slug).toBeGreaterThan(0);
        expect(texts.description.length).toBeLessThanOrEqual(MAX_PRODUCT_DESCRIPTION_LENGTH);
        expect(texts.features).toHaveLength(product.features.length);
        expect(texts.features.length).toBeLessThanOrEqual(MAX_FEATURES);
        for (const feature of texts.features)
          expect(feature.length).toBeLessThanOrEqual(MAX_FEATURE_LENGTH);
        expect(texts.description).not.toBe(product.description);
      }
  });
});
