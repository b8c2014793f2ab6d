import type { ReactNode } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { I18nextProvider } from "react-i18next";
import { createI18n } from "~/i18n/i18n";
import type { Locale } from "~/i18n/locales";
import { loadResources } from "~/i18n/resources";

/** A piece of UI as the server sends it, in one language (the catalogues the pages load). */
export async function renderHtml(node: ReactNode, locale: Locale = "en") {
  const i18n = await createI18n(locale, await loadResources(locale));
  return renderToStaticMarkup(<I18nextProvider i18n={i18n}>{node}</I18nextProvider>);
}
