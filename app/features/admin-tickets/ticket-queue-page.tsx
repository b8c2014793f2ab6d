import { Form } from "react-router";
import { badgeColumn } from "~/components/data-table/column-presets";
import { byId, type Column } from "~/components/data-table/data-table";
import { ListPage } from "~/components/data-table/list-page";
import { Button } from "~/components/ui/button";
import { clientColumn } from "~/components/ui/client-link";
import { Link } from "~/components/ui/link";
import { Select } from "~/components/ui/select";
import {
  formatWaited,
  TICKET_QUEUE_SORT_LABELS,
  TICKET_QUEUE_SORTS,
  type QueuedTicket,
  type TicketQueueSort,
} from "~/domain/tickets/ticket-queue";
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
import { useTranslation } from "~/i18n/use-translation";
import { mediumDateTime } from "~/lib/intl-format";

/** The queue's address as the loader read it (tickets.schemas.ts). */
export interface TicketQueueQuery {
  status?: TicketStatus;
  department?: Department;
  priority?: Priority;
  sort?: TicketQueueSort;
  page: number;
}

/**
 * The staff's queue (/admin/tickets): filters and order in the address, each ticket with how long it has
 * waited on the staff ("3 hrs", "2 days", from the loader's `now`: nothing here reads the clock) and since
 * when, the longest waiting on top unless the order says otherwise.
 */
export function TicketQueuePage({
  tickets,
  hasMore,
  query,
  locale,
  now,
}: {
  tickets: QueuedTicket[];
  hasMore: boolean;
  query: TicketQueueQuery;
  locale: string;
  /** The moment the waits are counted to (ISO), the loader's. */
  now: string;
}) {
  const { t } = useTranslation("tickets");
  const { t: tCommon } = useTranslation("common");
  const date = mediumDateTime(locale);
  const columns: Column<QueuedTicket>[] = [
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
    {
      id: "waited",
      header: t("queue.waiting"),
      className: "whitespace-nowrap",
      cell: (ticket) =>
        ticket.waitingSince ? (
          <span
            title={t("queue.waited", { time: formatWaited(ticket.waitingSince, now, locale) })}
            data-waited
          >
            {formatWaited(ticket.waitingSince, now, locale)}
          </span>
        ) : (
          <span className="text-muted-foreground">—</span>
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
      cell: (ticket) => tCommon(DEPARTMENT_LABELS[ticket.department]),
    },
    badgeColumn("priority", t("new.priority"), (ticket) => ({
      tone: ticket.priority === "high" ? "red" : ticket.priority === "medium" ? "yellow" : "grey",
      text: t(PRIORITY_LABELS[ticket.priority]),
    })),
    badgeColumn("status", t("admin.filterStatus"), (ticket) => ({
      tone: ticketTone(ticket.status),
      text: t(TICKET_STATUS_LABELS[ticket.status]),
    })),
  ];
  const filters = [
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
    ["priority", PRIORITIES.map((p) => [p, t(PRIORITY_LABELS[p])]), t("admin.filterPriority")],
  ] as const satisfies readonly (readonly [string, string[][], string])[];
  return (
    <ListPage
      className="grid gap-4"
      header={<h1 className="text-2xl font-bold">{t("admin.title")}</h1>}
      filters={
        <Form method="get" className="flex flex-wrap items-end gap-2">
          {filters.map(([name, options, label]) => (
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
          <label className="grid gap-1 text-sm">
            {t("queue.sortLabel")}
            <Select name="sort" defaultValue={query.sort ?? "waiting"} variant="compact">
              {TICKET_QUEUE_SORTS.map((sort) => (
                <option key={sort} value={sort}>
                  {t(TICKET_QUEUE_SORT_LABELS[sort])}
                </option>
              ))}
            </Select>
          </label>
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
        hasMore,
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
