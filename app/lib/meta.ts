interface MetaSource {
  title?: string;
  description?: string;
}

/**
 * A page's <title> and description. Loaders translate the page title on the server and return it;
 * the site name and the SEO description come from the settings in the root loader.
 */
export function pageMeta(
  page: MetaSource | undefined,
  root:
    | {
        settings: { general: { siteName: string } };
        seo: { title: string; description: string; keywords: string };
      }
    | undefined,
) {
  const siteName = root?.settings.general.siteName ?? "Hostfront";
  const title = page?.title ? `${page.title} | ${siteName}` : (root?.seo.title ?? siteName);
  const description = page?.description ?? root?.seo.description ?? "";
  return [
    { title },
    { name: "description", content: description },
    ...(root?.seo.keywords ? [{ name: "keywords", content: root.seo.keywords }] : []),
  ];
}
