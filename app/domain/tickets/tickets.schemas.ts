import { filterParam, pageParam } from "~/lib/query-params";
import { requiredText, z } from "~/lib/zod";
import { coinAmountSchema, coinFormKeySchema } from "~/domain/coins/coins.schemas";
import {
  DEPARTMENTS,
  MAX_MESSAGE_LENGTH,
  PRIORITIES,
  TICKET_CREDIT_KINDS,
  TICKET_STATUSES,
} from "./tickets";
import { TICKET_QUEUE_SORTS } from "./ticket-queue";
import { cannedInsertSchema } from "./canned-replies.schemas";

// Schemas only: actions, loaders, *.server.ts and tests import this file, never a page's code, so zod
// never reaches the browser (docs/architecture.md).

/**
 * The random key a reply or new-ticket form carries, made by the server for each form it renders: a post
 * sent twice (a double tap, a retry, the browser resending it) stores one message (ADR 10).
 */
export const ticketFormKeySchema = z
  .string({ error: "tickets.errors.formExpired" })
  .trim()
  .min(16, "tickets.errors.formExpired")
  .max(100, "tickets.errors.formExpired");

const message = requiredText(
  "tickets.errors.messageRequired",
  MAX_MESSAGE_LENGTH,
  "tickets.errors.messageTooLong",
);

export const openTicketSchema = z.object({
  department: z.enum(DEPARTMENTS, "tickets.errors.departmentRequired"),
  subject: requiredText("tickets.errors.subjectRequired", 150, "tickets.errors.subjectTooLong"),
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

/** "Internal note" ticked: a note for the staff (ticket-notes.server.ts), not a reply. */
const internalBox = z
  .string()
  .optional()
  .transform((value) => value === "on");

export const adminTicketActionSchema = z.discriminatedUnion("intent", [
  z.object({
    intent: z.literal("reply"),
    message,
    idempotencyKey: ticketFormKeySchema,
    internal: internalBox,
  }),
  // The reply form asked again with a canned reply put in its box: nothing is sent.
  cannedInsertSchema.extend({ internal: internalBox }),
  z.object({ intent: z.literal("status"), status: z.enum(TICKET_STATUSES) }),
  z.object({ intent: z.literal("priority"), priority: z.enum(PRIORITIES) }),
  z.object({
    intent: z.literal("coins"),
    // The client page's bounds: a credit of at most MAX_ADJUSTMENT_CENTS, never a removal.
    amount: coinAmountSchema({ credit: true }),
    idempotencyKey: coinFormKeySchema,
    reason: z.string().trim().max(500).optional(),
    // A payment (with a receipt) unless the admin says goodwill: a form from before the choice was a
    // coin purchase.
    creditAs: z.enum(TICKET_CREDIT_KINDS, "tickets.errors.creditAsInvalid").default("payment"),
  }),
]);

export const ticketQueueQuerySchema = z.object({
  status: filterParam(TICKET_STATUSES),
  department: filterParam(DEPARTMENTS),
  priority: filterParam(PRIORITIES),
  // The queue's order (ticket-queue.ts): the longest waiting on top unless it says otherwise.
  sort: filterParam(TICKET_QUEUE_SORTS),
  page: pageParam,
});
