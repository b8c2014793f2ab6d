import { getDocument, OPS } from "pdfjs-dist/legacy/build/pdf.mjs";

/**
 * A PDF read back the way a reader's software reads it (pdf.js, the parser of Firefox's viewer), never
 * by opening it in a browser: the text of each page as pdf.js extracts it, the glyphs drawn for each
 * character, and where the lines (rules, outlines) are drawn.
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

/**
 * A line drawn (a rule, an outline): the box round its path (its width left out), in points from the
 * page's bottom left corner.
 */
export interface PdfStroke {
  page: number;
  left: number;
  bottom: number;
  right: number;
  top: number;
}

export interface ReadPdf {
  pages: number;
  items: PdfTextItem[];
  /** The paths stroked, page by page in the order they are drawn. */
  strokes: PdfStroke[];
  /** Every item's text, one a line, in the order pdf.js gives them. */
  text: string;
  /** For each character drawn, the distinct glyphs (font and character code) that drew it. */
  glyphs: Map<string, Set<string>>;
  info: Record<string, unknown>;
}

type Matrix = [number, number, number, number, number, number];

/** `first` then `then`, as a PDF `cm` after another composes them. */
function compose(first: Matrix, then: Matrix): Matrix {
  const [a, b, c, d, e, f] = first;
  const [a2, b2, c2, d2, e2, f2] = then;
  return [
    a * a2 + b * c2,
    a * b2 + b * d2,
    c * a2 + d * c2,
    c * b2 + d * d2,
    e * a2 + f * c2 + e2,
    e * b2 + f * d2 + f2,
  ];
}

/** The box [minX, minY, maxX, maxY] (pdf.js's) through `matrix`, on the page. */
function boxIn(box: ArrayLike<number>, matrix: Matrix) {
  const [a, b, c, d, e, f] = matrix;
  const corners = [
    [box[0]!, box[1]!],
    [box[0]!, box[3]!],
    [box[2]!, box[1]!],
    [box[2]!, box[3]!],
  ].map(([x, y]) => [a * x! + c * y! + e, b * x! + d * y! + f] as const);
  const xs = corners.map(([x]) => x);
  const ys = corners.map(([, y]) => y);
  return {
    left: Math.min(...xs),
    bottom: Math.min(...ys),
    right: Math.max(...xs),
    top: Math.max(...ys),
  };
}

/** The painting operators that stroke a path (a path only filled or clipped is no line). */
const STROKED = new Set<number>([
  OPS.stroke,
  OPS.closeStroke,
  OPS.fillStroke,
  OPS.eoFillStroke,
  OPS.closeFillStroke,
  OPS.closeEOFillStroke,
]);

export async function readPdf(bytes: Uint8Array): Promise<ReadPdf> {
  // pdf.js takes the buffer over: it gets a copy.
  const loading = getDocument({ data: bytes.slice(), useSystemFonts: false });
  const pdf = await loading.promise;
  const items: PdfTextItem[] = [];
  const strokes: PdfStroke[] = [];
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
    // A path's points are in the user space of its moment: the page's matrix as its `cm`s left it.
    let matrix: Matrix = [1, 0, 0, 1, 0, 0];
    const saved: Matrix[] = [];
    operators.fnArray.forEach((op, index) => {
      const args = operators.argsArray[index] as unknown[];
      if (op === OPS.save) saved.push(matrix);
      if (op === OPS.restore) matrix = saved.pop() ?? matrix;
      if (op === OPS.transform) matrix = compose(args as Matrix, matrix);
      if (op === OPS.constructPath) {
        const [paint, , box] = args as [number, unknown, ArrayLike<number> | null];
        if (box && STROKED.has(paint)) strokes.push({ page: number, ...boxIn(box, matrix) });
      }
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
    strokes,
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
