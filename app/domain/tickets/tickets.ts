import { labelKeys } from "~/lib/label-keys";

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
  body: string;
  createdAt: string;
}
