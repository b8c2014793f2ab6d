import { readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { namespaces } from "./resources";

const root = path.resolve("app/i18n/locales");
const PLURAL = /_(zero|one|two|few|many|other)$/;

function leafKeys(value: unknown, prefix = ""): string[] {
  if (value && typeof value === "object" && !Array.isArray(value)) {
    return Object.entries(value).flatMap(([key, child]) =>
      leafKeys(child, prefix ? `${prefix}.${key}` : key),
    );
  }
  return [prefix];
}

function catalogue(locale: string, ns: string): unknown {
  return JSON.parse(readFileSync(path.join(root, locale, `${ns}.json`), "utf8"));
}

/** Key paths with plural suffixes folded, so Arabic's six forms match English's two. */
function folded(locale: string, ns: string): string[] {
  return [...new Set(leafKeys(catalogue(locale, ns)).map((k) => k.replace(PLURAL, "")))].sort();
}

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const full = path.join(dir, name);
    if (statSync(full).isDirectory()) return name === "locales" ? [] : sourceFiles(full);
    return /\.(ts|tsx)$/.test(name) && !/\.test\.tsx?$/.test(name) ? [full] : [];
  });
}

describe("message catalogues", () => {
  it("has a file for every namespace in every language", () => {
    for (const locale of ["en", "fr", "ar"]) {
      const files = readdirSync(path.join(root, locale))
        .map((f) => f.replace(/\.json$/, ""))
        .sort();
      expect(files, locale).toEqual([...namespaces].sort());
    }
  });

  for (const locale of ["fr", "ar"]) {
    for (const ns of namespaces) {
      it(`${locale}/${ns} has exactly the keys of en/${ns}`, () => {
        expect(folded(locale, ns)).toEqual(folded("en", ns));
      });
    }
  }

  it("uses every English key somewhere in the code", () => {
    const code = [...sourceFiles(path.resolve("app")), ...sourceFiles(path.resolve("server"))]
      .map((file) => readFileSync(file, "utf8"))
      .join("\n");
    // Keys built at run time appear in code as a template prefix: t(`cycles.${id}`) uses every cycles.* key.
    const prefixes = [...code.matchAll(/`([a-z][\w]*(?:[.:][\w]+)*[.:])\$\{/gi)].map((m) =>
      m[1]!.replace(":", "."),
    );
    const unused: string[] = [];
    for (const ns of namespaces) {
      for (const key of folded("en", ns)) {
        const full = `${ns}.${key}`;
        const used =
          code.includes(`"${key}"`) ||
          code.includes(`"${full}"`) ||
          code.includes(`"${ns}:${key}"`) ||
          prefixes.some((prefix) => key.startsWith(prefix) || full.startsWith(prefix));
        if (!used) unused.push(full);
      }
    }
    expect(unused).toEqual([]);
  });
});
