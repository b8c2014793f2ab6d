import { useTranslation } from "~/i18n/use-translation";
import { directionOf } from "~/i18n/locales";
import { privacyBlocks, privacyTextFor } from "~/domain/settings/privacy";
import { PUBLIC_PAGE } from "~/lib/hydration";
import { fillPlaceholders, placeholder } from "~/lib/placeholders";
import { metaFor } from "~/lib/route-meta";
import type { Route } from "./+types/privacy";
import { requestContext } from "~/context.server";
import { sitePageMeta } from "~/http/site-page.server";

// /privacy (ADR 19, a deliberate departure from the spec's redirect home): what the site collects, why,
// for how long, and how to get a copy or have it deleted. The admin's text from /admin/settings, or the
// built-in one of the catalogues; either is resolved here, so it is part of the loader data the visitor
// page cache keys by (ADR 15) and a saved change shows at the next request.
export function loader({ context: routerContext }: Route.LoaderArgs) {
  const context = requestContext(routerContext);
  const { general, privacy } = context.settings;
  const values = { siteName: general.siteName, contactEmail: general.contactEmail };
  const custom = privacyTextFor(privacy, context.locale);
  const t = context.i18n.getFixedT(null, "site");
  // The built-in text keeps its {{placeholders}} through the translator and is filled like the admin's.
  const builtIn = () =>
    (
      t("privacy.builtIn", {
        returnObjects: true,
        siteName: placeholder("siteName"),
        contactEmail: placeholder("contactEmail"),
      }) as unknown as string[]
    ).join("\n");
  return {
    ...sitePageMeta(context, "privacy.metaTitle", "privacy.metaDescription"),
    blocks: privacyBlocks(fillPlaceholders(custom?.text ?? builtIn(), values)),
    /** The language the text is written in (an admin's English text on a French page). */
    lang: custom?.lang ?? context.locale,
    locale: context.locale,
  };
}

export const handle = PUBLIC_PAGE;

export const meta: Route.MetaFunction = ({ loaderData, matches }) => metaFor(loaderData, matches);

export default function Privacy({ loaderData }: Route.ComponentProps) {
  const { t } = useTranslation("site");
  const { blocks, lang, locale } = loaderData;
  const other = lang !== locale;
  return (
    <main className="mx-auto grid max-w-3xl gap-6 px-4 py-16">
      <h1 className="text-4xl font-extrabold">{t("privacy.title")}</h1>
      {other ? (
        <p className="rounded-md bg-muted p-3 text-sm" data-testid="privacy-in-english">
          {t("privacy.inEnglish")}
        </p>
      ) : null}
      <article
        className="grid gap-4 leading-relaxed"
        data-testid="privacy-text"
        {...(other ? { lang, dir: directionOf(lang) } : {})}
      >
        {blocks.map((block, index) =>
          block.kind === "heading" ? (
            <h2 key={index} className="mt-4 text-2xl font-bold">
              {block.text}
            </h2>
          ) : block.kind === "list" ? (
            <ul key={index} className="list-disc space-y-2 ps-6">
              {block.items.map((item, i) => (
                <li key={i}>{item}</li>
              ))}
            </ul>
          ) : (
            <p key={index}>{block.text}</p>
          ),
        )}
      </article>
    </main>
  );
}
