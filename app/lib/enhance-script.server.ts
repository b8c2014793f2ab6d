import { readFileSync } from "node:fs";
import path from "node:path";
import { productionBuild, type ProductionBuild } from "./production-build.server";

/**
 * The enhance script's code (app/entry.enhance.ts as built, one self-contained file), to be written into
 * an anonymous visitor's page rather than fetched by it (ADR 13): a first visit on a slow mobile link
 * saves a request's round trip, and later pages pay its 2.6 KiB gzip instead. Read from the production
 * build's client assets (entry.server reads it once, at start); null under the development server, when
 * the file is missing, or when its text could not sit inside a <script> element, and the page then links
 * the file as before.
 */
export function readEnhanceScript(
  url: string,
  options: ProductionBuild = productionBuild(),
): string | null {
  const assets = path.resolve(options.buildDir ?? "build", "client", "assets");
  const file = path.resolve(assets, "..", `.${url}`);
  if (!options.production || !file.startsWith(assets + path.sep)) return null;
  try {
    const text = readFileSync(file, "utf8");
    // "</script" would end the element early and "<!--" changes how the browser parses what follows.
    return /<\/script|<!--/i.test(text) ? null : text;
  } catch {
    return null;
  }
}
