import { numberFormat } from "~/lib/intl-format";
import { labelKeys } from "~/lib/label-keys";
import type { Ticket } from "./tickets";

// The staff's queue (/admin/tickets): how it may be sorted, and how long each ticket has waited on the
// staff, said from the loader's `now` (a page never reads the clock while it renders). Pure and safe in
// the browser.

/**
 * The queue's orders: the longest waiting on top (the tickets that wait on the staff first, oldest wait
 * first, then the rest by last change), or the last changed on top.
 */
export const TICKET_QUEUE_SORTS = ["waiting", "recent"] as const;
export type TicketQueueSort = (typeof TICKET_QUEUE_SORTS)[number];
export const TICKET_QUEUE_SORT_LABELS = labelKeys("tickets", "queue.sort", TICKET_QUEUE_SORTS);

/** A ticket as the queue lists it. */
export interface QueuedTicket extends Ticket {
  customerEmail: string;
  customerName: string;
  /** Since when it has waited on the staff (null: it waits on the customer, or is closed). */
  waitingSince: string | null;
}

const MINUTE_MS = 60_000;
const HOUR_MS = 60 * MINUTE_MS;
const DAY_MS = 24 * HOUR_MS;

/**
 * How long a ticket has waited from `since` to `now`, in the largest whole unit that fits: minutes under
 * an hour, hours under a day, days after; never negative (a clock a little behind says 0 minutes).
 */
export function waitedFor(
  since: string,
  now: string,
): { unit: "minute" | "hour" | "day"; value: number } {
  const ms = Math.max(0, new Date(now).getTime() - new Date(since).getTime());
  if (ms < HOUR_MS) return { unit: "minute", value: Math.floor(ms / MINUTE_MS) };
  if (ms < DAY_MS) return { unit: "hour", value: Math.floor(ms / HOUR_MS) };
  return { unit: "day", value: Math.floor(ms / DAY_MS) };
}

/** The wait in the reader's language, short: "45 mins", "3 hrs", "2 days" (Intl's units, as sizes are). */
export function formatWaited(since: string, now: string, locale: string): string {
  const { unit, value } = waitedFor(since, now);
  return numberFormat(locale, { style: "unit", unit, unitDisplay: "short" }).format(value);
}
