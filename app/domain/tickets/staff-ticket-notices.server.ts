import type { Db, Tx } from "~/db/transaction";
import { countInSlot, slotCount } from "~/domain/request-limits/request-limits.server";
import {
  STAFF_SUMMARY_LISTED,
  STAFF_TICKET_WINDOW_MS,
  type Department,
  type StaffTicketSummary,
} from "./tickets";

// How staff hear of new tickets (docs/support.md): one customer opening two thousand tickets must not
// send two thousand mails to every admin and as many Discord posts. Time is cut into windows of the
// clock (STAFF_TICKET_WINDOW_MS). The first ticket of a window that follows a quiet one is told at once;
// every other ticket of a window is told in that window's summary, sent once it has ended. So staff get
// at most one message a window: a window whose predecessor had tickets begins with that one's summary,
// and only a window after a quiet one begins with a ticket told at once. The tickets of each window are
// counted with the form limit's slot count (one upsert, shared by every process): exactly one ticket of
// a window is its first, whatever opens at once.

const COUNTER = {
  ip: "staff",
  form: "tickets.staff-notices",
  // Slots of one staff window (a window of the count is six slots).
  windowMs: 6 * STAFF_TICKET_WINDOW_MS,
} as const;

/**
 * A step, before the ticket is stored in the caller's transaction: null when this ticket is told to
 * staff at once, else the summary of its window that tells it.
 */
export async function staffNoticeOfTicket(trx: Tx, now: Date): Promise<StaffTicketSummary | null> {
  const { hits, slot } = await countInSlot(trx, COUNTER, now);
  const previous = await slotCount(trx, COUNTER, new Date(slot.getTime() - STAFF_TICKET_WINDOW_MS));
  if (hits === 1 && previous === 0) return null;
  return {
    from: slot.toISOString(),
    until: new Date(slot.getTime() + STAFF_TICKET_WINDOW_MS).toISOString(),
    skipFirst: previous === 0,
  };
}

/**
 * What a summary tells, read when its message is written: how many tickets it covers and the first
 * STAFF_SUMMARY_LISTED of them (number and department; nothing a customer wrote), oldest first.
 */
export async function ticketsOfSummary(
  db: Db,
  summary: StaffTicketSummary,
): Promise<{ count: number; tickets: { id: number; department: Department }[] }> {
  const inWindow = db
    .selectFrom("tickets")
    .where("created_at", ">=", summary.from)
    .where("created_at", "<", summary.until);
  const skipped = summary.skipFirst ? 1 : 0;
  const [rows, total] = await Promise.all([
    inWindow
      .select(["id", "department"])
      .orderBy("id")
      .limit(STAFF_SUMMARY_LISTED + skipped)
      .execute(),
    inWindow.select((eb) => eb.fn.countAll<number>().as("n")).executeTakeFirstOrThrow(),
  ]);
  return {
    count: Math.max(0, Number(total.n) - skipped),
    tickets: rows
      .slice(skipped)
      .map((row) => ({ id: Number(row.id), department: row.department as Department })),
  };
}
