import { readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import ts from "typescript";
import { describe, expect, it } from "vitest";
import { labelKeyFamily, type LabelKeyFamily } from "~/lib/label-keys";
import { SUPPORTED_LOCALES } from "./locales";
import { namespaces } from "./resources";

const root = path.resolve("app/i18n/locales");
const PLURAL = /_(zero|one|two|few|many|other)$/;

/**
 * Keys the scan below cannot see in the code, each with the reason. Keep it tiny: write keys out in
 * full, or as a label-key family (`labelKeys("orders", "cycles", BILLING_CYCLE_IDS)`), never
 * t(`cycles.${id}`).
 */
const USED_WITHOUT_A_LITERAL: Record<string, string> = {};

/** Every key path with its texts: a list is one key ("terms.paymentMethods"), a text per member. */
function leafEntries(value: unknown, prefix = ""): [string, unknown[]][] {
  if (value && typeof value === "object" && !Array.isArray(value)) {
    return Object.entries(value).flatMap(([key, child]) =>
      leafEntries(child, prefix ? `${prefix}.${key}` : key),
    );
  }
  return [[prefix, Array.isArray(value) ? value : [value]]];
}

function leafKeys(value: unknown): string[] {
  return leafEntries(value).map(([key]) => key);
}

function catalogue(locale: string, ns: string): unknown {
  return JSON.parse(readFileSync(path.join(root, locale, `${ns}.json`), "utf8"));
}

/** Key paths with plural suffixes folded, so Arabic's six forms match English's two. */
function folded(locale: string, ns: string): string[] {
  return [...new Set(leafKeys(catalogue(locale, ns)).map((k) => k.replace(PLURAL, "")))].sort();
}

/** Plural keys (folded) and the forms each has: { "nav.notificationsCount": ["one", "other"] }. */
function pluralForms(locale: string, ns: string): Record<string, string[]> {
  const forms: Record<string, string[]> = {};
  for (const key of leafKeys(catalogue(locale, ns))) {
    const match = PLURAL.exec(key);
    if (match) (forms[key.replace(PLURAL, "")] ??= []).push(match[1]!);
  }
  for (const list of Object.values(forms)) list.sort();
  return forms;
}

/** The plural forms a catalogue must write for a language (CLDR categories, from Intl). */
function requiredForms(locale: string): string[] {
  const categories = new Intl.PluralRules(locale).resolvedOptions().pluralCategories;
  // French "many" is for round millions ("1 000 000 de serveurs"); i18n.ts fills it from "other".
  return categories.filter((c) => !(locale === "fr" && c === "many")).sort();
}

/** The application's source files under `dir`; with `tests`, its tests too. */
function sourceFiles(dir: string, tests = false): string[] {
  return readdirSync(dir).flatMap((name) => {
    const full = path.join(dir, name);
    if (statSync(full).isDirectory()) return name === "locales" ? [] : sourceFiles(full, tests);
    const test = /\.test\.tsx?$/.test(name);
    if (tests && ASKS_ON_PURPOSE.has(name)) return [];
    return /\.(ts|tsx)$/.test(name) && (!test || tests) ? [full] : [];
  });
}

// What names the translator's left-out options on purpose: its comparison with i18next, the i18next it
// is compared with (set up with i18next's own options), and this file.
const ASKS_ON_PURPOSE = new Set([
  "translator.test.ts",
  "i18next-reference.ts",
  "catalogues.test.ts",
]);

function readSources(dirs = ["app", "server"], tests = false) {
  return dirs
    .flatMap((dir) => sourceFiles(path.resolve(dir), tests))
    .map((file) => ({
      file: path.relative(process.cwd(), file),
      text: readFileSync(file, "utf8"),
    }));
}

/**
 * i18next's options of `t` that our translator leaves out (app/i18n/translator.ts takes `count`,
 * `returnObjects` and values): it would answer a call that passed one as if it had not.
 */
const LEFT_OUT_OPTIONS = new Set([
  "context",
  "ordinal",
  "defaultValue",
  "replace",
  "lng",
  "lngs",
  "fallbackLng",
  "ns",
  "keySeparator",
  "nsSeparator",
  "returnDetails",
  "joinArrays",
  "postProcess",
  "interpolation",
  "skipInterpolation",
  "keyPrefix",
]);
/** Of those, words other code uses for its own things: looked for among a call's options only. */
const COMMON_WORDS = new Set(["context", "defaultValue", "ns", "replace"]);
/** Calls whose options share a word with i18next's and are no translator's. */
const NOT_TRANSLATORS = new Set(["navigate"]);

const calleeName = (call: ts.CallExpression) =>
  ts.isIdentifier(call.expression)
    ? call.expression.text
    : ts.isPropertyAccessExpression(call.expression)
      ? call.expression.name.text
      : "";

/**
 * Where a source file passes a translator what it leaves out: an option of i18next's (in an object
 * given to a call after its first argument, or, for a name nothing else uses, in any object), a
 * default value as the second argument of a `t`, or a list of keys.
 */
function leftOutOptions(file: string, text: string): string[] {
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true);
  const line = (node: ts.Node) =>
    source.getLineAndCharacterOfPosition(node.getStart(source)).line + 1;
  const found: string[] = [];
  const visit = (node: ts.Node): void => {
    if (ts.isObjectLiteralExpression(node)) {
      const call = node.parent;
      const inOptions =
        ts.isCallExpression(call) &&
        call.arguments.indexOf(node) > 0 &&
        !NOT_TRANSLATORS.has(calleeName(call));
      for (const property of node.properties) {
        const name =
          property.name && !ts.isComputedPropertyName(property.name) ? property.name.text : "";
        const leftOut =
          (LEFT_OUT_OPTIONS.has(name) && (inOptions || !COMMON_WORDS.has(name))) ||
          name.startsWith("defaultValue_");
        if (leftOut) found.push(`${file}:${line(property)} passes ${name}`);
      }
    }
    if (ts.isCallExpression(node) && /^t([A-Z]\w*)?$/.test(calleeName(node))) {
      const [key, second] = node.arguments;
      if (key && ts.isArrayLiteralExpression(key))
        found.push(`${file}:${line(node)} passes a list of keys`);
      if (second && (ts.isStringLiteralLike(second) || ts.isTemplateExpression(second)))
        found.push(`${file}:${line(node)} passes a default value`);
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

/** A call of labelKeys or messageKeys with its namespace written out: `labelKeys("orders", …`. */
const LABEL_KEYS_CALL = /\b(?:labelKeys|messageKeys)\(\s*"/g;

interface FoundFamily extends LabelKeyFamily {
  file: string;
  name: string;
}

let familiesFound: Promise<FoundFamily[]> | undefined;

/**
 * Every label-key family the code makes (app/lib/label-keys.ts, ADR 26): each source file that calls
 * labelKeys or messageKeys is imported, and the families among its exports are read back with what they were made from.
 * A file must export every family it makes, so none escapes the proof below.
 */
function labelKeyFamilies(): Promise<FoundFamily[]> {
  familiesFound ??= (async () => {
    const found: FoundFamily[] = [];
    for (const { file, text } of readSources()) {
      const calls = text.match(LABEL_KEYS_CALL)?.length ?? 0;
      if (calls === 0 || file === path.join("app", "lib", "label-keys.ts")) continue;
      const exports = (await import(path.resolve(file))) as Record<string, unknown>;
      const families = new Map<LabelKeyFamily, string>();
      for (const [name, value] of Object.entries(exports)) {
        const family = labelKeyFamily(value);
        if (family && !families.has(family)) families.set(family, name);
      }
      expect(families.size, `${file} makes ${calls} families and exports each`).toBe(calls);
      for (const [family, name] of families) found.push({ ...family, file, name });
    }
    return found;
  })();
  return familiesFound;
}

describe("message catalogues", () => {
  it("has a file for every namespace in every language", () => {
    for (const locale of SUPPORTED_LOCALES) {
      const files = readdirSync(path.join(root, locale))
        .map((f) => f.replace(/\.json$/, ""))
        .sort();
      expect(files, locale).toEqual([...namespaces].sort());
    }
  });

  for (const locale of SUPPORTED_LOCALES.filter((l) => l !== "en")) {
    for (const ns of namespaces) {
      it(`${locale}/${ns} has exactly the keys of en/${ns}`, () => {
        expect(folded(locale, ns)).toEqual(folded("en", ns));
      });
    }
  }

  for (const locale of SUPPORTED_LOCALES) {
    it(`${locale} writes every plural form the language has`, () => {
      const wrong: string[] = [];
      const required = requiredForms(locale);
      for (const ns of namespaces) {
        const english = Object.keys(pluralForms("en", ns));
        const forms = pluralForms(locale, ns);
        for (const key of english) {
          const got = (forms[key] ?? []).filter((f) => !(locale === "fr" && f === "many"));
          if (got.join() !== required.join())
            wrong.push(`${ns}:${key} has [${got.join(", ")}], needs [${required.join(", ")}]`);
        }
      }
      expect(wrong).toEqual([]);
    });
  }

  it("keeps every {{placeholder}} of the English text", () => {
    const placeholders = (texts: unknown[]) =>
      [...texts.join(" ").matchAll(/\{\{\s*(\w+)/g)].map((m) => m[1]!);
    const wrong: string[] = [];
    for (const ns of namespaces) {
      const english = new Map<string, Set<string>>();
      for (const [key, texts] of leafEntries(catalogue("en", ns))) {
        const base = key.replace(PLURAL, "");
        const set = english.get(base) ?? new Set<string>();
        for (const name of placeholders(texts)) set.add(name);
        english.set(base, set);
      }
      for (const locale of SUPPORTED_LOCALES.filter((l) => l !== "en")) {
        for (const [key, texts] of leafEntries(catalogue(locale, ns))) {
          const allowed = english.get(key.replace(PLURAL, "")) ?? new Set<string>();
          const own = placeholders(texts);
          // A plural form may leave {{count}} out ("one file"), but never invent a placeholder.
          for (const name of own)
            if (!allowed.has(name)) wrong.push(`${locale}/${ns}:${key} has {{${name}}}`);
          for (const name of allowed)
            if (name !== "count" && !own.includes(name))
              wrong.push(`${locale}/${ns}:${key} lost {{${name}}}`);
        }
      }
    }
    expect(wrong).toEqual([]);
  });

  it("writes only what our translator reads (app/i18n/translator.ts)", () => {
    // Texts and lists of texts under plain keys, with plain {{name}} placeholders. i18next would also
    // read nesting ($t(key)), formats ({{value, number}}), unescaped and dotted placeholders
    // ({{-value}}, {{user.name}}) and keys with a dot in them; ours shows them as written.
    const wrong: string[] = [];
    for (const locale of SUPPORTED_LOCALES)
      for (const ns of namespaces) {
        const where = `${locale}/${ns}`;
        const file = readFileSync(path.join(root, locale, `${ns}.json`), "utf8");
        const parsed: unknown = JSON.parse(file, (key, value: unknown) => {
          if (key.includes(".")) wrong.push(`${where} has a key with a dot: "${key}"`);
          return value;
        });
        for (const [key, texts] of leafEntries(parsed))
          for (const text of texts) {
            if (typeof text !== "string") {
              wrong.push(`${where}:${key} is not a text: ${JSON.stringify(text)}`);
              continue;
            }
            if (text.includes("$t(")) wrong.push(`${where}:${key} nests a key: ${text}`);
            for (const [placeholder, inside] of text.matchAll(/\{\{(.+?)\}\}/g))
              if (!/^\s*\w+\s*$/.test(inside!))
                wrong.push(`${where}:${key} has ${placeholder}, not a plain {{name}}`);
          }
      }
    expect(wrong).toEqual([]);
  });

  // It reads every source file: 1.3 s alone, past the unit layer's 5 s with the cores shared.
  it("passes the translator no option it leaves out (app/i18n/translator.ts)", () => {
    // The scan itself, on calls it must catch and calls it must let be.
    expect(
      leftOutOptions(
        "probe.ts",
        [
          't("nav.about", { context: "x", count: 2 });',
          'i18n.t("a", { ...values, ns: "site" });',
          'tSite("a", "A default");',
          "t([first, second]);",
          "const options = { ordinal: true };",
          "navigate(path, { replace: true });",
          "load({ context });",
          't("coins.balance", { amount });',
        ].join("\n"),
      ),
    ).toEqual([
      "probe.ts:1 passes context",
      "probe.ts:2 passes ns",
      "probe.ts:3 passes a default value",
      "probe.ts:4 passes a list of keys",
      "probe.ts:5 passes ordinal",
    ]);
    // Tests too: a test that asks with a left-out option tests what the application never gets.
    const found = readSources(["app", "server", "scripts", "tests"], true).flatMap(
      ({ file, text }) => leftOutOptions(file, text),
    );
    expect(found).toEqual([]);
  }, 30_000);

  it("finds the label-key families", async () => {
    const names = (await labelKeyFamilies()).map(({ name }) => name);
    // A few known ones, so a scan that silently finds nothing fails.
    expect(names).toEqual(
      expect.arrayContaining([
        "ORDER_STATUS_LABELS",
        "TICKET_STATUS_LABELS",
        "SPEC_LABELS",
        "PRICE_ERRORS",
      ]),
    );
  });

  it("has every key of every label-key family in every language", async () => {
    const missing: string[] = [];
    for (const { file, name, namespace, prefix, values } of await labelKeyFamilies()) {
      if (!(namespaces as readonly string[]).includes(namespace)) {
        missing.push(`${file}: ${name} names the namespace "${namespace}", which has no catalogue`);
        continue;
      }
      for (const locale of SUPPORTED_LOCALES) {
        const keys = new Set(folded(locale, namespace));
        for (const value of values)
          if (!keys.has(`${prefix}.${value}`))
            missing.push(`${file}: ${name}.${value} → ${locale}/${namespace}:${prefix}.${value}`);
      }
    }
    expect(missing).toEqual([]);
  });

  it("builds no key at run time, so the scan below sees them all", () => {
    // A template passed straight to a call whose text looks like a key: t(`cycles.${id}`),
    // (t as (k: string) => string)(`${group}.${id}`). Write such keys out, or make them a
    // label-key family, which the test above proves (docs/i18n.md).
    const argument = /\(\s*`((?:[a-z]\w*(?:[.:]\w+)*[.:]|\$\{\w+\}[.:])\$?\{?[^`]*)`/gi;
    const found = readSources().flatMap(({ file, text }) =>
      [...text.matchAll(argument)]
        .filter((match) => match[1]!.includes("${"))
        .map((match) => `${file}: ${match[0]}`),
    );
    expect(found).toEqual([]);
  });

  it("uses every English key somewhere in the code", async () => {
    const inFamilies = new Set(
      (await labelKeyFamilies()).flatMap(({ namespace, prefix, values }) =>
        values.map((value) => `${namespace}:${prefix}.${value}`),
      ),
    );
    const code = readSources()
      .map(({ text }) => text)
      .join("\n");
    // What stands between two consecutive quotes of each kind: a key (which holds no quote) is written
    // between two such quotes exactly when it is one of these pieces. One pass over the code, where
    // asking the code for each of thousands of keys took seconds.
    const pieces = ['"', "'", "`"].map((quote) => new Set(code.split(quote)));
    const quoted = (key: string) => pieces.some((between) => between.has(key));
    const unused: string[] = [];
    for (const ns of namespaces) {
      for (const key of folded("en", ns)) {
        const full = `${ns}.${key}`;
        const used =
          quoted(key) ||
          quoted(full) ||
          quoted(`${ns}:${key}`) ||
          inFamilies.has(`${ns}:${key}`) ||
          USED_WITHOUT_A_LITERAL[`${ns}:${key}`] !== undefined;
        if (!used) unused.push(`${ns}:${key}`);
      }
    }
    expect(unused).toEqual([]);
    // It reads every source file: seconds on a loaded machine (it passed 5 s beside the browser tests).
  }, 30_000);
});
