import { describe, expect, it } from "vitest";
import { westernDigits } from "./western-digits";

describe("westernDigits", () => {
  it("reads Arabic-Indic and Extended Arabic-Indic digits and the Arabic decimal separator", () => {
    expect(westernDigits("٠١٢٣٤٥٦٧٨٩")).toBe("0123456789");
    expect(westernDigits("۰۱۲۳۴۵۶۷۸۹")).toBe("0123456789");
    expect(westernDigits("١٢٫٥٠")).toBe("12.50");
    expect(westernDigits("-٢,٥")).toBe("-2,5");
  });

  it("leaves every other character as it is", () => {
    expect(westernDigits("12.5 € abc مرحبا")).toBe("12.5 € abc مرحبا");
  });
});
