import type { AppServices } from "~/context.server";
import { openTicket } from "~/domain/tickets/tickets.server";
import { customerWithCoins } from "./money-fixtures";

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

/** A fresh customer (no coins) and a ticket they opened with `fields` (openedTicket's defaults otherwise). */
export async function customerWithTicket(app: AppServices, fields: Partial<TicketFields> = {}) {
  const owner = await customerWithCoins(app, 0);
  return { owner, ticket: await openedTicket(app, owner, fields) };
}
