import { fetchPage } from "~/db/paging";
import type { Db } from "~/db/transaction";
import { isMailKind, isMailState, type ClientMailView } from "./mail";

/**
 * The newest `size` messages sent (or kept) for an account, and whether older ones exist: one query by
 * the outbox's (user_id, id) index. The list at /admin/mail?to=… has the rest.
 */
export async function latestMailOf(db: Db, userId: string, size: number) {
  const { rows, hasMore } = await fetchPage(
    db
      .selectFrom("mail_outbox")
      .select(["id", "kind", "to_address", "state", "subject", "created_at", "sent_at"])
      .where("user_id", "=", userId)
      .orderBy("id", "desc"),
    { limit: size, offset: 0 },
  );
  return {
    rows: rows.map((row): ClientMailView => ({
      id: Number(row.id),
      kind: isMailKind(row.kind) ? row.kind : "orderReceived",
      to: row.to_address,
      state: isMailState(row.state) ? row.state : "queued",
      subject: row.subject,
      createdAt: row.created_at,
      sentAt: row.sent_at,
    })),
    hasMore,
  };
}
