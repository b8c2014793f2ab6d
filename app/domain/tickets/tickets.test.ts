import { describe, expect, it } from "vitest";
import {
  CUSTOMER_TICKET_STATUS_LABELS,
  messageExcerpt,
  TICKET_STATUS_LABELS,
  TICKET_STATUSES,
} from "./tickets";
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

describe("what a mail quotes of a message", () => {
  it("keeps a short message whole, its lines as typed", () => {
    expect(messageExcerpt("  Hello\r\nworld <b>\r\n\r\n\r\n\r\nBye  ", { chars: 100 })).toEqual({
      text: "Hello\nworld <b>\n\nBye",
      cut: false,
    });
  });

  it("cuts at a word's end near the limit, and says it cut with …", () => {
    const { text, cut } = messageExcerpt("alpha beta gamma delta", { chars: 18 });
    expect(cut).toBe(true);
    expect(text).toBe("alpha beta gamma…");
    // A long word with no space near the limit is cut where it falls.
    expect(messageExcerpt("x".repeat(50), { chars: 10 })).toEqual({
      text: `${"x".repeat(10)}…`,
      cut: true,
    });
  });

  it("keeps the first lines only, and never splits a character made of two code units", () => {
    expect(messageExcerpt("1\n2\n3\n4", { chars: 100, lines: 2 })).toEqual({
      text: "1\n2…",
      cut: true,
    });
    expect(messageExcerpt(`${"a".repeat(9)}😀b`, { chars: 10 }).text).toBe(`${"a".repeat(9)}…`);
  });

  it("drops the controls that would hide or reorder text, not the Arabic it holds", () => {
    expect(messageExcerpt("a\u202Eb\u0000c\u2066d\tمرحبا", { chars: 100 }).text).toBe(
      "abcd\tمرحبا",
    );
  });
});
