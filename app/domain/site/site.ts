import { z } from "zod";

export const ACTIVE_SERVER_COUNTER = { start: 2458, intervalMs: 5000, maxStep: 2 } as const;

const email = z
  .string({ error: "site.errors.emailRequired" })
  .trim()
  .min(1, "site.errors.emailRequired")
  .max(254, "site.errors.emailInvalid")
  .pipe(z.email("site.errors.emailInvalid"))
  .transform((v) => v.toLowerCase());

export const contactSchema = z.object({
  name: z
    .string({ error: "site.errors.required" })
    .trim()
    .min(1, "site.errors.required")
    .max(100, "site.errors.tooLong"),
  email,
  subject: z
    .string({ error: "site.errors.required" })
    .trim()
    .min(1, "site.errors.required")
    .max(150, "site.errors.tooLong"),
  message: z
    .string({ error: "site.errors.required" })
    .trim()
    .min(1, "site.errors.required")
    .max(5000, "site.errors.tooLong"),
});

export const newsletterSchema = z.object({ email });

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
