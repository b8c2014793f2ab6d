import { ticketQueueQuerySchema } from "~/domain/tickets/tickets.schemas";
import { listTicketQueue } from "~/domain/tickets/tickets.server";
import { TicketQueuePage } from "~/features/admin-tickets/ticket-queue-page";
import { adminLoader } from "~/http/admin-route.server";
import { metaFor } from "~/lib/route-meta";
import type { Route } from "./+types/tickets";
import { requestContext } from "~/context.server";

export const loader = adminLoader(requestContext, {
  title: "tickets.admin.title",
  permission: "tickets.reply",
  query: ticketQueueQuerySchema,
  load: async ({ db, query, context }) => ({
    ...(await listTicketQueue(db, query)),
    // The moment each ticket's wait is counted to, on the server and when hydrating.
    now: context.services.clock().toISOString(),
  }),
});

export const meta: Route.MetaFunction = ({ loaderData, matches }) => metaFor(loaderData, matches);

export default function AdminTickets({ loaderData }: Route.ComponentProps) {
  return <TicketQueuePage {...loaderData} />;
}
