import { labelKeys } from "~/lib/label-keys";
import type { TicketFile } from "./ticket-files";

// Catalogue keys (tickets namespace), one family a set of values (docs/i18n.md, ADR 26); the departments'
// are in common, since the bell's notifications and the staff's alerts name them too.
export const DEPARTMENTS = ["billing", "technical", "sales"] as const;
export type Department = (typeof DEPARTMENTS)[number];
export const DEPARTMENT_LABELS = labelKeys("common", "departments", DEPARTMENTS);
export const PRIORITIES = ["low", "medium", "high"] as const;
export type Priority = (typeof PRIORITIES)[number];
export const PRIORITY_LABELS = labelKeys("tickets", "priorities", PRIORITIES);
export const TICKET_STATUSES = ["open", "answered", "customer_reply", "closed"] as const;
export type TicketStatus = (typeof TICKET_STATUSES)[number];
export const TICKET_STATUS_LABELS = labelKeys("tickets", "status", TICKET_STATUSES);
/**
 * The statuses as the customer reads them on their own tickets: "Customer reply" is the staff queue's
 * word for "the customer wrote last", which tells the customer nothing; to them it waits on support.
 */
export const CUSTOMER_TICKET_STATUS_LABELS = labelKeys(
  "tickets",
  "customerStatus",
  TICKET_STATUSES,
);
export const MAX_MESSAGE_LENGTH = 5000;

/**
 * How many tickets a customer may open, and how many replies they may send, before being asked to wait
 * (one customer once opened two thousand tickets in half a minute, each mailing every admin). Counted
 * per account, whatever the address, over sliding windows (app/domain/request-limits); staff are never
 * limited. A person with a real problem opens a ticket or two and writes a few replies an hour.
 */
export const TICKET_OPENINGS_PER_10_MINUTES = 5;
export const TICKET_OPENINGS_PER_DAY = 20;
export const TICKET_REPLIES_PER_10_MINUTES = 30;

const TEN_MINUTES_MS = 10 * 60_000;
const DAY_MS = 24 * 60 * 60_000;

/** One window of a ticket limit: its count's name (one row per account and slot), size and number. */
export interface TicketLimitWindow {
  name: string;
  windowMs: number;
  limit: number;
  /** The refusal's wait is said in minutes, or in hours for the day's limit. */
  unit: "minutes" | "hours";
}

export const TICKET_LIMITS = {
  open: [
    {
      name: "tickets.open.10min",
      windowMs: TEN_MINUTES_MS,
      limit: TICKET_OPENINGS_PER_10_MINUTES,
      unit: "minutes",
    },
    { name: "tickets.open.day", windowMs: DAY_MS, limit: TICKET_OPENINGS_PER_DAY, unit: "hours" },
  ],
  reply: [
    {
      name: "tickets.reply.10min",
      windowMs: TEN_MINUTES_MS,
      limit: TICKET_REPLIES_PER_10_MINUTES,
      unit: "minutes",
    },
  ],
} as const satisfies Record<"open" | "reply", readonly TicketLimitWindow[]>;

/** The wait a refusal names, rounded up: at least one minute or hour. */
export function waitToSay(fromMs: number, untilMs: number, unit: TicketLimitWindow["unit"]) {
  const unitMs = unit === "hours" ? 3_600_000 : 60_000;
  return Math.max(1, Math.ceil((untilMs - fromMs) / unitMs));
}

/**
 * Staff hear of new tickets at most once per window each: the first ticket of a window at once (a mail
 * to each admin, a post to the staff's Discord), the others of the window together, in one message
 * when it has ended (docs/support.md). Windows are fixed slots of the clock, the same in every process.
 */
export const STAFF_TICKET_WINDOW_MS = TEN_MINUTES_MS;
/**
 * The window's summary waits this long after its end, so a ticket whose transaction began in the window
 * and committed just after it is still in it.
 */
export const STAFF_TICKET_SUMMARY_DELAY_MS = 30_000;

/**
 * A window's summary, told instead of a new ticket (ISO times): the tickets opened from `from` until
 * `until`, but for the first of them when that one was told at once (`skipFirst`).
 */
export interface StaffTicketSummary {
  from: string;
  until: string;
  skipFirst: boolean;
}

/** How many tickets a summary names one by one; it counts the rest. */
export const STAFF_SUMMARY_LISTED = 20;

/** The start of the staff window `now` falls in. */
export function staffTicketWindow(now: Date): Date {
  return new Date(Math.floor(now.getTime() / STAFF_TICKET_WINDOW_MS) * STAFF_TICKET_WINDOW_MS);
}

/** When the summary of the window starting at `start` is sent. */
export function staffTicketSummaryAt(start: Date): Date {
  return new Date(start.getTime() + STAFF_TICKET_WINDOW_MS + STAFF_TICKET_SUMMARY_DELAY_MS);
}

/**
 * What coins credited from a ticket are: a payment the customer made outside the site (a
 * `coin_purchase`, with a payment receipt), or a goodwill credit (an `admin_adjustment`, no document).
 */
export const TICKET_CREDIT_KINDS = ["payment", "goodwill"] as const;
export type TicketCreditKind = (typeof TICKET_CREDIT_KINDS)[number];
export const TICKET_CREDIT_LABELS = labelKeys("tickets", "admin.creditAs", TICKET_CREDIT_KINDS);

/** Statuses that wait on staff: the queue shows these first, the longest-waiting on top. */
export const WAITING_STATUSES: TicketStatus[] = ["open", "customer_reply"];

/** Badge colours: waiting on staff blue, answered green, closed grey (spec section 4's palette). */
export function ticketTone(status: TicketStatus): "green" | "blue" | "grey" {
  return status === "closed" ? "grey" : status === "answered" ? "green" : "blue";
}

export interface Ticket {
  id: number;
  userId: string;
  department: Department;
  subject: string;
  priority: Priority;
  status: TicketStatus;
  hostingServiceId: number | null;
  createdAt: string;
  updatedAt: string;
}

export interface TicketMessage {
  id: number;
  authorName: string;
  isStaff: boolean;
  /** A note the staff wrote for each other: only the staff's thread has any. */
  internal: boolean;
  body: string;
  createdAt: string;
  /** The files sent with it (ticket-files.ts), oldest first. */
  files: TicketFile[];
}

/**
 * How much of a staff reply the customer's "ticket answered" mail carries; a longer reply is cut there,
 * and the mail says so and links to the ticket for the rest.
 */
export const REPLY_MAIL_MAX_CHARS = 2000;
/**
 * The beginning of a customer's message a staff mail carries (a new ticket, a customer's reply): its
 * first lines, cut shorter if they are long; the rest is read on the ticket.
 */
export const STAFF_MAIL_EXCERPT = { chars: 600, lines: 8 } as const;

// C0 and C1 controls but the line feed and tab, and the bidi embeddings, overrides and isolates: what
// would hide text or reorder what surrounds it in a mail reader. Matching controls is the point here.
// eslint-disable-next-line no-control-regex
const HIDDEN_IN_MAIL = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/g;

/**
 * A message's text as a mail quotes it: its line breaks kept (blank lines run together), controls that
 * would hide or reorder text removed, and at most `limits.chars` characters and `limits.lines` lines,
 * cut at a word's end where one is near, with "…" where it was cut (`cut`). Plain text: the templates
 * escape it (React's markup, and the text part is text).
 */
export function messageExcerpt(
  body: string,
  limits: { chars: number; lines?: number },
): { text: string; cut: boolean } {
  const clean = body
    .replace(/\r\n?/g, "\n")
    .replace(HIDDEN_IN_MAIL, "")
    .replace(/[ \t]+\n/g, "\n")
    .replace(/\n{3,}/g, "\n\n")
    .trim();
  let text = clean;
  if (limits.lines !== undefined) text = text.split("\n").slice(0, limits.lines).join("\n");
  if (text.length > limits.chars) {
    // Code units, not characters: never end between the two halves of a surrogate pair.
    let end = limits.chars;
    if (/[\ud800-\udbff]/.test(text[end - 1] ?? "")) end -= 1;
    const head = text.slice(0, end);
    // Back to the last space if it is near the end (a long word or URL is cut where it falls).
    const space = head.search(/\s\S*$/);
    text = space >= end * 0.8 ? head.slice(0, space) : head;
  }
  text = text.trimEnd();
  const cut = text.length < clean.length;
  return { text: cut ? `${text}…` : text, cut };
}
