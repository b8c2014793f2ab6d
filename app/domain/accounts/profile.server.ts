import { z } from "~/lib/zod";
import type { Db } from "~/db/transaction";
import { MAX_EMAIL_LENGTH, MAX_NAME_LENGTH } from "./accounts";

export const profileSchema = z.object({
  name: z
    .string()
    .trim()
    .min(1, "auth:errors.nameRequired")
    .max(MAX_NAME_LENGTH, "auth:errors.nameTooLong"),
  email: z
    .string()
    .trim()
    .max(MAX_EMAIL_LENGTH, "auth:errors.emailInvalid")
    .pipe(z.email("auth:errors.emailInvalid"))
    .transform((v) => v.toLowerCase()),
});

export const accountActionSchema = z.discriminatedUnion("intent", [
  profileSchema.extend({ intent: z.literal("profile") }),
  z.object({ intent: z.literal("end-session"), sessionId: z.string().min(1).max(100) }),
]);

export async function updateProfile(
  db: Db,
  userId: string,
  input: { name: string; email: string },
): Promise<{ ok: true } | { ok: false; error: "dashboard:account.emailTaken" }> {
  const taken = await db
    .selectFrom("users")
    .select("id")
    .where("email", "=", input.email)
    .where("id", "!=", userId)
    .executeTakeFirst();
  if (taken) return { ok: false, error: "dashboard:account.emailTaken" };
  try {
    await db
      .updateTable("users")
      .set({ name: input.name, email: input.email, updated_at: new Date().toISOString() })
      .where("id", "=", userId)
      .execute();
  } catch {
    // The unique index caught a race with another account taking the address.
    return { ok: false, error: "dashboard:account.emailTaken" };
  }
  return { ok: true };
}

/** Ends one of the user's own sessions (another user's session id matches nothing). */
export async function endSession(db: Db, userId: string, sessionId: string): Promise<void> {
  await db
    .deleteFrom("sessions")
    .where("id", "=", sessionId)
    .where("user_id", "=", userId)
    .execute();
}
