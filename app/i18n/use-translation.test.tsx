import type { TFunction } from "i18next";
import { renderToString } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { createI18n } from "./i18n";
import { loadResources } from "./resources";
import { I18nProvider } from "./translator-context";
import { useTranslation } from "./use-translation";

function Probe({ seen }: { seen: { t: TFunction; texts: string[] }[] }) {
  const { t } = useTranslation();
  seen.push({
    t: t as unknown as TFunction,
    texts: [t("nav.about"), t("coins.balance", { amount: "12.50" }), t("nav.about")],
  });
  return null;
}

describe("useTranslation on the server", () => {
  it("answers as the translator does, one t per language, keys without options remembered per language", async () => {
    const en = await createI18n("en", await loadResources("en"));
    const fr = await createI18n("fr", await loadResources("fr"));
    const seen: { t: TFunction; texts: string[] }[] = [];
    for (const i18n of [en, fr, en]) {
      renderToString(
        <I18nProvider i18n={i18n}>
          <Probe seen={seen} />
        </I18nProvider>,
      );
    }
    expect(seen[0]!.texts).toEqual(["About", en.t("coins.balance", { amount: "12.50" }), "About"]);
    expect(seen[1]!.texts).toEqual([
      "À propos",
      fr.t("coins.balance", { amount: "12.50" }),
      "À propos",
    ]);
    expect(seen[2]!.texts).toEqual(seen[0]!.texts);
    expect(seen[2]!.t).toBe(seen[0]!.t);
    expect(seen[1]!.t).not.toBe(seen[0]!.t);
  });

  it("throws outside I18nProvider, even after translators were made", async () => {
    await createI18n("fr", await loadResources("fr"));
    expect(() => renderToString(<Probe seen={[]} />)).toThrow(/I18nProvider/);
  });
});
