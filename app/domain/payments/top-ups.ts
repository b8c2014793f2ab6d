import { labelKeys } from "~/lib/label-keys";
import type { PaymentCurrency } from "./payment-methods";

// Top-up requests (docs/payments.md): a customer asks to buy coins with a payment method, pays
// outside the site with the request's reference, says so, and an admin approves or rejects. Pure and safe
// in the browser: the states, the reference's format and the limits. Messages are catalogue keys.

export const TOP_UP_STATES = [
  "waiting_payment",
  "proof_sent",
  "approved",
  "rejected",
  "cancelled",
] as const;
export type TopUpState = (typeof TOP_UP_STATES)[number];

/** Not decided yet: the customer may cancel, an admin may decide. At most one a customer. */
export const OPEN_TOP_UP_STATES = [
  "waiting_payment",
  "proof_sent",
] as const satisfies readonly TopUpState[];

export function isOpenTopUp(state: TopUpState): boolean {
  return (OPEN_TOP_UP_STATES as readonly string[]).includes(state);
}

/** Catalogue keys (payments namespace), one family (docs/i18n.md, ADR 26). */
export const TOP_UP_STATE_LABELS = labelKeys("payments", "topUps.states", TOP_UP_STATES);

/** Each state's badge colour: waiting blue, to check yellow, approved green, rejected red. */
export const TOP_UP_STATE_TONES = {
  waiting_payment: "blue",
  proof_sent: "yellow",
  approved: "green",
  rejected: "red",
  cancelled: "grey",
} as const satisfies Record<TopUpState, string>;

/** The admin's queue, searched by `q` (a request's reference, or a customer's email or name). */
export function topUpQueuePath(q?: string): string {
  return q ? `/admin/top-ups?q=${encodeURIComponent(q)}` : "/admin/top-ups";
}

/** What the customer's page offers to pick at once; any other whole number may be typed. */
export const PRESET_TOP_UP_COINS = [5, 10, 20, 50] as const;

/** What the form starts on when no shortfall is given. */
export const DEFAULT_TOP_UP_COINS = 10;

/**
 * The top-up page's query parameter for the coins a balance is short of, as an "Add coins" link
 * writes it (`?coins=3.50`): the form starts on that, rounded up (startingTopUpCoins).
 */
export const TOP_UP_COINS_PARAM = "coins";

/** A shortfall in cents as the parameter writes it: 350 is "3.50" (a coin is 100 cents). */
export function shortfallParam(missingCents: number): string {
  const cents = Math.max(0, Math.trunc(missingCents));
  return `${Math.floor(cents / 100)}.${String(cents % 100).padStart(2, "0")}`;
}

/**
 * The whole coins the request form starts on for a shortfall of `wanted` whole coins (already rounded
 * up) with `method`: at least the method's minimum (a smaller request would be refused), at most its
 * maximum (the customer then asks again for the rest).
 */
export function startingTopUpCoins(
  wanted: number,
  method: { minCoins: number; maxCoins: number },
): number {
  return Math.min(Math.max(wanted, method.minCoins), method.maxCoins);
}

/**
 * The reference's letters: digits and capitals without the ones read as others (0 and O, 1, I and L),
 * so it survives being read aloud, copied by hand into a wallet's note field or typed from a screenshot.
 */
export const REFERENCE_ALPHABET = "23456789ABCDEFGHJKMNPQRSTUVWXYZ";
export const REFERENCE_PREFIX = "TU-";
/** 31^5 ≈ 28.6 million codes: a clash is retried (the column is unique). */
export const REFERENCE_LENGTH = 5;

/** A new reference ("TU-7K3Q9") from `random` bytes (crypto's, or a test's). */
export function makeReference(random: (n: number) => Uint8Array = randomBytes): string {
  const bytes = random(REFERENCE_LENGTH * 2);
  let code = "";
  // Two bytes a letter, so the modulo's bias is below 0.05%.
  for (let i = 0; i < REFERENCE_LENGTH; i++) {
    const value = (bytes[2 * i]! << 8) | bytes[2 * i + 1]!;
    code += REFERENCE_ALPHABET[value % REFERENCE_ALPHABET.length];
  }
  return REFERENCE_PREFIX + code;
}

function randomBytes(n: number): Uint8Array {
  return crypto.getRandomValues(new Uint8Array(n));
}

const REFERENCE_PATTERN = new RegExp(
  `^${REFERENCE_PREFIX}[${REFERENCE_ALPHABET}]{${REFERENCE_LENGTH}}$`,
);

export function isReference(text: string): boolean {
  return REFERENCE_PATTERN.test(text);
}

export const MAX_PAYER_ACCOUNT_LENGTH = 100;
export const MAX_REJECT_REASON_LENGTH = 500;
/** How far back a payment may be dated: a request older than this is long decided or cancelled. */
export const MAX_PAID_DAYS_AGO = 60;
/** Rows a page of the admin's queue holds. */
export const TOP_UPS_PAGE_SIZE = 20;
/** The customer's past requests shown under the current one. */
export const PAST_TOP_UPS_SHOWN = 20;

/** A top-up request as its owner and the admins see it. */
export interface TopUpRequest {
  id: number;
  reference: string;
  userId: string;
  methodId: number;
  methodName: string;
  coins: number;
  currency: PaymentCurrency;
  /** Minor units of `currency`, frozen when asked. */
  amount: number;
  fee: number;
  total: number;
  creditCents: number;
  payerAccount: string | null;
  paidOn: string | null;
  state: TopUpState;
  creditedCoins: number | null;
  rejectReason: string | null;
  decidedAt: string | null;
  createdAt: string;
  updatedAt: string;
}

/**
 * Whether `paidOn` (YYYY-MM-DD) is a day a payment may have been made, seen from `today` (YYYY-MM-DD,
 * UTC): not after tomorrow (the customer's day may be ahead of UTC), not more than MAX_PAID_DAYS_AGO
 * before.
 */
export function paidOnProblem(
  paidOn: string,
  today: string,
): "payments.errors.paidOnFuture" | "payments.errors.paidOnTooOld" | null {
  const day = Date.parse(`${paidOn}T00:00:00Z`);
  const now = Date.parse(`${today}T00:00:00Z`);
  const DAY = 86_400_000;
  if (day > now + DAY) return "payments.errors.paidOnFuture";
  if (day < now - MAX_PAID_DAYS_AGO * DAY) return "payments.errors.paidOnTooOld";
  return null;
}

/** Where staff decide the top-ups whose proof was sent (the admin's queue, filtered). */
export const TOP_UP_PROOFS_PATH = "/admin/top-ups?state=proof_sent";

/** Where a customer asks for coins and follows their requests: links, notices and mails lead there. */
export const TOP_UP_PAGE = "/dashboard/top-up";
