import { useMatches, useRouteLoaderData } from "react-router";
import { pageScripts, type PageScripts } from "~/lib/hydration";

/**
 * The scripts this page is served with (app/lib/hydration.ts): "react" when it hydrates, "enhance" when it
 * is server HTML driven by app/entry.enhance.ts, "none" for the maintenance page. Components that differ
 * between the two (the toasts, the entry gate) read it; in the browser it is always "react".
 */
export function usePageScripts(): PageScripts {
  const matches = useMatches();
  const root = useRouteLoaderData("root") as { user: unknown } | undefined;
  return pageScripts(
    matches.map((match) => match.handle),
    { signedIn: Boolean(root?.user), inBrowser: typeof document !== "undefined" },
  );
}
