import { activeAdminsOnce } from "~/domain/accounts/user-directory.server";
import type { Tx } from "~/db/transaction";
import type { NotificationKind, STAFF_NOTIFICATION_KINDS } from "./notifications";

// The notices' writers, steps in the caller's transaction: a customer's or an admin's notice, many at
// once by key, every admin's. The events' reactions call them (app/domain/events); what a person reads
// of their list is notification-reads.server.ts.

/** A step: a notification written in the same transaction as the event it tells about. */
export async function notify(
  trx: Tx,
  input: {
    userId: string;
    kind: NotificationKind;
    params?: Record<string, string | number>;
    link: string;
    dedupeKey?: string;
    /** When it happened (the lifecycle's clock); now by default. */
    now?: Date;
  },
): Promise<boolean> {
  // Whether it was written: false when one with the same dedupe key exists already.
  const result = await trx
    .insertInto("notifications")
    .values({
      user_id: input.userId,
      kind: input.kind,
      params: JSON.stringify(input.params ?? {}),
      link: input.link,
      dedupe_key: input.dedupeKey ?? null,
      created_at: (input.now ?? new Date()).toISOString(),
    })
    .onConflict((oc) => oc.column("dedupe_key").doNothing())
    .executeTakeFirst();
  return Number(result.numInsertedOrUpdatedRows ?? 0) > 0;
}

/**
 * A step: tells every active admin, each in their own list, once per `dedupeKey` (the admin's id is
 * appended: `<dedupeKey>:<admin id>`), in the caller's transaction, so the notice exists if and only if
 * what it tells of committed. The admins are read in one order in every process, so two transactions
 * writing the same keys wait on each other and never deadlock. Returns how many admins there are and
 * how many notices were new.
 */
export async function notifyStaff(
  trx: Tx,
  notice: {
    kind: (typeof STAFF_NOTIFICATION_KINDS)[number];
    params: Record<string, string | number>;
    link: string;
    dedupeKey: string;
    now?: Date;
  },
): Promise<{ admins: number; written: number }> {
  const admins = await activeAdminsOnce(trx);
  if (admins.length === 0) return { admins: 0, written: 0 };
  const written = await notifyOnce(
    trx,
    admins.map((admin) => ({
      userId: admin.id,
      kind: notice.kind,
      params: notice.params,
      link: notice.link,
      dedupeKey: `${notice.dedupeKey}:${admin.id}`,
    })),
    notice.now ?? new Date(),
  );
  return { admins: admins.length, written };
}

/** One notification of a batch that is written once per key (`notifyOnce`). */
export interface KeyedNotice {
  userId: string;
  kind: NotificationKind;
  params: Record<string, string | number>;
  link: string;
  dedupeKey: string;
}

/**
 * A step: many notifications at once, each written only if its key is new (a reminder, a warning: the
 * event is the time passing, and a run made again must not tell it twice). Returns how many were new.
 */
export async function notifyOnce(trx: Tx, notices: KeyedNotice[], now: Date): Promise<number> {
  let written = 0;
  // A few hundred rows a statement: well under SQLite's and PostgreSQL's limits on parameters.
  for (let i = 0; i < notices.length; i += 200) {
    const rows = await trx
      .insertInto("notifications")
      .values(
        notices.slice(i, i + 200).map((notice) => ({
          user_id: notice.userId,
          kind: notice.kind,
          params: JSON.stringify(notice.params),
          link: notice.link,
          dedupe_key: notice.dedupeKey,
          created_at: now.toISOString(),
        })),
      )
      .onConflict((oc) => oc.column("dedupe_key").doNothing())
      .returning("id")
      .execute();
    written += rows.length;
  }
  return written;
}
