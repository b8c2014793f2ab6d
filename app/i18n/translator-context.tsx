import { createContext, useContext, type ReactNode } from "react";
import type { Translator } from "./translator";

/**
 * The page's translator, for useTranslation and useMessage (what react-i18next's I18nextProvider did,
 * without react-i18next: its runtime needs an i18next instance, ADR 29).
 */
const TranslatorContext = createContext<Translator | null>(null);

export function I18nProvider({ i18n, children }: { i18n: Translator; children: ReactNode }) {
  return <TranslatorContext value={i18n}>{children}</TranslatorContext>;
}

/**
 * The translator of the provider around. None is an error, not a fallback to some other translator:
 * a page in one language must never show another's texts.
 */
export function useTranslator(): Translator {
  const translator = useContext(TranslatorContext);
  if (!translator) throw new Error("no translator: render inside <I18nProvider>");
  return translator;
}
