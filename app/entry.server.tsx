import { isbot } from "isbot";
import { renderToPipeableStream } from "react-dom/server";
import { ServerRouter, type EntryContext, type RouterContextProvider } from "react-router";
import { EnhanceScriptContext } from "./components/enhance-script";
import { NonceContext } from "./components/nonce";
import { requestContext } from "./context.server";
import { I18nProvider } from "./i18n/translator-context";
import { readEnhanceScript } from "./lib/enhance-script.server";
import { logger } from "./lib/logger.server";
import { createPageCache, pageCacheKey } from "./lib/page-cache.server";
import { pageEncoding, RENDERED_PREFERRED } from "./lib/page-compression.server";
import { pageBody, pageOutput, type PageOutput } from "./lib/page-output.server";
// Bundled on its own (Vite's worker build: one small self-contained file, none of the app's chunks).
import enhanceScriptUrl from "./entry.enhance.ts?worker&url";

export const streamTimeout = 5_000;

// Written into anonymous visitors' pages (ADR 13); the build does not change while the server runs.
const enhanceScript = { src: enhanceScriptUrl, code: readEnhanceScript(enhanceScriptUrl) };

// About 40 KB a page: a few megabytes per server process at most.
const visitorPages = createPageCache({ maxEntries: 300, maxAgeMs: 60_000 });

/** How many visitor pages this process keeps (for tests). */
export function keptVisitorPages() {
  return visitorPages.size;
}

export default async function handleRequest(
  request: Request,
  responseStatusCode: number,
  responseHeaders: Headers,
  routerContext: EntryContext,
  routerLoadContext: RouterContextProvider,
) {
  const loadContext = requestContext(routerLoadContext);
  // The page is rendered in the request's language on the server, so there is no flash of another one.
  const { i18n } = loadContext;
  const nonce = loadContext.cspNonce;

  // A visitor's page (no session) is the same for everyone who gets the same data back from its loaders;
  // a signed-in page is one person's, so it is never kept (ADR 15).
  const { loaderData, errors } = routerContext.staticHandlerContext;
  const cacheKey =
    request.method === "GET" && responseStatusCode === 200 && !errors && !loadContext.session
      ? pageCacheKey({
          url: request.url,
          locale: loadContext.locale,
          // Kept apart from browsers' pages, as when crawlers alone got theirs rendered whole.
          bot: isbot(request.headers.get("user-agent") ?? ""),
          year: new Date().getFullYear(),
          loaderData,
        })
      : null;
  if (cacheKey) {
    const html = visitorPages.get(cacheKey, nonce);
    if (html !== undefined) return htmlResponse(request, html, responseHeaders, responseStatusCode);
  }

  return new Promise((resolve, reject) => {
    let shellRendered = false;
    // Every page is rendered whole and sent as one body (ADR 30). No page streams data that arrives
    // later (no loader returns a promise for <Await>), so a streamed page only cut the same bytes into
    // some twenty writes, each carried through a web stream, the compression stream and the socket on its
    // own, and two late Suspense boundaries with their inline scripts: a signed-in page's CPU.
    // A page to be kept (ADR 15) and a crawler's were already rendered whole.
    const { pipe, abort } = renderToPipeableStream(
      <NonceContext.Provider value={nonce}>
        <EnhanceScriptContext.Provider value={enhanceScript}>
          <I18nProvider i18n={i18n}>
            <ServerRouter context={routerContext} url={request.url} nonce={nonce} />
          </I18nProvider>
        </EnhanceScriptContext.Provider>
      </NonceContext.Provider>,
      {
        nonce,
        // An error after the shell (inside a Suspense boundary) is logged below; one in the shell is
        // React Router's to report (onShellError).
        onShellReady() {
          shellRendered = true;
        },
        onAllReady() {
          const page = pageOutput();
          page.sink.on("finish", () => {
            clearTimeout(timeout);
            // An error inside the page (onError below) turned the status to 500: that page is not kept.
            if (cacheKey && responseStatusCode === 200)
              visitorPages.set(cacheKey, page.text(), nonce);
            resolve(htmlResponse(request, page, responseHeaders, responseStatusCode));
          });
          pipe(page.sink);
        },
        onShellError(error: unknown) {
          clearTimeout(timeout);
          reject(error);
        },
        onError(error: unknown) {
          responseStatusCode = 500;
          if (shellRendered) logger.error({ err: error }, "render error");
        },
      },
    );
    // Cleared once the page is whole (React calls back no sooner than a microtask later): a pending
    // timer keeps `abort`, and through it React's request, its destination and every chunk of the page,
    // alive for six seconds, hundreds of pages' worth at a few hundred pages a second.
    const timeout = setTimeout(abort, streamTimeout + 1000);
  });
}

/**
 * The page's bytes are made when they are sent (pageBody), and only then, and compressed in that same
 * turn rather than by the compression middleware on the thread pool (page-compression.server.ts); the
 * middleware passes a body already encoded through as it is, and still adds `Vary`.
 */
function htmlResponse(
  request: Request,
  page: PageOutput | string,
  headers: Headers,
  status: number,
) {
  headers.set("Content-Type", "text/html; charset=utf-8");
  // A page rendered now goes out in gzip where the request takes it as readily as brotli: its
  // catalogues are then compressed once for the process (ADR 46). A kept visitor page
  // (a string) is compressed whole, as the compression middleware would.
  const encoding = pageEncoding(
    request,
    headers,
    typeof page === "string" ? undefined : RENDERED_PREFERRED,
  );
  if (encoding) {
    headers.set("Content-Encoding", encoding);
    headers.append("Vary", "Accept-Encoding");
  }
  return new Response(pageBody(page, encoding), { headers, status });
}

export function handleError(error: unknown, { request }: { request: Request }) {
  if (request.signal.aborted) return;
  logger.error({ err: error, url: request.url }, "unhandled route error");
}
