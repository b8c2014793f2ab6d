import { z } from "~/lib/zod";
import { safeRedirect } from "~/domain/accounts/accounts";

export const ACTIVE_SERVER_COUNTER = { start: 2458, intervalMs: 5000, maxStep: 2 } as const;

/** The cosmetic counter's next value: it grows by a whole number from 0 to maxStep (spec section 2). */
export function nextActiveServerCount(count: number, random = Math.random): number {
  return count + Math.floor(random() * (ACTIVE_SERVER_COUNTER.maxStep + 1));
}

/**
 * A required line of free text. NUL characters are dropped first: PostgreSQL refuses them in text columns
 * (a server error), SQLite would keep them, and no person types one.
 */
const requiredText = (max: number) =>
  z
    .string({ error: "site.errors.required" })
    .transform((v) => v.replaceAll("\u0000", "").trim())
    .pipe(z.string().min(1, "site.errors.required").max(max, "site.errors.tooLong"));

const email = z
  .string({ error: "site.errors.emailRequired" })
  .trim()
  .min(1, "site.errors.emailRequired")
  .max(254, "site.errors.emailInvalid")
  .pipe(z.email("site.errors.emailInvalid"))
  .transform((v) => v.toLowerCase());

export const contactSchema = z.object({
  name: requiredText(100),
  email,
  subject: requiredText(150),
  message: requiredText(5000),
});

export const newsletterSchema = z.object({
  email,
  // Where a form posted without JavaScript returns to; a bad value never refuses the subscription.
  redirectTo: z.string().max(2000).optional().catch(undefined),
});

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

/** A refusal's message key ("site.errors.emailInvalid") as the outcome the footer shows. */
export function newsletterErrorOutcome(key: string | undefined): NewsletterOutcome {
  return key === "site.errors.emailRequired" ? "emailRequired" : "emailInvalid";
}

/** The same-site page to go back to, with the outcome and the footer box's anchor. */
export function newsletterReturnPath(redirectTo: unknown, outcome: NewsletterOutcome): string {
  const url = new URL(safeRedirect(redirectTo, "/"), "http://localhost");
  url.searchParams.set("newsletter", outcome);
  // Collapse leading slashes: "//host" would be read as another site.
  return `${url.pathname.replace(/^[/\\]+/, "/")}${url.search}#newsletter`;
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
