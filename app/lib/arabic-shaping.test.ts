import { describe, expect, it } from "vitest";
import arabicInvoices from "~/i18n/locales/ar/invoices.json";
import arabicOrders from "~/i18n/locales/ar/orders.json";
import { shapeArabic } from "./arabic-shaping";

const hex = (cells: string[]) =>
  cells.map((cell) => [...cell].map((c) => c.codePointAt(0)!.toString(16)).join("+"));

/** Every string of a catalogue. */
function strings(node: unknown): string[] {
  if (typeof node === "string") return [node];
  if (node && typeof node === "object") return Object.values(node).flatMap(strings);
  return [];
}

describe("shapeArabic", () => {
  it("gives each letter the form its neighbours give it", () => {
    // ف initial, ا final (alef joins only to the letter before it), ت initial again after alef, و final,
    // ر isolated (after و, which does not join forward), ة isolated.
    expect(hex(shapeArabic("فاتورة"))).toEqual(["fed3", "fe8e", "fe97", "feee", "fead", "fe93"]);
    // من: م initial, ن final; a space breaks the join; ما: م initial, ا final.
    expect(hex(shapeArabic("من ما"))).toEqual(["fee3", "fee6", "20", "fee3", "fe8e"]);
    expect(hex(shapeArabic("ب"))).toEqual(["fe8f"]);
    expect(hex(shapeArabic("ببب"))).toEqual(["fe91", "fe92", "fe90"]);
  });

  it("joins lam and alef into one ligature, the alef's place left empty", () => {
    expect(hex(shapeArabic("لا"))).toEqual(["fefb", ""]);
    // After a letter that joins forward, the ligature's final form.
    expect(hex(shapeArabic("الأطلس"))).toEqual(["fe8d", "fef7", "", "fec3", "fee0", "feb2"]);
    expect(hex(shapeArabic("سلا"))).toEqual(["feb3", "fefc", ""]);
  });

  it("joins across marks and a tatweel, not across a zero-width non-joiner", () => {
    // The damma and kasra of المُصدِر do not break the joins around them.
    expect(hex(shapeArabic("مُص"))).toEqual(["fee3", "64f", "feba"]);
    expect(hex(shapeArabic("بـ"))).toEqual(["fe91", "640"]);
    expect(hex(shapeArabic("ب\u200cب"))).toEqual(["fe8f", "200c", "fe8f"]);
  });

  it("keeps every other character, one entry per UTF-16 unit", () => {
    expect(shapeArabic("SA-MP 100")).toEqual([..."SA-MP 100"]);
    expect(shapeArabic("a😀b")).toEqual(["a", "😀", "", "b"]);
    expect(shapeArabic("ڭال")).toHaveLength(3);
  });

  it("writes the catalogues' Arabic so that NFKC gives it back as typed", () => {
    for (const text of [...strings(arabicInvoices), ...strings(arabicOrders)]) {
      const shaped = shapeArabic(text);
      expect(shaped).toHaveLength(text.length);
      expect(shaped.join("").normalize("NFKC"), text).toBe(text.normalize("NFKC"));
    }
  });
});
