import { createInstance, type FormatterModule, type i18n } from "i18next";
import { withPluralFallbacks, type Catalogues } from "~/i18n/i18n";
import { directionOf, type Locale } from "~/i18n/locales";

// i18next set up as app/i18n/i18n.ts set it up until our translator replaced it (ADR 29), kept word for
// word but for react-i18next's plug-in (it only handed the instance to react-i18next's hooks and set
// their options; what `t` answers is the same): app/i18n/translator.test.ts proves the translator gives
// exactly this instance's output.

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
 * An i18next instance for one language with the catalogues given. The server passed every namespace and
 * English as the fallback; the browser passed the namespaces its page came with, with no fallback.
 */
export async function createI18nextReference(
  locale: Locale,
  resources: Catalogues,
  fallback?: Catalogues,
): Promise<i18n> {
  const instance = createInstance();
  const rtl = directionOf(locale) === "rtl";
  if (rtl) instance.use(isolatingFormatter());
  const withFallback = fallback !== undefined && locale !== "en";
  await instance.init({
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

/** A namespace added in the browser, as catalogue-loader.ts added it to i18next. */
export function addReferenceNamespace(instance: i18n, ns: string, catalogue: unknown) {
  const locale = instance.language as Locale;
  instance.addResourceBundle(locale, ns, withPluralFallbacks(locale, catalogue), true, true);
}
