import type { AppServices } from "~/context.server";
import { openTicket } from "~/domain/tickets/tickets.server";

type TicketFields = Omit<Parameters<typeof openTicket>[1], "userId">;

/** Opens a ticket that must open (a low-priority sales question unless `fields` say otherwise). */
export async function openedTicket(
  app: AppServices,
  userId: string,
  fields: Partial<TicketFields> = {},
) {
  const opened = await openTicket(app.db, {
    userId,
    department: "sales",
    subject: "Question",
    priority: "low",
    message: "m",
    ...fields,
  });
  if (!opened.ok) throw new Error(opened.error);
  return opened.ticket;
}
