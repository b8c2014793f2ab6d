import type { ReactNode } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { createI18n } from "~/i18n/i18n";
import type { Locale } from "~/i18n/locales";
import { loadResources } from "~/i18n/resources";
import { I18nProvider } from "~/i18n/translator-context";

/** A piece of UI as the server sends it, in one language (the catalogues the pages load). */
export async function renderHtml(node: ReactNode, locale: Locale = "en") {
  const i18n = await createI18n(locale, await loadResources(locale));
  return renderToStaticMarkup(<I18nProvider i18n={i18n}>{node}</I18nProvider>);
}

/** The texts of the kit's badges (`Badge`, a rounded-full span) in a piece of server HTML, in order. */
export function badgeTexts(html: string): string[] {
  return [...html.matchAll(/rounded-full[^"]*">([^<]*)</g)].map(([, text]) => text!);
}
