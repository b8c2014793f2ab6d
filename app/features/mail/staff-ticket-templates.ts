import type { Department } from "~/domain/tickets/tickets";
import { dateTimeFormat } from "~/lib/intl-format";
import { DEFAULT_TIME_ZONE } from "~/lib/time-zone";
import { text } from "./mail-format";
import type { MailContent, MailContext } from "./mail-templates";

// The staff's messages about tickets (docs/support.md): a new ticket told at once, with its subject and
// the first lines of its message, or a busy window's tickets told together (`staffTicketsOpened`, its
// tickets read when it is written: app/domain/mail/message-values.server.ts; numbers and departments
// only, nothing a customer wrote); and, to the admins who asked, a customer's reply told at once in the
// same way, or a busy window's replies together (`staffTicketReplies`, numbers only).

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

/** A ticket a customer wrote on: its number, department, subject and the first lines written. */
function ticketValues(params: Record<string, unknown>, context: MailContext) {
  return {
    id: typeof params.id === "number" || typeof params.id === "string" ? `${params.id}` : "",
    department: context.department(
      (typeof params.department === "string" ? params.department : "") as Department,
    ),
    subject: text(params.subject),
    excerpt: text(params.excerpt),
    cut: params.cut === true,
  };
}

/** A new ticket told at once: its subject and its message's first lines (none in an older message). */
function ticketOpenedContent(params: Record<string, unknown>, context: MailContext): MailContent {
  const { t, baseUrl } = context;
  const { id, department, subject, excerpt, cut } = ticketValues(params, context);
  return {
    subject: subject
      ? t("staffTicketOpened.subject", { id, department, subject })
      : t("staffTicketOpened.subjectShort", { id, department }),
    heading: t("staffTicketOpened.heading"),
    paragraphs: [
      t("staffTicketOpened.body", { id, department }),
      ...(subject ? [t("staffTicketOpened.about", { subject })] : []),
    ],
    ...(excerpt
      ? {
          quote: {
            intro: t("staffTicketOpened.wrote"),
            text: excerpt,
            after: cut ? [t("staffTicketOpened.cut")] : [],
          },
        }
      : {}),
    button: { label: t("staffTicketOpened.button"), href: `${baseUrl}/admin/tickets/${id}` },
    audience: "staff",
  };
}

/** A customer's reply told at once, to an admin who asked for it. */
function ticketRepliedContent(params: Record<string, unknown>, context: MailContext): MailContent {
  const { t, baseUrl } = context;
  const { id, department, subject, excerpt, cut } = ticketValues(params, context);
  return {
    subject: t("staffTicketReplied.subject", { id, subject }),
    heading: t("staffTicketReplied.heading"),
    paragraphs: [t("staffTicketReplied.body", { id, department, subject })],
    quote: {
      intro: t("staffTicketReplied.wrote"),
      text: excerpt,
      after: [...(cut ? [t("staffTicketReplied.cut")] : []), t("staffTicketReplied.why")],
    },
    button: { label: t("staffTicketReplied.button"), href: `${baseUrl}/admin/tickets/${id}` },
    audience: "staff",
  };
}

function listedReplies(value: unknown): { id: number; replies: number }[] {
  if (!Array.isArray(value)) return [];
  return value.flatMap((each: unknown) => {
    const { id, replies } = (each ?? {}) as { id?: unknown; replies?: unknown };
    return typeof id === "number" && typeof replies === "number" ? [{ id, replies }] : [];
  });
}

/** A busy window's customers' replies: how many, and the tickets they went to (numbers only). */
function ticketRepliesContent(params: Record<string, unknown>, context: MailContext): MailContent {
  const { t, baseUrl } = context;
  const count = typeof params.count === "number" ? params.count : 0;
  const ticketCount = typeof params.ticketCount === "number" ? params.ticketCount : 0;
  const tickets = listedReplies(params.tickets);
  const unlisted = ticketCount - tickets.length;
  const list = tickets
    .map(({ id, replies }) => t("staffTicketReplies.ticket", { id, count: replies }))
    .join(", ");
  return {
    subject: t("staffTicketReplies.subject", { count }),
    heading: t("staffTicketReplies.heading"),
    paragraphs: [
      t("staffTicketReplies.body", { count, ...windowEnds(params, context) }),
      ...(list ? [list] : []),
      ...(unlisted > 0 ? [t("staffTicketReplies.more", { count: unlisted })] : []),
      t("staffTicketReplies.why"),
    ],
    button: { label: t("staffTicketReplies.button"), href: `${baseUrl}/admin/tickets` },
    audience: "staff",
  };
}

export function staffTicketContent(
  kind: "staffTicketOpened" | "staffTicketsOpened" | "staffTicketReplied" | "staffTicketReplies",
  params: Record<string, unknown>,
  context: MailContext,
): MailContent {
  const { t, baseUrl } = context;
  if (kind === "staffTicketOpened") return ticketOpenedContent(params, context);
  if (kind === "staffTicketReplied") return ticketRepliedContent(params, context);
  if (kind === "staffTicketReplies") return ticketRepliesContent(params, context);
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
