import express, { type RequestHandler } from "express";
import {
  compressPage,
  gzipWithKeptTexts,
  KEPT_TEXT_MIN_LENGTH,
  pageEncoding,
  RENDERED_PREFERRED,
} from "../../app/lib/page-compression.server";
import { pageOutput } from "../../app/lib/page-output.server";
import { responseCompression } from "../../server/response-compression";
import { servePage } from "../../tests/support/raw-http";

/**
 * A page's bare twin: a bare Express handler that answers every request with the same bytes
 * through the server's own compression, so the twin does the same work per byte as the app and the
 * difference between the two is the app's. Until 2026-11-26 the twin used compression's defaults
 * (brotli quality 4, a 4 MiB window) where the server compresses pages at quality 3 (PAGE_COMPRESSION):
 * three times the work on a signed-in page, a twin's p95 of 14 to 20 ms instead of 5 to 7, and so a
 * dashboard budget three times too loose.
 *
 * A kept visitor page's twin (the default) goes through the compression middleware, as the server's
 * kept pages are compressed whole. A page the server renders afresh (`rendered`) is sent as
 * entry.server sends it since ADR 46: in gzip where the request takes it as readily as brotli, its long
 * texts (the stylesheet, the catalogues) as kept deflate blocks and the rest compressed per request.
 */
export function bareTwin(
  html: string,
  { rendered = false }: { rendered?: boolean } = {},
): Promise<{ url: string; close: () => void }> {
  if (!rendered) return servePage(responseCompression(), html);
  // The rendered page's answer behind the same middleware, which passes an encoded body through.
  return servePage(express.Router().use(responseCompression(), sendRendered(html)), html);
}

/**
 * The page cut as React writes it for `gzipWithKeptTexts`: the text of each `<style>` and `<script>`
 * long enough to be kept on its own, and the markup between as bytes.
 */
export function splitAtLongTexts(html: string): string[] {
  const texts: string[] = [];
  let from = 0;
  for (const match of html.matchAll(/<(style|script)\b[^>]*>([\s\S]*?)<\/\1>/g)) {
    const text = match[2]!;
    if (text.length < KEPT_TEXT_MIN_LENGTH) continue;
    const at = match.index + match[0].indexOf(text, match[0].indexOf(">") + 1);
    texts.push(html.slice(from, at), text);
    from = at + text.length;
  }
  texts.push(html.slice(from));
  return texts;
}

/** Answers with `html` as entry.server answers with a page it rendered (`htmlResponse`, ADR 46). */
function sendRendered(html: string): RequestHandler {
  // As React hands them over: the long texts as strings, the markup between as bytes.
  const parts = splitAtLongTexts(html).map((text, index) =>
    index % 2 === 1 ? text : Buffer.from(text, "utf8"),
  );
  const whole = Buffer.from(html, "utf8");
  const scratch = Buffer.allocUnsafeSlow(whole.byteLength);
  return (req, res) => {
    const encoding = pageEncoding(
      new Request(`http://twin${req.url}`, {
        method: req.method,
        headers: { "accept-encoding": req.headers["accept-encoding"] ?? "" },
      }),
      new Headers(),
      RENDERED_PREFERRED,
    );
    res.type("text/html");
    if (encoding) {
      res.setHeader("Content-Encoding", encoding);
      res.vary("Accept-Encoding");
    }
    if (encoding !== "gzip") {
      res.end(compressPage(whole, encoding));
      return;
    }
    // The same work as a rendered page's (page-output.server.ts): the long texts looked up among the
    // kept ones, the rest copied into a scratch Buffer and compressed.
    const page = pageOutput();
    for (const part of parts) page.sink.write(part);
    res.end(gzipWithKeptTexts(page.piecesInto(scratch)));
  };
}
