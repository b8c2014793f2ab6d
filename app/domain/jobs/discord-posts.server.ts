import type { Tx } from "~/db/transaction";
import type { Department, StaffTicketSummary } from "~/domain/tickets/tickets";
import { enqueueJob } from "./jobs.server";

// The staff's Discord post as a job (its handler: alerts.server.ts): what it carries and the step that
// queues it, which the alerts and the staff's posts (staff-posts.server.ts) share.

export const DISCORD_ALERT_JOB = "alerts.discord";
/** Discord refuses a message longer than this. */
export const DISCORD_MAX_LENGTH = 2000;

/** Something staff hear of in Discord whose text is written when it is sent (staff-posts.server.ts). */
export type StaffEvent =
  | { kind: "orderWaiting"; orderId: number; product: string; totalCents: number }
  /** Approved by the system as it was placed: its plan activates when paid, its customer is trusted. */
  | { kind: "orderApprovedAutomatically"; orderId: number; product: string; totalCents: number }
  /** With `summary`, told in its busy window's summary post instead (staff-posts.server.ts). */
  | { kind: "ticketOpened"; ticketId: number; department: Department; summary?: StaffTicketSummary }
  /** A busy window's tickets, counted when the post is written (docs/support.md). */
  | ({ kind: "ticketsOpened" } & StaffTicketSummary)
  /**
   * A customer says a top-up is paid: its request, reference, method (its English name) and
   * coins; never the payer's phone or account, which stay in the admin panel.
   */
  | {
      kind: "topUpPaid";
      requestId: number;
      reference: string;
      method: string;
      amountCents: number;
    };

/**
 * Writes an event's text, in the site's default language (given by the server: server/worker.ts); null
 * when there is nothing to say after all (a summary whose tickets were all deleted).
 */
export type StaffPostWriter = (event: StaffEvent) => Promise<string | null>;

/**
 * A step: queues a Discord post in the caller's transaction, so it exists if and only if what it tells
 * of committed. The caller checks that a webhook is set. It carries a text, or an event written when it
 * is sent. Null when a post with the same unique key waits already.
 */
export function enqueueDiscordPost(
  trx: Tx,
  {
    text,
    event,
    uniqueKey,
    runAt,
    now = new Date(),
  }: { text?: string; event?: StaffEvent; uniqueKey?: string; runAt?: Date; now?: Date },
) {
  return enqueueJob(trx, {
    type: DISCORD_ALERT_JOB,
    payload: text === undefined ? { event } : { text: text.slice(0, DISCORD_MAX_LENGTH) },
    maxAttempts: 8,
    uniqueKey,
    runAt,
    now,
  });
}
