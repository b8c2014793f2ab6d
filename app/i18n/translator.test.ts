import type { i18n } from "i18next";
import { isDeepStrictEqual } from "node:util";
import { describe, expect, it } from "vitest";
import { placeholder } from "~/lib/placeholders";
import {
  addReferenceNamespace,
  createI18nextReference,
} from "../../tests/support/i18next-reference";
import { createI18n, withPluralFallbacks, type Catalogues } from "./i18n";
import { SUPPORTED_LOCALES, type Locale } from "./locales";
import { englishResources, loadResources, namespaces, type Namespace } from "./resources";
import type { Translator } from "./translator";

// Our translator must answer exactly as i18next, set up as app/i18n/i18n.ts set it up, answered (ADR 29):
// the server renders a page with it and the browser hydrates with it, and a text that differs from what
// people were shown before is a regression. Every key of every namespace in every language is asked for
// with a range of options and values, in both set-ups (the server's, with English behind French and
// Arabic, and the browser's, with the page's namespaces only), and the answers compared.

const PLURAL = /_(zero|one|two|few|many|other)$/;
const COUNTS = [0, 1, 2, 3, 5, 11, 100, 1_000_000, 1.5, -1, "2"];

/** Fresh copies, so neither side can change what the other reads. */
const clone = <T>(value: T): T => JSON.parse(JSON.stringify(value)) as T;

type Kind = "text" | "list" | "group";

/** Every key path of a catalogue, with what is there: a text, a list (array) or a group. */
function keysOf(node: unknown, prefix = ""): [string, Kind][] {
  if (typeof node === "string") return [[prefix, "text"]];
  const kind: Kind = Array.isArray(node) ? "list" : "group";
  const own: [string, Kind][] = prefix ? [[prefix, kind]] : [];
  return [
    ...own,
    ...Object.entries(node as object).flatMap(([key, child]) =>
      keysOf(child, prefix ? `${prefix}.${key}` : key),
    ),
  ];
}

function textAt(node: unknown, key: string): string | undefined {
  let value: unknown = node;
  for (const part of key.split(".")) value = (value as Record<string, unknown> | undefined)?.[part];
  return typeof value === "string" ? value : undefined;
}

/** The placeholder names of a text ("{{ count }}" and "{{-raw}}" give "count" and "raw"). */
const placeholdersOf = (text: string) =>
  [...text.matchAll(/\{\{(.+?)\}\}/g)].map((m) => m[1]!.trim().replace(/^-/, ""));

/** Sets of values for a key's placeholders: text left to right, Arabic, numbers, odd values, none. */
function valueSets(names: string[]): Record<string, unknown>[] {
  const each = (value: (name: string, index: number) => unknown) =>
    Object.fromEntries(names.map((name, index) => [name, value(name, index)]));
  if (names.length === 0) return [{}, { unused: "x" }];
  return [
    {},
    each((name) => `Server ${name} #7 (EU-West)`),
    each((name) => `user+${name}@example.com`),
    each(() => "خادم سريع 2"),
    each((_, index) => index + 42.5),
    each(() => 0),
    each(() => true),
    each((name) => `{{${name}}} {{count}} {{-raw}} $t(common:nav.about) }}`),
    each((name) => placeholder(name)),
    each(() => undefined),
    each(() => null),
    each((_, index) => (index % 2 ? ["a", "b"] : { a: 1 })),
    Object.fromEntries(names.filter((_, index) => index % 2 === 0).map((name) => [name, "half"])),
  ];
}

/** What one side answers, or the error it throws, for comparing. */
function answer(call: () => unknown): unknown {
  try {
    return call();
  } catch (error) {
    return `throws ${String(error)}`;
  }
}

interface Pair {
  label: string;
  ours: Translator;
  reference: i18n;
}

/** Asks both sides the same question and notes where they differ. */
function comparer(pair: Pair) {
  const differences: string[] = [];
  let asked = 0;
  const fixedOurs = new Map<string, (...args: unknown[]) => unknown>();
  const fixedReference = new Map<string, (...args: unknown[]) => unknown>();
  const fixed = (side: "ours" | "reference", ns: string) => {
    const cache = side === "ours" ? fixedOurs : fixedReference;
    let t = cache.get(ns);
    if (!t) {
      const instance = side === "ours" ? pair.ours : pair.reference;
      const getFixedT = instance.getFixedT as unknown as (
        lng: null,
        ns: string,
      ) => (...args: unknown[]) => unknown;
      t = getFixedT(null, ns);
      cache.set(ns, t);
    }
    return t;
  };
  const same = (what: string, ours: unknown, reference: unknown) => {
    asked++;
    if (!isDeepStrictEqual(ours, reference))
      differences.push(
        `${pair.label} ${what}: ours ${JSON.stringify(ours)}, i18next ${JSON.stringify(reference)}`,
      );
  };
  return {
    differences,
    /** How many questions were asked, so a test that asks nothing fails. */
    asked: () => asked,
    /** t of a namespace (as useTranslation and the loaders use it). */
    fixedT(ns: string, ...args: unknown[]) {
      same(
        `getFixedT(null, ${ns})(${JSON.stringify(args)})`,
        answer(() => fixed("ours", ns)(...args)),
        answer(() => fixed("reference", ns)(...args)),
      );
    },
    /** The instance's own t (as useMessage and the root's toast use it). */
    t(...args: unknown[]) {
      const call = (instance: { t: unknown }) => () =>
        (instance.t as (...args: unknown[]) => unknown)(...args);
      same(`t(${JSON.stringify(args)})`, answer(call(pair.ours)), answer(call(pair.reference)));
    },
    exists(...args: unknown[]) {
      const call = (instance: { exists: unknown }) => () =>
        (instance.exists as (...args: unknown[]) => unknown)(...args);
      same(
        `exists(${JSON.stringify(args)})`,
        answer(call(pair.ours)),
        answer(call(pair.reference)),
      );
    },
  };
}

async function catalogues(locale: Locale): Promise<Record<Namespace, unknown>> {
  return (await loadResources(locale)) as unknown as Record<Namespace, unknown>;
}

/** Both sides set up as the server sets them up: every namespace, English behind the others. */
async function serverPair(locale: Locale, resources?: Catalogues): Promise<Pair> {
  const own = resources ?? ((await loadResources(locale)) as Catalogues);
  return {
    label: `${locale} (server)`,
    ours: await createI18n(locale, clone(own), clone(englishResources)),
    reference: await createI18nextReference(locale, clone(own), clone(englishResources)),
  };
}

/** Both sides set up as the browser sets them up: the page's namespaces, no fallback. */
async function browserPair(locale: Locale, resources: Catalogues): Promise<Pair> {
  return {
    label: `${locale} (browser)`,
    ours: await createI18n(locale, clone(resources)),
    reference: await createI18nextReference(locale, clone(resources)),
  };
}

/** Asks every key of every namespace, as it is and folded, with every kind of option the app passes. */
async function askEveryKey(pair: Pair) {
  const ask = comparer(pair);
  const all = await Promise.all(SUPPORTED_LOCALES.map(catalogues));
  for (const ns of namespaces) {
    const keys = new Map<string, Kind>();
    // The placeholders of a key (plural forms folded) in any language.
    const names = new Map<string, Set<string>>();
    for (const resources of all)
      for (const [key, kind] of keysOf(resources[ns])) {
        const base = key.replace(PLURAL, "");
        keys.set(key, kind);
        if (base !== key) keys.set(base, "text");
        const set = names.get(base) ?? new Set<string>();
        for (const name of placeholdersOf(textAt(resources[ns], key) ?? "")) set.add(name);
        names.set(base, set);
      }
    for (const [key, kind] of keys) {
      const base = key.replace(PLURAL, "");
      const plural = keys.has(`${base}_other`);
      const sets = valueSets([...(names.get(base) ?? [])]);
      ask.fixedT(ns, key);
      ask.t(`${ns}:${key}`);
      ask.exists(`${ns}:${key}`);
      for (const values of sets) {
        ask.fixedT(ns, key, values);
        ask.t(`${ns}:${key}`, values);
      }
      if (plural || key === base) {
        for (const count of plural ? COUNTS : [1]) {
          for (const values of plural ? sets : sets.slice(0, 2)) {
            ask.fixedT(ns, key, { ...values, count });
            if (plural) ask.t(`${ns}:${key}`, { ...values, count });
          }
        }
      }
      if (kind !== "text") {
        ask.fixedT(ns, key, { returnObjects: true });
        ask.fixedT(ns, key, { returnObjects: true, ...sets[1], count: 2 });
        ask.t(`${ns}:${key}`, { returnObjects: true, ...sets[sets.length - 1] });
      }
    }
  }
  // About 2,600 keys a language: each asked a few dozen ways.
  expect(ask.asked()).toBeGreaterThan(50_000);
  return ask.differences;
}

/** Keys that name no text, asked with the options the app passes. */
function askTheOddOnes(pair: Pair) {
  const ask = comparer(pair);
  const missing = [
    "nav.nope",
    "nope",
    "nav",
    "",
    " ",
    "nav.about.deeper",
    "nav.about.length",
    "constructor",
    "__proto__",
    "toString",
    "nav.constructor",
    "nav.__proto__",
    "nav.hasOwnProperty",
    "a###b",
    "common:",
    ":nav.about",
    "common::nav.about",
    "orders:nope.x",
    "nope:x",
    "a:b:c",
    "site:terms.paymentMethods.length",
    "site:terms.paymentMethods.0",
    "site:privacy.builtIn.1",
    "missing {{name}} and {{count}}",
    "nav.about_one",
    "nav.about_other",
    "nav.notificationsCount",
  ];
  for (const key of missing) {
    for (const options of [
      undefined,
      {},
      { name: "Ann" },
      { count: 1 },
      { count: 0 },
      { count: 5, name: "Ann" },
      { returnObjects: true },
      { returnObjects: false },
    ]) {
      ask.t(key, options);
      ask.fixedT("common", key, options);
      ask.fixedT("site", key, options);
    }
    ask.exists(key);
  }
  ask.t(null);
  ask.t(undefined);
  ask.t(42);
  ask.exists(null);
  ask.exists(undefined);
  return ask.differences;
}

/** A made-up catalogue with shapes ours lack: odd placeholders, numbers, a group in a list. */
const MADE_UP = {
  common: {
    greeting: "Hello {{name}}",
    place_zero: "no place",
    place_one: "{{count}} place",
    place_other: "{{count}} places",
    empty: "",
    number: 3,
    yes: true,
    deep: { list: [{ a: "x {{name}}" }, "y {{count}}", ""] },
    things: { thing_one: "a thing", thing_other: "{{count}} things", title: "Things" },
    hash: "{{ x }} {{x}} {{x }} {{}} {{ }} {{x}}}} {{{x}}",
  },
  site: { page: "A page of {{siteName}}", list: ["{{siteName}} one", "two"] },
};

function askTheMadeUpOnes(pair: Pair) {
  const ask = comparer(pair);
  const keys = [
    "greeting",
    "place",
    "empty",
    "number",
    "yes",
    "deep",
    "deep.list",
    "deep.list.0",
    "deep.list.0.a",
    "deep.list.1",
    "deep.list.2",
    "things",
    "things.thing",
    "hash",
    "site:page",
    "site:list",
  ];
  const values = [
    {},
    { name: "Ann", count: 1 },
    { count: 0 },
    { user: { name: "Ann", address: { city: "Fès" } }, spaced: 1, raw: "<b>{{x}}</b>", "a.b": 2 },
    { user: { name: null }, raw: "{{-raw}}", missing: undefined, x: "X" },
    { raw: "a", x: "{{x}}" },
    { returnObjects: true, name: "Ann", count: 2, siteName: "Host" },
  ];
  for (const key of keys) {
    for (const options of values) {
      ask.t(key, options);
      ask.fixedT("common", key, options);
    }
    ask.exists(key);
  }
  return ask.differences;
}

describe("the translator answers as i18next did", () => {
  for (const locale of SUPPORTED_LOCALES) {
    it(`${locale} on the server: every key, every option, every kind of value`, async () => {
      expect(await askEveryKey(await serverPair(locale))).toEqual([]);
    }, 120_000);

    it(`${locale} in the browser: every key, every option, every kind of value`, async () => {
      const resources = (await loadResources(locale)) as Catalogues;
      expect(await askEveryKey(await browserPair(locale, resources))).toEqual([]);
    }, 120_000);

    it(`${locale}: keys that name no text`, async () => {
      expect(askTheOddOnes(await serverPair(locale))).toEqual([]);
      const resources = (await loadResources(locale)) as Catalogues;
      const page = { common: resources.common, site: resources.site } as Catalogues;
      expect(askTheOddOnes(await browserPair(locale, page))).toEqual([]);
    });

    it(`${locale}: odd catalogues and values`, async () => {
      const made = MADE_UP as unknown as Catalogues;
      expect(askTheMadeUpOnes(await serverPair(locale, made))).toEqual([]);
      expect(askTheMadeUpOnes(await browserPair(locale, made))).toEqual([]);
    });
  }

  it("falls back to English on the server for a key a language lacks, as i18next did", async () => {
    for (const locale of ["fr", "ar"] as const) {
      const resources = clone(await loadResources(locale)) as unknown as Record<
        string,
        Record<string, unknown>
      >;
      // Some texts not translated yet: a plain one, a plural's forms, a list, a whole namespace.
      const nav = resources.common!.nav as Record<string, unknown>;
      delete nav.about;
      for (const key of Object.keys(nav))
        if (key.startsWith("notificationsCount_")) delete nav[key];
      delete (resources.site!.terms as Record<string, unknown>).paymentMethods;
      delete resources.tickets;
      const pair = await serverPair(locale, resources as unknown as Catalogues);
      const ask = comparer(pair);
      for (const options of [undefined, { count: 0 }, { count: 1 }, { count: 3 }, { count: 12 }]) {
        ask.t("nav.about", options);
        ask.t("nav.notificationsCount", options);
        ask.fixedT("common", "nav.notificationsCount", options);
      }
      ask.fixedT("site", "terms.paymentMethods", { returnObjects: true });
      ask.fixedT("site", "terms.paymentMethods");
      ask.exists("site:terms.paymentMethods");
      ask.exists("tickets:title");
      ask.t("tickets:nope");
      expect(ask.differences).toEqual([]);
      expect(pair.ours.t("nav.about")).toBe("About");
      expect(
        pair.ours.t("nav.notificationsCount", { count: 3 }).replace(/[\u2068\u2069]/g, ""),
      ).toBe(
        (englishResources.common.nav.notificationsCount_other as string).replace("{{count}}", "3"),
      );
      // The browser has no English behind it: every language has every key (catalogues.test.ts).
      const browser = await createI18n(locale, resources as unknown as Catalogues);
      expect(browser.t("nav.about")).toBe("nav.about");
    }
  });

  it("loads a namespace into the browser's translator as i18next added it", async () => {
    for (const locale of SUPPORTED_LOCALES) {
      const resources = await catalogues(locale);
      const pair = await browserPair(locale, { common: resources.common } as Catalogues);
      const ask = comparer(pair);
      expect(pair.ours.hasNamespace("orders")).toBe(false);
      expect(pair.ours.hasNamespace("common")).toBe(true);
      expect(pair.reference.hasResourceBundle(locale, "orders")).toBe(false);
      ask.fixedT("orders", "summary.title");
      ask.exists("orders:summary.title");
      const orders = clone(resources.orders);
      pair.ours.addNamespace("orders", withPluralFallbacks(locale, clone(orders)));
      addReferenceNamespace(pair.reference, "orders", clone(orders));
      expect(pair.ours.hasNamespace("orders")).toBe(true);
      for (const [key] of keysOf(orders)) {
        ask.fixedT("orders", key);
        ask.fixedT("orders", key.replace(PLURAL, ""), { count: 2, id: 7, amount: "12.50" });
        ask.exists(`orders:${key}`);
      }
      expect(ask.differences).toEqual([]);
      expect(Object.keys(pair.ours.catalogues()).sort()).toEqual(
        Object.keys(pair.reference.store.data[locale] ?? {}).sort(),
      );
      expect(JSON.stringify(pair.ours.catalogues())).toBe(
        JSON.stringify(pair.reference.store.data[locale]),
      );
    }
  });

  it("holds its language's catalogues as i18next's store did (the page's data block)", async () => {
    for (const locale of SUPPORTED_LOCALES) {
      const pair = await serverPair(locale);
      expect(pair.ours.language).toBe(pair.reference.language);
      expect(JSON.stringify(pair.ours.catalogues())).toBe(
        JSON.stringify(pair.reference.store.data[locale]),
      );
    }
  });
});
