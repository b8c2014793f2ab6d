import type { i18n as I18next } from "i18next";
import type { Locale } from "./locales";

/**
 * Our translator: the part of i18next 26 the application uses, giving exactly its output (ADR 29), on
 * the server and in the browser alike, so a page hydrates with the texts the server wrote. i18next and
 * react-i18next were 15 KiB gzip of every signed-in page; this is about 2. The types are still
 * i18next's (`t`, `getFixedT` and `exists` are typed as on an i18next instance, keys checked against
 * the English catalogues by app/i18n/i18next.d.ts), so no caller changed.
 *
 * Ported from i18next's Translator, ResourceStore and Interpolator with the options app/i18n/i18n.ts
 * gave it (default namespace "common", `:` between namespace and key, `.` between the parts of a key,
 * `_` before a plural form or a context, no escaping of values, Unicode isolates around every value in
 * a right-to-left language, English behind the others on the server only, no nulls, empty strings
 * kept). What it does as i18next does: namespaces in the key ("orders:errors.x") or in `ns` (one or a
 * list), plurals by `count` (Intl.PluralRules, `_zero` for 0, `ordinal`), `context`, `defaultValue`
 * (also per plural form), `returnObjects` (arrays and objects translated member by member) and
 * `joinArrays`, `replace`, `skipInterpolation`, `lng`, `lngs` and `fallbackLng`, `getFixedT` with a key
 * prefix, `exists`, a missing key (the key, namespace left out), a missing value (the placeholder left
 * as it is, or "" when the option is given as undefined), values never read again for placeholders
 * (i18next's `skipOnVariables`), `{{-value}}`.
 *
 * What it leaves out, because no catalogue uses it (app/i18n/catalogues.test.ts checks that none does):
 * nesting (`$t(key)` in a text; i18next would also read it in a missing key written with it) and
 * formats (`{{value, number}}`: the value is given unformatted, as i18next gives it for a format it
 * does not know). Nor does it take i18next's other options (`keySeparator`, `nsSeparator`,
 * `interpolation` per call, `returnDetails`, post-processors, selector functions for keys) or language
 * codes with a region ("fr-MA"): ours are bare.
 *
 * app/i18n/translator.test.ts proves the equality: every key of every namespace in every language,
 * plural keys with a range of counts, every placeholder with several kinds of value, missing keys and
 * namespaces, English behind French and Arabic on the server, `exists`, against i18next set up as
 * app/i18n/i18n.ts used to (tests/support/i18next-reference.ts).
 */
export interface Translator {
  /** The language it translates into. */
  readonly language: Locale;
  /** A text for a key ("nav.about" in common, "orders:errors.x" in another namespace). */
  readonly t: I18next["t"];
  /** A `t` for one namespace (the language: null for its own). */
  readonly getFixedT: I18next["getFixedT"];
  /** Whether a key has a text (or a list or group of texts). */
  readonly exists: I18next["exists"];
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

type Options = Record<string, unknown>;
type Tree = Record<string, unknown>;

const FIRST_STRONG_ISOLATE = "\u2068";
const POP_DIRECTIONAL_ISOLATE = "\u2069";
const DEFAULT_NAMESPACE = "common";
// i18next's: `{{-name}}` (never escaped), then `{{name}}`; `$t(…)` is nesting, which a key may hold.
const UNESCAPED = /\{\{-(.+?)\}\}/g;
const PLACEHOLDER = /\{\{(.+?)\}\}/g;
const NESTING = /\$t\(((?:[^()"']|"[^"]*"|'[^']*'|\((?:[^()"']|"[^"]*"|'[^']*')*\))*?)\)/;
// A key with one of these before its first dot reads as a sentence, whose colon names no namespace.
const SENTENCE = /( |,|\?|!|;)/;
const NOT_AN_OBJECT = ["[object Number]", "[object Function]", "[object RegExp]"];

const isString = (value: unknown): value is string => typeof value === "string";
const asString = (value: unknown) => (value == null ? "" : String(value));
const has = (object: unknown, key: string): boolean =>
  Object.prototype.hasOwnProperty.call(object, key);
const isObjectLike = (value: unknown) =>
  !isString(value) && typeof value !== "boolean" && typeof value !== "number";
const valid = (value: unknown) => value !== undefined && value !== null;
const cleanKey = (key: string) => (key.includes("###") ? key.replace(/###/g, ".") : key);

/** The value at a path of own properties; a string or nothing on the way ends it (i18next's getPath). */
function pathValue(object: unknown, path: string[]): unknown {
  let node = object;
  for (let i = 0; ; i++) {
    if (!node || isString(node)) return undefined;
    const key = cleanKey(path[i]!);
    if (i === path.length - 1) return has(node, key) ? (node as Tree)[key] : undefined;
    node = has(node, key) ? (node as Tree)[key] : {};
  }
}

/** A key whose parts may themselves hold dots ("a.b" as one key), as i18next's deepFind reads it. */
function deepFind(object: unknown, path: string): unknown {
  if (!object) return undefined;
  const tree = object as Tree;
  if (tree[path]) return has(tree, path) ? tree[path] : undefined;
  const tokens = path.split(".");
  let current: unknown = tree;
  for (let i = 0; i < tokens.length;) {
    if (!current || typeof current !== "object") return undefined;
    let next: unknown;
    let nextPath = "";
    for (let j = i; j < tokens.length; ++j) {
      if (j !== i) nextPath += ".";
      nextPath += tokens[j];
      next = (current as Tree)[nextPath];
      if ((typeof next === "function" || nextPath === "__proto__") && !has(current, nextPath))
        next = undefined;
      if (next !== undefined) {
        if (["string", "number", "boolean"].includes(typeof next) && j < tokens.length - 1)
          continue;
        i += j - i + 1;
        break;
      }
    }
    current = next;
  }
  return current;
}

/** A key without namespace reads as a sentence when it has a space (or , ? ! ;) before its first dot. */
function looksLikeObjectPath(key: string): boolean {
  if (!SENTENCE.test(key)) return true;
  const dot = key.indexOf(".");
  return dot > 0 && !SENTENCE.test(key.substring(0, dot));
}

/** i18next's reading of `t(key, "default value", options)`. */
function overloadedOptions(args: unknown[]): Options {
  const options: Options = {};
  if (isString(args[1])) options.defaultValue = args[1];
  if (isString(args[2])) options.tDescription = args[2];
  if (typeof args[2] === "object" || typeof args[3] === "object") {
    const more = (args[3] || args[2]) as Options;
    for (const key of Object.keys(more)) options[key] = more[key];
  }
  return options;
}

export function createTranslator(setup: TranslatorSetup): Translator {
  const { language, fallbackLanguage, isolate } = setup;
  // The language's own catalogues are a new object: adding a namespace never changes the caller's.
  const data: Record<string, Tree> = {
    ...setup.resources,
    [language]: { ...setup.resources[language] },
  };
  const rules = new Map<string, Intl.PluralRules>();

  /** "_one", "_few", "_ordinal_two": the plural form of `count` in a language. */
  function pluralSuffix(code: string, count: unknown, ordinal: unknown): string {
    const type = ordinal ? "ordinal" : "cardinal";
    let rule = rules.get(`${code}|${type}`);
    if (!rule) {
      rule = new Intl.PluralRules(code.replace(/_/g, "-"), { type });
      rules.set(`${code}|${type}`, rule);
    }
    return `_${ordinal ? "ordinal_" : ""}${rule.select(count as number)}`;
  }

  /** The languages a key is looked up in, in order. */
  function languagesFor(code: unknown, fallback: unknown): string[] {
    const fallbacks = (fallback === false ? [] : fallback) || fallbackLanguage || [];
    const codes: string[] = [];
    if (isString(code) && code) codes.push(code);
    for (const other of isString(fallbacks) ? [fallbacks] : (fallbacks as string[]))
      if (other && !codes.includes(other)) codes.push(other);
    return codes;
  }

  function extractFromKey(key: string, options: Options): { key: string; namespaces: string[] } {
    let namespaces: unknown = options.ns || DEFAULT_NAMESPACE;
    if (key.includes(":") && looksLikeObjectPath(key) && !NESTING.test(key)) {
      const parts = key.split(":");
      namespaces = parts.shift();
      key = parts.join(".");
    }
    return { key, namespaces: (isString(namespaces) ? [namespaces] : namespaces) as string[] };
  }

  function lookup(code: string, ns: string, key: string): unknown {
    const path = [code, ns];
    if (key) path.push(...key.split("."));
    const found = pathValue(data, path);
    if (found != null) return found;
    return deepFind((data[code] as Tree | undefined)?.[ns], key);
  }

  function resolve(keys: string[], options: Options) {
    let found: unknown;
    let usedKey: string | undefined;
    let exactUsedKey: string | undefined;
    const { count, context, ordinal } = options;
    const plural = count !== undefined && !isString(count);
    const zero = plural && !ordinal && count === 0;
    const withContext =
      context !== undefined && (isString(context) || typeof context === "number") && context !== "";
    for (const each of keys) {
      if (valid(found)) break;
      const { key, namespaces } = extractFromKey(each, options);
      usedKey = key;
      const codes = (options.lngs ||
        languagesFor(options.lng || language, options.fallbackLng)) as string[];
      for (const ns of namespaces) {
        for (const code of codes) {
          if (valid(found)) break;
          const candidates = [key];
          const suffix = plural ? pluralSuffix(code, count, ordinal) : "";
          const forms = (base: string) => {
            if (!plural) return;
            if (ordinal && suffix.startsWith("_ordinal_"))
              candidates.push(base + suffix.replace("_ordinal_", "_"));
            candidates.push(base + suffix);
            if (zero) candidates.push(`${base}_zero`);
          };
          forms(key);
          if (withContext) {
            const contextKey = `${key}_${String(context)}`;
            candidates.push(contextKey);
            forms(contextKey);
          }
          // Last first, as i18next does: the most particular form; an empty key is never looked up.
          let candidate: string | undefined;
          while ((candidate = candidates.pop())) {
            if (!valid(found)) {
              exactUsedKey = candidate;
              found = lookup(code, ns, candidate);
            }
          }
        }
      }
    }
    return { found, usedKey, exactUsedKey };
  }

  /** A placeholder's value: a path into the values ("user.name"), isolated in a right-to-left language. */
  function placeholderValue(name: string, values: Options): unknown {
    // A format after a comma is not applied (no catalogue has one), as for a format i18next lacks.
    const key = name.includes(",") ? name.split(",")[0]!.trim() : name;
    let value = pathValue(values, key.split("."));
    if (value == null) value = deepFind(values, key);
    if (!isolate || value == null || typeof value === "object") return value;
    return `${FIRST_STRONG_ISOLATE}${String(value)}${POP_DIRECTIONAL_ISOLATE}`;
  }

  /** i18next's interpolation with skipOnVariables: what a value brings is never read as a placeholder. */
  function interpolate(text: unknown, values: Options, options: Options): unknown {
    if (!isString(text)) return text;
    let str = text;
    const unescaped: [number, number][] = [];
    let shift = 0;
    for (const regex of [UNESCAPED, PLACEHOLDER]) {
      regex.lastIndex = 0;
      let replaces = 0;
      let match: RegExpExecArray | null;
      while ((match = regex.exec(str))) {
        const at = match.index - shift;
        const written = unescaped.find(([start, end]) => at >= start && at < end);
        if (written) {
          regex.lastIndex = written[1] + shift;
          continue;
        }
        const name = match[1]!.trim();
        let value = placeholderValue(name, values);
        if (value === undefined) {
          if (!has(options, name)) continue;
          value = "";
        }
        const safe = asString(value);
        str = str.slice(0, match.index) + safe + str.slice(match.index + match[0].length);
        if (regex === UNESCAPED) unescaped.push([match.index, match.index + safe.length]);
        else shift += safe.length - match[0].length;
        regex.lastIndex += safe.length - match[0].length;
        if (++replaces >= 1000) break;
      }
    }
    return str;
  }

  function extend(text: unknown, options: Options): unknown {
    if (options.skipInterpolation) return text;
    const { replace } = options;
    return interpolate(
      text,
      replace && !isString(replace) ? (replace as Options) : options,
      options,
    );
  }

  function translate(keysGiven: unknown, given?: unknown, ...rest: unknown[]): unknown {
    const options: Options =
      typeof given === "object"
        ? { ...(given as Options | null) }
        : overloadedOptions([keysGiven, given, ...rest]);
    if (keysGiven == null) return "";
    const keys = (Array.isArray(keysGiven) ? keysGiven : [keysGiven]).map(String);
    const { key, namespaces } = extractFromKey(keys[keys.length - 1]!, options);
    const lng = (options.lng || language) as string;
    const resolved = resolve(keys, options);
    let res = resolved.found;
    const usedKey = resolved.usedKey || key;
    const exactUsedKey = resolved.exactUsedKey || key;
    const { joinArrays, count, ordinal } = options;
    const plural = count !== undefined && !isString(count);
    const hasDefaultValue = Object.keys(options).some(
      (name) => name.startsWith("defaultValue") && options[name] !== undefined,
    );
    const defaultSuffix = plural ? pluralSuffix(lng, count, ordinal) : "";
    const ordinalFallbackSuffix = ordinal && plural ? pluralSuffix(lng, count, false) : "";
    const defaultValue =
      (plural && !ordinal && count === 0 && options.defaultValue_zero) ||
      options[`defaultValue${defaultSuffix}`] ||
      options[`defaultValue${ordinalFallbackSuffix}`] ||
      options.defaultValue;
    const forObject = !res && hasDefaultValue ? defaultValue : res;
    if (
      forObject &&
      isObjectLike(forObject) &&
      !NOT_AN_OBJECT.includes(Object.prototype.toString.apply(forObject)) &&
      !(isString(joinArrays) && Array.isArray(forObject))
    ) {
      if (!options.returnObjects)
        return `key '${key} (${language})' returned an object instead of string.`;
      const list = Array.isArray(forObject);
      const copy: Tree = list ? ([] as unknown as Tree) : {};
      const base = list ? exactUsedKey : usedKey;
      for (const member in forObject as Tree) {
        if (!has(forObject, member)) continue;
        const deepKey = `${base}.${member}`;
        const memberDefault =
          hasDefaultValue && !res
            ? {
                defaultValue: isObjectLike(defaultValue)
                  ? (defaultValue as Tree)[member]
                  : undefined,
              }
            : {};
        copy[member] = translate(deepKey, {
          ...options,
          ...memberDefault,
          joinArrays: false,
          ns: namespaces,
        });
        if (copy[member] === deepKey) copy[member] = (forObject as Tree)[member];
      }
      return copy;
    }
    if (isString(joinArrays) && Array.isArray(res)) {
      const joined = res.join(joinArrays);
      return joined ? extend(joined, options) : joined;
    }
    if (!valid(res) && hasDefaultValue) res = defaultValue;
    if (!valid(res)) res = key;
    return extend(res, options);
  }

  function getFixedT(lng: unknown, ns: unknown, keyPrefix?: unknown) {
    return (key: unknown, given?: unknown, ...rest: unknown[]) => {
      const options: Options =
        typeof given !== "object"
          ? overloadedOptions([key, given, ...rest])
          : { ...(given as Options | null) };
      options.lng = options.lng || (isString(lng) ? lng : undefined);
      options.lngs = options.lngs || (isString(lng) ? undefined : lng);
      options.ns = options.ns || ns;
      if (options.keyPrefix !== "") options.keyPrefix = options.keyPrefix || keyPrefix;
      const prefix = options.keyPrefix;
      const prefixed = (one: unknown) => (prefix ? `${String(prefix)}.${String(one)}` : one);
      return translate(prefix && Array.isArray(key) ? key.map(prefixed) : prefixed(key), options);
    };
  }

  function exists(key: unknown, given: Options = { interpolation: {} }): boolean {
    const options = { ...given };
    if (key == null) return false;
    const { found } = resolve(isString(key) ? [key] : (key as string[]), options);
    if (found === undefined) return false;
    return !(options.returnObjects === false && isObjectLike(found));
  }

  return {
    language,
    t: translate as unknown as I18next["t"],
    getFixedT: getFixedT as unknown as I18next["getFixedT"],
    exists: exists as unknown as I18next["exists"],
    hasNamespace: (ns) => pathValue(data, [language, ns]) !== undefined,
    addNamespace: (ns, catalogue) => {
      data[language]![ns] = catalogue;
    },
    catalogues: () => data[language]!,
  };
}
