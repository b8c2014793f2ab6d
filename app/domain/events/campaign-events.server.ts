import type { ReactionTable } from "./reaction.server";

/** The staff's mail campaigns, on /admin/email-marketing (docs/mail.md#campaigns). */
export type CampaignEvent =
  /** Written (no `changed`) or changed while a draft. */
  | { type: "campaign.saved"; actorId: string; campaignId: number; changed?: boolean }
  /** Sent to the staff member's own address, in `locales`. */
  | { type: "campaign.tested"; actorId: string; campaignId: number; locales: string[] }
  /** Queued to its audience: `recipients` messages. */
  | { type: "campaign.sent"; actorId: string; campaignId: number; recipients: number };

/**
 * What follows a campaign's change: its audit entry. Its messages are queued by the use-case itself
 * (queueAddressedMail): they are addressed to a list, not planned from an account's event.
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
    audit: ({ actorId, campaignId, locales }) => ({
      actorId,
      action: "campaign.test",
      targetType: "mail_campaign",
      targetId: campaignId,
      after: { locales },
    }),
  },
  "campaign.sent": {
    audit: ({ actorId, campaignId, recipients }) => ({
      actorId,
      action: "campaign.send",
      targetType: "mail_campaign",
      targetId: campaignId,
      after: { recipients },
    }),
  },
};
