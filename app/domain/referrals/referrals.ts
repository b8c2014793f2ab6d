import { labelKeys } from "~/lib/label-keys";
import { refundWindowEnd } from "~/domain/hosting-services/cancellation";

// Referrals (docs/referrals.md): the pure rules, shared by the server, the customer's page and the
// admin's. Money is integer cents throughout.

/**
 * Where a referral stands: waiting for the referred customer's first order and its refund window,
 * paid (whole), over_cap (the referrer's monthly cap left part or all of it unpaid), flagged (an admin
 * decides), rejected (by an admin), refunded (the first order was rejected or refunded: no reward).
 */
export const REFERRAL_STATES = [
  "waiting",
  "flagged",
  "paid",
  "over_cap",
  "rejected",
  "refunded",
] as const;
export type ReferralState = (typeof REFERRAL_STATES)[number];
export const REFERRAL_STATE_LABELS = labelKeys("referrals", "states", REFERRAL_STATES);

/** Why a referral is flagged: the same address as the referrer's, or the same top-up proof file. */
export const REFERRAL_FLAGS = ["sameAddress", "sameProof"] as const;
export type ReferralFlag = (typeof REFERRAL_FLAGS)[number];
export const REFERRAL_FLAG_LABELS = labelKeys("referrals", "flags", REFERRAL_FLAGS);

/** The admin's settings, kept as the `referrals` row of the settings table. */
export interface ReferralSettings {
  enabled: boolean;
  /** The reward, in hundredths of a percent of the first order's price: 1000 is 10 %. */
  percentBasisPoints: number;
  /** The most a referrer is paid in a UTC month, in cents; 0 means no cap. */
  monthlyCapCents: number;
}

export const DEFAULT_REFERRAL_SETTINGS: ReferralSettings = {
  enabled: true,
  percentBasisPoints: 1000,
  monthlyCapCents: 5000,
};

/** The largest percentage an admin may set: a typo guard, a reward is never more than the order. */
export const MAX_PERCENT_BASIS_POINTS = 10_000;
/** The largest monthly cap, €100,000. */
export const MAX_MONTHLY_CAP_CENTS = 10_000_000;

/** The first-party cookie that carries a code from the visit to the registration, for 30 days. */
export const REFERRAL_COOKIE = "hf_ref";
export const REFERRAL_COOKIE_MAX_AGE_SECONDS = 30 * 24 * 60 * 60;

/** A code: 8 of these letters and digits (no 0/O, 1/I/L to misread), upper case. */
export const REFERRAL_CODE_ALPHABET = "ABCDEFGHJKMNPQRSTUVWXYZ23456789";
export const REFERRAL_CODE_LENGTH = 8;

/** A code as typed or carried in a link, folded to upper case; null when it cannot be one. */
export function normalizeReferralCode(value: unknown): string | null {
  if (typeof value !== "string") return null;
  const code = value.trim().toUpperCase();
  return new RegExp(`^[${REFERRAL_CODE_ALPHABET}]{${REFERRAL_CODE_LENGTH}}$`).test(code)
    ? code
    : null;
}

/** A new code from random bytes (one per character; the alphabet's 31 letters take a byte mod 31). */
export function referralCodeFrom(bytes: Uint8Array): string {
  let code = "";
  for (let i = 0; i < REFERRAL_CODE_LENGTH; i++)
    code += REFERRAL_CODE_ALPHABET[(bytes[i] ?? 0) % REFERRAL_CODE_ALPHABET.length];
  return code;
}

/** The link a customer shares: the home page with their code. */
export function referralLink(publicUrl: string, code: string): string {
  return `${publicUrl.replace(/\/+$/, "")}/?ref=${encodeURIComponent(code)}`;
}

/**
 * The reward of a first order: `basisPoints` hundredths of a percent of its price in cents, rounded to
 * the nearest cent, a half cent up. Integer arithmetic only.
 */
export function rewardCents(orderTotalCents: number, basisPoints: number): number {
  if (orderTotalCents <= 0 || basisPoints <= 0) return 0;
  return Math.floor((orderTotalCents * basisPoints + 5000) / 10_000);
}

/**
 * What of a reward the monthly cap lets through, given what the referrer was paid already this month:
 * paid up to the cap, the rest recorded as unpaid (never deferred to a later month). A cap of 0 is none.
 */
export function splitByCap(
  reward: number,
  paidThisMonthCents: number,
  capCents: number,
): { paidCents: number; unpaidCents: number } {
  if (capCents <= 0) return { paidCents: reward, unpaidCents: 0 };
  const room = Math.max(0, capCents - paidThisMonthCents);
  const paidCents = Math.min(reward, room);
  return { paidCents, unpaidCents: reward - paidCents };
}

/** The UTC month a moment counts in, "2026-11". */
export function monthOf(now: Date): string {
  return now.toISOString().slice(0, 7);
}

/** When a first order placed at `orderedAt` can be rewarded: once its refund window has passed. */
export function rewardableAfter(orderedAt: string): string {
  return refundWindowEnd(orderedAt);
}

/** Whether the window of an order placed at `orderedAt` has passed at `now` (its last moment is in). */
export function pastRefundWindow(orderedAt: string, now: Date): boolean {
  return now.getTime() > Date.parse(rewardableAfter(orderedAt));
}

/** A name as the referrer sees it: the first letter of each word, the rest hidden ("Sara B***"). */
export function maskName(name: string): string {
  const words = name.trim().split(/\s+/).filter(Boolean);
  if (words.length === 0) return "***";
  const [first, ...rest] = words;
  const head = [...first!].slice(0, 4).join("");
  return [head + ([...first!].length > 4 ? "***" : ""), ...rest.map((w) => `${[...w][0]}***`)].join(
    " ",
  );
}

/** An address as the referrer sees it: "s***@g***.com". */
export function maskEmail(email: string): string {
  const at = email.lastIndexOf("@");
  if (at <= 0) return "***";
  const local = email.slice(0, at);
  const domain = email.slice(at + 1);
  const dot = domain.lastIndexOf(".");
  const host = dot > 0 ? domain.slice(0, dot) : domain;
  const tld = dot > 0 ? domain.slice(dot) : "";
  return `${[...local][0]}***@${[...host][0] ?? ""}***${tld}`;
}

/** A percentage typed by the admin ("10", "7.5", "7,5") as basis points, or null. */
export function parsePercent(input: string): number | null {
  const text = input.trim().replace(",", ".");
  if (!/^\d{1,3}(\.\d{1,2})?$/.test(text)) return null;
  const [whole = "0", fraction = ""] = text.split(".");
  const points = Number(whole) * 100 + Number(fraction.padEnd(2, "0"));
  return points <= MAX_PERCENT_BASIS_POINTS ? points : null;
}

/** Basis points as the form shows them: 1000 → "10", 750 → "7.5". */
export function percentText(basisPoints: number): string {
  return String(basisPoints / 100);
}

/** One referral as the referrer's page lists it (names masked). */
export interface ReferralRow {
  id: number;
  name: string;
  email: string;
  state: ReferralState;
  createdAt: string;
  paidCents: number;
  unpaidCents: number;
}

/** One referral as the admin's page lists it. */
export interface AdminReferralRow {
  id: number;
  referrerId: string;
  referrerName: string;
  referrerEmail: string;
  referredName: string;
  referredEmail: string;
  state: ReferralState;
  flags: ReferralFlag[];
  flagCleared: boolean;
  orderId: number | null;
  rewardCents: number | null;
  paidCents: number | null;
  unpaidCents: number | null;
  createdAt: string;
}

/** One referrer's totals on the admin's page. */
export interface ReferrerRow {
  userId: string;
  name: string;
  email: string;
  code: string;
  referrals: number;
  paidCents: number;
  unpaidCents: number;
}

/** A stored flags column read back: only the flags this version knows. */
export function readFlags(value: string | null | undefined): ReferralFlag[] {
  try {
    const parsed: unknown = JSON.parse(value ?? "[]");
    return Array.isArray(parsed)
      ? parsed.filter((f): f is ReferralFlag => (REFERRAL_FLAGS as readonly string[]).includes(f))
      : [];
  } catch {
    return [];
  }
}

export function isReferralState(value: string): value is ReferralState {
  return (REFERRAL_STATES as readonly string[]).includes(value);
}
