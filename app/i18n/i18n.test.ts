import { describe, expect, it } from "vitest";
import { createI18n } from "./i18n";
import { loadResources } from "./resources";

const isolated = (text: string) => `\u2068${text}\u2069`;

describe("createI18n", () => {
  it("renders each language from its own catalogue", async () => {
    for (const [locale, expected] of [
      ["en", "About"],
      ["fr", "À propos"],
      ["ar", "من نحن"],
    ] as const) {
      const i18n = await createI18n(locale, await loadResources(locale));
      expect(i18n.t("nav.about")).toBe(expected);
    }
  });

  it("keeps interpolated values left to right inside Arabic text, and only there", async () => {
    const ar = await createI18n("ar", await loadResources("ar"));
    const text = ar.t("coins.balance", { amount: "12.50" });
    expect(text).toContain(isolated("12.50"));
    expect(text.replace(/[\u2068\u2069]/g, "")).toBe("رصيدك: 12.50 كوين");

    const en = await createI18n("en", await loadResources("en"));
    expect(en.t("coins.balance", { amount: "12.50" })).toBe("Your balance: 12.50 coins");
    const fr = await createI18n("fr", await loadResources("fr"));
    expect(fr.t("coins.balance", { amount: "12,50" })).not.toMatch(/[\u2068\u2069]/);
  });

  it("picks the Arabic plural form for the number", async () => {
    const ar = await createI18n("ar", await loadResources("ar"));
    const forms = [0, 1, 2, 3, 11, 100].map((count) =>
      ar.t("nav.notificationsCount", { count }).replace(/[\u2068\u2069]/g, ""),
    );
    expect(new Set(forms).size).toBe(6);
    expect(forms[2]).toContain("إشعاران");
  });

  it("gives French round millions the French 'other' form, not English", async () => {
    const fr = await createI18n("fr", await loadResources("fr"));
    const text = fr.t("nav.notificationsCount", { count: 1_000_000 });
    expect(text).toBe(fr.t("nav.notificationsCount", { count: 7 }).replace("7", "1000000"));
    expect(text).not.toMatch(/unread/);
  });
});
