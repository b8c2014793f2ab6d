/** Host names that only ever reach this machine: plain HTTP to them never crosses a network. */
function isLoopback(hostname: string): boolean {
  const host = hostname.replace(/^\[|\]$/g, "").toLowerCase();
  return (
    host === "localhost" ||
    host.endsWith(".localhost") ||
    host === "::1" ||
    /^127(\.\d{1,3}){3}$/.test(host)
  );
}

/**
 * A production server whose public address is plain http:// on a real host sends session cookies without
 * Secure and passwords in the clear, and gets no HSTS: allowed (TLS may end at a proxy that rewrites
 * nothing), but said loudly at start. Null when there is nothing to say.
 */
export function insecurePublicUrlWarning(env: { NODE_ENV: string; PUBLIC_URL: string }) {
  if (env.NODE_ENV !== "production") return null;
  const url = new URL(env.PUBLIC_URL);
  if (url.protocol !== "http:" || isLoopback(url.hostname)) return null;
  return (
    `PUBLIC_URL is ${url.origin}, plain HTTP on a host other than this machine: session cookies are ` +
    "sent without Secure, passwords cross the network unencrypted and HSTS is off. Serve the site over " +
    "HTTPS and set PUBLIC_URL to its https:// address."
  );
}

/** Where the server listens: every interface in production, this machine only otherwise (npm run dev). */
export function listenHost(env: { NODE_ENV: string }): string | undefined {
  return env.NODE_ENV === "production" ? undefined : "127.0.0.1";
}

/**
 * A configuration error raised while the app starts (ADMIN_PASSWORD refused, say). It may come from the
 * server build's own copy of ConfigError, so it is recognised by name rather than by class.
 */
export function isConfigError(error: unknown): error is Error {
  return error instanceof Error && error.name === "ConfigError";
}
