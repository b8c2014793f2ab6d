import type { Tx } from "~/db/transaction";
import { notifyStaff } from "~/domain/notifications/notifications.server";
import { getSettings } from "~/domain/settings/settings.server";
import type { Settings } from "~/domain/settings/settings";
import { staffTicketSummaryAt } from "~/domain/tickets/tickets";
import { TOP_UP_PROOFS_PATH } from "~/domain/payments/top-ups";
import { enqueueDiscordPost, type StaffEvent } from "./discord-posts.server";

// New orders waiting for approval (or approved by the system as they were placed), new tickets and top-ups marked paid, told to staff: a notification in each
// active admin's own list (the admin bell, /admin/notifications) and, when a webhook is set, a post to the
// staff's Discord. Both are written in the transaction that makes the order or ticket, so they exist if and
// only if it committed. The post's job carries the event, not a text: the text is written when it is sent, in
// the site's default language (server/worker.ts), as the other alerts. No personal data goes to Discord (it
// is outside the site): numbers, the product, the total, the department, a top-up's reference and method,
// never a customer's name, email or the account they paid from. The notifications stay inside the admin
// panel, so they name the ticket's subject and the order's server too. A new ticket of a busy window is
// posted in that window's summary, one post once it has ended (docs/support.md); each admin's
// notification is written all the same.

type StaffNotice = Omit<Parameters<typeof notifyStaff>[1], "now">;
/**
 * What happened, as a use-case tells it (a window's summary is only ever a post this step queues). A new
 * order also carries its `service` (the plan and the customer's server name, serviceLabel), which the
 * admins' notification names it by, as their mail does, and which the Discord post never carries.
 */
export type StaffNews =
  | Exclude<StaffEvent, { kind: "ticketsOpened" | OrderNews["kind"] }>
  | (OrderNews & { service: string });

/** A new order, waiting or approved by the system: told with its service's label to the admins. */
type OrderNews = Extract<StaffEvent, { kind: "orderWaiting" | "orderApprovedAutomatically" }>;

/** What each admin's notification of `event` says and where it leads. */
async function staffNotice(trx: Tx, event: StaffNews): Promise<StaffNotice> {
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
  if (event.kind === "topUpPaid")
    return {
      kind: "top_up_paid",
      params: {
        id: event.requestId,
        reference: event.reference,
        method: event.method,
        amountCents: event.amountCents,
      },
      link: TOP_UP_PROOFS_PATH,
      dedupeKey: `staff:top-up:${event.requestId}`,
    };
  return {
    kind: event.kind === "orderWaiting" ? "order_waiting" : "order_auto_approved",
    params: { id: event.orderId, product: event.service, amountCents: event.totalCents },
    link: `/admin/orders?id=${event.orderId}`,
    dedupeKey: `staff:order:${event.orderId}`,
  };
}

/**
 * A step: tells staff of `event` in the caller's transaction: each active admin's notification (once per
 * order, ticket or top-up and admin), and the Discord post when a webhook is set (one per order, ticket
 * or top-up request: its unique key, and no post when every admin had been told already; a ticket with a
 * summary: that window's one summary post, queued for when it ends). Returns whether a post was queued.
 */
export async function queueStaffPost(
  trx: Tx,
  event: StaffNews,
  now = new Date(),
  /** The settings the caller has already read (an order's); read here when not given. */
  known?: Pick<Settings, "alerts">,
) {
  const told = await notifyStaff(trx, { ...(await staffNotice(trx, event)), now });
  // Told before (a top-up marked paid again to correct it): every admin has it, and so has Discord.
  if (told.admins > 0 && told.written === 0) return false;
  const settings = known ?? (await getSettings(trx));
  if (!settings.alerts.discordWebhook) return false;
  if (event.kind === "ticketOpened" && event.summary) {
    // Waiting until its window has ended, its key keeps every other ticket of the window to this one.
    const { summary } = event;
    await enqueueDiscordPost(trx, {
      event: { kind: "ticketsOpened", ...summary },
      uniqueKey: `post:tickets:${summary.from}`,
      runAt: staffTicketSummaryAt(new Date(summary.from)),
      now,
    });
    return true;
  }
  const posted: StaffEvent =
    event.kind === "orderWaiting" || event.kind === "orderApprovedAutomatically"
      ? {
          kind: event.kind,
          orderId: event.orderId,
          product: event.product,
          totalCents: event.totalCents,
        }
      : event;
  await enqueueDiscordPost(trx, { event: posted, uniqueKey: postKey(event), now });
  return true;
}

/** A post's unique key: one per order, ticket or top-up request, however often its event is told. */
function postKey(event: StaffNews): string {
  switch (event.kind) {
    case "orderWaiting":
    case "orderApprovedAutomatically":
      return `post:order:${event.orderId}`;
    case "ticketOpened":
      return `post:ticket:${event.ticketId}`;
    case "topUpPaid":
      return `post:top-up:${event.requestId}`;
  }
}
