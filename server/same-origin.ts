import type { IncomingHttpHeaders } from "node:http";

const SAFE_METHODS = new Set(["GET", "HEAD", "OPTIONS"]);

/**
 * True when a state-changing request says it was sent by another site: Sec-Fetch-Site (sent by every
 * current browser) is "cross-site", or the Origin header names a different host than the one asked.
 * Requests without either header (curl, server-to-server) are left to the session cookie's SameSite.
 */
export function isCrossSiteRequest(method: string, headers: IncomingHttpHeaders): boolean {
  if (SAFE_METHODS.has(method.toUpperCase())) return false;
  if (headers["sec-fetch-site"] === "cross-site") return true;
  const origin = headers.origin;
  if (!origin) return false;
  if (origin === "null") return true;
  try {
    return new URL(origin).host !== headers.host;
  } catch {
    return true;
  }
}
