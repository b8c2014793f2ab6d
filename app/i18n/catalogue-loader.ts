import { perInstance } from "~/lib/instance-cache";
import { withPluralFallbacks, type Catalogues } from "./i18n";
import { isLocale, type Locale } from "./locales";
import type { Translator } from "./translator";

// One chunk per language and namespace, fetched when a page first needs it (ADR 29). The page a browser
// opens carries its own catalogues (catalogue-data.tsx); these serve the pages it moves on to.
const files = import.meta.glob<{ default: unknown }>("./locales/*/*.json");

const pending = new WeakMap<Translator, Map<string, Promise<void>>>();

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
 * Nothing when the translator has the namespace; else the promise of adding it (one per translator and
 * namespace), for a component to suspend on: a page reached by a link waits for its texts, never shows
 * keys.
 */
export function namespaceLoading(i18n: Translator, ns: string): Promise<void> | null {
  const locale = i18n.language;
  if (i18n.hasNamespace(ns) || !isLocale(locale)) return null;
  return perInstance(pending, i18n, ns, () =>
    loadCatalogue(locale, ns).then((catalogue) => {
      i18n.addNamespace(ns, withPluralFallbacks(locale, catalogue));
    }),
  );
}

/** The namespaces a translator holds in its language. */
export function loadedNamespaces(i18n: Translator): string[] {
  return Object.keys(i18n.catalogues());
}
