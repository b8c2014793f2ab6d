import { readCookie } from "~/lib/cookies";

export const SUPPORTED_LOCALES = ["en", "fr", "ar"] as const;
export type Locale = (typeof SUPPORTED_LOCALES)[number];
export const DEFAULT_LOCALE: Locale = "en";
export const LOCALE_COOKIE = "hostfront_lang";

export function isLocale(value: unknown): value is Locale {
  return typeof value === "string" && (SUPPORTED_LOCALES as readonly string[]).includes(value);
}

/** The visitor's choice, kept for a year; HttpOnly since only the server reads it. */
export function localeCookie(locale: Locale, options: { secure: boolean }): string {
  const secure = options.secure ? "; Secure" : "";
  return `${LOCALE_COOKIE}=${locale}; Path=/; Max-Age=31536000; SameSite=Lax; HttpOnly${secure}`;
}

export function directionOf(locale: string): "ltr" | "rtl" {
  return locale === "ar" ? "rtl" : "ltr";
}

/** Languages from an Accept-Language header, best first ("fr-CA,fr;q=0.9,en;q=0.5" gives fr, fr, en). */
export function parseAcceptLanguage(header: string | null): string[] {
  if (!header) return [];
  return header
    .split(",")
    .map((part) => {
      const [tag = "", ...params] = part.trim().split(";");
      const q = params.map((p) => p.trim()).find((p) => p.startsWith("q="));
      return { lang: tag.toLowerCase().split("-")[0] ?? "", q: q ? Number(q.slice(2)) || 0 : 1 };
    })
    .filter((entry) => entry.lang && entry.q > 0)
    .sort((a, b) => b.q - a.q)
    .map((entry) => entry.lang);
}

/**
 * An explicit ?lang= in the URL (the hreflang links), then the user's saved choice, then the visitor's
 * cookie, then Accept-Language, then the site default.
 */
export function pickLocale(input: {
  queryLocale?: string | null;
  userLocale: string | null;
  cookie: string | null;
  acceptLanguage: string | null;
  siteDefault: string;
}): Locale {
  if (isLocale(input.queryLocale)) return input.queryLocale;
  if (isLocale(input.userLocale)) return input.userLocale;
  const fromCookie = readCookie(input.cookie, LOCALE_COOKIE);
  if (isLocale(fromCookie)) return fromCookie;
  const accepted = parseAcceptLanguage(input.acceptLanguage).find(isLocale);
  if (accepted) return accepted;
  return isLocale(input.siteDefault) ? input.siteDefault : DEFAULT_LOCALE;
}
