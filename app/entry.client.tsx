import { startTransition, StrictMode, useEffect, type ReactNode } from "react";
import { hydrateRoot } from "react-dom/client";
import { HydratedRouter } from "react-router/dom";
import { readCatalogueData } from "./i18n/catalogue-data";
import { loadCatalogues } from "./i18n/catalogue-loader";
import { createI18n } from "./i18n/i18n";
import { DEFAULT_LOCALE, isLocale } from "./i18n/locales";
import { I18nProvider } from "./i18n/translator-context";
import { watchTypedValues } from "./lib/typed-before-hydration";

/**
 * Runs `then` once React has committed the hydrated page (an effect of the outermost component runs
 * after the whole tree's). It renders nothing of its own, so the tree still matches the server's HTML.
 */
function AfterHydration({ then, children }: { then: () => void; children: ReactNode }) {
  useEffect(then, [then]);
  return children;
}

/**
 * Resolves after the browser has had a frame to paint the server's HTML. The scripts of a page often
 * arrive while it is still being laid out; hydrating at once puts React's work before the first paint,
 * which then waits for it (on a phone, tens of milliseconds; in Lighthouse's simulation, every script's
 * download). One frame later, the page shows first and hydrates right after (ADR 29).
 */
function afterFirstPaint(): Promise<void> {
  return new Promise((resolve) => requestAnimationFrame(() => setTimeout(resolve, 0)));
}

async function hydrate() {
  // From here until hydrated, what the person types is noted, to be put back where React overwrites it.
  const typed = watchTypedValues(document);
  const hydrated = () => {
    typed.restore();
    // For the browser tests: the page now answers as React renders it (waitForPage, tests/e2e).
    document.documentElement.setAttribute("data-hydrated", "");
  };
  await afterFirstPaint();
  // The server rendered in this language and wrote the catalogues the page uses into it (ADR 29):
  // hydrating with those, the texts match and nothing else is fetched.
  const lang = document.documentElement.lang;
  const locale = isLocale(lang) ? lang : DEFAULT_LOCALE;
  const written = readCatalogueData();
  const catalogues = "common" in written ? written : await loadCatalogues(locale, ["common"]);
  const i18n = await createI18n(locale, catalogues);
  startTransition(() => {
    hydrateRoot(
      document,
      <I18nProvider i18n={i18n}>
        <AfterHydration then={hydrated}>
          <StrictMode>
            <HydratedRouter />
          </StrictMode>
        </AfterHydration>
      </I18nProvider>,
    );
  });
}

void hydrate();
