import { numberFormat } from "~/lib/intl-format";

// The footer and the home page import this module on every public page, and the enhance script
// (app/entry.enhance.ts) bundles what it uses of it, so it imports nothing heavy: zod alone is about
// 24 KiB of gzip JavaScript. The forms' schemas are in site.schemas.ts, which only routes import.

export const ACTIVE_SERVER_COUNTER = { start: 2458, intervalMs: 5000, maxStep: 2 } as const;

/** The cosmetic counter's next value: it grows by a whole number from 0 to maxStep (spec section 2). */
export function nextActiveServerCount(count: number, random = Math.random): number {
  return count + Math.floor(random() * (ACTIVE_SERVER_COUNTER.maxStep + 1));
}

/** The counter's number as the page shows it: the visitor's digits, no grouping ("2458"). */
export function activeServersNumber(count: number, locale: string): string {
  return numberFormat(locale, { useGrouping: false }).format(count);
}

/**
 * What the footer's newsletter box says after a post made without JavaScript (or before the page
 * hydrated). It travels in the URL (`?newsletter=thanks`) so the server renders it; only these values are
 * shown, so a crafted link cannot put arbitrary text on the page.
 */
export const NEWSLETTER_OUTCOMES = ["thanks", "emailRequired", "emailInvalid"] as const;
export type NewsletterOutcome = (typeof NEWSLETTER_OUTCOMES)[number];

export function readNewsletterOutcome(value: string | null): NewsletterOutcome | null {
  return (NEWSLETTER_OUTCOMES as readonly string[]).includes(value ?? "")
    ? (value as NewsletterOutcome)
    : null;
}

/** A refusal's message key ("common.errors.emailInvalid") as the outcome the footer shows. */
export function newsletterErrorOutcome(key: string | undefined): NewsletterOutcome {
  return key === "common.errors.emailRequired" ? "emailRequired" : "emailInvalid";
}

/** The entry gate's quiz (spec section 4): the product of two whole numbers from 1 to 5. */
export function newQuiz(random = Math.random) {
  const a = 1 + Math.floor(random() * 5);
  const b = 1 + Math.floor(random() * 5);
  return { a, b, answer: a * b };
}

/** Signs of an automated browser that the gate sends to /bot-detected. */
export function looksHeadless(nav: {
  webdriver?: boolean;
  userAgent: string;
  languages?: readonly string[];
}): boolean {
  if (nav.webdriver) return true;
  if (/HeadlessChrome|PhantomJS|Puppeteer|Playwright/i.test(nav.userAgent)) return true;
  return Array.isArray(nav.languages) && nav.languages.length === 0;
}

/**
 * The pages of the site's layout that are not public pages (no PUBLIC_PAGE handle, app/lib/hydration.ts):
 * a customer's own. They do not show the "Everyone" announcements (the dashboard lists its own), so the
 * layout's loader does not read them for these. By React Router's route pattern; a test checks this list
 * against every route's handle.
 */
const PAGES_WITHOUT_SITE_ANNOUNCEMENTS: ReadonlySet<string> = new Set([
  "/account/password",
  "/dashboard",
  "/dashboard/top-up",
  "/dashboard/top-up/payments/:id",
  "/coins",
  "/invoices/:number",
  "/order",
  "/support/new",
  "/support/:id",
  "/verify-email",
]);

/**
 * Whether the page shows the site's announcements, by React Router's route pattern ("/services/:type";
 * a loader is given it without the leading slash, "services/:type").
 */
export function showsSiteAnnouncements(pattern: string): boolean {
  return !PAGES_WITHOUT_SITE_ANNOUNCEMENTS.has(`/${pattern.replace(/^\/+/, "")}`);
}
