import { describe, expect, it } from "vitest";
import { PRODUCT_TEXT_LOCALES } from "./catalogue";
import { SEED_PRODUCTS } from "./catalogue-seed.server";

/** Words of the storage spec line ("5 GB NVMe storage") in each language the plans are seeded in. */
const STORAGE_WORDS = /storage|nvme|ssd|stockage|تخزين/i;

describe("the seeded plans' features", () => {
  it("never repeat a plan's storage line, in any language", () => {
    for (const product of SEED_PRODUCTS) {
      const lists = [
        product.features,
        ...PRODUCT_TEXT_LOCALES.map((locale) => product.texts[locale].features),
      ];
      for (const features of lists) {
        for (const feature of features) expect(feature, product.slug).not.toMatch(STORAGE_WORDS);
        expect(new Set(features).size, product.slug).toBe(features.length);
      }
    }
  });
});
