import { directionOf, type Locale } from "./locales";
import type { Resources } from "./resources";
import { createTranslator, type Translator } from "./translator";

/** Some namespaces' catalogues of one language: a page gets only those it shows (ADR 29). */
export type Catalogues = Partial<Resources>;

/**
 * A catalogue may write only the plural forms its readers meet: French "many" (round millions,
 * "1 000 000 de serveurs") falls back to the language's own "other" instead of to English.
 */
export function withPluralFallbacks<T>(locale: Locale, resources: T): T {
  const categories = new Intl.PluralRules(locale).resolvedOptions().pluralCategories;
  const fill = (node: unknown): unknown => {
    if (!node || typeof node !== "object" || Array.isArray(node)) return node;
    const copy: Record<string, unknown> = {};
    for (const [key, child] of Object.entries(node)) copy[key] = fill(child);
    for (const [key, child] of Object.entries(copy)) {
      if (!key.endsWith("_other")) continue;
      const base = key.slice(0, -"_other".length);
      for (const category of categories) copy[`${base}_${category}`] ??= child;
    }
    return copy;
  };
  return fill(resources) as T;
}

/**
 * The translator for one language with the catalogues given (app/i18n/translator.ts; it answers as
 * i18next did). The server passes every namespace and English as the fallback; the browser passes the
 * namespaces its page came with (app/i18n/catalogue-data.tsx) and loads more as pages need them
 * (app/i18n/catalogue-loader.ts), with no fallback: every language has every key
 * (app/i18n/catalogues.test.ts), and English stays out of a French or Arabic page.
 *
 * In a right-to-left language every interpolated value ({{email}}, {{serverName}}, {{code}}, {{amount}})
 * is wrapped in Unicode isolates, so a left-to-right value keeps its own order and does not drag the
 * punctuation around it: "أرسل إلى ⁨user@example.com⁩." reads right. Invisible, and copied text is
 * unchanged apart from the two marks.
 */
export async function createI18n(
  locale: Locale,
  resources: Catalogues,
  fallback?: Catalogues,
): Promise<Translator> {
  const withFallback = fallback !== undefined && locale !== "en";
  return createTranslator({
    language: locale,
    resources:
      locale === "en"
        ? { en: resources }
        : {
            [locale]: withPluralFallbacks(locale, resources),
            ...(withFallback ? { en: fallback } : {}),
          },
    fallbackLanguage: withFallback ? "en" : false,
    isolate: directionOf(locale) === "rtl",
  });
}

export { directionOf };
