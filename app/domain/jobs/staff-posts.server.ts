import type { Tx } from "~/db/transaction";
import { notifyStaff } from "~/domain/notifications/notifications.server";
import { getSettings } from "~/domain/settings/settings.server";
import type { Settings } from "~/domain/settings/settings";
import { enqueueDiscordPost, type StaffEvent } from "./alerts.server";

// New orders waiting for approval and new tickets, told to staff (issue 24): a notification in each
// active admin's own list (the admin bell, /admin/notifications) and, when a webhook is set, a post to
// the staff's Discord. Both are written in the transaction that makes the order or ticket, so they exist
// if and only if it committed. The post's job carries the event, not a text: the text is written when it
// is sent, in the site's default language (server/worker.ts), as the other alerts. No personal data goes
// to Discord (it is outside the site): numbers, the product, the total and the department, never a
// customer's name or email. The notifications stay inside the admin panel, so they name the ticket's
// subject too.

type StaffNotice = Omit<Parameters<typeof notifyStaff>[1], "now">;

/** What each admin's notification of `event` says and where it leads. */
async function staffNotice(trx: Tx, event: StaffEvent): Promise<StaffNotice> {
  if (event.kind === "ticketOpened") {
    // The subject is read here, in the same transaction, rather than carried by the event: the event
    // is also the Discord post's payload, which must not hold it.
    const ticket = await trx
      .selectFrom("tickets")
      .select("subject")
      .where("id", "=", event.ticketId)
      .executeTakeFirst();
    return {
      kind: "ticket_opened",
      params: { id: event.ticketId, department: event.department, subject: ticket?.subject ?? "" },
      link: `/admin/tickets/${event.ticketId}`,
      dedupeKey: `staff:ticket:${event.ticketId}`,
    };
  }
  return {
    kind: "order_waiting",
    params: { id: event.orderId, product: event.product, amountCents: event.totalCents },
    link: `/admin/orders?id=${event.orderId}`,
    dedupeKey: `staff:order:${event.orderId}`,
  };
}

/**
 * A step: tells staff of `event` in the caller's transaction: each active admin's notification (once per
 * order or ticket and admin), and the Discord post when a webhook is set (one per order or ticket, its
 * unique key). Returns whether a post was queued.
 */
export async function queueStaffPost(
  trx: Tx,
  event: StaffEvent,
  now = new Date(),
  /** The settings the caller has already read (an order's); read here when not given. */
  known?: Pick<Settings, "alerts">,
) {
  await notifyStaff(trx, { ...(await staffNotice(trx, event)), now });
  const settings = known ?? (await getSettings(trx));
  if (!settings.alerts.discordWebhook) return false;
  const uniqueKey =
    event.kind === "orderWaiting" ? `post:order:${event.orderId}` : `post:ticket:${event.ticketId}`;
  await enqueueDiscordPost(trx, { event, uniqueKey, now });
  return true;
}
