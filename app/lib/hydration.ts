/**
 * Which scripts a page is served with (ADR 13). A route says it in its `handle`:
 *
 * - `{ hydrate: false }`: none at all (the maintenance page, ADR 12);
 * - `{ hydrate: "signed-in" }` (PUBLIC_PAGE): React hydrates it only for a signed-in visitor, who needs the
 *   notification bell and the coin dialog. Anyone else gets the server's HTML and the small enhance script
 *   (app/entry.enhance.ts), which drives the menus, the entry gate and the forms' busy states without React;
 * - nothing: React hydrates it for everyone.
 *
 * A route only opts in once it works without React; a new page hydrates until someone checks that.
 */
export interface HydrationHandle {
  hydrate?: false | "signed-in";
  /**
   * Route ids whose scripts a page served without React fetches into the cache while idle: the page
   * that usually comes next (the sign-in page's dashboard), so that it hydrates without waiting.
   */
  prefetch?: readonly string[];
}

export const PUBLIC_PAGE = { hydrate: "signed-in" } as const satisfies HydrationHandle;

/** The sign-in and registration pages: public, and warming the customer's dashboard that follows them. */
export const SIGN_IN_PAGE = {
  ...PUBLIC_PAGE,
  prefetch: ["routes/dashboard/layout", "routes/dashboard/overview"],
} as const satisfies HydrationHandle;

export type PageScripts = "react" | "enhance" | "none";

export function pageScripts(
  handles: readonly unknown[],
  visitor: {
    signedIn: boolean;
    /**
     * Rendering in the browser: React hydrated this document, so it keeps its scripts whatever page it
     * moves on to (a customer who logs out lands on the home page still running React).
     */
    inBrowser: boolean;
  },
): PageScripts {
  const wanted = handles.map((handle) =>
    handle && typeof handle === "object" ? (handle as HydrationHandle).hydrate : undefined,
  );
  if (wanted.includes(false)) return "none";
  if (wanted.includes("signed-in") && !visitor.signedIn && !visitor.inBrowser) return "enhance";
  return "react";
}

/** Whether the page is one of the public pages (PUBLIC_PAGE in one of its routes' handles). */
export function isPublicPage(handles: readonly unknown[]): boolean {
  return handles.some(
    (handle) =>
      Boolean(handle) &&
      typeof handle === "object" &&
      (handle as HydrationHandle).hydrate === PUBLIC_PAGE.hydrate,
  );
}

/** The route ids the page's routes ask it to prefetch (`prefetch` in their handles). */
export function prefetchedRoutes(handles: readonly unknown[]): string[] {
  return handles.flatMap((handle) =>
    handle && typeof handle === "object" ? [...((handle as HydrationHandle).prefetch ?? [])] : [],
  );
}
