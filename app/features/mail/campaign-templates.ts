import {
  bodyParagraphs,
  confirmUrl,
  NEWSLETTER_CONFIRM_DAYS,
  unsubscribeUrl,
} from "~/domain/campaigns/campaigns";
import { text } from "./mail-format";
import type { MailContent, MailContext } from "./mail-templates";

// A campaign's message and the newsletter's confirmation (docs/mail.md#campaigns). A campaign is the
// staff's words in the reader's language (English when theirs is not written), as paragraphs of text,
// never markup; its footer says why it came and links to the one-click unsubscribe page.

/** A campaign, as its reader gets it (with `test`, as the staff member who tries it gets it). */
export function campaignContent(
  params: Record<string, unknown>,
  context: MailContext,
): MailContent {
  const { t, baseUrl, siteName: site } = context;
  // The row carries the text of its language (English where the reader's is not written, and then
  // the row is in English too: campaigns.server.ts).
  const own = { subject: text(params.subject), body: text(params.body) };
  const subject = params.test ? t("campaign.testSubject", { subject: own.subject }) : own.subject;
  const token = text(params.token);
  return {
    subject,
    heading: own.subject,
    paragraphs: bodyParagraphs(own.body),
    audience: "subscriber",
    unsubscribe: {
      why: t("campaign.footer", { site }),
      label: t("campaign.unsubscribe"),
      href: unsubscribeUrl(baseUrl, token),
    },
  };
}

/** The newsletter's double opt-in: the link that confirms the address. */
export function newsletterConfirmationContent(
  params: Record<string, unknown>,
  context: MailContext,
): MailContent {
  const { t, baseUrl, siteName: site } = context;
  return {
    subject: t("newsletterConfirmation.subject", { site }),
    heading: t("newsletterConfirmation.heading"),
    paragraphs: [
      t("newsletterConfirmation.body", { site, days: NEWSLETTER_CONFIRM_DAYS }),
      t("newsletterConfirmation.notYou"),
    ],
    button: {
      label: t("newsletterConfirmation.button"),
      href: confirmUrl(baseUrl, text(params.token)),
    },
    audience: "subscriber",
  };
}
