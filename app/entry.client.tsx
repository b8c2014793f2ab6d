import { startTransition, StrictMode } from "react";
import { hydrateRoot } from "react-dom/client";
import { I18nextProvider } from "react-i18next";
import { HydratedRouter } from "react-router/dom";
import { createI18n } from "./i18n/i18n";
import { DEFAULT_LOCALE, isLocale } from "./i18n/locales";
import { loadResources } from "./i18n/resources";

async function hydrate() {
  // The server rendered in this language; load the same catalogues before hydrating so the texts match.
  const lang = document.documentElement.lang;
  const locale = isLocale(lang) ? lang : DEFAULT_LOCALE;
  const i18n = await createI18n(locale, await loadResources(locale));
  startTransition(() => {
    hydrateRoot(
      document,
      <I18nextProvider i18n={i18n}>
        <StrictMode>
          <HydratedRouter />
        </StrictMode>
      </I18nextProvider>,
    );
  });
}

void hydrate();
