import { useCallback, useEffect, useRef, useState, type FormEvent } from "react";
import type { KbLink } from "~/domain/knowledgebase/knowledgebase";
import { useTranslation } from "~/i18n/use-translation";

/** Where the new-ticket page asks for suggestions (app/routes/support/article-suggestions.ts). */
export const SUGGESTIONS_PATH = "/support/new/articles";

/** How long the typing rests before the page asks: one question per pause, not per key. */
const PAUSE_MS = 350;

/**
 * The knowledge base's articles that may answer the ticket, from the department chosen and the subject
 * typed (docs/knowledgebase.md): `onInput` goes on the form, which asks once the typing rests; the
 * links open in a new tab, so nothing typed in the form is lost. Without scripts nothing is shown.
 */
export function useArticleSuggestions() {
  const [articles, setArticles] = useState<KbLink[]>([]);
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  const asked = useRef("");
  const ask = useCallback((form: HTMLFormElement) => {
    const fields = new FormData(form);
    const query = new URLSearchParams({
      department: String(fields.get("department") ?? ""),
      subject: String(fields.get("subject") ?? ""),
    }).toString();
    if (query === asked.current) return;
    asked.current = query;
    fetch(`${SUGGESTIONS_PATH}?${query}`, { headers: { Accept: "application/json" } })
      .then((response) => (response.ok ? response.json() : { articles: [] }))
      .then((body: { articles?: KbLink[] }) => {
        // An answer to an older question than the last one asked is dropped.
        if (asked.current === query) setArticles(body.articles ?? []);
      })
      .catch(() => undefined);
  }, []);
  const onInput = useCallback(
    (event: FormEvent<HTMLFormElement>) => {
      const form = event.currentTarget;
      clearTimeout(timer.current);
      timer.current = setTimeout(() => ask(form), PAUSE_MS);
    },
    [ask],
  );
  useEffect(() => () => clearTimeout(timer.current), []);
  return { articles, onInput, ask };
}

export function ArticleSuggestions({ articles }: { articles: KbLink[] }) {
  const { t } = useTranslation("knowledgebase");
  return (
    <section
      aria-labelledby="kb-suggestions"
      aria-live="polite"
      className={articles.length ? "grid gap-2 rounded-md border bg-muted/40 p-3" : "sr-only"}
      data-testid="kb-suggestions"
    >
      {articles.length ? (
        <>
          <h2 id="kb-suggestions" className="text-sm font-semibold">
            {t("suggest.heading")}
          </h2>
          <ul className="grid gap-1 text-sm">
            {articles.map((article) => (
              <li key={article.href}>
                <a
                  href={article.href}
                  target="_blank"
                  rel="noopener"
                  className="text-primary underline underline-offset-4"
                  {...(article.locale === "ar" ? { dir: "rtl" } : {})}
                  lang={article.locale}
                >
                  {article.title}
                  <span className="sr-only"> ({t("suggest.opensInTab")})</span>
                </a>
              </li>
            ))}
          </ul>
        </>
      ) : null}
    </section>
  );
}
