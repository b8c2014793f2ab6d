import PDFDocument from "pdfkit";
import { describe, expect, it } from "vitest";
import { PdfText, type TextLine } from "./pdf-text.server";

function writer() {
  const doc = new PDFDocument({ font: null as unknown as string });
  return new PdfText(doc);
}

/** A line's pieces as drawn, left to right: each text as pdfkit gets it, and its font. */
const pieces = (line: TextLine) => line.pieces.map((piece) => [piece.text, piece.font]);

describe("PdfText", () => {
  it("orders a right-to-left line's runs right to left, each run in its font", () => {
    const [line] = writer().lines("فاتورة HF-2026-000123", { size: 10 }, "rtl");
    // Left to right: the number, then the word and the space after it (a run of level 1), which fontkit
    // lays out right to left: it is given in logical order, its letters joined (initial ف ... isolated ة).
    expect(pieces(line!)).toEqual([
      ["HF-2026-000123", "latin-400"],
      ["\ufed3\ufe8e\ufe97\ufeee\ufead\ufe93 ", "arabic-400"],
    ]);
  });

  it("keeps a Latin name with digits whole inside Arabic, and mirrors brackets read right to left", () => {
    const [line] = writer().lines("الطلب: SA-MP 100 slots (شهري)", { size: 10 }, "rtl");
    // Read from the right: الطلب, the colon, the name left to right, then "(شهري)" whose brackets are
    // drawn mirrored (the opening one, on the word's right, as ")").
    expect(pieces(line!)).toEqual([
      ["(", "latin-400"],
      ["\ufeb7\ufeec\ufeae\ufef1", "arabic-400"],
      [") ", "latin-400"],
      ["SA-MP 100 slots", "latin-400"],
      [" :", "latin-400"],
      ["\ufe8d\ufedf\ufec4\ufee0\ufe90", "arabic-400"],
    ]);
  });

  it("writes a left-to-right line with Arabic in it, the Arabic run right to left", () => {
    const [line] = writer().lines("server بيان الخادم", { size: 10 }, "ltr");
    expect(pieces(line!)).toEqual([
      ["server ", "latin-400"],
      // بيان الخادم, joined: initial ب, medial ي, final ا, isolated ن; ا, initial ل, ...
      ["\ufe91\ufef4\ufe8e\ufee5 \ufe8d\ufedf\ufea8\ufe8e\ufea9\ufee1", "arabic-400"],
    ]);
  });

  it("breaks a paragraph at spaces to fit a width, never at a no-break space", () => {
    const text = writer();
    const lines = text.lines(
      "Total 1\u00a0234,50\u00a0€ and then some more words",
      { size: 10 },
      "ltr",
      60,
    );
    expect(lines.length).toBeGreaterThan(2);
    for (const line of lines) expect(line.width).toBeLessThanOrEqual(60);
    expect(lines.map((line) => line.pieces.map((piece) => piece.text).join(""))).toContain(
      "1\u00a0234,50\u00a0€",
    );
    // A word longer than the width is cut, at least one character a line.
    const long = text.lines("x".repeat(40), { size: 10 }, "ltr", 30);
    expect(long.length).toBeGreaterThan(1);
    expect(long.map((line) => line.pieces[0]!.text).join("")).toBe("x".repeat(40));
  });

  it("keeps a Latin run of a right-to-left paragraph on one line, isolated, unless it is wider than a line", () => {
    const text = writer();
    const written = (lines: TextLine[]) =>
      lines.map((line) => line.pieces.map((piece) => piece.text).join("|"));
    const paragraph = "كوينز لرصيد الحساب: الشحن TU-7K2M3 (Orange Money)";
    // Too long for one line: the reference and the method go to the next one whole, brackets as typed.
    const lines = text.lines(paragraph, { size: 10 }, "rtl", 235);
    expect(lines).toHaveLength(2);
    expect(written(lines)[1]).toBe("TU-7K2M3 (Orange Money)");
    // A typed text that starts in Arabic is a right-to-left paragraph too.
    expect(written(text.lines(paragraph, { size: 10 }, "auto", 235))[1]).toBe(
      "TU-7K2M3 (Orange Money)",
    );
    // Wider than a line, the run breaks at its spaces, never inside a word.
    const narrow = written(text.lines(paragraph, { size: 10 }, "rtl", 60));
    for (const word of ["TU-7K2M3", "(Orange", "Money)"]) expect(narrow).toContain(word);
    // A left-to-right paragraph breaks at every space, as before.
    expect(written(text.lines("Top-up TU-7K2M3 (Orange Money)", { size: 10 }, "ltr", 120))).toEqual(
      ["Top-up TU-7K2M3", "(Orange Money)"],
    );
  });

  it("draws nothing for the marks that steer the bidi algorithm", () => {
    const [line] = writer().lines("\u2068HF-2026-000123\u2069\u200f", { size: 10 }, "rtl");
    expect(pieces(line!)).toEqual([["HF-2026-000123", "latin-400"]]);
  });

  it("keeps each letter with its marks in a run of Arabic forced left to right", () => {
    // An override makes the letters a left-to-right run, which is reversed for fontkit: reversed unit by
    // unit the shadda came before its letter, and fontkit threw laying it out ("xCoordinate" of null).
    const [line] = writer().lines("\u202dعَّ نص\u202c", { size: 10 }, "auto");
    // Reversed letter by letter (display order, as fontkit is given a left-to-right run): each mark
    // still follows its letter.
    expect(pieces(line!)).toEqual([["\ufeba\ufee7 \ufec9\u064e\u0651", "arabic-400"]]);
  });

  it("draws a run fontkit cannot lay out without its marks, the rest of the line as it is", () => {
    const doc = new PDFDocument({ font: null as unknown as string });
    // fontkit's failure on a mark it cannot place, on every text with a shadda in it.
    const failing = new Proxy(doc, {
      get(target, property, receiver) {
        if (property === "widthOfString")
          return (text: string, options?: object) => {
            if (text.includes("\u0651"))
              throw new TypeError("Cannot read properties of null (reading 'xCoordinate')");
            return target.widthOfString(text, options);
          };
        const value: unknown = Reflect.get(target, property, receiver);
        return typeof value === "function" ? value.bind(target) : value;
      },
    });
    const text = new PdfText(failing);
    const [line] = text.lines("Salma عّ", { size: 10 }, "ltr");
    expect(pieces(line!)).toEqual([
      ["Salma ", "latin-400"],
      ["\ufec9", "arabic-400"],
    ]);
    expect(line!.width).toBeGreaterThan(0);
    expect(() => text.draw(line!, 50, 100)).not.toThrow();
  });
});
