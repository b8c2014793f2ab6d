import { describe, expect, it } from "vitest";
import { defaultSettings } from "./settings";
import { settingsActionSchema } from "./settings.schemas";
import { privacyBlocks, privacyTextFor } from "./privacy";

describe("privacyTextFor", () => {
  const empty = defaultSettings().privacy;

  it("gives no admin text by default: the page shows the built-in one, in the reader's language", () => {
    expect(empty).toEqual({ en: "", fr: "", ar: "" });
    for (const locale of ["en", "fr", "ar"]) expect(privacyTextFor(empty, locale)).toBeNull();
  });

  it("shows the admin's text in the reader's language, French and Arabic falling back to English", () => {
    const stored = { en: "English policy", fr: "Politique", ar: "" };
    expect(privacyTextFor(stored, "en")).toEqual({ text: "English policy", lang: "en" });
    expect(privacyTextFor(stored, "fr")).toEqual({ text: "Politique", lang: "fr" });
    expect(privacyTextFor(stored, "ar")).toEqual({ text: "English policy", lang: "en" });
    // Blank counts as empty; an unknown language reads English.
    expect(privacyTextFor({ ...stored, fr: "  \n " }, "fr")).toEqual({
      text: "English policy",
      lang: "en",
    });
    expect(privacyTextFor(stored, "de")).toEqual({ text: "English policy", lang: "en" });
  });
});

describe("privacyBlocks", () => {
  it("reads headings, lists and paragraphs, and nothing else", () => {
    const text = [
      "First line",
      "goes on.",
      "",
      "## What we keep",
      "- one",
      "- two",
      "  carried on",
      "Closing <b>words</b>",
      "",
      "##",
      "-",
    ].join("\r\n");
    expect(privacyBlocks(text)).toEqual([
      { kind: "paragraph", text: "First line goes on." },
      { kind: "heading", text: "What we keep" },
      { kind: "list", items: ["one", "two carried on Closing <b>words</b>"] },
      { kind: "paragraph", text: "## -" },
    ]);
    expect(privacyBlocks("")).toEqual([]);
  });
});

describe("the privacy form", () => {
  const parse = (fields: Record<string, string>) =>
    settingsActionSchema.safeParse({ intent: "privacy", ...fields });

  it("takes all three empty (the built-in text) or English with or without the others", () => {
    expect(parse({ en: "", fr: "", ar: "" }).success).toBe(true);
    expect(parse({}).success).toBe(true);
    expect(parse({ en: "Policy", ar: "سياسة" }).data).toMatchObject({
      en: "Policy",
      fr: "",
      ar: "سياسة",
    });
  });

  it("refuses French or Arabic without English, and a text over 20,000 characters", () => {
    const french = parse({ en: " ", fr: "Politique" });
    expect(french.success).toBe(false);
    expect(french.error?.issues.map((issue) => [issue.path, issue.message])).toEqual([
      [["en"], "admin-settings.errors.privacyEnglishRequired"],
    ]);
    const long = parse({ en: "x".repeat(20_001) });
    expect(long.error?.issues[0]?.message).toBe("admin-settings.errors.tooLong");
  });
});
