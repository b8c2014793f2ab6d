import { createI18n } from "./i18n";
import type { Locale } from "./locales";
import { englishResources, loadResources } from "./resources";
import type { Translator } from "./translator";

// One translator per language for the whole process: it is only ever read (its language is fixed), so
// requests, mail and the worker's staff texts share it. Building an i18next instance cost about a
// millisecond, which every request and every message used to pay.
const byLocale = new Map<Locale, Promise<Translator>>();

/** The process's translator for `locale` (English behind it for a key not translated yet). */
export function sharedI18n(locale: Locale): Promise<Translator> {
  let instance = byLocale.get(locale);
  if (!instance) {
    instance = loadResources(locale).then((resources) =>
      createI18n(locale, resources, englishResources),
    );
    byLocale.set(locale, instance);
  }
  return instance;
}
