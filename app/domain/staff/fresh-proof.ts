import { isTotpCode } from "~/domain/accounts/two-factor";
import { blockEndsAt, PAIR_RULE, type AttemptMark } from "~/domain/accounts/login-throttle";

/**
 * A fresh proof of identity (docs/staff.md, ADR 57): the most sensitive staff changes ask for the
 * password or a two-factor code again once the session's last proof (`CurrentSession.provenAt`, see
 * `isProofFresh` in permissions.ts) is 15 minutes old. The rules both the server and the pages read;
 * fresh-proof.server.ts checks a proof, app/http/fresh-proof.server.ts asks for one.
 */

/** What a proof turned out to be: the account's password, a code from its app, or a backup code. */
export type ProofMethod = "password" | "totp" | "backup";

/**
 * The checks a typed proof goes through, cheapest first. Two-factor off: the password alone. On: six
 * digits are tried as the app's code, anything may be one of the backup codes, and the password is
 * tried last in every case (a password may be six digits; passwords are at least six characters).
 */
export function proofChecks(proof: string, twoFactorOn: boolean): ProofMethod[] {
  if (!twoFactorOn) return ["password"];
  return isTotpCode(proof) ? ["totp", "backup", "password"] : ["backup", "password"];
}

/**
 * Whether a coin change asks for a fresh proof: one that moves more than `thresholdCoins` coins either
 * way (a large debit can empty an account as a large credit mints money). At the threshold or under it,
 * never.
 */
export function coinChangeNeedsProof(amountCents: number, thresholdCoins: number): boolean {
  return Math.abs(amountCents) > thresholdCoins * 100;
}

/**
 * The prompt's own limit, on top of the sign-in throttle that counts every proof as a sign-in attempt:
 * the sign-in's rule of 5 failures for one account from one address in 15 minutes, without the
 * sign-in's exemption of an address the account signed in from lately. Whoever types into the prompt
 * already holds a signed-in session, most likely from that very address, so the exemption would leave
 * them only the address rule (20 a minute). `newestFirst` is the account's failed attempts from the
 * address, newest first; failures at or before `liftedAt` (an admin lifted a block on /admin/security)
 * do not count. Returns when the refusal ends, or null when the next proof may be checked.
 */
export function proofBlockEnd(
  newestFirst: readonly AttemptMark[],
  now: Date,
  liftedAt?: string | null,
): Date | null {
  return blockEndsAt(PAIR_RULE, newestFirst, now, liftedAt);
}

/** How many failures inside the window refuse the next proof (the sign-in's pair limit). */
export const PROOF_FAILURE_LIMIT = PAIR_RULE.limit;
