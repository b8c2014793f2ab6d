import { keysOf } from "~/lib/keys-of";

// Catalogue keys (tickets namespace) written out, so the catalogue test sees every one in use.
export const DEPARTMENT_LABELS = {
  billing: "departments.billing",
  technical: "departments.technical",
  sales: "departments.sales",
} as const;
export type Department = keyof typeof DEPARTMENT_LABELS;
export const DEPARTMENTS = keysOf(DEPARTMENT_LABELS);
export const PRIORITY_LABELS = {
  low: "priorities.low",
  medium: "priorities.medium",
  high: "priorities.high",
} as const;
export type Priority = keyof typeof PRIORITY_LABELS;
export const PRIORITIES = keysOf(PRIORITY_LABELS);
export const TICKET_STATUS_LABELS = {
  open: "status.open",
  answered: "status.answered",
  customer_reply: "status.customer_reply",
  closed: "status.closed",
} as const;
export type TicketStatus = keyof typeof TICKET_STATUS_LABELS;
export const TICKET_STATUSES = keysOf(TICKET_STATUS_LABELS);
/**
 * The statuses as the customer reads them on their own tickets: "Customer reply" is the staff queue's
 * word for "the customer wrote last", which tells the customer nothing; to them it waits on support.
 */
export const CUSTOMER_TICKET_STATUS_LABELS = {
  open: "customerStatus.open",
  answered: "customerStatus.answered",
  customer_reply: "customerStatus.customer_reply",
  closed: "customerStatus.closed",
} as const satisfies Record<TicketStatus, string>;
export const MAX_MESSAGE_LENGTH = 5000;

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
