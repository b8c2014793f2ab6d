interface MetaSource {
  title?: string;
  description?: string;
  /** A whole title, used as written (the home page's SEO title); otherwise "title | site name". */
  fullTitle?: string;
}

/**
 * A page's <title>, description, keywords and link-preview (Open Graph) tags. Loaders translate the page
 * title on the server and return it; the site name, the SEO description (the fallback for pages without
 * their own) and the keywords come from the settings through the root loader.
 */
export function pageMeta(
  page: MetaSource | undefined,
  root:
    | {
        settings: { general: { siteName: string } };
        seo: { description: string; keywords: string };
      }
    | undefined,
) {
  const siteName = root?.settings.general.siteName ?? "Hostfront";
  const title = page?.fullTitle || (page?.title ? `${page.title} | ${siteName}` : siteName);
  const description = page?.description ?? root?.seo.description ?? "";
  return [
    { title },
    { name: "description", content: description },
    ...(root?.seo.keywords ? [{ name: "keywords", content: root.seo.keywords }] : []),
    { property: "og:site_name", content: siteName },
    { property: "og:title", content: title },
    ...(description ? [{ property: "og:description", content: description }] : []),
  ];
}
