import { LanguagesIcon } from "lucide-react";
import { useTranslation } from "~/i18n/use-translation";
import { Form, useLocation } from "react-router";
import { SUPPORTED_LOCALES, type Locale } from "~/i18n/locales";
import { cn } from "~/lib/utils";

/**
 * Each language by its own name (common namespace; literal keys for the catalogue test): the switcher,
 * the maintenance page's language links and a client's profile say them.
 */
export const LANGUAGE_NAMES = {
  en: "language.en",
  fr: "language.fr",
  ar: "language.ar",
} as const satisfies Record<Locale, string>;

/**
 * A form that works without JavaScript (select, then the button); with JavaScript the choice submits at
 * once (data-auto-submit: the enhance script does it on a page served without React). The server keeps the choice in a cookie and on the account, and sends the visitor back here.
 */
export function LanguageSwitcher({
  locale,
  className,
  id,
}: {
  locale: string;
  className?: string;
  id: string;
}) {
  const { t } = useTranslation();
  const location = useLocation();
  const back = `${location.pathname}${location.search.replace(/([?&])lang=[^&]*&?/, "$1").replace(/[?&]$/, "")}`;
  return (
    <Form
      method="post"
      action="/language"
      reloadDocument
      className={cn("flex items-center gap-1", className)}
    >
      <input type="hidden" name="redirectTo" value={back} />
      <label htmlFor={id} className="sr-only">
        {t("language.label")}
      </label>
      <LanguagesIcon className="size-4 shrink-0" aria-hidden />
      <select
        id={id}
        name="lang"
        defaultValue={locale}
        data-auto-submit=""
        className="h-9 rounded-md border bg-transparent px-1 text-sm"
        onChange={(event) => event.currentTarget.form?.requestSubmit()}
      >
        {SUPPORTED_LOCALES.map((lang) => (
          <option key={lang} value={lang} lang={lang} className="text-foreground">
            {t(LANGUAGE_NAMES[lang])}
          </option>
        ))}
      </select>
      <noscript>
        <button type="submit" className="rounded-md border px-2 py-1 text-sm">
          {t("language.apply")}
        </button>
      </noscript>
    </Form>
  );
}
