import { inTransaction, type Db, type Tx } from "~/db/transaction";
import { STAFF_MAIL_CHOICES, type StaffMailChoice } from "./mail";

// An admin's own choices of the staff messages that are off by default (STAFF_MAIL_CHOICES: a customer's
// reply to a ticket), set on /admin/notifications (docs/mail.md). Each one chosen is a row of
// `mail_opt_ins`; queueMail sends such a message only to the active admins who have its row.

/** The staff messages this admin asked to receive. */
export async function staffMailChoicesOf(db: Db | Tx, userId: string): Promise<StaffMailChoice[]> {
  const chosen = new Set(
    (
      await db.selectFrom("mail_opt_ins").select("kind").where("user_id", "=", userId).execute()
    ).map((row) => row.kind),
  );
  return STAFF_MAIL_CHOICES.filter((kind) => chosen.has(kind));
}

/** The admin receives the messages in `receive` and none of the other choices. */
export async function setStaffMailChoices(
  db: Db,
  input: { userId: string; receive: readonly StaffMailChoice[]; now?: Date },
): Promise<{ ok: true; receive: StaffMailChoice[] }> {
  const at = (input.now ?? new Date()).toISOString();
  const receive = STAFF_MAIL_CHOICES.filter((kind) => input.receive.includes(kind));
  return inTransaction(db, async (trx) => {
    await trx.deleteFrom("mail_opt_ins").where("user_id", "=", input.userId).execute();
    if (receive.length > 0)
      await trx
        .insertInto("mail_opt_ins")
        .values(receive.map((kind) => ({ user_id: input.userId, kind, created_at: at })))
        .execute();
    return { ok: true as const, receive: await staffMailChoicesOf(trx, input.userId) };
  });
}
