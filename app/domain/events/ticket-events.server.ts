import type {
  Department,
  Priority,
  StaffTicketSummary,
  TicketStatus,
} from "~/domain/tickets/tickets";
import type { Change, ReactionTable } from "./reaction.server";

export type TicketEvent =
  /**
   * A customer opened a ticket: told to staff at once, or in its busy window's summary (`summary`); the
   * staff's post never carries what the customer wrote, their mail does.
   */
  | {
      type: "ticket.opened";
      ticketId: number;
      department: Department;
      subject: string;
      message: string;
      summary: StaffTicketSummary | null;
    }
  /** A customer replied (`replyKey`: the reply's form key): the staff who asked are told by mail. */
  | {
      type: "ticket.customerReplied";
      ticketId: number;
      department: Department;
      subject: string;
      message: string;
      replyKey?: string;
      summary: StaffTicketSummary | null;
    }
  /** Staff answered: the customer is told, in the list and by mail with the reply's text. */
  | {
      type: "ticket.answered";
      ticketId: number;
      userId: string;
      subject: string;
      reply: string;
      replyKey?: string;
    }
  /** An admin changed its status or its priority. */
  | {
      type: "ticket.fieldChanged";
      actorId: string;
      ticketId: number;
      field: "status" | "priority";
      change: Change<{ status: TicketStatus; priority: Priority }>;
    };

/** What follows a ticket's opening, replies and changes. */
export const ticketReactions: ReactionTable<TicketEvent> = {
  "ticket.opened": {
    // Each admin's "new ticket" mail with its subject and first lines, or the window's summary
    // (docs/mail.md).
    mail: ({ ticketId, department, subject, message, summary }) => ({
      kind: "ticketOpened",
      ticketId,
      department,
      ...(summary ? { summary } : {}),
      subject,
      message,
    }),
    // Each admin's notification, and the staff's Discord (when set): its number and department,
    // nothing the customer wrote; or the window's summary post.
    staffPost: ({ ticketId, department, summary }) => ({
      kind: "ticketOpened",
      ticketId,
      department,
      ...(summary ? { summary } : {}),
    }),
  },
  "ticket.customerReplied": {
    mail: ({ ticketId, department, subject, message, replyKey, summary }) => ({
      kind: "ticketCustomerReplied",
      ticketId,
      department,
      subject,
      message,
      replyKey,
      ...(summary ? { summary } : {}),
    }),
  },
  "ticket.answered": {
    notice: ({ ticketId, userId, subject }) => ({
      userId,
      kind: "ticket_answered",
      params: { id: ticketId, subject },
      link: `/support/${ticketId}`,
    }),
    mail: ({ ticketId, userId, subject, reply, replyKey }) => ({
      kind: "ticketAnswered",
      ticketId,
      userId,
      subject,
      reply,
      replyKey,
    }),
  },
  "ticket.fieldChanged": {
    audit: ({ actorId, ticketId, field, change }) => ({
      actorId,
      action: field === "status" ? "ticket.status" : "ticket.priority",
      targetType: "ticket",
      targetId: ticketId,
      ...change,
    }),
  },
};
