/** A cookie's value from a Cookie header, decoded; the first one of that name wins, as in browsers' order. */
export function readCookie(cookieHeader: string | null, name: string): string | null {
  if (!cookieHeader) return null;
  for (const part of cookieHeader.split(";")) {
    const [key, ...rest] = part.trim().split("=");
    if (key !== name) continue;
    try {
      return decodeURIComponent(rest.join("="));
    } catch {
      // A malformed escape ("%E0") is a cookie we did not write: as if it were absent.
      return null;
    }
  }
  return null;
}
