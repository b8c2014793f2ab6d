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

// Customers' replies (told only to the admins who asked for them, STAFF_MAIL_CHOICES) follow the same
// rule with a count of their own: a flood of replies mails each of those admins once a window.

/** The windows' counts: new tickets, and customers' replies. */
const COUNTERS = {
  ticket: "tickets.staff-notices",
  reply: "tickets.staff-reply-notices",
} as const;

const counter = (what: keyof typeof COUNTERS) =>
  ({
    ip: "staff",
    form: COUNTERS[what],
    // Slots of one staff window (a window of the count is six slots).
    windowMs: 6 * STAFF_TICKET_WINDOW_MS,
  }) as const;

/**
 * A step, before the ticket is stored in the caller's transaction: null when this ticket is told to
 * staff at once, else the summary of its window that tells it.
 */
export function staffNoticeOfTicket(trx: Tx, now: Date): Promise<StaffTicketSummary | null> {
  return staffNoticeOf(trx, "ticket", now);
}

/**
 * A step, before a customer's reply is stored in the caller's transaction: null when it is told at
 * once, else the summary of its window's replies that tells it.
 */
export function staffNoticeOfReply(trx: Tx, now: Date): Promise<StaffTicketSummary | null> {
  return staffNoticeOf(trx, "reply", now);
}

async function staffNoticeOf(
  trx: Tx,
  what: keyof typeof COUNTERS,
  now: Date,
): Promise<StaffTicketSummary | null> {
  const count = counter(what);
  const { hits, slot } = await countInSlot(trx, count, now);
  const previous = await slotCount(trx, count, new Date(slot.getTime() - STAFF_TICKET_WINDOW_MS));
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

/**
 * What a summary of customers' replies tells, read when its message is written: how many replies it
 * covers (a customer's messages in the window that are not a ticket's first, but the one told at once
 * when `skipFirst`) and the first STAFF_SUMMARY_LISTED tickets they went to, with how many each
 * (numbers only; nothing a customer wrote), in the order of their first reply, and how many tickets
 * they went to in all.
 */
export async function repliesOfSummary(
  db: Db,
  summary: StaffTicketSummary,
): Promise<{ count: number; ticketCount: number; tickets: { id: number; replies: number }[] }> {
  const replies = db
    .selectFrom("ticket_messages as m")
    .where("m.is_staff", "=", 0)
    .where("m.created_at", ">=", summary.from)
    .where("m.created_at", "<", summary.until)
    .where(({ exists, selectFrom }) =>
      exists(
        selectFrom("ticket_messages as opening")
          .select("opening.id")
          .whereRef("opening.ticket_id", "=", "m.ticket_id")
          .whereRef("opening.id", "<", "m.id"),
      ),
    );
  // The window's first reply was told at once: it stored the lowest id of the window's replies.
  const first = summary.skipFirst
    ? await replies.select((eb) => eb.fn.min("m.id").as("id")).executeTakeFirst()
    : undefined;
  const rest =
    first?.id === null || first?.id === undefined
      ? replies
      : replies.where("m.id", ">", Number(first.id));
  const [rows, total] = await Promise.all([
    rest
      .select((eb) => [
        "m.ticket_id",
        eb.fn.countAll<number>().as("n"),
        eb.fn.min("m.id").as("first"),
      ])
      .groupBy("m.ticket_id")
      .orderBy("first")
      .limit(STAFF_SUMMARY_LISTED)
      .execute(),
    rest
      .select((eb) => [
        eb.fn.countAll<number>().as("n"),
        eb.fn.count<number>("m.ticket_id").distinct().as("tickets"),
      ])
      .executeTakeFirstOrThrow(),
  ]);
  return {
    count: Number(total.n),
    ticketCount: Number(total.tickets),
    tickets: rows.map((row) => ({ id: Number(row.ticket_id), replies: Number(row.n) })),
  };
}
