import type PDFDocumentClass from "pdfkit";
import type { Db } from "~/db/transaction";
import { PdfText, type TextDirection, type TextLine, type TextStyle } from "~/lib/pdf-text.server";
import { documentView, type DocumentView, type DocumentViewTools } from "./invoices";
import { getDocument } from "./documents.server";

// A document as a PDF (docs/invoices.md, ADR 40): the view the page shows (`documentView`), laid
// out on an A4 page with pdfkit in the reader's language, right to left in Arabic.

/** A4 in points, and the margin all round. */
const PAGE = { width: 595.28, height: 841.89, margin: 50 };
const CONTENT = PAGE.width - 2 * PAGE.margin;

const INK = "#111827";
const MUTED = "#6b7280";
const RULE = "#d1d5db";
const STATE_COLORS: Record<string, string> = { paid: "#15803d", credited: "#6b7280" };

export interface DocumentPdfOptions {
  /** The reader's language (en, fr, ar): the PDF's language tag. */
  locale: string;
  direction: "ltr" | "rtl";
  /** The document's issue date: the PDF's creation date, so one document always gives the same bytes. */
  issuedAt: string;
  /** The document's state (paid, credited): the colour of its badge. */
  state: string;
  /** The seller's name: the PDF's author. */
  author: string;
}

/** Which end of its box a line keeps to: where reading starts (left, or right in Arabic), or the other. */
type Align = "start" | "end";

/**
 * pdfkit, loaded with the first PDF: with fontkit, a brotli decoder and Unicode tables it is some 30 MB
 * of resident memory (measured alone), which a server process that never makes a PDF need not carry
 * (docs/performance.md, "The server process"). The first PDF waits for it once.
 */
let pdfkitModule: Promise<{ default: typeof PDFDocumentClass }> | undefined;
async function loadPdfkit(): Promise<typeof PDFDocumentClass> {
  pdfkitModule ??= import("pdfkit");
  return (await pdfkitModule).default;
}

/** The bytes of `view` as a PDF. */
export async function renderDocumentPdf(
  view: DocumentView,
  options: DocumentPdfOptions,
): Promise<Uint8Array<ArrayBuffer>> {
  const rtl = options.direction === "rtl";
  const PDFDocument = await loadPdfkit();
  const doc = new PDFDocument({
    size: "A4",
    margin: PAGE.margin,
    // No standard font: every text is in an embedded Noto face (pdf-text.server.ts).
    font: null as unknown as string,
    lang: options.locale,
    displayTitle: true,
    info: {
      Title: `${view.title} ${view.number}`,
      Author: options.author,
      CreationDate: new Date(options.issuedAt),
    },
  });
  const chunks: Buffer[] = [];
  doc.on("data", (chunk: Buffer) => chunks.push(chunk));
  const ended = new Promise<void>((resolve, reject) => {
    doc.on("end", resolve);
    doc.on("error", reject);
  });

  const text = new PdfText(doc);
  // Arabic letters reach higher and lower than Latin ones: lines a little further apart.
  const leading = rtl ? 1.7 : 1.4;
  let y = PAGE.margin;

  /** The left edge of a box `start` points from the reading edge (left, or right in Arabic). */
  const boxX = (start: number, width: number) =>
    rtl ? PAGE.width - PAGE.margin - start - width : PAGE.margin + start;
  /** A line's left end in its box, aligned to the box's start or end. */
  const lineX = (line: TextLine, start: number, width: number, align: Align) => {
    const left = boxX(start, width);
    const atRight = (align === "end") !== rtl;
    return atRight ? left + width - line.width : left;
  };
  const lineHeight = (style: TextStyle) => style.size * leading;
  /** A new page when `height` more would not fit on this one. */
  const room = (height: number) => {
    if (y + height <= PAGE.height - PAGE.margin) return;
    doc.addPage();
    y = PAGE.margin;
  };

  /**
   * `value` wrapped in a box and drawn from the top `top`: the height it took. `direction` is "auto" for
   * what a person typed (names, addresses), as the page's `dir="auto"` does.
   */
  const block = (
    value: string,
    box: { start: number; width: number; top: number },
    style: TextStyle & { color?: string; align?: Align; direction?: TextDirection },
  ): number => {
    const lines = text.lines(value, style, style.direction ?? options.direction, box.width);
    const height = lineHeight(style);
    doc.fillColor(style.color ?? INK);
    lines.forEach((line, index) => {
      const baseline = box.top + index * height + style.size;
      text.draw(line, lineX(line, box.start, box.width, style.align ?? "start"), baseline);
    });
    return lines.length * height;
  };
  /** A paragraph across the page, from `y` on, with a page break when it does not fit. */
  const paragraph = (value: string, style: Parameters<typeof block>[2]) => {
    const lines = text.lines(value, style, style.direction ?? options.direction, CONTENT);
    room(lines.length * lineHeight(style));
    y += block(value, { start: 0, width: CONTENT, top: y }, style);
  };
  const rule = (top: number, start = 0, width = CONTENT) => {
    const left = boxX(start, width);
    doc
      .moveTo(left, top)
      .lineTo(left + width, top)
      .lineWidth(0.75)
      .strokeColor(RULE)
      .stroke();
  };

  // The title and number, and the state as a badge at the other end.
  const badgeStyle: TextStyle = { size: 10, weight: 700 };
  const [badge] = text.lines(view.state, badgeStyle, options.direction);
  const badgeWidth = (badge?.width ?? 0) + 16;
  const titleHeight = block(
    `${view.title} ${view.number}`,
    { start: 0, width: CONTENT - badgeWidth - 12, top: y },
    { size: 20, weight: 700 },
  );
  if (badge) {
    const left = boxX(CONTENT - badgeWidth, badgeWidth);
    const color = STATE_COLORS[options.state] ?? MUTED;
    doc
      .roundedRect(left, y + 2, badgeWidth, 20, 10)
      .lineWidth(1)
      .strokeColor(color)
      .stroke();
    doc.fillColor(color);
    text.draw(badge, left + 8, y + 16);
  }
  y += titleHeight + 4;
  paragraph(view.issued, { size: 10, color: MUTED });
  for (const note of view.notes) paragraph(note, { size: 10, direction: "auto" });
  y += 18;

  // The seller and the buyer, side by side.
  const half = (CONTENT - 24) / 2;
  const partyHeights = [view.seller, view.buyer].map((party, index) => {
    const start = index * (half + 24);
    let top = y;
    top += block(
      party.heading.toLocaleUpperCase(options.locale),
      { start, width: half, top },
      { size: 8, weight: 700, color: MUTED },
    );
    for (const [line, value] of party.lines.entries())
      top += block(
        value,
        { start, width: half, top },
        { size: 10, weight: line === 0 ? 700 : 400, direction: "auto" },
      );
    return top - y;
  });
  y += Math.max(...partyHeights) + 24;

  // A top-up's receipt: how the money came, each label beside its value.
  if (view.payment) {
    const labelWidth = 170;
    room(14 + view.payment.rows.length * lineHeight({ size: 10 }));
    y += block(
      view.payment.heading.toLocaleUpperCase(options.locale),
      { start: 0, width: CONTENT, top: y },
      { size: 8, weight: 700, color: MUTED },
    );
    for (const entry of view.payment.rows) {
      const labelHeight = block(
        entry.label,
        { start: 0, width: labelWidth, top: y },
        { size: 10, color: MUTED },
      );
      const valueHeight = block(
        entry.value,
        { start: labelWidth + 12, width: CONTENT - labelWidth - 12, top: y },
        { size: 10, direction: "auto" },
      );
      y += Math.max(labelHeight, valueHeight);
    }
    y += 20;
  }

  // The lines: the description takes what the three figures leave.
  const figures = { quantity: 40, unit: 95, total: 95 };
  const gap = 10;
  const descriptionWidth = CONTENT - figures.quantity - figures.unit - figures.total - 3 * gap;
  const columns = [
    { key: "description", start: 0, width: descriptionWidth, align: "start" },
    { key: "quantity", start: descriptionWidth + gap, width: figures.quantity, align: "end" },
    {
      key: "unit",
      start: descriptionWidth + figures.quantity + 2 * gap,
      width: figures.unit,
      align: "end",
    },
    { key: "total", start: CONTENT - figures.total, width: figures.total, align: "end" },
  ] as const;
  const row = (cells: Record<(typeof columns)[number]["key"], string>, header: boolean) => {
    const style: TextStyle = header ? { size: 8, weight: 700 } : { size: 10 };
    const heights = columns.map((column) =>
      block(
        cells[column.key],
        { start: column.start, width: column.width, top: y },
        {
          ...style,
          color: header ? MUTED : INK,
          align: column.align,
          // Amounts read left to right in every language, as on the page.
          direction: !header && column.key !== "description" ? "ltr" : options.direction,
        },
      ),
    );
    return Math.max(...heights);
  };
  room(60);
  y += row(view.columns, true) + 4;
  rule(y);
  y += 8;
  for (const line of view.lines) {
    const estimate = text.lines(
      line.description,
      { size: 10 },
      options.direction,
      descriptionWidth,
    );
    room(estimate.length * lineHeight({ size: 10 }) + 8);
    y += row(line, false) + 6;
    rule(y);
    y += 8;
  }

  // The totals, at the end of the line.
  const totalsWidth = 240;
  const totalsStart = CONTENT - totalsWidth;
  room(view.totals.length * 24 + 16);
  y += 4;
  for (const total of view.totals) {
    const style: TextStyle = total.strong ? { size: 12, weight: 700 } : { size: 10 };
    if (total.strong) {
      rule(y, totalsStart, totalsWidth);
      y += 6;
    }
    const labelHeight = block(
      total.label,
      { start: totalsStart, width: totalsWidth - 100, top: y },
      style,
    );
    block(
      total.amount,
      { start: CONTENT - 100, width: 100, top: y },
      { ...style, align: "end", direction: "ltr" },
    );
    y += labelHeight + 2;
  }
  y += 20;

  if (view.footer.length > 0) {
    room(24);
    rule(y);
    y += 10;
    for (const line of view.footer) paragraph(line, { size: 8, color: MUTED });
  }

  text.finish();
  doc.end();
  await ended;
  return new Uint8Array(Buffer.concat(chunks));
}

export interface DocumentPdfRequest {
  number: string;
  reader: { userId: string; isAdmin: boolean };
  /** The reader's language and its direction. */
  locale: string;
  direction: "ltr" | "rtl";
  /** The reader's translations and formats (`documentViewTools`). */
  tools: DocumentViewTools;
}

/**
 * Use-case: document `number` as a PDF in its reader's language, for its owner and admins only (the
 * page's rule): nothing for anyone else, as for a number that is no document.
 */
export async function documentPdf(
  db: Db,
  request: DocumentPdfRequest,
): Promise<{ filename: string; bytes: Uint8Array<ArrayBuffer> } | undefined> {
  const found = await getDocument(db, request.number, request.reader);
  if (!found) return undefined;
  const bytes = await renderDocumentPdf(documentView(found, request.tools), {
    locale: request.locale,
    direction: request.direction,
    issuedAt: found.issuedAt,
    state: found.state,
    author: found.seller.name,
  });
  return { filename: `${found.number}.pdf`, bytes };
}
