import { randomUUID } from "node:crypto";
import type { Db } from "~/db/transaction";

/**
 * A device the account trusts to skip its sign-in code, as better-auth's twoFactor plugin records one
 * (a `trust-device-…` verification whose value is the user's id), valid for a day from `now`.
 */
export async function trustDevice(db: Db, userId: string, now = new Date()): Promise<string> {
  const identifier = `trust-device-${randomUUID()}`;
  await db
    .insertInto("verifications")
    .values({
      id: randomUUID(),
      identifier,
      value: userId,
      expires_at: new Date(now.getTime() + 86_400_000).toISOString(),
      created_at: now.toISOString(),
      updated_at: now.toISOString(),
    })
    .execute();
  return identifier;
}

/** How many devices the account trusts. */
export async function trustedDevicesOf(db: Db, userId: string): Promise<number> {
  const rows = await db
    .selectFrom("verifications")
    .select("id")
    .where("identifier", "like", "trust-device-%")
    .where("value", "=", userId)
    .execute();
  return rows.length;
}
