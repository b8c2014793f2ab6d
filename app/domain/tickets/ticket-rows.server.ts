import type { Department, Priority, Ticket, TicketStatus } from "./tickets";

// A ticket's row as every list and page reads it (the customer's, the staff's queue).

export const ticketColumns = [
  "id",
  "user_id",
  "department",
  "subject",
  "priority",
  "status",
  "hosting_service_id",
  "created_at",
  "updated_at",
] as const;

export function toTicket(row: {
  id: number;
  user_id: string;
  department: string;
  subject: string;
  priority: string;
  status: string;
  hosting_service_id: number | null;
  created_at: string;
  updated_at: string;
}): Ticket {
  return {
    id: Number(row.id),
    userId: row.user_id,
    department: row.department as Department,
    subject: row.subject,
    priority: row.priority as Priority,
    status: row.status as TicketStatus,
    hostingServiceId: row.hosting_service_id,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
}
