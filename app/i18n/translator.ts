import type { FlatNamespace, i18n as I18next, TFunction } from "i18next";
import type { Locale } from "./locales";

/**
 * Our translator: what the application asks of i18next 26, answered exactly as i18next answers it
 * (ADR 29), on the server and in the browser alike, so a page hydrates with the texts the server
 * wrote. i18next and react-i18next were 15 KiB gzip of every signed-in page. The types are still
 * i18next's (`t` typed as on an i18next instance, keys checked against the English catalogues by
 * app/i18n/i18next.d.ts), so no caller changed.
 *
 * What the application asks, and all this takes: a key, its namespace before a colon
 * ("orders:errors.x") or given by `getFixedT(null, ns)`; `count`, for the plural form by Intl's
 * rules (`_zero` first for 0); values for `{{name}}` placeholders, never escaped, wrapped in
 * Unicode isolates in a right-to-left language; `returnObjects`, for a list's or a group's texts,
 * each translated; `exists(key)`. English stands behind the page's language on the server only. A
 * missing key answers itself without its namespace, a missing value leaves its placeholder as
 * written (one given as undefined or null is written as nothing), a group asked for as a text
 * answers i18next's complaint.
 *
 * Left out, because nothing uses them: i18next's other options of `t` (contexts, ordinals, default
 * values, also as the second argument, `replace`, `lng`, `ns`, `joinArrays`, `keyPrefix`,
 * `skipInterpolation`…), a list of keys, a language or key prefix for `getFixedT`, options for
 * `exists`, and i18next's reading of a key with a space before its colon as a sentence.
 * In the catalogues: nesting (`$t(key)`), formats (`{{value, number}}`), unescaped or dotted
 * placeholders (`{{-value}}`, `{{user.name}}`), a dot inside a key's own name, anything but texts
 * and lists of texts. app/i18n/catalogues.test.ts fails on a call that passes a left-out option and
 * on a catalogue that uses a left-out form; app/i18n/translator.test.ts proves the answers are
 * i18next's for every key of every namespace in every language, against i18next set up as before
 * (tests/support/i18next-reference.ts).
 */
export interface Translator {
  /** The language it translates into. */
  readonly language: Locale;
  /** A text for a key ("nav.about" in common, "orders:errors.x" in another namespace). */
  readonly t: I18next["t"];
  /** A `t` for one namespace of its language. */
  getFixedT<Ns extends FlatNamespace>(lng: null, ns: Ns): TFunction<Ns>;
  /** Whether a key has a text (or a list or group of texts). */
  exists(key: string): boolean;
  /** Whether it holds a namespace's catalogue in its language. */
  hasNamespace(ns: string): boolean;
  /** Adds a namespace's catalogue in its language (plural fallbacks already filled in). */
  addNamespace(ns: string, catalogue: unknown): void;
  /** Its language's catalogues by namespace, as it holds them (plural fallbacks filled in). */
  catalogues(): Record<string, unknown>;
}

export interface TranslatorSetup {
  language: Locale;
  /** Catalogues by language, then namespace. */
  resources: Record<string, Record<string, unknown>>;
  /** The language behind `language` for a key it lacks (i18next's fallbackLng), or none. */
  fallbackLanguage: string | false;
  /** Unicode isolates around every interpolated value (a right-to-left language). */
  isolate: boolean;
}

type Values = Record<string, unknown>;
type Tree = Record<string, unknown>;

const FIRST_STRONG_ISOLATE = "\u2068";
const POP_DIRECTIONAL_ISOLATE = "\u2069";
const DEFAULT_NAMESPACE = "common";
const PLACEHOLDER = /\{\{(.+?)\}\}/g;

const isTree = (value: unknown): value is Tree => typeof value === "object" && value !== null;

/** i18next's reading of "ns:a.b" (a second colon reads as a dot, as i18next joins the parts). */
function split(fullKey: string, ns: string): { ns: string; key: string } {
  const colon = fullKey.indexOf(":");
  if (colon < 0) return { ns, key: fullKey };
  return { ns: fullKey.slice(0, colon), key: fullKey.slice(colon + 1).replaceAll(":", ".") };
}

export function createTranslator(setup: TranslatorSetup): Translator {
  const { language, fallbackLanguage, isolate } = setup;
  // The language's own catalogues are a new object: adding a namespace never changes the caller's.
  const data: Record<string, Tree> = {
    ...setup.resources,
    [language]: { ...setup.resources[language] },
  };
  const codes = fallbackLanguage ? [language, fallbackLanguage] : [language];
  // A language's plural forms by its own rules, as i18next picks them in the language it looks in.
  const rules = codes.map((code) => new Intl.PluralRules(code));

  /** What a path of own properties leads to: i18next reads no inherited property as a text. */
  function at(code: string, ns: string, key: string): unknown {
    let node: unknown = data[code];
    for (const part of [ns, ...key.split(".")]) {
      if (!isTree(node) || !Object.hasOwn(node, part)) return undefined;
      node = node[part];
    }
    return node;
  }

  /** The first text found and its key: the language before the fallback, a plural form first. */
  function resolve(key: string, ns: string, count: unknown) {
    const plural = count !== undefined && typeof count !== "string";
    for (const [index, code] of codes.entries()) {
      const candidates = plural ? [`${key}_${rules[index]!.select(count as number)}`] : [];
      if (plural && count === 0) candidates.unshift(`${key}_zero`);
      // i18next never looks an empty key up: "common:" is missing, not the namespace.
      if (key) candidates.push(key);
      for (const candidate of candidates) {
        const found = at(code, ns, candidate);
        if (found != null) return { found, foundAt: candidate };
      }
    }
    return { found: undefined, foundAt: key };
  }

  function interpolate(text: string, values: Values): string {
    if (!text.includes("{{")) return text;
    // One pass over the text: a value is never read for placeholders (i18next's skipOnVariables).
    return text.replace(PLACEHOLDER, (written, inside: string) => {
      const name = inside.trim();
      if (!Object.hasOwn(values, name)) return written;
      const value = values[name];
      if (value == null) return "";
      if (!isolate || typeof value === "object") return String(value);
      return `${FIRST_STRONG_ISOLATE}${String(value)}${POP_DIRECTIONAL_ISOLATE}`;
    });
  }

  function translate(fullKey: unknown, options: Values = {}, fixedNs = DEFAULT_NAMESPACE): unknown {
    // A label map's miss (`LABELS[stale]`) gives no key: i18next answers nothing for it.
    if (fullKey == null) return "";
    const { ns, key } = split(String(fullKey), fixedNs);
    const { found, foundAt } = resolve(key, ns, options.count);
    if (isTree(found)) {
      if (!options.returnObjects)
        return `key '${key} (${language})' returned an object instead of string.`;
      const list = Array.isArray(found);
      const copy: Tree = list ? ([] as unknown as Tree) : {};
      // A list's members sit under the form found (a plural list), a group's under the key asked.
      const base = list ? foundAt : key;
      for (const member of Object.keys(found)) {
        const memberKey = `${base}.${member}`;
        const text = translate(memberKey, options, ns);
        copy[member] = text === memberKey ? found[member] : text;
      }
      return copy;
    }
    if (found === undefined) return interpolate(key, options);
    return typeof found === "string" ? interpolate(found, options) : found;
  }

  return {
    language,
    t: ((key: unknown, options?: Values) => translate(key, options)) as unknown as I18next["t"],
    getFixedT: <Ns extends FlatNamespace>(_lng: null, ns: Ns) =>
      ((key: unknown, options?: Values) => translate(key, options, ns)) as unknown as TFunction<Ns>,
    exists: (fullKey) => {
      if (fullKey == null) return false;
      const { ns, key } = split(fullKey, DEFAULT_NAMESPACE);
      return resolve(key, ns, undefined).found !== undefined;
    },
    hasNamespace: (ns) => Object.hasOwn(data[language]!, ns),
    addNamespace: (ns, catalogue) => {
      data[language]![ns] = catalogue;
    },
    catalogues: () => data[language]!,
  };
}
