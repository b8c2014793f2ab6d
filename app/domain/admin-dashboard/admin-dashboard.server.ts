import { sql } from "kysely";
import { countRows } from "~/db/paging";
import type { Db } from "~/db/transaction";
import { listActiveAnnouncements } from "~/domain/announcements/announcements.server";
import { listAuditLog } from "~/domain/audit/audit-log.server";
import { activeServicesCount } from "~/domain/hosting-services/customer-services.server";
import { pendingOrdersCount } from "~/domain/orders/orders.server";
import type { TopUpState } from "~/domain/payments/top-ups";
import type { Settings } from "~/domain/settings/settings";
import { countOpenTickets } from "~/domain/tickets/tickets.server";
import { readSetupChecklist } from "./setup-checklist.server";

export const RECENT_ACTIVITY = 10;

/** A top-up the customer marked paid, waiting for an admin to approve or reject it. */
const AWAITING_DECISION: TopUpState = "proof_sent";

/**
 * The admin dashboard's figures, all from the database (no sample numbers), the team's announcements
 * in the admin's `language`, and what the shop still has to set up (null once all of it is): `settings`
 * are the request's, `mailEnabled` whether SMTP_URL is set.
 */
export async function loadAdminDashboard(
  db: Db,
  {
    language = "en",
    settings,
    mailEnabled,
  }: { language?: string; settings: Settings; mailEnabled: boolean },
) {
  const count = (rows: { count: number | string }) => Number(rows.count);
  const [
    clients,
    activeServices,
    pendingOrders,
    topUpsWaiting,
    openTickets,
    activity,
    overview,
    announcements,
    setup,
  ] = await Promise.all([
    db
      .selectFrom("users")
      .select((eb) => eb.fn.countAll<number>().as("count"))
      .where("role", "=", "user")
      .where("status", "=", "active")
      .executeTakeFirstOrThrow(),
    activeServicesCount(db).executeTakeFirstOrThrow(),
    pendingOrdersCount(db).executeTakeFirstOrThrow(),
    countRows(db.selectFrom("top_up_requests").where("state", "=", AWAITING_DECISION)),
    countOpenTickets(db),
    listAuditLog(db, { page: 1, pageSize: RECENT_ACTIVITY }),
    db
      .selectFrom("hosting_services")
      .select(["type", "status", sql<number>`count(*)`.as("n")])
      .groupBy(["type", "status"])
      .execute(),
    listActiveAnnouncements(db, "admins", language),
    readSetupChecklist(db, { settings, mailEnabled }),
  ]);
  return {
    stats: {
      clients: count(clients),
      activeServices: count(activeServices),
      pendingOrders: count(pendingOrders),
      topUpsWaiting,
      openTickets,
    },
    setup,
    activity: activity.entries,
    announcements,
    // Sorted here: the dialects disagree on where NULL goes; services added by hand (no type) come last.
    overview: overview
      .map((o) => ({ type: o.type, status: o.status, count: Number(o.n) }))
      .sort(
        (a, b) =>
          Number(a.type === null) - Number(b.type === null) ||
          (a.type ?? "").localeCompare(b.type ?? "") ||
          a.status.localeCompare(b.status),
      ),
  };
}

/** Order ids are 32-bit integers on PostgreSQL; a longer number cannot be one. */
const MAX_ORDER_ID = 2_147_483_647;

/**
 * The top bar's search: an order number ("42" or "#42") that exists goes to that order; anything else
 * (a name, part of an email, a number that is no order) goes to the client list filtered by it.
 */
export async function findSearchTarget(db: Db, q: string): Promise<string> {
  const text = q.trim();
  const number = /^#?(\d{1,10})$/.exec(text);
  if (number && Number(number[1]) <= MAX_ORDER_ID) {
    const order = await db
      .selectFrom("orders")
      .select("id")
      .where("id", "=", Number(number[1]))
      .executeTakeFirst();
    if (order) return `/admin/orders?id=${order.id}`;
  }
  return `/admin/clients?q=${encodeURIComponent(text.slice(0, 200))}`;
}
