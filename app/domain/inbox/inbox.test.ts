import { describe, expect, it } from "vitest";
import { replyHref } from "./inbox";
import {
  contactActionSchema,
  contactListQuerySchema,
  subscriberActionSchema,
} from "./inbox.schemas";

describe("inbox", () => {
  it("reads the list's address leniently", () => {
    expect(contactListQuerySchema.parse({ q: "x", show: "bogus", open: "-3", page: "0" })).toEqual({
      q: "x",
      show: "all",
      open: undefined,
      page: 1,
    });
    expect(contactListQuerySchema.parse({ show: "unread", open: "12" })).toMatchObject({
      show: "unread",
      open: 12,
    });
  });

  it("takes only known intents and real ids", () => {
    expect(contactActionSchema.safeParse({ intent: "open", id: "4" }).data).toEqual({
      intent: "open",
      id: 4,
    });
    const unknown = contactActionSchema.safeParse({ intent: "archive", id: "4" });
    expect(unknown.error?.issues[0]?.message).toBe("admin-inbox.errors.unknownAction");
    for (const id of ["", "0", "-1", "1.5", "1e309", "abc", "99999999999999999999"]) {
      const parsed = contactActionSchema.safeParse({ intent: "delete", id });
      expect(parsed.error?.issues[0]?.message, id).toBe("admin-inbox.errors.messageNotFound");
    }
    expect(subscriberActionSchema.safeParse({ intent: "remove", id: "7" }).data).toEqual({
      intent: "remove",
      id: 7,
    });
    expect(subscriberActionSchema.safeParse({ intent: "delete", id: "7" }).success).toBe(false);
  });

  it("replies to the sender with the subject", () => {
    expect(replyHref("nadia+games@example.com", "Server down & lag?")).toBe(
      "mailto:nadia%2Bgames@example.com?subject=Re%3A%20Server%20down%20%26%20lag%3F",
    );
  });
});
