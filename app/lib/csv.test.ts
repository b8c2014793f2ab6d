import { describe, expect, it } from "vitest";
import { csvDate, csvEuros, csvText, toCsv } from "./csv";

describe("csv", () => {
  it("writes cents as decimal euros with a dot", () => {
    expect(csvEuros(1250).csvNumber).toBe("12.50");
    expect(csvEuros(5).csvNumber).toBe("0.05");
    expect(csvEuros(0).csvNumber).toBe("0.00");
    expect(csvEuros(-305).csvNumber).toBe("-3.05");
    expect(csvEuros(123_456_789).csvNumber).toBe("1234567.89");
    expect(() => csvEuros(1.5)).toThrow();
  });

  it("defuses every text cell a spreadsheet would run as a formula", () => {
    expect(csvText("=1+1")).toBe(`"'=1+1"`);
    expect(csvText("+33 6 12")).toBe(`"'+33 6 12"`);
    expect(csvText("-2+3")).toBe(`"'-2+3"`);
    expect(csvText("@SUM(A1)")).toBe(`"'@SUM(A1)"`);
    expect(csvText("\t=cmd")).toBe(`"'\t=cmd"`);
    expect(csvText("\r=cmd")).toBe(`"'\r=cmd"`);
    expect(csvText("  =cmd")).toBe(`"'  =cmd"`);
    expect(csvText("＝cmd")).toBe(`"'＝cmd"`);
    expect(csvText('=HYPERLINK("http://x","a")')).toBe(`"'=HYPERLINK(""http://x"",""a"")"`);
    // Ordinary text is left as it is; a sign inside the text is harmless.
    expect(csvText("a-b@example.com")).toBe("a-b@example.com");
    expect(csvText("2026-11")).toBe("2026-11");
    expect(csvText("سلام")).toBe("سلام");
  });

  it("quotes commas, quotes, line breaks and edge spaces", () => {
    expect(csvText("a,b")).toBe(`"a,b"`);
    expect(csvText('say "hi"')).toBe(`"say ""hi"""`);
    expect(csvText("two\nlines")).toBe(`"two\nlines"`);
    expect(csvText(" padded")).toBe(`" padded"`);
  });

  it("builds a UTF-8 file with a header row and CRLF lines", () => {
    const text = toCsv(
      ["month", "amount", "count"],
      [
        ["2026-11", csvEuros(-250), 3],
        ["=x", null, 0],
      ],
    );
    expect(text).toBe('\uFEFFmonth,amount,count\r\n2026-11,-2.50,3\r\n"\'=x",,0\r\n');
    expect(() => toCsv(["a"], [[0.5]])).toThrow();
  });

  it("dates a file in UTC", () => {
    expect(csvDate(new Date("2026-11-30T23:59:59.999Z"))).toBe("2026-11-30");
  });
});
