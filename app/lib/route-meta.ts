import { pageMeta } from "./meta";

interface MetaMatch {
  id: string;
  loaderData?: unknown;
}

/** Builds a page's meta tags from its own loader's `meta` and the root loader's settings. */
export function metaFor(
  loaderData: { meta?: { title?: string; description?: string } } | undefined,
  matches: readonly (MetaMatch | undefined)[],
) {
  // The root loader's data, as far as the meta tags read it (app/root.tsx returns more).
  const root = matches.find((match) => match?.id === "root")?.loaderData as
    Parameters<typeof pageMeta>[1] | undefined;
  return pageMeta(loaderData?.meta, root);
}
