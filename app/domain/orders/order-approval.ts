import { labelKeys } from "~/lib/label-keys";

// Activation on payment: whether an order paid from coins is approved by the system as it is placed, and
// when not, why it waits for an admin (docs/money.md#activation-on-payment). Pure: the facts are read in
// the order's transaction (order-approval.server.ts).

/** Why an order waits for an admin; stored on the order (`orders.wait_reason`) as it is placed. */
export const WAIT_REASONS = ["planApproval", "unverified", "firstPurchase", "noRoom"] as const;
export type WaitReason = (typeof WAIT_REASONS)[number];
/** What the customer reads under a waiting order (orders namespace). */
export const WAIT_REASON_TEXTS = labelKeys("orders", "waitReasons", WAIT_REASONS);

export function isWaitReason(value: unknown): value is WaitReason {
  return typeof value === "string" && (WAIT_REASONS as readonly string[]).includes(value);
}

/** What the trust rule looks at, about the customer, as the order is placed. */
export interface TrustFacts {
  /** Their email address is verified. */
  emailVerified: boolean;
  /** They paid us before: a top-up request approved (by an admin, or credited from an online payment). */
  hasApprovedTopUp: boolean;
  /** An earlier order of theirs was approved (its status stays `approved` whatever its service became). */
  hasApprovedOrder: boolean;
}

/**
 * The trust rule: a verified address, and at least one earlier payment or approved order. Someone who
 * never paid us but by coins given for free, or who could not be reached at their address, waits for an
 * admin's look. The address is named first: it is the one the customer can fix at once.
 */
export function trustVerdict(
  facts: TrustFacts,
): { trusted: true } | { trusted: false; reason: "unverified" | "firstPurchase" } {
  if (!facts.emailVerified) return { trusted: false, reason: "unverified" };
  if (!facts.hasApprovedTopUp && !facts.hasApprovedOrder)
    return { trusted: false, reason: "firstPurchase" };
  return { trusted: true };
}

/**
 * The decision as an order is placed: approved by the system when its plan activates when paid, the
 * customer is trusted and the panel has room (the approval's own room check); otherwise the reason it
 * waits. `trust` and `room` are asked only when needed (the room check locks the panel's row on
 * PostgreSQL), in this order.
 */
export async function decideActivation(
  activateWhenPaid: boolean,
  facts: { trust: () => Promise<TrustFacts>; room: () => Promise<boolean> },
): Promise<{ approve: true } | { approve: false; reason: WaitReason }> {
  if (!activateWhenPaid) return { approve: false, reason: "planApproval" };
  const verdict = trustVerdict(await facts.trust());
  if (!verdict.trusted) return { approve: false, reason: verdict.reason };
  if (!(await facts.room())) return { approve: false, reason: "noRoom" };
  return { approve: true };
}
