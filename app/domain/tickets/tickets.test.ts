import { describe, expect, it } from "vitest";
import { CUSTOMER_TICKET_STATUS_LABELS, TICKET_STATUS_LABELS, TICKET_STATUSES } from "./tickets";
import {
  adminTicketActionSchema,
  customerTicketActionSchema,
  openTicketSchema,
} from "./tickets.schemas";

const KEY = "3f0e8c1a-5b7d-4e2f-9a6c-0d1b2c3e4f50";

describe("ticket forms carry their key", () => {
  const newTicket = { department: "billing", subject: "Coins", message: "5 coins please" };

  it("a reply and a new ticket need the form's key", () => {
    for (const parse of [
      () => customerTicketActionSchema.safeParse({ intent: "reply", message: "Hi" }),
      () => adminTicketActionSchema.safeParse({ intent: "reply", message: "Hi" }),
      () => openTicketSchema.safeParse(newTicket),
    ]) {
      const result = parse();
      expect(result.success).toBe(false);
      expect(result.error?.issues.map((issue) => issue.message)).toEqual([
        "tickets.errors.formExpired",
      ]);
    }
    expect(
      customerTicketActionSchema.safeParse({ intent: "reply", message: "Hi", idempotencyKey: KEY })
        .success,
    ).toBe(true);
    expect(
      openTicketSchema.parse({ ...newTicket, idempotencyKey: ` ${KEY} ` }).idempotencyKey,
    ).toBe(KEY);
  });

  it("refuses a key too short or too long to be one the server made", () => {
    for (const idempotencyKey of ["short", "k".repeat(101)])
      expect(
        adminTicketActionSchema.safeParse({ intent: "reply", message: "Hi", idempotencyKey })
          .success,
      ).toBe(false);
  });

  it("closing and reopening carry no key", () => {
    expect(customerTicketActionSchema.safeParse({ intent: "close" }).success).toBe(true);
    expect(customerTicketActionSchema.safeParse({ intent: "reopen" }).success).toBe(true);
  });
});

describe("the customer's words for a ticket's status", () => {
  it("names every status, and 'customer reply' as waiting on support", () => {
    expect(Object.keys(CUSTOMER_TICKET_STATUS_LABELS).sort()).toEqual([...TICKET_STATUSES].sort());
    expect(CUSTOMER_TICKET_STATUS_LABELS.customer_reply).toBe("customerStatus.customer_reply");
    expect(CUSTOMER_TICKET_STATUS_LABELS.customer_reply).not.toBe(
      TICKET_STATUS_LABELS.customer_reply,
    );
  });
});
