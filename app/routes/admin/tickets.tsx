import { useTranslation } from "~/i18n/use-translation";
import { Form } from "react-router";
import { Link } from "~/components/ui/link";
import { byId, type Column } from "~/components/data-table/data-table";
import { badgeColumn } from "~/components/data-table/column-presets";
import { clientColumn } from "~/components/ui/client-link";
import { ListPage } from "~/components/data-table/list-page";
import { Button } from "~/components/ui/button";
import { Select } from "~/components/ui/select";
import {
  DEPARTMENT_LABELS,
  DEPARTMENTS,
  PRIORITIES,
  PRIORITY_LABELS,
  TICKET_STATUS_LABELS,
  TICKET_STATUSES,
  ticketTone,
  type Department,
  type Priority,
  type TicketStatus,
} from "~/domain/tickets/tickets";
import { ticketQueueQuerySchema } from "~/domain/tickets/tickets.schemas";
import { listTicketQueue } from "~/domain/tickets/tickets.server";
import { adminLoader } from "~/http/admin-route.server";
import { metaFor } from "~/lib/route-meta";
import type { Route } from "./+types/tickets";

type TicketRow = Route.ComponentProps["loaderData"]["tickets"][number];
import { mediumDateTime } from "~/lib/intl-format";
import { requestContext } from "~/context.server";

export const loader = adminLoader(requestContext, {
  title: "tickets.admin.title",
  permission: "tickets.reply",
  query: ticketQueueQuerySchema,
  load: ({ db, query }) => listTicketQueue(db, query),
});

export const meta: Route.MetaFunction = ({ loaderData, matches }) => metaFor(loaderData, matches);

export default function AdminTickets({ loaderData }: Route.ComponentProps) {
  const { t } = useTranslation("tickets");
  const { t: tCommon } = useTranslation("common");
  const { tickets, query, locale } = loaderData;
  const date = mediumDateTime(locale);
  const columns: Column<TicketRow>[] = [
    { id: "id", header: "#", className: "font-mono", cell: (ticket) => ticket.id },
    {
      id: "subject",
      header: t("new.subject"),
      cell: (ticket) => (
        <>
          <Link
            to={`/admin/tickets/${ticket.id}`}
            className="font-medium wrap-anywhere text-primary hover:underline"
            dir="auto"
          >
            {ticket.subject}
          </Link>
          {ticket.waitingSince ? (
            <div className="text-xs text-muted-foreground">
              {t("admin.waiting", { date: date.format(new Date(ticket.waitingSince)) })}
            </div>
          ) : null}
        </>
      ),
    },
    clientColumn(t("admin.customer"), (ticket) => ({
      userId: ticket.userId,
      name: ticket.customerName,
      email: ticket.customerEmail,
    })),
    {
      id: "department",
      header: t("new.department"),
      cell: (ticket) => tCommon(DEPARTMENT_LABELS[ticket.department as Department]),
    },
    badgeColumn("priority", t("new.priority"), (ticket) => ({
      tone: ticket.priority === "high" ? "red" : ticket.priority === "medium" ? "yellow" : "grey",
      text: t(PRIORITY_LABELS[ticket.priority as Priority]),
    })),
    badgeColumn("status", t("admin.filterStatus"), (ticket) => ({
      tone: ticketTone(ticket.status as TicketStatus),
      text: t(TICKET_STATUS_LABELS[ticket.status as TicketStatus]),
    })),
  ];
  return (
    <ListPage
      className="grid gap-4"
      header={<h1 className="text-2xl font-bold">{t("admin.title")}</h1>}
      filters={
        <Form method="get" className="flex flex-wrap items-end gap-2">
          {(
            [
              [
                "status",
                TICKET_STATUSES.map((s) => [s, t(TICKET_STATUS_LABELS[s])]),
                t("admin.filterStatus"),
              ],
              [
                "department",
                DEPARTMENTS.map((d) => [d, tCommon(DEPARTMENT_LABELS[d])]),
                t("admin.filterDepartment"),
              ],
              [
                "priority",
                PRIORITIES.map((p) => [p, t(PRIORITY_LABELS[p])]),
                t("admin.filterPriority"),
              ],
            ] as const satisfies readonly (readonly [string, string[][], string])[]
          ).map(([name, options, label]) => (
            <label key={name} className="grid gap-1 text-sm">
              {label}
              <Select name={name} defaultValue={query[name] ?? ""} variant="compact">
                <option value="">{t("admin.all")}</option>
                {options.map(([option, text]) => (
                  <option key={option} value={option}>
                    {text}
                  </option>
                ))}
              </Select>
            </label>
          ))}
          <Button type="submit" size="sm" variant="outline">
            {t("admin.apply")}
          </Button>
        </Form>
      }
      table={{
        caption: t("admin.title"),
        columns,
        rows: tickets,
        rowKey: byId,
        phone: "scroll",
      }}
      empty={t("admin.empty")}
      pager={{
        page: query.page,
        hasMore: loaderData.hasMore,
        href: (p) =>
          `?${new URLSearchParams({
            ...Object.fromEntries(
              Object.entries(query)
                .filter(([, v]) => v !== undefined)
                .map(([k, v]) => [k, String(v)]),
            ),
            page: String(p),
          })}`,
        labels: { previous: "‹", next: "›" },
      }}
    />
  );
}
