import type { Tx } from "~/db/transaction";

/**
 * A step of an account's deletion (ADR 19): its messages (address, what they said) and its email choices
 * are erased; a send job still waiting finds its row gone and does nothing.
 */
export async function forgetMailOf(trx: Tx, userId: string): Promise<number> {
  await trx.deleteFrom("mail_opt_outs").where("user_id", "=", userId).execute();
  await trx.deleteFrom("mail_opt_ins").where("user_id", "=", userId).execute();
  const result = await trx
    .deleteFrom("mail_outbox")
    .where("user_id", "=", userId)
    .executeTakeFirst();
  return Number(result.numDeletedRows);
}
