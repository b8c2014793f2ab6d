import type { ReactionTable } from "./reaction.server";
import type { ReferralSettings } from "~/domain/referrals/referrals";

/** The customer's page that lists their referrals and rewards (docs/referrals.md). */
const REFERRALS_PAGE = "/dashboard/referrals";

export type ReferralEvent =
  /**
   * The worker paid a referral's reward (`paidCents`, more than 0) to its referrer; `unpaidCents` is
   * what the monthly cap left unpaid.
   */
  | {
      type: "referral.rewardPaid";
      referrerId: string;
      referralId: number;
      paidCents: number;
      unpaidCents: number;
    }
  /** An admin decided a flagged referral: paid as any other once due (`pay`), or never (`reject`). */
  | {
      type: "referral.decided";
      actorId: string;
      referralId: number;
      decision: "pay" | "reject";
      flags: string[];
    }
  /** An admin changed the referral settings on /admin/affiliates. */
  | {
      type: "referral.settingsSaved";
      actorId: string;
      before: ReferralSettings;
      after: ReferralSettings;
    };

/** What follows a referral: the referrer's notice of a reward, the audit of the admins' acts. */
export const referralReactions: ReactionTable<ReferralEvent> = {
  "referral.rewardPaid": {
    notice: ({ referrerId, referralId, paidCents }) => ({
      userId: referrerId,
      kind: "referral_reward_paid",
      params: { amountCents: paidCents },
      link: REFERRALS_PAGE,
      dedupeKey: `referral-reward:${referralId}`,
    }),
  },
  "referral.decided": {
    audit: ({ actorId, referralId, decision, flags }) => ({
      actorId,
      action: decision === "pay" ? "referral.clear" : "referral.reject",
      targetType: "referral",
      targetId: referralId,
      before: { state: "flagged", flags },
      after: { state: decision === "pay" ? "waiting" : "rejected" },
    }),
  },
  "referral.settingsSaved": {
    audit: ({ actorId, before, after }) => ({
      actorId,
      action: "referral.settings",
      targetType: "settings",
      targetId: "referrals",
      before: { ...before },
      after: { ...after },
    }),
  },
};
