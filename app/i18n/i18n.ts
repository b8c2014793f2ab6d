import { createInstance, type FormatterModule, type i18n } from "i18next";
import { initReactI18next } from "react-i18next";
import { directionOf, type Locale } from "./locales";
import type { Resources } from "./resources";

/** Some namespaces' catalogues of one language: a page gets only those it shows (ADR 29). */
export type Catalogues = Partial<Resources>;

const FIRST_STRONG_ISOLATE = "\u2068";
const POP_DIRECTIONAL_ISOLATE = "\u2069";

/**
 * i18next's own formatter ({{value, number}} and the like), taken from a bare instance so ours can
 * hand named formats to it.
 */
function builtInFormatter() {
  const bare = createInstance();
  void bare.init({ initAsync: false });
  return bare.services.formatter!;
}

/**
 * In a right-to-left language every interpolated value ({{email}}, {{serverName}}, {{code}}, {{amount}})
 * is wrapped in Unicode isolates, so a left-to-right value keeps its own order and does not drag the
 * punctuation around it: "أرسل إلى ⁨user@example.com⁩." reads right. Invisible, and copied text is
 * unchanged apart from the two marks.
 */
function isolatingFormatter(): FormatterModule {
  const builtIn = builtInFormatter();
  return {
    type: "formatter",
    init: () => undefined,
    add: (name, fc) => builtIn.add(name, fc),
    addCached: (name, fc) => builtIn.addCached(name, fc),
    format(value, format, lng, options) {
      const formatted: unknown = format ? builtIn.format(value, format, lng, options) : value;
      if (formatted === null || formatted === undefined || typeof formatted === "object")
        return formatted as unknown as string;
      return `${FIRST_STRONG_ISOLATE}${String(formatted)}${POP_DIRECTIONAL_ISOLATE}`;
    },
  };
}

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
 * An i18next instance for one language with the catalogues given. The server passes every namespace and
 * English as the fallback; the browser passes the namespaces its page came with (app/i18n/catalogue-data.tsx)
 * and loads more as pages need them (app/i18n/catalogue-loader.ts), with no fallback: every language has
 * every key (app/i18n/catalogues.test.ts), and English stays out of a French or Arabic page.
 */
export async function createI18n(
  locale: Locale,
  resources: Catalogues,
  fallback?: Catalogues,
): Promise<i18n> {
  const instance = createInstance();
  const rtl = directionOf(locale) === "rtl";
  if (rtl) instance.use(isolatingFormatter());
  const withFallback = fallback !== undefined && locale !== "en";
  await instance.use(initReactI18next).init({
    lng: locale,
    fallbackLng: withFallback ? "en" : false,
    ns: Object.keys(resources),
    defaultNS: "common",
    resources:
      locale === "en"
        ? { en: resources }
        : {
            [locale]: withPluralFallbacks(locale, resources),
            ...(withFallback ? { en: fallback } : {}),
          },
    interpolation: { escapeValue: false, alwaysFormat: rtl },
    initAsync: false,
    returnNull: false,
  });
  return instance;
}

export { directionOf };
