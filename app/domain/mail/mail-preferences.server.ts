import { inTransaction, type Db, type Tx } from "~/db/transaction";
import { OPTIONAL_MAIL_KINDS, type OptionalMailKind } from "./mail";

/** The kinds of mail a customer receives, of those they may turn off (the account tab's switches). */
export async function mailPreferencesOf(db: Db | Tx, userId: string): Promise<OptionalMailKind[]> {
  const off = new Set(
    (
      await db.selectFrom("mail_opt_outs").select("kind").where("user_id", "=", userId).execute()
    ).map((row) => row.kind),
  );
  return OPTIONAL_MAIL_KINDS.filter((kind) => !off.has(kind));
}

/**
 * The account tab's form: the customer receives the kinds in `receive` and none of the other optional
 * ones. Security mail is not among them, so it cannot be turned off.
 */
export async function setMailPreferences(
  db: Db,
  input: { userId: string; receive: readonly OptionalMailKind[]; now?: Date },
): Promise<{ ok: true; receive: OptionalMailKind[] }> {
  const at = (input.now ?? new Date()).toISOString();
  const off = OPTIONAL_MAIL_KINDS.filter((kind) => !input.receive.includes(kind));
  return inTransaction(db, async (trx) => {
    await trx.deleteFrom("mail_opt_outs").where("user_id", "=", input.userId).execute();
    if (off.length > 0)
      await trx
        .insertInto("mail_opt_outs")
        .values(off.map((kind) => ({ user_id: input.userId, kind, created_at: at })))
        .execute();
    return { ok: true as const, receive: await mailPreferencesOf(trx, input.userId) };
  });
}
