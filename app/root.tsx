import { useEffect, useState } from "react";
import { useTranslation } from "./i18n/use-translation";
import {
  data,
  isRouteErrorResponse,
  Links,
  Meta,
  Outlet,
  Scripts,
  ScrollRestoration,
  useMatches,
  useRouteLoaderData,
} from "react-router";
import { Link } from "~/components/ui/link";
import { Direction } from "radix-ui";
import type { Route } from "./+types/root";
import "./app.css";
// A data: URI (Vite inlines it): the icon costs no request of its own on a first visit.
import favicon from "../public/favicon.svg?inline";
import { EnhanceScript } from "./components/enhance-script";
import { RuntimePrefetch } from "./components/runtime-prefetch";
import { prefetchedRoutes } from "./lib/hydration";
import { useNonce } from "./components/nonce";
import { usePageScripts } from "./components/page-scripts";
import { NotFoundContent } from "./components/layout/not-found";
import { Button } from "./components/ui/button";
import { StaticToaster } from "./components/ui/static-toaster";
import { showToast, Toaster } from "./components/ui/toaster";
import { useRevealFormResults } from "./components/ui/use-reveal-form-results";
import { listNotifications } from "./domain/notifications/notification-reads.server";
import { BELL_LIMIT } from "./domain/notifications/notifications";
import { setUserLocale } from "./domain/accounts/accounts.server";
import { anyPaymentMethodEnabled } from "./domain/payments/payment-methods.server";
import { themeVariables } from "./domain/settings/theme";
import { readToast } from "./http/toast.server";
import { CatalogueData } from "./i18n/catalogue-data";
import { loadCatalogues, loadedNamespaces } from "./i18n/catalogue-loader";
import { createI18n } from "./i18n/i18n";
import { NamespacesUsed } from "./i18n/namespaces-used";
import type { Translator } from "./i18n/translator";
import { I18nProvider } from "./i18n/translator-context";
import {
  directionOf,
  isLocale,
  type Locale,
  LOCALE_COOKIE,
  localeCookie,
  SUPPORTED_LOCALES,
} from "./i18n/locales";
import { readCookie } from "./lib/cookies";
import { replaceRequestContext, requestContext, type RequestContext } from "./context.server";
import { ViewAsBanner, ViewAsRefused } from "./components/layout/view-as-banner";
import { isViewAsRefusal } from "./domain/staff/view-as";
import { viewAsGate } from "./http/view-as-gate.server";

// Viewing the site as a customer is read-only: the one gate every route's loaders and actions pass.
export const middleware: Route.MiddlewareFunction[] = [
  viewAsGate(requestContext, replaceRequestContext),
];

export async function loader({ request, url, context: routerContext }: Route.LoaderArgs) {
  const context = requestContext(routerContext);
  const { toast, clear } = readToast(request.headers.get("cookie"));
  const user = context.session?.user ?? null;
  // While a member of the staff views the site as a customer, `user` is the customer (read-only).
  const viewer = context.session?.viewer ?? null;
  // A signed-in customer who follows a ?lang= link chose that language: it becomes their saved one, so
  // the next page (without the parameter) stays in it, as the switcher's choice does. An admin's ?lang=
  // only previews a page in that language: their saved one stays (they check each language that way),
  // and so does the customer's while staff view the site as them.
  const chosen = url.searchParams.get("lang");
  if (user && !viewer && user.role !== "admin" && isLocale(chosen) && chosen !== user.locale)
    await setUserLocale(context.services.db, user.id, chosen);
  const { general, links, theme, features, seo } = context.settings;
  const [notifications, topUpOpen] = user
    ? await Promise.all([
        // An admin's list holds the staff's notifications too (new orders and tickets, the worker's alerts).
        listNotifications(context.services.db, user.id, BELL_LIMIT, {
          staff: user.role === "admin",
        }),
        // Coins bought here with a payment method, or off-site with the team (the coin dialog, every
        // "Add coins"): nothing to ask while coin purchase is closed.
        features.coinPurchase ? anyPaymentMethodEnabled(context.services.db) : false,
      ])
    : [undefined, false];
  // The footer's game-panel link goes where customers sign in: the connected panel, else the set link.
  const panelUrl = await context.services.settings.panelUrl();
  return data(
    {
      locale: context.locale,
      user: user
        ? {
            name: user.name,
            email: user.email,
            role: user.role,
            coinBalanceCents: user.coinBalanceCents,
            notifications,
            topUpOpen,
          }
        : null,
      // The banner over every page while viewing as this customer.
      viewAs: viewer && user ? { name: user.name, email: user.email } : null,
      settings: {
        general,
        links: { ...links, gamePanel: panelUrl ?? links.gamePanel },
        theme,
        features,
      },
      seo: {
        // For pages without their own: the SEO description, else the site description, else the built-in
        // one in the visitor's language.
        description:
          seo.description ||
          general.siteDescription ||
          context.i18n.getFixedT(null, "common")("seo.description"),
        keywords: seo.keywords,
      },
      alternates: alternateLinks(context.services.env.PUBLIC_URL, url),
      // The footer's year is the server's, so a page read over new year's midnight hydrates as written.
      year: new Date().getUTCFullYear(),
      toast,
    },
    { headers: rootCookies(request, url, context, clear) },
  );
}

/**
 * The toast cookie to clear, and the language to remember in this browser: the ?lang= of the link a
 * visitor or a customer followed (so the next page stays in that language; a customer's is saved too,
 * above), else a signed-in user's saved choice (so it outlasts logout).
 */
function rootCookies(request: Request, url: URL, context: RequestContext, clear: string | null) {
  const headers = new Headers();
  if (clear) headers.append("Set-Cookie", clear);
  const chosen = url.searchParams.get("lang");
  // The person reading: a member of the staff viewing as a customer keeps their own language.
  const user = context.session?.viewer ?? context.session?.user;
  const remember =
    isLocale(chosen) && user?.role !== "admin" ? chosen : user ? user.locale : chosen;
  if (isLocale(remember) && readCookie(request.headers.get("cookie"), LOCALE_COOKIE) !== remember) {
    const secure = context.services.env.PUBLIC_URL.startsWith("https://");
    headers.append("Set-Cookie", localeCookie(remember, { secure }));
  }
  return headers;
}

/** hreflang links so search engines index the page in every language (?lang= picks it). */
function alternateLinks(publicUrl: string, url: URL) {
  const base = `${publicUrl.replace(/\/$/, "")}${url.pathname}`;
  return [
    ...SUPPORTED_LOCALES.map((lang) => ({ hrefLang: lang, href: `${base}?lang=${lang}` })),
    { hrefLang: "x-default", href: base },
  ];
}

export type RootData = Awaited<ReturnType<typeof loader>>["data"];

export function useRootData() {
  return useRouteLoaderData<typeof loader>("root");
}

export function Layout({ children }: { children: React.ReactNode }) {
  const root = useRootData();
  const nonce = useNonce();
  // Without the root's data (a post refused before any loader ran), the language the page is rendered
  // in: the browser reads it from <html lang> to hydrate in the same one.
  const { i18n } = useTranslation();
  const locale = root?.locale ?? (isLocale(i18n.language) ? i18n.language : "en");
  const theme = root?.settings.theme;
  const style = theme ? (themeVariables(theme) as React.CSSProperties) : undefined;
  // React's scripts, the enhance script or nothing, as the page's routes say (app/lib/hydration.ts, ADR 13).
  const scripts = usePageScripts();
  const prefetched = prefetchedRoutes(useMatches().map((match) => match.handle));
  // The namespaces this server render translates from: the page carries those catalogues (ADR 29).
  const [used] = useState(() => (typeof document === "undefined" ? new Set(["common"]) : null));
  return (
    <html lang={locale} dir={directionOf(locale)} style={style}>
      <head>
        <meta charSet="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <link rel="icon" href={favicon} type="image/svg+xml" />
        <Meta />
        {root?.alternates.map((link) => (
          <link key={link.hrefLang} rel="alternate" hrefLang={link.hrefLang} href={link.href} />
        ))}
        {/* One hashed stylesheet for every page, public or signed in: cached for a year, so the page
            after /login finds it in the cache (ADR 51). */}
        <Links />
        {scripts === "enhance" ? <EnhanceScript nonce={nonce} /> : null}
        {scripts === "enhance" ? <RuntimePrefetch routeIds={prefetched} /> : null}
      </head>
      <body className="min-h-screen">
        {/* Radix menus and dialogs read the direction from here, not from <html dir>. */}
        <NamespacesUsed.Provider value={used}>
          <Direction.Provider dir={directionOf(locale)}>{children}</Direction.Provider>
        </NamespacesUsed.Provider>
        {scripts === "react" ? (
          <>
            {/* After the page, so every namespace it translated from is known. */}
            <CatalogueData used={used} />
            <ScrollRestoration nonce={nonce} />
            <Scripts nonce={nonce} />
          </>
        ) : null}
      </body>
    </html>
  );
}

/**
 * The translator for the page's language. It is the one the page hydrated with, unless the language
 * changed without a full page load (a login that restores a saved choice): then the same namespaces load
 * in that language and a new translator, set up exactly as on the server, takes over.
 */
function useI18nFor(locale: Locale): Translator {
  const { i18n: hydrated } = useTranslation();
  const [loaded, setLoaded] = useState<Translator | null>(null);
  const ready = hydrated.language === locale || loaded?.language === locale;
  useEffect(() => {
    if (ready) return;
    let cancelled = false;
    void loadCatalogues(locale, loadedNamespaces(hydrated))
      .then((resources) => createI18n(locale, resources))
      .then((instance) => {
        if (!cancelled) setLoaded(instance);
      });
    return () => {
      cancelled = true;
    };
  }, [locale, ready, hydrated]);
  if (hydrated.language === locale) return hydrated;
  return loaded ?? hydrated;
}

export default function App({ loaderData }: Route.ComponentProps) {
  const i18n = useI18nFor(loaderData.locale);
  const scripts = usePageScripts();
  const { toast } = loaderData;
  const dir = directionOf(loaderData.locale);
  // After every form sent, its answer (an outcome, an error summary, a refused field) is shown and focused.
  useRevealFormResults();
  useEffect(() => {
    if (!toast) return;
    // The id keeps it one toast when its text switches language.
    showToast(toast.type === "error" ? "error" : "success", i18n.t(toast.key), {
      id: `${toast.type}:${toast.key}`,
    });
  }, [toast, i18n]);
  return (
    <I18nProvider i18n={i18n}>
      {loaderData.viewAs ? (
        <ViewAsBanner name={loaderData.viewAs.name} email={loaderData.viewAs.email} />
      ) : null}
      <Outlet />
      {scripts === "react" ? (
        <Toaster dir={dir} />
      ) : scripts === "enhance" ? (
        <StaticToaster
          dir={dir}
          toast={
            toast
              ? { type: toast.type === "error" ? "error" : "success", text: i18n.t(toast.key) }
              : null
          }
        />
      ) : null}
    </I18nProvider>
  );
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  const { t } = useTranslation();
  // A post while viewing the site as a customer, refused before anything ran (403).
  if (isRouteErrorResponse(error) && error.status === 403 && isViewAsRefusal(error.data))
    return <ViewAsRefused name={error.data.name} email={error.data.email} />;
  // The root has no meta of its own, so a page that fails here (a ticket that is not the visitor's)
  // would have no <title> (axe: document-title): React puts this one in the head.
  if (isRouteErrorResponse(error) && error.status === 404)
    return (
      <>
        <title>{t("notFound.title")}</title>
        <NotFoundContent />
      </>
    );
  // Never show the error itself: it may hold internals. The server has logged it.
  return (
    <main className="mx-auto flex min-h-[60vh] max-w-xl flex-col items-center justify-center gap-4 p-6 text-center">
      <title>{t("error.title")}</title>
      <h1 className="text-2xl font-bold">{t("error.title")}</h1>
      <p className="text-muted-foreground">{t("error.text")}</p>
      <div className="flex gap-2">
        <Button asChild>
          <Link to="/" reloadDocument>
            {t("error.home")}
          </Link>
        </Button>
      </div>
    </main>
  );
}
