import { requiredText, z } from "~/lib/zod";
import { MAX_REDIRECT_LENGTH, safeRedirect } from "~/domain/accounts/accounts";
import type { NewsletterOutcome } from "./site";

// The contact and newsletter forms, read on the server. Schemas only: actions, loaders, *.server.ts and
// tests import this file, never a page's code, so zod never reaches the browser (docs/architecture.md).

/**
 * A required line of free text. NUL characters are dropped first: PostgreSQL refuses them in text columns
 * (a server error), SQLite would keep them, and no person types one. Line breaks become "\n": a browser
 * posting the form as a page (no React, no JavaScript) sends a textarea's as "\r\n", fetch as "\n".
 */
const requiredFreeText = (max: number) =>
  z
    .string({ error: "site.errors.required" })
    .transform((v) => v.replaceAll("\u0000", "").replace(/\r\n?/g, "\n").trim())
    .pipe(z.string().min(1, "site.errors.required").max(max, "site.errors.tooLong"));

const email = requiredText("common.errors.emailRequired", 254, "common.errors.emailInvalid")
  .pipe(z.email("common.errors.emailInvalid"))
  .transform((v) => v.toLowerCase());

export const contactSchema = z.object({
  name: requiredFreeText(100),
  email,
  subject: requiredFreeText(150),
  message: requiredFreeText(5000),
});

export const newsletterSchema = z.object({
  email,
  // Where a form posted without JavaScript returns to; a bad value never refuses the subscription.
  redirectTo: z.string().max(MAX_REDIRECT_LENGTH).optional().catch(undefined),
});

/** The same-site page to go back to, with the outcome and the footer box's anchor. */
export function newsletterReturnPath(redirectTo: unknown, outcome: NewsletterOutcome): string {
  const url = new URL(safeRedirect(redirectTo, "/"), "http://localhost");
  url.searchParams.set("newsletter", outcome);
  // Collapse leading slashes: "//host" would be read as another site.
  return `${url.pathname.replace(/^[/\\]+/, "/")}${url.search}#newsletter`;
}
