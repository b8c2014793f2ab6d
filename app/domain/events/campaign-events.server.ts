import type { AddressedMail } from "~/domain/mail/mail-events";
import type { ReactionTable } from "./reaction.server";

/** The staff's mail campaigns, on /admin/email-marketing (docs/mail.md#campaigns). */
export type CampaignEvent =
  /** Written (no `changed`) or changed while a draft. */
  | { type: "campaign.saved"; actorId: string; campaignId: number; changed?: boolean }
  /** Sent to the staff member's own address, once per written language (`messages`). */
  | { type: "campaign.tested"; actorId: string; campaignId: number; messages: AddressedMail[] }
  /** Sent to its audience: one message per recipient, each with its signed unsubscribe link. */
  | { type: "campaign.sent"; actorId: string; campaignId: number; messages: AddressedMail[] }
  /**
   * An address typed in the footer's newsletter box, not confirmed yet: its confirmation link, signed
   * (`token`), to mail it.
   */
  | { type: "newsletter.signedUp"; email: string; locale: string; token: string; at: string };

/**
 * What follows a campaign's change: its audit entry and its messages, already addressed (to a list, not
 * planned from an account's event); the newsletter's sign-up, its confirmation link.
 */
export const campaignReactions: ReactionTable<CampaignEvent> = {
  "campaign.saved": {
    audit: ({ actorId, campaignId, changed }) => ({
      actorId,
      action: changed ? "campaign.update" : "campaign.create",
      targetType: "mail_campaign",
      targetId: campaignId,
    }),
  },
  "campaign.tested": {
    audit: ({ actorId, campaignId, messages }) => ({
      actorId,
      action: "campaign.test",
      targetType: "mail_campaign",
      targetId: campaignId,
      after: { locales: messages.map((message) => message.locale) },
    }),
    addressedMail: ({ messages }) => messages,
  },
  "campaign.sent": {
    audit: ({ actorId, campaignId, messages }) => ({
      actorId,
      action: "campaign.send",
      targetType: "mail_campaign",
      targetId: campaignId,
      after: { recipients: messages.length },
    }),
    addressedMail: ({ messages }) => messages,
  },
  // At most one link a day to an address (the outbox's key: the address and the day).
  "newsletter.signedUp": {
    addressedMail: ({ email, locale, token, at }) => ({
      uniqueKey: `newsletterConfirmation:${email}:${at.slice(0, 10)}`,
      kind: "newsletterConfirmation",
      userId: null,
      address: email,
      locale,
      params: { token },
    }),
  },
};
