import { getDocument, OPS } from "pdfjs-dist/legacy/build/pdf.mjs";

/**
 * A PDF read back the way a reader's software reads it (pdf.js, the parser of Firefox's viewer), never
 * by opening it in a browser: the text of each page as pdf.js extracts it, and the glyphs drawn for
 * each character.
 *
 * pdf.js gives one item per run of text in one font and direction, in the order the runs are drawn
 * (left to right), and writes each right-to-left item back in logical order (its own bidi pass over
 * what it read): so an Arabic run comes back as it was typed only if its glyphs were drawn right to left
 * and each maps to its letter.
 */

export interface PdfTextItem {
  /** The item's text, as pdf.js extracts it (it normalises ligatures, not Arabic presentation forms). */
  text: string;
  page: number;
  /** Left end and baseline, in points from the page's bottom left corner. */
  x: number;
  y: number;
  width: number;
  dir: string;
}

export interface ReadPdf {
  pages: number;
  items: PdfTextItem[];
  /** Every item's text, one a line, in the order pdf.js gives them. */
  text: string;
  /** For each character drawn, the distinct glyphs (font and character code) that drew it. */
  glyphs: Map<string, Set<string>>;
  info: Record<string, unknown>;
}

export async function readPdf(bytes: Uint8Array): Promise<ReadPdf> {
  // pdf.js takes the buffer over: it gets a copy.
  const loading = getDocument({ data: bytes.slice(), useSystemFonts: false });
  const pdf = await loading.promise;
  const items: PdfTextItem[] = [];
  const glyphs = new Map<string, Set<string>>();
  for (let number = 1; number <= pdf.numPages; number++) {
    const page = await pdf.getPage(number);
    const content = await page.getTextContent();
    for (const item of content.items) {
      if (!("str" in item) || item.str.trim() === "") continue;
      items.push({
        text: item.str,
        page: number,
        x: item.transform[4] as number,
        y: item.transform[5] as number,
        width: item.width,
        dir: item.dir,
      });
    }
    const operators = await page.getOperatorList();
    let font = "";
    operators.fnArray.forEach((op, index) => {
      const args = operators.argsArray[index] as unknown[];
      if (op === OPS.setFont) font = String(args[0]);
      if (op !== OPS.showText) return;
      for (const glyph of args[0] as ({ unicode?: string; originalCharCode?: number } | number)[]) {
        if (typeof glyph !== "object" || !glyph.unicode) continue;
        const drawn = glyphs.get(glyph.unicode) ?? new Set<string>();
        drawn.add(`${font}:${glyph.originalCharCode}`);
        glyphs.set(glyph.unicode, drawn);
      }
    });
  }
  const { info } = await pdf.getMetadata();
  const read = {
    pages: pdf.numPages,
    items,
    text: items.map((item) => item.text).join("\n"),
    glyphs,
    info: info as Record<string, unknown>,
  };
  await loading.destroy();
  return read;
}

/** The item whose text is `text` (after NFKC, which turns a lam-alef ligature into lam then alef). */
export function itemOf(read: ReadPdf, text: string): PdfTextItem | undefined {
  return read.items.find((item) => item.text.normalize("NFKC") === text);
}
