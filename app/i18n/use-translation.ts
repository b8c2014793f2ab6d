import type { FlatNamespace, i18n as I18n, TFunction } from "i18next";
import { useContext } from "react";
import { getI18n, I18nContext } from "react-i18next";

/**
 * Our useTranslation: the instance from I18nextProvider and a `t` for one namespace, made once per
 * instance and namespace. react-i18next's own hook copies every property of the instance into a new
 * wrapper and makes a new `t` on each call during a server render, which was about a tenth of a page's
 * render time (docs/performance.md). Every catalogue is loaded before the first render (initAsync: false),
 * so there is nothing to wait for, and a language change swaps the whole instance in the provider, which
 * re-renders every reader.
 */
const fixedTs = new WeakMap<I18n, Map<string, TFunction<FlatNamespace>>>();

export function useTranslation<const Ns extends FlatNamespace = "common">(
  ns?: Ns,
): { t: TFunction<Ns>; i18n: I18n } {
  const i18n = useContext(I18nContext)?.i18n ?? getI18n();
  let byNamespace = fixedTs.get(i18n);
  if (!byNamespace) {
    byNamespace = new Map();
    fixedTs.set(i18n, byNamespace);
  }
  const name = ns ?? "common";
  let t = byNamespace.get(name);
  if (!t) {
    t = i18n.getFixedT(null, name) as TFunction<FlatNamespace>;
    byNamespace.set(name, t);
  }
  return { t: t as unknown as TFunction<Ns>, i18n };
}
