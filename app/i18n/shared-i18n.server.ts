import type { i18n } from "i18next";
import { createI18n } from "./i18n";
import type { Locale } from "./locales";
import { englishResources, loadResources } from "./resources";

// One i18next instance per language for the whole process: an instance is only ever read (its language is
// fixed), so requests, mail and the worker's staff texts share it. Building one costs about a
// millisecond, which every request and every message used to pay.
const byLocale = new Map<Locale, Promise<i18n>>();

/** The process's i18next instance for `locale` (English behind it for a key not translated yet). */
export function sharedI18n(locale: Locale): Promise<i18n> {
  let instance = byLocale.get(locale);
  if (!instance) {
    instance = loadResources(locale).then((resources) =>
      createI18n(locale, resources, englishResources),
    );
    byLocale.set(locale, instance);
  }
  return instance;
}
