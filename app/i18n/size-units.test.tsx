import { describe, expect, it } from "vitest";
import { renderToStaticMarkup } from "react-dom/server";
import { createI18n } from "./i18n";
import type { Locale } from "./locales";
import { loadResources } from "./resources";
import { I18nProvider } from "./translator-context";
import { usePlanSpecs } from "~/components/ui/plan-specs";

// Sizes of memory and disk are written in each language's own units: French "Go" and "Mo" (not "GB",
// "MB"), Arabic "غيغابايت" and "ميغابايت", wherever the catalogues say one (plan cards, the order form,
// the admin's forms).

/** Every message of a language's catalogues, with where it is. */
function* messages(value: unknown, path: string): Generator<[string, string]> {
  if (typeof value === "string") yield [path, value];
  else if (Array.isArray(value))
    for (const [i, item] of value.entries()) yield* messages(item, `${path}.${i}`);
  else if (value && typeof value === "object")
    for (const [key, item] of Object.entries(value)) yield* messages(item, `${path}.${key}`);
}

const LATIN_UNITS = /\b[KMGT]B\b/;

describe.each(["fr", "ar"] as const)("size units in %s", (locale) => {
  it("no message writes an English unit (GB, MB)", async () => {
    const found = [...messages(await loadResources(locale), locale)].filter(([, text]) =>
      LATIN_UNITS.test(text),
    );
    expect(found).toEqual([]);
  });
});

/** A plan's specs as its card and the order form list them, in `locale`. */
async function specsIn(locale: Locale) {
  const i18n = await createI18n(locale, await loadResources(locale));
  let specs: string[] = [];
  function Specs() {
    specs = usePlanSpecs()({ ramGb: 2, storageGb: 10, cpuCores: 1, slots: 150 });
    return null;
  }
  renderToStaticMarkup(
    <I18nProvider i18n={i18n}>
      <Specs />
    </I18nProvider>,
  );
  return specs.map((spec) => spec.replace(/[\u2066-\u2069]/g, ""));
}

describe("a plan's specs", () => {
  it.each([
    ["en", ["150 player slots", "2 GB RAM", "1 vCPU", "10 GB NVMe storage"]],
    ["fr", ["150 slots joueurs", "2 Go de RAM", "1 vCPU", "10 Go de stockage NVMe"]],
    ["ar", ["سعة 150 لاعب", "ذاكرة RAM بسعة 2 غيغابايت", "1 vCPU", "تخزين NVMe بسعة 10 غيغابايت"]],
  ] as const)("are written in %s with its units", async (locale, expected) => {
    expect(await specsIn(locale)).toEqual(expected);
  });
});
