import type { Generated } from "kysely";
import type { Flag, Timestamp } from "./columns";

/** A customer's referral code (migration 0060, docs/referrals.md), made the first time it is asked for. */
export interface ReferralCodesTable {
  user_id: string;
  /** Unique: a link names one referrer. */
  code: string;
  created_at: Timestamp;
}

/** Who brought whom (migration 0060): one row per referred customer, never oneself (a CHECK). */
export interface ReferralsTable {
  id: Generated<number>;
  referrer_id: string;
  /** Unique: a customer is referred once. */
  referred_id: string;
  /** The code the link carried. */
  code: string;
  /** The address the referred account registered from (loginAddress's short form), if known. */
  registered_ip: string | null;
  /** waiting | flagged | paid | over_cap | rejected | refunded (a CHECK). */
  state: Generated<string>;
  /** JSON: why it is flagged (sameAddress, sameProof), [] when nothing is. */
  flags: Generated<string>;
  /** An admin let a flagged referral through: it is paid as any other, flags or not. */
  flag_cleared: Flag;
  /** The referred customer's first order, once seen. */
  order_id: number | null;
  /** The admin who paid or rejected it while flagged. */
  decided_by: string | null;
  decided_at: Timestamp | null;
  created_at: Timestamp;
  updated_at: Timestamp;
}

/** A referral's one reward (migration 0060): keyed by the referral, so a second is refused. */
export interface ReferralRewardsTable {
  referral_id: number;
  referrer_id: string;
  /** The UTC month it counts in against the referrer's cap, "2026-11". */
  month: string;
  order_id: number;
  order_total_cents: number;
  reward_cents: number;
  paid_cents: number;
  /** What the monthly cap left unpaid (paid + unpaid = reward, a CHECK). */
  unpaid_cents: number;
  /** The ledger row that paid it; null when the cap left nothing to pay. */
  ledger_entry_id: number | null;
  created_at: Timestamp;
}

/** The referrals' tables, joined to the Database interface (app/db/schema.ts). */
export interface ReferralTables {
  referral_codes: ReferralCodesTable;
  referrals: ReferralsTable;
  referral_rewards: ReferralRewardsTable;
}
