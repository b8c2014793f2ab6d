import { describe, expect, it } from "vitest";
import {
  ACTIVE_SERVER_COUNTER,
  activeServersNumber,
  looksHeadless,
  showsSiteAnnouncements,
  newQuiz,
  newsletterErrorOutcome,
  nextActiveServerCount,
  readNewsletterOutcome,
} from "./site";
import { contactSchema, newsletterReturnPath, newsletterSchema } from "./site.schemas";

describe("entry gate rules", () => {
  it("asks for the product of two numbers from 1 to 5", () => {
    for (let i = 0; i < 200; i++) {
      const quiz = newQuiz();
      expect(quiz.a).toBeGreaterThanOrEqual(1);
      expect(quiz.b).toBeLessThanOrEqual(5);
      expect(quiz.answer).toBe(quiz.a * quiz.b);
    }
    expect(newQuiz(() => 0.99)).toEqual({ a: 5, b: 5, answer: 25 });
  });

  it("spots headless browsers", () => {
    expect(looksHeadless({ webdriver: true, userAgent: "Mozilla/5.0" })).toBe(true);
    expect(looksHeadless({ userAgent: "Mozilla/5.0 HeadlessChrome/120" })).toBe(true);
    expect(
      looksHeadless({
        webdriver: false,
        userAgent: "Mozilla/5.0 Chrome/120",
        languages: ["fr-FR"],
      }),
    ).toBe(false);
  });
});

describe("active-server counter", () => {
  it("starts at 2458 and grows by a whole number from 0 to 2 every 5 s", () => {
    expect(ACTIVE_SERVER_COUNTER).toMatchObject({ start: 2458, intervalMs: 5000 });
    expect(nextActiveServerCount(2458, () => 0)).toBe(2458);
    expect(nextActiveServerCount(2458, () => 0.5)).toBe(2459);
    expect(nextActiveServerCount(2458, () => 0.9999)).toBe(2460);
    for (let i = 0; i < 200; i++) {
      const step = nextActiveServerCount(100) - 100;
      expect([0, 1, 2]).toContain(step);
    }
  });

  it("shows the number in the visitor's digits, without grouping", () => {
    expect(activeServersNumber(12458, "en")).toBe("12458");
    expect(activeServersNumber(12458, "fr")).toBe("12458");
    // Moroccan Arabic uses Western digits.
    expect(activeServersNumber(2458, "ar")).toBe("2458");
  });
});

describe("contact form", () => {
  const valid = { name: "Imane", email: "Imane@Example.com", subject: "VPS", message: "Hello" };

  it("accepts the four fields, trimmed, with the email in lower case", () => {
    expect(contactSchema.parse({ ...valid, name: "  Imane " })).toEqual({
      ...valid,
      email: "imane@example.com",
    });
  });

  it("requires all four fields", () => {
    const result = contactSchema.safeParse({ name: " ", subject: "", message: "\u0000" });
    expect(result.success).toBe(false);
    const messages = Object.fromEntries(
      (result.error?.issues ?? []).map((issue) => [issue.path[0], issue.message]),
    );
    expect(messages).toEqual({
      name: "site.errors.required",
      email: "common.errors.emailRequired",
      subject: "site.errors.required",
      message: "site.errors.required",
    });
  });

  it("keeps line breaks as \\n, however the browser sent them", () => {
    for (const message of ["Hello,\r\nworld", "Hello,\nworld", "Hello,\rworld"])
      expect(contactSchema.parse({ ...valid, message }).message).toBe("Hello,\nworld");
  });

  it("drops NUL characters, which PostgreSQL cannot store", () => {
    expect(contactSchema.parse({ ...valid, message: "a\u0000b" }).message).toBe("ab");
  });

  it("refuses text longer than its column allows", () => {
    const result = contactSchema.safeParse({ ...valid, subject: "x".repeat(151) });
    expect(result.error?.issues[0]?.message).toBe("site.errors.tooLong");
  });
});

describe("newsletter", () => {
  it("checks the email and ignores a bad return path", () => {
    expect(newsletterSchema.parse({ email: " Fan@Example.com " })).toEqual({
      email: "fan@example.com",
    });
    expect(newsletterSchema.parse({ email: "a@b.co", redirectTo: "x".repeat(3000) })).toEqual({
      email: "a@b.co",
    });
    expect(newsletterSchema.safeParse({ email: "a@b" }).error?.issues[0]?.message).toBe(
      "common.errors.emailInvalid",
    );
  });

  it("reads only known outcomes from the URL", () => {
    expect(readNewsletterOutcome("thanks")).toBe("thanks");
    expect(readNewsletterOutcome("emailInvalid")).toBe("emailInvalid");
    expect(readNewsletterOutcome("<b>hi</b>")).toBeNull();
    expect(readNewsletterOutcome(null)).toBeNull();
    expect(newsletterErrorOutcome("common.errors.emailRequired")).toBe("emailRequired");
    expect(newsletterErrorOutcome(undefined)).toBe("emailInvalid");
  });

  it("sends a browser without JavaScript back to the same-site page it came from", () => {
    expect(newsletterReturnPath("/about", "thanks")).toBe("/about?newsletter=thanks#newsletter");
    expect(newsletterReturnPath("/services/vps?lang=fr&newsletter=thanks", "emailInvalid")).toBe(
      "/services/vps?lang=fr&newsletter=emailInvalid#newsletter",
    );
    expect(newsletterReturnPath(undefined, "thanks")).toBe("/?newsletter=thanks#newsletter");
    for (const evil of ["https://evil.example/", "//evil.example", "/\\evil.example", "/.//evil"])
      expect(newsletterReturnPath(evil, "thanks")).toMatch(/^\/(?![/\\])/);
  });
});

describe("showsSiteAnnouncements", () => {
  it("is false for a customer's own pages only, with or without the leading slash", () => {
    for (const pattern of ["dashboard", "/dashboard", "support/:id", "/order", "coins"])
      expect(showsSiteAnnouncements(pattern), pattern).toBe(false);
    for (const pattern of ["/", "about", "/services/:type", "login", "/*", "support"])
      expect(showsSiteAnnouncements(pattern), pattern).toBe(true);
  });
});
