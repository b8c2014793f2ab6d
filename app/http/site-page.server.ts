import type { TFunction } from "i18next";
import type { RequestContext } from "~/context.server";
import type { NamespaceKey } from "~/i18n/use-message";

type SiteKey = NamespaceKey<"site">;

/**
 * The loader data of a static public page (about, the gate's outcomes, phpMyAdmin, the service terms):
 * its title and description in the visitor's language, from the `site` catalogue. `description` is a key,
 * or a function of the translator for a description written from several texts.
 */
export function sitePageMeta(
  context: RequestContext,
  title: SiteKey,
  description: SiteKey | ((t: TFunction<"site">) => string),
) {
  const t = context.i18n.getFixedT(null, "site");
  return {
    meta: {
      title: t(title),
      description: typeof description === "function" ? description(t) : t(description),
    },
  };
}
