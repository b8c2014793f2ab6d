import type { JobHandler } from "~/domain/jobs/jobs.server";
import type { ScheduleDefinition } from "~/domain/jobs/schedule-slots";
import { runReferralRewards } from "./referrals.server";

// Referral rewards on the worker (docs/referrals.md): one scheduled job pays, at the job's clock, every
// referral whose referred customer's first order has passed its refund window. Every hour: a reward is
// paid within the hour it falls due; each is paid once (its unique keys), so the other runs find nothing.

export const REFERRAL_REWARD_JOB = "referrals.reward";

export const referralHandlers: Record<string, JobHandler> = {
  [REFERRAL_REWARD_JOB]: async ({ db, now }) => ({ ...(await runReferralRewards(db, { now })) }),
};

export const referralSchedules: ScheduleDefinition[] = [
  { name: REFERRAL_REWARD_JOB, cron: "25 * * * *", jobType: REFERRAL_REWARD_JOB },
];
