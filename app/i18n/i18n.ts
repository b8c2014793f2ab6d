import { createInstance, type i18n } from "i18next";
import { initReactI18next } from "react-i18next";
import { directionOf, type Locale } from "./locales";
import { englishResources, namespaces, type Resources } from "./resources";

export async function createI18n(locale: Locale, resources: Resources): Promise<i18n> {
  const instance = createInstance();
  await instance.use(initReactI18next).init({
    lng: locale,
    fallbackLng: "en",
    ns: [...namespaces],
    defaultNS: "common",
    resources: locale === "en" ? { en: resources } : { [locale]: resources, en: englishResources },
    interpolation: { escapeValue: false },
    initAsync: false,
    returnNull: false,
  });
  return instance;
}

export { directionOf };
