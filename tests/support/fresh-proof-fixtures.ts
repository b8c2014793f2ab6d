import { randomUUID } from "node:crypto";
import { symmetricEncrypt } from "better-auth/crypto";
import type { AppServices } from "~/context.server";
import { getCurrentSession } from "~/domain/accounts/accounts.server";
import { verifiedFlag } from "~/domain/accounts/email-verification.server";
import { totpCodeAt, TOTP_STEP_MS } from "~/domain/accounts/totp.server";
import type { StaffRole } from "~/domain/staff/permissions";
import { registeredCustomer, signedInCookie } from "./account-fixtures";

// What the fresh-proof tests stand on: a member of the staff signed in from an address of their own,
// two-factor sign-in turned on straight in the database (no code from the wall clock's step is needed
// to set it up), and a clock the test moves.

export const STAFF_PASSWORD = "Fresh-proof-pw-6613";

let made = 0;

/**
 * A member of the staff with `role`, signed in from `ip` (then a known address of the account): their
 * id, email, the session's cookie and id, and when the session last proved who they are (its sign-in).
 */
export async function signedInStaff(app: AppServices, role: StaffRole, ip: string) {
  const email = `proof${++made}-${randomUUID().slice(0, 8)}@example.com`;
  const userId = await registeredCustomer(app, {
    name: `Staff ${made}`,
    email,
    password: STAFF_PASSWORD,
  });
  await app.db
    .updateTable("users")
    .set({ role: "admin", staff_role: role })
    .where("id", "=", userId)
    .execute();
  const cookie = await signedInCookie(app, { email, password: STAFF_PASSWORD }, { ip });
  const session = await getCurrentSession(app, cookie);
  if (!session) throw new Error("the new session is not found");
  return { userId, email, ip, cookie, sessionId: session.sessionId, provenAt: session.provenAt };
}

/**
 * Turns two-factor sign-in on for an account as the plugin stores it once confirmed: `secret` (the
 * plugin's secret text, whose bytes are the HMAC key) and `backupCodes`, each encrypted with the key
 * derived from the auth secret.
 */
export async function withTwoFactor(
  app: AppServices,
  userId: string,
  { secret, backupCodes }: { secret: string; backupCodes: string[] },
) {
  const { secretConfig } = await app.auth.$context;
  await app.db
    .insertInto("two_factors")
    .values({
      id: randomUUID(),
      user_id: userId,
      secret: await symmetricEncrypt({ key: secretConfig, data: secret }),
      backup_codes: await symmetricEncrypt({
        key: secretConfig,
        data: JSON.stringify(backupCodes),
      }),
      verified: verifiedFlag(app.db, true),
    })
    .execute();
  await app.db
    .updateTable("users")
    .set({ two_factor_enabled: verifiedFlag(app.db, true) })
    .where("id", "=", userId)
    .execute();
}

/** The app's code for `secret` at `at` (RFC 6238, as totp.server.ts checks it). */
export function codeAt(secret: string, at: Date): string {
  return totpCodeAt(secret, Math.floor(at.getTime() / TOTP_STEP_MS));
}

/** A clock a test sets: the services read it, and it answers only once set (never the wall clock). */
export function settableClock() {
  let now: Date | undefined;
  const clock = () => {
    if (!now) throw new Error("the test clock was not set");
    return now;
  };
  return Object.assign(clock, {
    set(at: Date | string) {
      now = new Date(at);
      return now;
    },
  });
}

/** `minutes` after an ISO time, as a Date. */
export function minutesAfter(iso: string, minutes: number): Date {
  return new Date(Date.parse(iso) + minutes * 60_000);
}
