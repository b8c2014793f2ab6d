import type { RootData } from "~/root";
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
  const root = matches.find((match) => match?.id === "root")?.loaderData as RootData | undefined;
  return pageMeta(loaderData?.meta, root);
}
