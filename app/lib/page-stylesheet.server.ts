import { readFileSync } from "node:fs";
import path from "node:path";
import { productionBuild, type ProductionBuild } from "./production-build.server";

const read = new Map<string, string | null>();

/**
 * The text of the built stylesheets (their hrefs as React Router's manifest gives them, "/assets/root-….css"),
 * to be written into a page React hydrates instead of linked from it (ADR 29): the first paint then waits
 * for the HTML alone, not for a stylesheet that shares a slow mobile link with the page's scripts. Read
 * once per href from the production build's client assets; null under the development server, when a file
 * is missing, or when its text could not sit inside a <style> element (the page then links the files).
 */
export function readPageStylesheet(
  hrefs: readonly string[],
  options: ProductionBuild = productionBuild(),
): string | null {
  if (!options.production || hrefs.length === 0) return null;
  const key = hrefs.join("\n");
  if (!read.has(key)) read.set(key, readFiles(hrefs, options.buildDir ?? "build"));
  return read.get(key)!;
}

function readFiles(hrefs: readonly string[], buildDir: string): string | null {
  const assets = path.resolve(buildDir, "client", "assets");
  const texts: string[] = [];
  for (const href of hrefs) {
    const file = path.resolve(assets, "..", `.${href}`);
    if (!file.startsWith(assets + path.sep)) return null;
    try {
      texts.push(readFileSync(file, "utf8"));
    } catch {
      return null;
    }
  }
  const text = texts.join("\n");
  // "</style" would end the element early.
  return /<\/style/i.test(text) ? null : text;
}
