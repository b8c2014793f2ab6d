import type { i18n as I18n } from "i18next";
import { perInstance } from "~/lib/instance-cache";
import { withPluralFallbacks, type Catalogues } from "./i18n";
import { isLocale, type Locale } from "./locales";

// One chunk per language and namespace, fetched when a page first needs it (ADR 29). The page a browser
// opens carries its own catalogues (catalogue-data.tsx); these serve the pages it moves on to.
const files = import.meta.glob<{ default: unknown }>("./locales/*/*.json");

const pending = new WeakMap<I18n, Map<string, Promise<void>>>();

/** One namespace's catalogue in one language. */
export async function loadCatalogue(locale: Locale, ns: string): Promise<unknown> {
  const load = files[`./locales/${locale}/${ns}.json`];
  if (!load) throw new Error(`no catalogue ${locale}/${ns}`);
  return (await load()).default;
}

/** Several namespaces of one language, as createI18n takes them. */
export async function loadCatalogues(locale: Locale, namespaces: string[]): Promise<Catalogues> {
  const loaded = await Promise.all(
    namespaces.map(async (ns) => [ns, await loadCatalogue(locale, ns)] as const),
  );
  return Object.fromEntries(loaded) as Catalogues;
}

/**
 * Nothing when the instance has the namespace; else the promise of adding it (one per instance and
 * namespace), for a component to suspend on: a page reached by a link waits for its texts, never shows
 * keys.
 */
export function namespaceLoading(i18n: I18n, ns: string): Promise<void> | null {
  const locale = i18n.language;
  if (i18n.hasResourceBundle(locale, ns) || !isLocale(locale)) return null;
  return perInstance(pending, i18n, ns, () =>
    loadCatalogue(locale, ns).then((catalogue) => {
      i18n.addResourceBundle(locale, ns, withPluralFallbacks(locale, catalogue), true, true);
    }),
  );
}

/** The namespaces an instance holds in its language. */
export function loadedNamespaces(i18n: I18n): string[] {
  return Object.keys(i18n.store.data[i18n.language] ?? {});
}
