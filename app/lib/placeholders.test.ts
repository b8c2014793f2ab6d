import { describe, expect, it } from "vitest";
import { createI18n } from "~/i18n/i18n";
import { loadResources } from "~/i18n/resources";
import { fillPlaceholders, placeholder } from "./placeholders";

describe("placeholders", () => {
  it("fills every placeholder that has a value, and leaves the others", () => {
    expect(fillPlaceholders("What is {{a}} × {{b}}?", { a: 3, b: 4 })).toBe("What is 3 × 4?");
    expect(fillPlaceholders("{{a}}{{a}} {{c}}", { a: "x" })).toBe("xx {{c}}");
    expect(fillPlaceholders("{{constructor}}", {})).toBe("{{constructor}}");
  });

  it("survive the translator, so the catalogue's sentence reaches the browser to be filled", async () => {
    const en = await createI18n("en", await loadResources("en"));
    const text = en.getFixedT(null, "site")("gate.quizQuestion", {
      a: placeholder("a"),
      b: placeholder("b"),
    });
    expect(text).toBe("What is {{a}} × {{b}}?");
    expect(fillPlaceholders(text, { a: 2, b: 5 })).toBe("What is 2 × 5?");
  });

  it("keep Arabic's isolates around the value", async () => {
    const ar = await createI18n("ar", await loadResources("ar"));
    const text = ar.getFixedT(null, "site")("gate.countdown", { seconds: placeholder("seconds") });
    expect(text).toContain("\u2068{{seconds}}\u2069");
    expect(fillPlaceholders(text, { seconds: 4 })).toContain("\u20684\u2069");
  });
});
