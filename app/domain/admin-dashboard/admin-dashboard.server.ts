import { sql } from "kysely";
import type { Db } from "~/db/transaction";
import { countOpenTickets } from "~/domain/tickets/tickets.server";

/** The admin dashboard's figures, all from the database: no sample numbers. */
export async function loadAdminDashboard(db: Db) {
  const count = (rows: { n: number | string }) => Number(rows.n);
  const [clients, activeServices, pendingOrders, openTickets, activity, overview] =
    await Promise.all([
      db
        .selectFrom("users")
        .select((eb) => eb.fn.countAll<number>().as("n"))
        .where("role", "=", "user")
        .where("status", "=", "active")
        .executeTakeFirstOrThrow(),
      db
        .selectFrom("hosting_services")
        .select((eb) => eb.fn.countAll<number>().as("n"))
        .where("status", "=", "active")
        .executeTakeFirstOrThrow(),
      db
        .selectFrom("orders")
        .select((eb) => eb.fn.countAll<number>().as("n"))
        .where("status", "=", "pending")
        .executeTakeFirstOrThrow(),
      countOpenTickets(db),
      db
        .selectFrom("audit_log")
        .leftJoin("users", "users.id", "audit_log.actor_id")
        .select([
          "audit_log.id",
          "audit_log.action",
          "audit_log.target_type",
          "audit_log.target_id",
          "audit_log.reason",
          "audit_log.created_at",
          "users.email",
        ])
        .orderBy("audit_log.id", "desc")
        .limit(10)
        .execute(),
      db
        .selectFrom("hosting_services")
        .select(["type", "status", sql<number>`count(*)`.as("n")])
        .groupBy(["type", "status"])
        .orderBy("type")
        .execute(),
    ]);
  return {
    stats: {
      clients: count(clients),
      activeServices: count(activeServices),
      pendingOrders: count(pendingOrders),
      openTickets,
    },
    activity: activity.map((a) => ({
      id: Number(a.id),
      action: a.action,
      target: `${a.target_type} #${a.target_id}`,
      actor: a.email ?? "",
      reason: a.reason,
      at: a.created_at,
    })),
    overview: overview.map((o) => ({ type: o.type, status: o.status, count: Number(o.n) })),
  };
}

/** The top bar's search: an order number goes to that order, anything else to the client search. */
export async function findSearchTarget(db: Db, q: string): Promise<string> {
  const text = q.trim();
  const number = /^#?(\d{1,12})$/.exec(text);
  if (number) {
    const order = await db
      .selectFrom("orders")
      .select("id")
      .where("id", "=", Number(number[1]))
      .executeTakeFirst();
    if (order) return `/admin/orders?id=${order.id}`;
  }
  return `/admin/clients?q=${encodeURIComponent(text.slice(0, 200))}`;
}
