import path from "node:path";
import compression from "compression";
import type { NextFunction, Request, Response } from "express";
import { PAGE_COMPRESSION } from "../app/lib/page-compression.server";

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
 * compression() with the page settings (PAGE_COMPRESSION, which the server render also uses for the pages
 * it compresses itself) for pages, and its defaults for files: the scripts and
 * styles a browser keeps for a year are worth the smaller size (and the web benchmark weighs them).
 */
export function responseCompression() {
  const files = compression();
  const pages = compression(PAGE_COMPRESSION);
  return (req: Request, res: Response, next: NextFunction) =>
    (isFileRequest(req.path) ? files : pages)(req, res, next);
}
