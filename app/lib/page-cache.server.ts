/**
 * Rendered pages of visitors without a session, kept per server process (ADR 15).
 *
 * A page's HTML is a function of what its loaders returned, the URL and the language; everything else a
 * render reads is the same for every request (the build, the message catalogues). So the key is made of
 * exactly those, and a hit can never show stale data: a price an admin changed comes back from the
 * loader different, makes another key and renders afresh. Nothing has to be told to forget anything, in
 * this process or another. Only the CSP nonce differs per response, and it is swapped in on the way out.
 */

export interface PageCache {
  /** The stored page with `nonce` in place of the one it was rendered with, or undefined. */
  get(key: string, nonce: string): string | undefined;
  set(key: string, html: string, nonce: string): void;
  readonly size: number;
}

interface Entry {
  html: string;
  nonce: string;
  storedAt: number;
}

export function createPageCache({
  maxEntries,
  maxAgeMs,
  now = Date.now,
}: {
  maxEntries: number;
  /** Bounds anything a render reads that is not in the key (a clock we did not think of). */
  maxAgeMs: number;
  now?: () => number;
}): PageCache {
  // A Map keeps insertion order: re-inserting on each hit makes the first key the least recently used.
  const entries = new Map<string, Entry>();
  return {
    get(key, nonce) {
      const entry = entries.get(key);
      if (!entry) return undefined;
      entries.delete(key);
      if (now() - entry.storedAt > maxAgeMs) return undefined;
      entries.set(key, entry);
      return entry.html.replaceAll(entry.nonce, nonce);
    },
    set(key, html, nonce) {
      // An empty nonce would make the swap above insert the new one between every character.
      if (!nonce) return;
      entries.delete(key);
      entries.set(key, { html, nonce, storedAt: now() });
      while (entries.size > maxEntries) entries.delete(entries.keys().next().value!);
    },
    get size() {
      return entries.size;
    },
  };
}

/**
 * The cache key of a page, or null when its data cannot be written out completely: a promise (a deferred
 * value, streamed later), a function, a Map or Set, a BigInt, a cycle. Such a page is rendered every time.
 */
export function pageCacheKey(parts: {
  url: string;
  locale: string;
  /** Crawlers get the page whole rather than streamed; keep the two apart. */
  bot: boolean;
  /** The footer's copyright year is read from the clock. */
  year: number;
  loaderData: unknown;
}): string | null {
  let complete = true;
  let data: string;
  try {
    data = JSON.stringify(parts.loaderData, (_key, value: unknown) => {
      if (typeof value === "function" || typeof value === "symbol") complete = false;
      else if (value instanceof Map || value instanceof Set || value instanceof Promise)
        complete = false;
      else if (value && typeof value === "object" && "then" in value) complete = false;
      return value;
    });
  } catch {
    return null;
  }
  if (!complete) return null;
  return JSON.stringify([parts.url, parts.locale, parts.bot, parts.year, data]);
}
