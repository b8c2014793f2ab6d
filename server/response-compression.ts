import path from "node:path";
import { constants } from "node:zlib";
import compression from "compression";
import type { NextFunction, Request, Response } from "express";

/**
 * How pages (HTML and React Router's `.data`) are compressed: made afresh for each request, so each is
 * compressed afresh. Brotli quality 3 with a 256 KiB window and gzip level 3 cost about half of
 * compression's defaults (quality 4 with a 4 MiB window, level 6) for some 5% more bytes on a signed-in
 * page (docs/performance.md, "Signed-in page CPU"; ADR 30). No page comes near 256 KiB, so the
 * smaller window loses nothing.
 */
export const PAGE_COMPRESSION = {
  level: 3,
  brotli: {
    params: {
      [constants.BROTLI_PARAM_QUALITY]: 3,
      [constants.BROTLI_PARAM_LGWIN]: 18,
    },
  },
} as const;

/**
 * A file of the build (`/assets/...`, `/favicon.svg`) or a download (`.csv`), as opposed to a page:
 * anything with an extension but React Router's data requests (`/contact.data`).
 */
export function isFileRequest(urlPath: string): boolean {
  return (
    urlPath.startsWith("/assets/") || (path.extname(urlPath) !== "" && !urlPath.endsWith(".data"))
  );
}

/**
 * compression() with the page settings above for pages, and its defaults for files: the scripts and
 * styles a browser keeps for a year are worth the smaller size (and the web benchmark weighs them).
 */
export function responseCompression() {
  const files = compression();
  const pages = compression(PAGE_COMPRESSION);
  return (req: Request, res: Response, next: NextFunction) =>
    (isFileRequest(req.path) ? files : pages)(req, res, next);
}
