import { describe, expect, it } from "vitest";
import { looksHeadless, newQuiz } from "./site";

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
