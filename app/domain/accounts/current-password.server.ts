import type { Db } from "~/db/transaction";
import { checkCurrentPassword } from "./login-throttle.server";
import { verifyPassword } from "./password-hash.server";

/** Why the dashboard's account tab refused a current password, on the field it concerns. */
export type CurrentPasswordRefusal =
  | {
      ok: false;
      kind: "limited";
      error: "auth.errors.tooManyAttempts";
      field: "currentPassword";
      minutes: number;
    }
  | {
      ok: false;
      kind: "invalid";
      error: "dashboard.account.currentPasswordWrong";
      field: "currentPassword";
    };

/**
 * Confirms a signed-in customer's current password against its stored Argon2id hash (an account without
 * one never matches) under the sign-in throttle (checkCurrentPassword), before a change the account tab
 * asks it for: nothing when it matched, else the refusal to show. Argon2id is slow on purpose: call it
 * before any transaction, so no lock waits on it.
 */
export async function confirmCurrentPassword(
  db: Db,
  input: { email: string; ip: string; hash: string | null | undefined; password: string },
  limits: { ipPerMinute: number },
): Promise<CurrentPasswordRefusal | undefined> {
  const { hash, password } = input;
  const checked = await checkCurrentPassword(
    db,
    { email: input.email, ip: input.ip },
    { addressLimit: limits.ipPerMinute },
    async () => !!hash && (await verifyPassword(hash, password)),
  );
  if (checked.outcome === "blocked")
    return {
      ok: false,
      kind: "limited",
      error: "auth.errors.tooManyAttempts",
      field: "currentPassword",
      minutes: checked.minutes,
    };
  if (checked.outcome === "wrong")
    return {
      ok: false,
      kind: "invalid",
      error: "dashboard.account.currentPasswordWrong",
      field: "currentPassword",
    };
  return undefined;
}
