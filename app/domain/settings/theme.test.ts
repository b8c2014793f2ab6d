import { describe, expect, it } from "vitest";
import {
  contrastRatio,
  DARK_TEXT,
  readableForeground,
  readableOnWhite,
  secondaryKeepsWhiteTextReadable,
  themeVariables,
  WHITE,
} from "./theme";

describe("theme colours", () => {
  it("computes WCAG contrast ratios", () => {
    expect(contrastRatio("#000000", "#ffffff")).toBeCloseTo(21, 5);
    expect(contrastRatio("#ffffff", "#ffffff")).toBeCloseTo(1, 5);
    // Tailwind blue-600, the default primary: 5.17:1 on white.
    expect(contrastRatio("#2563eb", WHITE)).toBeCloseTo(5.17, 2);
  });

  it("puts white text on dark colours and dark text on light ones", () => {
    expect(readableForeground("#2563eb")).toBe(WHITE);
    expect(readableForeground("#0f172a")).toBe(WHITE);
    expect(readableForeground("#fde047")).toBe(DARK_TEXT);
    expect(readableForeground("#f59e0b")).toBe(DARK_TEXT);
  });

  it("keeps a readable link colour and darkens a light one until it reads on white", () => {
    expect(readableOnWhite("#2563EB")).toBe("#2563eb");
    const darkened = readableOnWhite("#fde047");
    expect(darkened).not.toBe("#fde047");
    expect(contrastRatio(darkened, WHITE)).toBeGreaterThanOrEqual(4.5);
    // Just enough: one step lighter would not read.
    expect(contrastRatio(darkened, WHITE)).toBeLessThan(6);
  });

  it("accepts only a secondary colour under which white text stays readable", () => {
    expect(secondaryKeepsWhiteTextReadable("#0f172a")).toBe(true);
    expect(secondaryKeepsWhiteTextReadable("#ffffff")).toBe(false);
    expect(secondaryKeepsWhiteTextReadable("#94a3b8")).toBe(false);
    expect(secondaryKeepsWhiteTextReadable("navy")).toBe(false);
  });

  it("turns a theme into the CSS variables app.css reads", () => {
    expect(
      themeVariables({
        primaryColor: "#fde047",
        secondaryColor: "#0f172a",
        accentColor: "#7c3aed",
      }),
    ).toEqual({
      "--brand-primary": "#fde047",
      "--brand-primary-foreground": DARK_TEXT,
      "--brand-primary-text": readableOnWhite("#fde047"),
      "--brand-secondary": "#0f172a",
      "--brand-secondary-foreground": WHITE,
      "--brand-accent": "#7c3aed",
      "--brand-accent-foreground": WHITE,
    });
  });
});
