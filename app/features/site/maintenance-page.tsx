import { ServerIcon, WrenchIcon } from "lucide-react";
import { LANGUAGE_NAMES } from "~/components/layout/language-switcher";
import { useTranslation } from "~/i18n/use-translation";
import { SUPPORTED_LOCALES } from "~/i18n/locales";

/**
 * The page visitors and customers get while maintenance mode is on (HTTP 503). It is served without
 * JavaScript (the route's handle says so): every link and form here is plain HTML, so it works whatever
 * address the browser shows. Languages are plain ?lang= links, relative to that address.
 */
export function MaintenancePage({
  siteName,
  message,
  locale,
  user,
  preview,
  year,
}: {
  siteName: string;
  /** The server's, for the copyright line. */
  year: number;
  message: string;
  locale: string;
  user: { email: string } | null;
  /** An admin looking at the page: says what it is and links back to the settings. */
  preview: { maintenanceMode: boolean } | null;
}) {
  const { t } = useTranslation();
  return (
    <div className="flex min-h-screen flex-col">
      <header className="border-b bg-background">
        <div className="mx-auto flex h-16 max-w-5xl flex-wrap items-center justify-between gap-3 px-4">
          <a href="/" className="flex items-center gap-2 text-lg font-bold">
            <span className="flex size-8 items-center justify-center rounded-md bg-primary text-primary-foreground">
              <ServerIcon className="size-5" aria-hidden />
            </span>
            <span>{siteName}</span>
          </a>
          <nav aria-label={t("language.label")}>
            <ul className="flex items-center gap-3 text-sm">
              {SUPPORTED_LOCALES.map((lang) => (
                <li key={lang}>
                  <a
                    href={`?lang=${lang}`}
                    lang={lang}
                    hrefLang={lang}
                    aria-current={lang === locale ? "true" : undefined}
                    className={
                      lang === locale ? "font-semibold text-primary" : "hover:text-primary"
                    }
                  >
                    {t(LANGUAGE_NAMES[lang])}
                  </a>
                </li>
              ))}
            </ul>
          </nav>
        </div>
      </header>
      <main id="main" className="flex flex-1 items-center justify-center px-4 py-16">
        <div className="grid max-w-xl gap-4 text-center">
          {preview ? (
            <p role="note" className="rounded-md border bg-muted p-3 text-sm">
              {preview.maintenanceMode ? t("maintenance.previewOn") : t("maintenance.previewOff")}{" "}
              <a href="/admin/settings#maintenance" className="font-medium text-primary underline">
                {t("maintenance.backToSettings")}
              </a>
            </p>
          ) : null}
          <WrenchIcon className="mx-auto size-12 text-accent" aria-hidden />
          <h1 className="text-3xl font-extrabold">{t("maintenance.title")}</h1>
          <p className="text-lg text-muted-foreground">{t("maintenance.text", { siteName })}</p>
          {message ? (
            <p
              className="rounded-lg border bg-background p-4 whitespace-pre-wrap wrap-anywhere"
              dir="auto"
            >
              {message}
            </p>
          ) : null}
          {user ? (
            <form method="post" action="/logout" className="mt-2">
              <button
                type="submit"
                className="h-10 rounded-md border bg-background px-4 text-sm font-medium hover:bg-muted"
              >
                {t("nav.logout")}
              </button>
            </form>
          ) : null}
        </div>
      </main>
      <footer className="border-t bg-secondary text-secondary-foreground">
        <div className="mx-auto flex max-w-5xl flex-wrap items-center justify-between gap-3 px-4 py-6 text-sm">
          <p>{t("footer.rights", { year, siteName })}</p>
          {user ? null : (
            <a href="/login" className="underline-offset-4 hover:underline">
              {t("maintenance.staffLogin")}
            </a>
          )}
        </div>
      </footer>
    </div>
  );
}
