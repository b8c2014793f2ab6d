import { describe, expect, it } from "vitest";
import { SUPPORTED_LOCALES } from "~/i18n/locales";
import {
  CANNED_REPLY_LOCALES,
  cannedReplyFor,
  cannedReplyProblem,
  cannedTextIn,
  cannedTitleKey,
  fillPlaceholders,
  MAX_CANNED_TEXT_LENGTH,
  MAX_CANNED_TITLE_LENGTH,
  readerLocale,
  unknownPlaceholders,
  withCannedText,
  type CannedReplyInput,
} from "./canned-replies";
import { cannedInsertSchema, cannedReplyActionSchema } from "./canned-replies.schemas";
import { CANNED_REPLY_SEEDS } from "./canned-reply-seeds";
import { MAX_MESSAGE_LENGTH } from "./tickets";

const texts = { en: "Hello {name}", fr: "Bonjour {name}", ar: "" };

function reply(change: Partial<CannedReplyInput> = {}): CannedReplyInput {
  return { title: "Greeting", department: null, texts, ...change };
}

describe("the text for a customer's language", () => {
  it("is written in each of the site's languages", () => {
    expect(CANNED_REPLY_LOCALES).toEqual(SUPPORTED_LOCALES);
  });

  it("is the reply's text in that language, English where it has none or only spaces", () => {
    expect(cannedTextIn(texts, "fr")).toEqual({ text: "Bonjour {name}", locale: "fr" });
    expect(cannedTextIn(texts, "ar")).toEqual({ text: "Hello {name}", locale: "en" });
    expect(cannedTextIn({ ...texts, fr: " \n " }, "fr")).toEqual({
      text: "Hello {name}",
      locale: "en",
    });
    expect(cannedTextIn(texts, "en")).toEqual({ text: "Hello {name}", locale: "en" });
  });

  it("reads the account's saved language, else the site's", () => {
    expect(readerLocale("ar", "fr")).toBe("ar");
    expect(readerLocale(null, "fr")).toBe("fr");
    expect(readerLocale("de", "en")).toBe("en");
  });
});

describe("placeholders", () => {
  it("fills the customer's name and the ticket's number, every time they appear", () => {
    expect(
      fillPlaceholders("Hi {name}, ticket #{ticket}. {name}!", { name: "Karim", ticketId: 42 }),
    ).toBe("Hi Karim, ticket #42. Karim!");
  });

  it("never reads a value again: a name that looks like a placeholder stays as it is", () => {
    expect(fillPlaceholders("Hi {name}, #{ticket}", { name: "{ticket}", ticketId: 7 })).toBe(
      "Hi {ticket}, #7",
    );
    expect(fillPlaceholders("Hi {name}", { name: "$& $1 $'", ticketId: 7 })).toBe("Hi $& $1 $'");
  });

  it("takes out of a name what would hide or reorder text, and keeps it to one line", () => {
    const name = "Ka\u202erim\u0000 \n\t El\u2066 Amrani";
    expect(fillPlaceholders("Hi {name}.", { name, ticketId: 1 })).toBe("Hi Ka rim El Amrani.");
    expect(fillPlaceholders("{name}", { name: "x".repeat(500), ticketId: 1 })).toHaveLength(100);
  });

  it("leaves {name} as written when the account has no name, and other braces alone", () => {
    expect(fillPlaceholders("Hi {name} {nom} {Name}", { name: " \u0007 ", ticketId: 3 })).toBe(
      "Hi {name} {nom} {Name}",
    );
  });

  it("finds the brace-words that are no placeholder, once each", () => {
    expect(unknownPlaceholders("{nom} {name} {ticket_id} {nom} { spaced } {}")).toEqual([
      "nom",
      "ticket_id",
    ]);
    expect(unknownPlaceholders('{"port": 7777} #{ticket}')).toEqual([]);
  });

  it("fills a reply for a ticket: its customer's language, their name, first when it suits", () => {
    const ticket = {
      id: 42,
      department: "billing" as const,
      customerName: "Sara",
      locale: "fr" as const,
    };
    const stored = { id: 5, title: "Greeting", texts, department: null };
    expect(cannedReplyFor(stored, ticket)).toEqual({
      id: 5,
      title: "Greeting",
      text: "Bonjour Sara",
      locale: "fr",
      suggested: true,
    });
    expect(cannedReplyFor({ ...stored, department: "billing" }, ticket).suggested).toBe(true);
    expect(cannedReplyFor({ ...stored, department: "technical" }, ticket).suggested).toBe(false);
    expect(cannedReplyFor(stored, { ...ticket, locale: "ar" })).toMatchObject({
      text: "Hello Sara",
      locale: "en",
    });
  });
});

describe("inserting into the reply box", () => {
  it("fills an empty box, and puts the reply after what was typed otherwise", () => {
    expect(withCannedText("", "Reply")).toBe("Reply");
    expect(withCannedText("  \n", "Reply")).toBe("Reply");
    expect(withCannedText("Typed first\n", "Reply")).toBe("Typed first\n\nReply");
  });
});

describe("limits", () => {
  it("accepts a reply with an English text and refuses each rule with its field", () => {
    expect(cannedReplyProblem(reply())).toBeNull();
    expect(cannedReplyProblem(reply({ title: " " }))).toEqual({
      field: "title",
      error: "admin-tickets.cannedReplies.errors.titleRequired",
    });
    expect(cannedReplyProblem(reply({ title: "t".repeat(MAX_CANNED_TITLE_LENGTH + 1) }))).toEqual({
      field: "title",
      error: "admin-tickets.cannedReplies.errors.titleTooLong",
    });
    expect(cannedReplyProblem(reply({ texts: { ...texts, en: " " } }))).toEqual({
      field: "textEn",
      error: "admin-tickets.cannedReplies.errors.textRequiredEn",
    });
    expect(
      cannedReplyProblem(
        reply({ texts: { ...texts, ar: "x".repeat(MAX_CANNED_TEXT_LENGTH + 1) } }),
      ),
    ).toEqual({ field: "textAr", error: "admin-tickets.cannedReplies.errors.textTooLong.ar" });
    expect(cannedReplyProblem(reply({ texts: { ...texts, fr: "Bonjour {nom}" } }))).toEqual({
      field: "textFr",
      error: "admin-tickets.cannedReplies.errors.unknownPlaceholder",
    });
  });

  it("takes a text exactly at the limit, and a filled text still fits a ticket message", () => {
    const longest = `{name} ${"x".repeat(MAX_CANNED_TEXT_LENGTH - 7)}`;
    expect(longest).toHaveLength(MAX_CANNED_TEXT_LENGTH);
    expect(cannedReplyProblem(reply({ texts: { en: longest, fr: "", ar: "" } }))).toBeNull();
    expect(
      fillPlaceholders(longest, { name: "n".repeat(100), ticketId: 2_147_483_647 }).length,
    ).toBeLessThan(MAX_MESSAGE_LENGTH);
  });

  it("tells titles apart whatever their case and spaces", () => {
    expect(cannedTitleKey("  Payment   RECEIVED ")).toBe(cannedTitleKey("payment received"));
    expect(cannedTitleKey("Paiement reçu")).toBe(cannedTitleKey("PAIEMENT REÇU"));
    expect(cannedTitleKey("Payment received")).not.toBe(cannedTitleKey("Payment received!"));
  });

  it("seeds replies that pass every rule, in the three languages, with distinct titles", () => {
    for (const seed of CANNED_REPLY_SEEDS) {
      expect(cannedReplyProblem(seed), seed.title).toBeNull();
      for (const text of Object.values(seed.texts)) expect(text).toContain("{name}");
    }
    const keys = CANNED_REPLY_SEEDS.map((seed) => cannedTitleKey(seed.title));
    expect(new Set(keys).size).toBe(keys.length);
    expect(CANNED_REPLY_SEEDS.length).toBeGreaterThanOrEqual(3);
  });
});

describe("the editor's form", () => {
  const form = {
    intent: "create",
    title: "  Payment\treceived ",
    department: "billing",
    textEn: "Hello {name}\r\nThanks",
    textFr: "",
    textAr: " ",
  };

  it("reads a reply: a clean title, no department for any, line ends made \\n", () => {
    expect(cannedReplyActionSchema.parse(form)).toEqual({
      intent: "create",
      reply: {
        title: "Payment received",
        department: "billing",
        texts: { en: "Hello {name}\nThanks", fr: "", ar: "" },
      },
    });
    expect(cannedReplyActionSchema.parse({ ...form, department: "" })).toMatchObject({
      reply: { department: null },
    });
  });

  it("says every mistake at once, each under its field", () => {
    const parsed = cannedReplyActionSchema.safeParse({
      ...form,
      title: "",
      department: "legal",
      textEn: "",
      textFr: "{nom}",
      textAr: "x".repeat(MAX_CANNED_TEXT_LENGTH + 1),
    });
    expect(parsed.success).toBe(false);
    const issues = Object.fromEntries(
      (parsed.error?.issues ?? []).map((issue) => [issue.path.join("."), issue.message]),
    );
    expect(issues).toEqual({
      title: "admin-tickets.cannedReplies.errors.titleRequired",
      department: "admin-tickets.cannedReplies.errors.departmentInvalid",
      textEn: "admin-tickets.cannedReplies.errors.textRequiredEn",
      textFr: "admin-tickets.cannedReplies.errors.unknownPlaceholder",
      textAr: "admin-tickets.cannedReplies.errors.textTooLong.ar",
    });
  });

  it("reads the picker's post without scripts, ignoring what does not parse", () => {
    const insert = { intent: "insertCanned" };
    expect(cannedInsertSchema.parse({ ...insert, canned: "3", message: "typed" })).toEqual({
      ...insert,
      canned: 3,
      message: "typed",
    });
    expect(cannedInsertSchema.parse({ ...insert, canned: "" })).toEqual({
      ...insert,
      canned: undefined,
    });
    expect(cannedInsertSchema.parse({ ...insert, canned: "x" })).toEqual({
      ...insert,
      canned: undefined,
    });
    // Only the insert's own intent: a reply's post is never read as one.
    expect(cannedInsertSchema.safeParse({ intent: "reply", canned: "3" }).success).toBe(false);
  });
});
