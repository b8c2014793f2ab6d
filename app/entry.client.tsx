import "./lib/preact-ref-as-prop";
import { startTransition, StrictMode, Suspense, useEffect, type ReactNode } from "react";
import { hydrateRoot } from "react-dom/client";
import { HydratedRouter } from "react-router/dom";
import { readCatalogueData } from "./i18n/catalogue-data";
import { formatCoins, formatEuros } from "./lib/money";
import { cn } from "./lib/utils";
import { afterLaterPieces } from "./lib/hydrate-later";
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
function nextTask(): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, 0));
}

function afterFirstPaint(): Promise<void> {
  return new Promise((resolve) => requestAnimationFrame(() => setTimeout(resolve, 0)));
}

/**
 * What Preact hydrates the page into. Given `document` itself, Preact's render() swaps it for
 * document.documentElement (preact#3794) and hydrates <html> *inside* <html>: every node made again,
 * React Router's inline scripts included (which the CSP then refuses, their nonce hidden from the DOM),
 * and links and menus wired to nodes that are not the ones on screen. A stand-in that is not `document`
 * keeps the server's <html> (ADR 42).
 */
function documentStandIn() {
  return {
    nodeType: 9,
    namespaceURI: null,
    // Without the doctype: Preact would move <html> before it.
    get childNodes() {
      return [document.documentElement];
    },
    get firstChild() {
      return document.documentElement;
    },
    get ownerDocument() {
      return document;
    },
    insertBefore: (node: Node, before: Node | null) => document.insertBefore(node, before),
    appendChild: (node: Node) => document.appendChild(node),
    removeChild: (node: Node) => document.removeChild(node),
    contains: (node: Node) => document.contains(node),
  };
}

async function hydrate() {
  // From here until hydrated, what the person types is noted, to be put back where React overwrites it.
  const typed = watchTypedValues(document);
  const hydrated = () =>
    void afterLaterPieces().then(() => {
      typed.restore();
      // For the browser tests: the page now answers as React renders it (waitForPage, tests/e2e).
      document.documentElement.setAttribute("data-hydrated", "");
    });
  await afterFirstPaint();
  // The server rendered in this language and wrote the catalogues the page uses into it (ADR 29):
  // hydrating with those, the texts match and nothing else is fetched.
  const lang = document.documentElement.lang;
  const locale = isLocale(lang) ? lang : DEFAULT_LOCALE;
  const written = readCatalogueData();
  const catalogues = "common" in written ? written : await loadCatalogues(locale, ["common"]);
  const i18n = await createI18n(locale, catalogues);
  // Work the first render would otherwise do inside Preact's hydration task (ADR 42), each in a task of
  // its own: the first Intl number formatter of a page loads ICU's data for its language, and the first
  // cn() builds tailwind-merge's map of every class group (each some 15 to 25 ms at CPU x4).
  formatCoins(0, locale);
  formatEuros(0, locale);
  await nextTask();
  cn("p-0", "p-1");
  await nextTask();
  startTransition(() => {
    hydrateRoot(
      documentStandIn() as unknown as Document,
      <I18nProvider i18n={i18n}>
        <AfterHydration then={hydrated}>
          <StrictMode>
            {/* Preact needs a boundary above whatever suspends (use-shim): React Router's state first. */}
            <Suspense fallback={null}>
              <HydratedRouter />
            </Suspense>
          </StrictMode>
        </AfterHydration>
      </I18nProvider>,
    );
  });
}

void hydrate();
