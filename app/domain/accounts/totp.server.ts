import { createHmac } from "node:crypto";
import type { Db } from "~/db/transaction";

/**
 * Authenticator codes as better-auth's twoFactor plugin checks them (RFC 6238: HMAC-SHA-1 of the
 * secret as it stores it, 6 digits, 30-second steps; the current step and the one before accepted),
 * so that the code's step can be told, and a code used once refused after (RFC 6238, section 5.2).
 */
export const TOTP_STEP_MS = 30_000;

/** The code of `step` for a secret (the plugin's secret text, its bytes the HMAC key). */
export function totpCodeAt(secret: string, step: number): string {
  const counter = Buffer.alloc(8);
  counter.writeBigUInt64BE(BigInt(step));
  const digest = createHmac("sha1", Buffer.from(secret, "utf8")).update(counter).digest();
  const offset = digest[digest.length - 1]! & 15;
  return String((digest.readUInt32BE(offset) & 0x7fffffff) % 1_000_000).padStart(6, "0");
}

/** The step whose code `code` is, among those the plugin accepts at `now`; null for none. */
export function totpStepOf(secret: string, code: string, now: number): number | null {
  const current = Math.floor(now / TOTP_STEP_MS);
  for (const step of [current, current - 1]) if (totpCodeAt(secret, step) === code) return step;
  return null;
}

/**
 * Takes `step` as the account's last used one, unless that step or a later one was used already: true
 * when it was taken. One conditional statement, so of two sign-ins racing with the same code one wins.
 */
export async function takeTotpStep(db: Db, userId: string, step: number): Promise<boolean> {
  const taken = await db
    .updateTable("users")
    .set({ totp_last_step: step })
    .where("id", "=", userId)
    .where((eb) => eb.or([eb("totp_last_step", "is", null), eb("totp_last_step", "<", step)]))
    .executeTakeFirst();
  return Number(taken.numUpdatedRows) === 1;
}
