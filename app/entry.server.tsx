import { PassThrough, Writable } from "node:stream";
import { createReadableStreamFromReadable } from "@react-router/node";
import { isbot } from "isbot";
import { renderToPipeableStream } from "react-dom/server";
import { I18nextProvider } from "react-i18next";
import { ServerRouter, type EntryContext, type RouterContextProvider } from "react-router";
import { EnhanceScriptContext } from "./components/enhance-script";
import { NonceContext } from "./components/nonce";
import { PageStyleContext } from "./components/page-style";
import { requestContext } from "./context.server";
import { readEnhanceScript } from "./lib/enhance-script.server";
import { readPageStylesheet } from "./lib/page-stylesheet.server";
import { logger } from "./lib/logger.server";
import { createPageCache, pageCacheKey } from "./lib/page-cache.server";
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
  const userAgent = request.headers.get("user-agent");
  const bot = Boolean(userAgent && isbot(userAgent));

  // A visitor's page (no session) is the same for everyone who gets the same data back from its loaders;
  // a signed-in page is one person's, so it is never kept (ADR 15).
  const { loaderData, errors } = routerContext.staticHandlerContext;
  const cacheKey =
    request.method === "GET" && responseStatusCode === 200 && !errors && !loadContext.session
      ? pageCacheKey({
          url: request.url,
          locale: loadContext.locale,
          bot,
          year: new Date().getFullYear(),
          loaderData,
        })
      : null;
  if (cacheKey) {
    const html = visitorPages.get(cacheKey, nonce);
    if (html !== undefined) return htmlResponse(html, responseHeaders, responseStatusCode);
  }

  return new Promise((resolve, reject) => {
    let shellRendered = false;
    // Crawlers and link previews get the whole page at once; browsers get it streamed. A page to be kept
    // is rendered whole too (a visitor's page has nothing that waits).
    const readyOption = cacheKey || bot || routerContext.isSpaMode ? "onAllReady" : "onShellReady";

    // Written into pages React hydrates (ADR 29); the build does not change while the server runs.
    const pageStyle = readPageStylesheet(routerContext.manifest.routes.root?.css ?? []);
    const { pipe, abort } = renderToPipeableStream(
      <NonceContext.Provider value={nonce}>
        <EnhanceScriptContext.Provider value={enhanceScript}>
          <PageStyleContext.Provider value={pageStyle}>
            <I18nextProvider i18n={i18n}>
              <ServerRouter context={routerContext} url={request.url} nonce={nonce} />
            </I18nextProvider>
          </PageStyleContext.Provider>
        </EnhanceScriptContext.Provider>
      </NonceContext.Provider>,
      {
        nonce,
        [readyOption]() {
          shellRendered = true;
          if (cacheKey) {
            const chunks: Buffer[] = [];
            const sink = new Writable({
              write(chunk: Buffer, _encoding, done) {
                chunks.push(chunk);
                done();
              },
            });
            sink.on("finish", () => {
              const html = Buffer.concat(chunks).toString("utf8");
              // An error inside the page (onError below) turned the status to 500: that page is not kept.
              if (responseStatusCode === 200) visitorPages.set(cacheKey, html, nonce);
              resolve(htmlResponse(html, responseHeaders, responseStatusCode));
            });
            pipe(sink);
            return;
          }
          const body = new PassThrough();
          const stream = createReadableStreamFromReadable(body);
          responseHeaders.set("Content-Type", "text/html; charset=utf-8");
          resolve(new Response(stream, { headers: responseHeaders, status: responseStatusCode }));
          pipe(body);
        },
        onShellError(error: unknown) {
          reject(error);
        },
        onError(error: unknown) {
          responseStatusCode = 500;
          if (shellRendered) logger.error({ err: error }, "render error");
        },
      },
    );
    setTimeout(abort, streamTimeout + 1000);
  });
}

function htmlResponse(html: string, headers: Headers, status: number) {
  headers.set("Content-Type", "text/html; charset=utf-8");
  return new Response(html, { headers, status });
}

export function handleError(error: unknown, { request }: { request: Request }) {
  if (request.signal.aborted) return;
  logger.error({ err: error, url: request.url }, "unhandled route error");
}
