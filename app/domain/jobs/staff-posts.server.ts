import type { Tx } from "~/db/transaction";
import { getSettings } from "~/domain/settings/settings.server";
import { enqueueDiscordPost, type StaffEvent } from "./alerts.server";

// New orders waiting for approval and new tickets, posted to the staff's Discord webhook (issue 24).
// Queued in the transaction that makes the order or ticket, so a post exists if and only if it
// committed. The job carries the event, not a text: the text is written when it is sent, in the site's
// default language (server/worker.ts), as the other alerts. No personal data: Discord is outside the
// site, so it gets numbers, the product, the total and the department, never a customer's name or email.

/**
 * A step: queues the Discord post of `event` in the caller's transaction when a webhook is set; returns
 * whether it did. One post per order or ticket (its unique key).
 */
export async function queueStaffPost(trx: Tx, event: StaffEvent, now = new Date()) {
  const settings = await getSettings(trx);
  if (!settings.alerts.discordWebhook) return false;
  const uniqueKey =
    event.kind === "orderWaiting" ? `post:order:${event.orderId}` : `post:ticket:${event.ticketId}`;
  await enqueueDiscordPost(trx, { event, uniqueKey, now });
  return true;
}
