import type { FlatNamespace, i18n as I18n, TFunction } from "i18next";
import { use, useContext } from "react";
import { getI18n, I18nContext } from "react-i18next";
import { perInstance } from "~/lib/instance-cache";
import { namespaceLoading } from "./catalogue-loader";
import { NamespacesUsed } from "./namespaces-used";

/**
 * Our useTranslation: the instance from I18nextProvider and a `t` for one namespace, made once per
 * instance and namespace. react-i18next's own hook copies every property of the instance into a new
 * wrapper and makes a new `t` on each call during a server render, which was about a tenth of a page's
 * render time (docs/performance.md). Every catalogue is loaded before the first render (initAsync: false),
 * so there is nothing to wait for, and a language change swaps the whole instance in the provider, which
 * re-renders every reader.
 *
 * On the server, `t(key)` without options is also remembered: an instance's catalogues never change there
 * (one instance per language for the process), and i18next's own lookup (key parsing, resolution,
 * interpolation and nesting scans) was about a sixth of a public page's render, a few hundred calls per page.
 * Calls with options (interpolation, plurals) always go to i18next.
 *
 * A page carries only the catalogues it uses (ADR 29): on the server the namespace is noted for the page,
 * in the browser a namespace the instance lacks is loaded first (the component suspends; a page reached by
 * a link keeps showing the previous one until its texts are there).
 */
const fixedTs = new WeakMap<I18n, Map<string, TFunction<FlatNamespace>>>();

export function useTranslation<const Ns extends FlatNamespace = "common">(
  ns?: Ns,
): { t: TFunction<Ns>; i18n: I18n } {
  const i18n = useContext(I18nContext)?.i18n ?? getI18n();
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
