import { fetchPage, pageWindow, type PageRequest } from "~/db/paging";
import type { Db } from "~/db/transaction";
import type { RefundFilter, RefundRequestRow } from "./cancellation";
import { SUMMARY_COLUMNS, toSummary } from "./refund-decision.server";

// The admins' queue of refund requests (/admin/refunds): the requests waiting, oldest first, or those of
// another state, newest first.

export const REFUNDS_PAGE_SIZE = 25;

/** A page of the refund requests in `state` (requested by default), with their customer and service. */
export async function listRefundRequests(
  db: Db,
  query: PageRequest & { state?: RefundFilter },
): Promise<{ requests: RefundRequestRow[]; hasMore: boolean }> {
  const state = query.state ?? "requested";
  const { rows, hasMore } = await fetchPage(
    db
      .selectFrom("service_cancellations")
      .innerJoin("users", "users.id", "service_cancellations.user_id")
      .innerJoin(
        "hosting_services",
        "hosting_services.id",
        "service_cancellations.hosting_service_id",
      )
      .leftJoin("users as decider", "decider.id", "service_cancellations.decided_by")
      .select(SUMMARY_COLUMNS)
      .select([
        "service_cancellations.hosting_service_id",
        "service_cancellations.user_id",
        "users.name as user_name",
        "users.email as user_email",
        "hosting_services.name as service_name",
        "hosting_services.server_name",
        "hosting_services.status as service_status",
        "decider.name as decider_name",
      ])
      .select((eb) =>
        eb
          .selectFrom("orders")
          .select((inner) => inner.fn.min("orders.created_at").as("at"))
          .whereRef("orders.hosting_service_id", "=", "service_cancellations.hosting_service_id")
          .where("orders.status", "=", "approved")
          .as("ordered_at"),
      )
      .where("service_cancellations.kind", "=", "refund")
      .where("service_cancellations.state", "=", state)
      // The requests waiting, oldest first (the first to decide); the others, the latest first.
      .orderBy("service_cancellations.created_at", state === "requested" ? "asc" : "desc")
      .orderBy("service_cancellations.id", state === "requested" ? "asc" : "desc"),
    pageWindow(query, REFUNDS_PAGE_SIZE),
  );
  return {
    requests: rows.map((row) => ({
      ...toSummary(row),
      serviceId: Number(row.hosting_service_id),
      serviceName: row.service_name,
      serverName: row.server_name,
      serviceStatus: row.service_status,
      userId: row.user_id,
      userName: row.user_name,
      userEmail: row.user_email,
      orderedAt: row.ordered_at ? new Date(row.ordered_at).toISOString() : null,
      decidedByName: row.decider_name,
    })),
    hasMore,
  };
}
