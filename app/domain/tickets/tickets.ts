import { labelKeys } from "~/lib/label-keys";
import { filterParam, pageParam } from "~/lib/query-params";
import { z } from "~/lib/zod";
import { coinAmountSchema, coinFormKeySchema } from "~/domain/coins/coins";

// Catalogue keys (tickets namespace), one family a set of values (docs/i18n.md, ADR 26).
export const DEPARTMENTS = ["billing", "technical", "sales"] as const;
export type Department = (typeof DEPARTMENTS)[number];
export const DEPARTMENT_LABELS = labelKeys("tickets", "departments", DEPARTMENTS);
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
 * The random key a reply or new-ticket form carries, made by the server for each form it renders: a post
 * sent twice (a double tap, a retry, the browser resending it) stores one message (ADR 10, issue 21).
 */
export const ticketFormKeySchema = z
  .string({ error: "tickets.errors.formExpired" })
  .trim()
  .min(16, "tickets.errors.formExpired")
  .max(100, "tickets.errors.formExpired");

const message = z
  .string({ error: "tickets.errors.messageRequired" })
  .trim()
  .min(1, "tickets.errors.messageRequired")
  .max(MAX_MESSAGE_LENGTH, "tickets.errors.messageTooLong");

export const openTicketSchema = z.object({
  department: z.enum(DEPARTMENTS, "tickets.errors.departmentRequired"),
  subject: z
    .string({ error: "tickets.errors.subjectRequired" })
    .trim()
    .min(1, "tickets.errors.subjectRequired")
    .max(150, "tickets.errors.subjectTooLong"),
  priority: z.enum(PRIORITIES, "tickets.errors.priorityInvalid").default("medium"),
  message,
  idempotencyKey: ticketFormKeySchema,
  serviceId: z
    .string()
    .optional()
    .transform((value) => (value && /^\d{1,12}$/.test(value) ? Number(value) : undefined)),
});

export const customerTicketActionSchema = z.discriminatedUnion("intent", [
  z.object({ intent: z.literal("reply"), message, idempotencyKey: ticketFormKeySchema }),
  z.object({ intent: z.literal("close") }),
  z.object({ intent: z.literal("reopen") }),
]);

export const adminTicketActionSchema = z.discriminatedUnion("intent", [
  z.object({ intent: z.literal("reply"), message, idempotencyKey: ticketFormKeySchema }),
  z.object({ intent: z.literal("status"), status: z.enum(TICKET_STATUSES) }),
  z.object({ intent: z.literal("priority"), priority: z.enum(PRIORITIES) }),
  z.object({
    intent: z.literal("coins"),
    // The client page's bounds: a credit of at most MAX_ADJUSTMENT_CENTS, never a removal.
    amount: coinAmountSchema({ credit: true }),
    idempotencyKey: coinFormKeySchema,
    reason: z.string().trim().max(500).optional(),
  }),
]);

export const ticketQueueQuerySchema = z.object({
  status: filterParam(TICKET_STATUSES),
  department: filterParam(DEPARTMENTS),
  priority: filterParam(PRIORITIES),
  page: pageParam,
});

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
  body: string;
  createdAt: string;
}
