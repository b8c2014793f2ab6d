import type { Department } from "~/domain/tickets/tickets";
import { dateTimeFormat } from "~/lib/intl-format";
import { DEFAULT_TIME_ZONE } from "~/lib/time-zone";
import type { MailContent, MailContext } from "./mail-templates";

// The staff's messages about new tickets (docs/support.md): one ticket told at once, or a busy
// window's tickets told together (`staffTicketsOpened`, its tickets read when it is written:
// app/domain/mail/message-values.server.ts). Numbers and departments only, nothing a customer wrote.

function listedTickets(value: unknown): { id: number; department: Department }[] {
  if (!Array.isArray(value)) return [];
  return value.flatMap((each: unknown) => {
    const { id, department } = (each ?? {}) as { id?: unknown; department?: unknown };
    return typeof id === "number" && typeof department === "string"
      ? [{ id, department: department as Department }]
      : [];
  });
}

/** The window's two ends in the reader's language and the site's time zone ("23 Nov 2026, 10:00"). */
function windowEnds(params: Record<string, unknown>, context: MailContext) {
  const format = (value: unknown, options: Intl.DateTimeFormatOptions) => {
    const time = typeof value === "string" ? Date.parse(value) : NaN;
    if (Number.isNaN(time)) return "";
    return dateTimeFormat(context.locale, {
      ...options,
      timeZone: context.timeZone ?? DEFAULT_TIME_ZONE,
    }).format(time);
  };
  return {
    from: format(params.from, { dateStyle: "medium", timeStyle: "short" }),
    until: format(params.until, { timeStyle: "short" }),
  };
}

export function staffTicketContent(
  kind: "staffTicketOpened" | "staffTicketsOpened",
  params: Record<string, unknown>,
  context: MailContext,
): MailContent {
  const { t, baseUrl } = context;
  if (kind === "staffTicketOpened") {
    const id = typeof params.id === "number" || typeof params.id === "string" ? `${params.id}` : "";
    const department = context.department(
      (typeof params.department === "string" ? params.department : "") as Department,
    );
    return {
      subject: t("staffTicketOpened.subject", { id, department }),
      heading: t("staffTicketOpened.heading"),
      paragraphs: [t("staffTicketOpened.body", { id, department })],
      button: { label: t("staffTicketOpened.button"), href: `${baseUrl}/admin/tickets/${id}` },
      audience: "staff",
    };
  }
  const count = typeof params.count === "number" ? params.count : 0;
  const tickets = listedTickets(params.tickets);
  const unlisted = count - tickets.length;
  const list = tickets
    .map(({ id, department }) =>
      t("staffTicketsOpened.ticket", { id, department: context.department(department) }),
    )
    .join(", ");
  return {
    subject: t("staffTicketsOpened.subject", { count }),
    heading: t("staffTicketsOpened.heading"),
    paragraphs: [
      t("staffTicketsOpened.body", { count, ...windowEnds(params, context) }),
      ...(list ? [list] : []),
      ...(unlisted > 0 ? [t("staffTicketsOpened.more", { count: unlisted })] : []),
      t("staffTicketsOpened.why"),
    ],
    button: { label: t("staffTicketsOpened.button"), href: `${baseUrl}/admin/tickets` },
    audience: "staff",
  };
}
