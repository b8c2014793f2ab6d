import { createContext, useContext, type ReactNode } from "react";
import type { Translator } from "./translator";

/**
 * The page's translator, for useTranslation and useMessage (what react-i18next's I18nextProvider did,
 * without react-i18next: its runtime needs an i18next instance, ADR 29).
 */
const TranslatorContext = createContext<Translator | null>(null);

// Outside a provider, the translator made last (as react-i18next fell back to the instance it was
// initialised with last).
let last: Translator | null = null;

/** Noted by createI18n. */
export function setLastTranslator(translator: Translator) {
  last = translator;
}

export function I18nProvider({ i18n, children }: { i18n: Translator; children: ReactNode }) {
  return <TranslatorContext value={i18n}>{children}</TranslatorContext>;
}

/** The translator of the provider around, else the one made last. */
export function useTranslator(): Translator {
  const translator = useContext(TranslatorContext) ?? last;
  if (!translator) throw new Error("no translator: render inside <I18nProvider>");
  return translator;
}
