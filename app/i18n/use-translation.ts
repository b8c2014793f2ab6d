import type { FlatNamespace, TFunction } from "i18next";
import { use, useContext } from "react";
import { perInstance } from "~/lib/instance-cache";
import { namespaceLoading } from "./catalogue-loader";
import { NamespacesUsed } from "./namespaces-used";
import type { Translator } from "./translator";
import { useTranslator } from "./translator-context";

/**
 * Our useTranslation: the translator from I18nProvider (app/i18n/translator-context.tsx) and a `t` for
 * one namespace, made once per translator and namespace. react-i18next's hook, which this one replaced,
 * copied every property of the instance into a new wrapper and made a new `t` on each call during a server
 * render, which was about a tenth of a page's render time. The catalogues a page
 * starts with are there before its first render, and a language change swaps the whole translator in the
 * provider, which re-renders every reader.
 *
 * On the server, `t(key)` without options is also remembered: a translator's catalogues never change there
 * (one per language for the process), and the lookup (key parsing, resolution, interpolation) was about a
 * sixth of a public page's render with i18next, a few hundred calls per page. Calls with options
 * (interpolation, plurals) always go to the translator.
 *
 * A page carries only the catalogues it uses (ADR 29): on the server the namespace is noted for the page,
 * in the browser a namespace the instance lacks is loaded first (the component suspends; a page reached by
 * a link keeps showing the previous one until its texts are there).
 */
const fixedTs = new WeakMap<Translator, Map<string, TFunction<FlatNamespace>>>();

export function useTranslation<const Ns extends FlatNamespace = "common">(
  ns?: Ns,
): { t: TFunction<Ns>; i18n: Translator } {
  const i18n = useTranslator();
  const name = ns ?? "common";
  useContext(NamespacesUsed)?.add(name);
  const loading = typeof document === "undefined" ? null : namespaceLoading(i18n, name);
  if (loading) use(loading);
  const t = perInstance(fixedTs, i18n, name, () => {
    const fixed = i18n.getFixedT(null, name) as TFunction<FlatNamespace>;
    return typeof document === "undefined" ? remembered(fixed) : fixed;
  });
  return { t: t as unknown as TFunction<Ns>, i18n };
}

function remembered<T extends TFunction<FlatNamespace>>(t: T): T {
  const results = new Map<string, unknown>();
  const call = t as unknown as (...args: unknown[]) => unknown;
  const wrapper = (...args: unknown[]) => {
    const [key] = args;
    if (args.length !== 1 || typeof key !== "string") return call(...args);
    if (results.has(key)) return results.get(key);
    const value = call(key);
    results.set(key, value);
    return value;
  };
  return Object.assign(wrapper, t) as unknown as T;
}
