import { fetchPage, pageWindow, type PageRequest } from "~/db/paging";
import { withOwner } from "~/db/customer-rows";
import type { Db } from "~/db/transaction";
import type { Department, Priority, TicketStatus } from "./tickets";
import type { QueuedTicket, TicketQueueSort } from "./ticket-queue";
import { ticketColumns, toTicket } from "./ticket-rows.server";

/** How many tickets a page of the staff queue (/admin/tickets) shows. */
export const TICKET_QUEUE_PAGE_SIZE = 25;

/**
 * The staff queue: filterable; the tickets waiting longest on top, then the rest by last change (the
 * default, `sort: "waiting"`), or every ticket by last change (`"recent"`).
 */
export async function listTicketQueue(
  db: Db,
  filter: PageRequest & {
    status?: TicketStatus;
    department?: Department;
    priority?: Priority;
    sort?: TicketQueueSort;
  },
): Promise<{ tickets: QueuedTicket[]; hasMore: boolean }> {
  let query = withOwner(db, "tickets").select([
    ...ticketColumns.map((c) => `tickets.${c}` as const),
    "tickets.waiting_since",
    "users.email",
    "users.name",
  ]);
  if (filter.status) query = query.where("tickets.status", "=", filter.status);
  if (filter.department) query = query.where("tickets.department", "=", filter.department);
  if (filter.priority) query = query.where("tickets.priority", "=", filter.priority);
  const ordered =
    filter.sort === "recent"
      ? query.orderBy("tickets.updated_at", "desc").orderBy("tickets.id", "desc")
      : query
          .orderBy((eb) =>
            eb.case().when("tickets.waiting_since", "is", null).then(1).else(0).end(),
          )
          .orderBy("tickets.waiting_since", "asc")
          .orderBy("tickets.updated_at", "desc")
          .orderBy("tickets.id", "desc");
  const { rows, hasMore } = await fetchPage(ordered, pageWindow(filter, TICKET_QUEUE_PAGE_SIZE));
  return {
    tickets: rows.map((row) => ({
      ...toTicket(row),
      customerEmail: row.email,
      customerName: row.name,
      waitingSince: row.waiting_since,
    })),
    hasMore,
  };
}
