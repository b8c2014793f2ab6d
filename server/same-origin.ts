import type { IncomingHttpHeaders } from "node:http";

const SAFE_METHODS = new Set(["GET", "HEAD", "OPTIONS"]);

/**
 * True when a state-changing request says it was sent by another site: Sec-Fetch-Site (sent by every
 * current browser) is "cross-site" or "same-site" (a sibling subdomain is another site for us), or, from a
 * browser without Fetch Metadata, the Origin header names a different host than the one asked.
 * Requests without either header (curl, server-to-server) are left to the session cookie's SameSite.
 */
export function isCrossSiteRequest(method: string, headers: IncomingHttpHeaders): boolean {
  if (SAFE_METHODS.has(method.toUpperCase())) return false;
  const site = headers["sec-fetch-site"];
  if (site === "cross-site" || site === "same-site") return true;
  // Fetch Metadata is set by the browser and cannot be forged by a page. A same-origin form can still carry
  // "Origin: null" (e.g. under a no-referrer policy), so a same-origin answer here settles it.
  if (site === "same-origin" || site === "none") return false;
  const origin = headers.origin;
  if (!origin) return false;
  if (origin === "null") return true;
  try {
    return new URL(origin).host !== headers.host;
  } catch {
    return true;
  }
}

/**
 * Where other servers post to us (a payment provider's notifications, app/routes/hooks): no browser,
 * no cookie, each authenticated by its signature, so the cross-site check does not apply.
 */
export const WEBHOOK_PREFIX = "/hooks/";

/** Whether `path` (a request's path, as received) is a webhook's. */
export function isWebhookPath(path: string): boolean {
  return path.startsWith(WEBHOOK_PREFIX);
}

/**
 * The one-click unsubscribe address of campaign mail (RFC 8058): a mail provider posts
 * `List-Unsubscribe=One-Click` to it from its own site, without cookies. Only this exact path: the
 * signed token in its query string is its proof, and all it can do is stop campaign mail to one address.
 */
export const ONE_CLICK_UNSUBSCRIBE_PATH = "/unsubscribe";

/** Whether `path` (a request's path and query, as received) is the one-click unsubscribe address. */
export function isOneClickUnsubscribePath(path: string): boolean {
  const bare = path.split("?")[0];
  return bare === ONE_CLICK_UNSUBSCRIBE_PATH;
}

/**
 * Whether server/app.ts refuses a request before any route runs: a state-changing request that says it
 * comes from another site, except a webhook's (another server posts it by design; its signature is its
 * proof, and it acts on no session) and the one-click unsubscribe (its signed token, likewise).
 */
export function refusedAsCrossSite(
  method: string,
  path: string,
  headers: IncomingHttpHeaders,
): boolean {
  return (
    !isWebhookPath(path) && !isOneClickUnsubscribePath(path) && isCrossSiteRequest(method, headers)
  );
}
