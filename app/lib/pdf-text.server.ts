import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { inflateSync } from "node:zlib";
import bidiFactory from "bidi-js";
import { shapeArabic } from "./arabic-shaping";
import { latinRunsToIsolate } from "./bidi";

/**
 * Text in a PDF (pdfkit) in any of the site's languages (ADR 40): each character in a Noto font that has
 * it (Noto Sans for Latin, Noto Sans Arabic for Arabic), Arabic joined into its contextual forms, and every
 * line ordered for display by the Unicode bidirectional algorithm (bidi-js), so an Arabic line with a
 * product name, a number or an amount in it reads right. pdfkit only places glyphs left to right; this
 * module decides which, in which font, in which order.
 */

// ---------------------------------------------------------------------------------------------------
// Fonts: the @fontsource packages' files, found through the packages themselves so that the built server
// (which keeps node_modules outside its bundle) finds them as tests do.

const require = createRequire(import.meta.url);

export type FontWeight = 400 | 700;

interface Face {
  features: Features;
  /** The face's name in a document: its subset and weight ("latin-400"). */
  name: (weight: FontWeight) => string;
  file: (weight: FontWeight) => string;
  ranges: [number, number][];
}

/** The subsets of Noto Sans, then Noto Sans Arabic's Arabic subset: the first that covers a character draws it. */
const FACES: { pkg: string; family: string; subset: string }[] = [
  { pkg: "@fontsource/noto-sans", family: "noto-sans", subset: "latin" },
  { pkg: "@fontsource/noto-sans-arabic", family: "noto-sans-arabic", subset: "arabic" },
  { pkg: "@fontsource/noto-sans", family: "noto-sans", subset: "latin-ext" },
  { pkg: "@fontsource/noto-sans", family: "noto-sans", subset: "vietnamese" },
  { pkg: "@fontsource/noto-sans", family: "noto-sans", subset: "cyrillic" },
  { pkg: "@fontsource/noto-sans", family: "noto-sans", subset: "cyrillic-ext" },
  { pkg: "@fontsource/noto-sans", family: "noto-sans", subset: "greek" },
  { pkg: "@fontsource/noto-sans", family: "noto-sans", subset: "greek-ext" },
];

/** "U+0000-00FF,U+0131" as ranges of code points. */
function parseRanges(unicodeRange: string): [number, number][] {
  return unicodeRange.split(",").map((part) => {
    const [from = "0", to = from] = part.trim().replace(/^U\+/i, "").split("-");
    return [parseInt(from, 16), parseInt(to, 16)];
  });
}

let faces: Face[] | undefined;

/** The faces, their character ranges read from each package's unicode.json once per process. */
function loadFaces(): Face[] {
  faces ??= FACES.map(({ pkg, family, subset }) => {
    const ranges = JSON.parse(
      readFileSync(require.resolve(`${pkg}/unicode.json`), "utf8"),
    ) as Record<string, string>;
    return {
      features: subset === "arabic" ? SHAPED : [],
      name: (weight) => `${subset}-${weight}`,
      file: (weight) => `${pkg}/files/${family}-${subset}-${weight}-normal.woff`,
      ranges: parseRanges(ranges[subset] ?? ""),
    };
  });
  return faces;
}

/**
 * A WOFF file as the TrueType font it wraps: each table inflated (node's zlib) and laid out again as an
 * sfnt. fontkit reads WOFF itself, but inflates with a JavaScript inflater on every document, which took
 * most of a second a PDF; this runs once per font file and process.
 */
export function woffToSfnt(woff: Buffer): Buffer {
  if (woff.readUInt32BE(0) !== 0x774f4646) throw new Error("Not a WOFF file");
  const flavor = woff.readUInt32BE(4);
  const count = woff.readUInt16BE(12);
  const tables = Array.from({ length: count }, (_, index) => {
    const entry = 44 + index * 20;
    const offset = woff.readUInt32BE(entry + 4);
    const compressed = woff.readUInt32BE(entry + 8);
    const length = woff.readUInt32BE(entry + 12);
    const stored = woff.subarray(offset, offset + compressed);
    return {
      tag: woff.readUInt32BE(entry),
      checksum: woff.readUInt32BE(entry + 16),
      data: compressed < length ? inflateSync(stored) : stored,
    };
  });
  const power = 2 ** Math.floor(Math.log2(count));
  const header = Buffer.alloc(12 + 16 * count);
  header.writeUInt32BE(flavor, 0);
  header.writeUInt16BE(count, 4);
  header.writeUInt16BE(power * 16, 6);
  header.writeUInt16BE(Math.log2(power), 8);
  header.writeUInt16BE(count * 16 - power * 16, 10);
  const parts: Buffer[] = [header];
  let offset = header.length;
  tables.forEach((table, index) => {
    const record = 12 + index * 16;
    header.writeUInt32BE(table.tag, record);
    header.writeUInt32BE(table.checksum, record + 4);
    header.writeUInt32BE(offset, record + 8);
    header.writeUInt32BE(table.data.length, record + 12);
    const padded = Buffer.alloc(Math.ceil(table.data.length / 4) * 4);
    table.data.copy(padded);
    parts.push(padded);
    offset += padded.length;
  });
  return Buffer.concat(parts);
}

const fontFiles = new Map<string, Buffer>();

/**
 * A font file of a package, as TrueType, made once per process. (fontkit fonts are not kept from one
 * document to the next, though parsing a font's tables again is most of a PDF's time: fontkit keeps the
 * characters of a glyph from its first use, and a glyph first met as a part of another one, in an
 * earlier document, would have none in this one's text layer.)
 */
function fontFile(path: string): Buffer {
  let bytes = fontFiles.get(path);
  if (!bytes) {
    bytes = woffToSfnt(readFileSync(require.resolve(path)));
    fontFiles.set(path, bytes);
  }
  return bytes;
}

/**
 * What fontkit may do to a run of a face: nothing for Arabic but place its glyphs (kerning, marks), since
 * the letters come shaped already (arabic-shaping.ts), and the font's own shaping would split them again
 * into shared skeletons and dots. Other faces keep their defaults (kerning, ligatures).
 */
type Features = [] | Record<string, boolean>;
const SHAPED: Features = {
  ccmp: false,
  isol: false,
  init: false,
  medi: false,
  fina: false,
  rlig: false,
  liga: false,
  calt: false,
};

/** Spaces are in every face (the Arabic subset's range leaves them out, its file has them). */
const SPACES = new Set([" ", "\u00a0"]);

function faceFor(char: string): Face {
  const all = loadFaces();
  const codePoint = char.codePointAt(0)!;
  return (
    all.find((face) => face.ranges.some(([from, to]) => codePoint >= from && codePoint <= to)) ??
    all[0]!
  );
}

// ---------------------------------------------------------------------------------------------------
// Characters.

const bidi = bidiFactory();

/** Marks that steer the bidi algorithm (isolates, LRM/RLM, ALM, ...): they take part, then draw nothing. */
const INVISIBLE = /[\u00ad\u061c\u200b-\u200f\u202a-\u202e\u2060-\u2069\ufeff]/u;
/** Spaces the fonts do not all have, as the no-break space they have. */
const SPACE_LIKE = /[\u2000-\u200a\u202f\u205f]/u;

/** Scripts written right to left: fontkit lays out a run of one of them reversed (see `line`). */
const RTL_SCRIPT =
  /[\p{Script=Arabic}\p{Script=Hebrew}\p{Script=Syriac}\p{Script=Thaana}\p{Script=Nko}]/u;
const SCRIPTED = /[^\p{Script=Common}\p{Script=Inherited}\p{Script=Unknown}]/u;

/** Whether fontkit reverses `text` when it lays it out: it takes the script of its first scripted character. */
function laidOutReversed(text: string): boolean {
  const first = SCRIPTED.exec(text);
  return first !== null && RTL_SCRIPT.test(first[0]);
}

/** Combining marks (an Arabic shadda or vowel, an accent typed apart): they sit on the letter before. */
const MARKS = /\p{M}/gu;

const clusters = new Intl.Segmenter("en", { granularity: "grapheme" });

/**
 * `text` reversed letter by letter, each letter kept with its marks: reversed unit by unit, a mark would
 * come before its letter, and fontkit cannot place a mark that follows nothing.
 */
function reversedClusters(text: string): string {
  return Array.from(clusters.segment(text), (each) => each.segment)
    .reverse()
    .join("");
}

export type TextDirection = "ltr" | "rtl" | "auto";

export interface TextStyle {
  size: number;
  weight?: FontWeight;
}

/** A text prepared once: its bidi levels, and what each of its UTF-16 units draws, in which face. */
interface Prepared {
  text: string;
  levels: Uint8Array;
  /** The isolated Latin runs of a right-to-left paragraph (`[start, end)` in `text`): kept on one line. */
  runs: [number, number][];
  /** What the unit at each index draws ("" for none: an invisible mark, a lam-alef's alef, a low surrogate). */
  cells: string[];
  faces: (Face | null)[];
}

/** Left-to-right isolate, and the pop that ends it (UAX 9). */
const LRI = "\u2066";
const PDI = "\u2069";

/**
 * `text` as one paragraph in `direction`, its bidi levels resolved. In a right-to-left paragraph (the
 * document's Arabic, or a typed text that starts in Arabic) each Latin run with a digit or a bracket
 * (`latinRunsToIsolate`) is put in a left-to-right isolate first, as a page's `<bdi>` would: "HFR-2026-000001"
 * and "(Orange Money)" then read left to right in one piece, brackets unmirrored, wherever they stand.
 */
function paragraph(text: string, direction: TextDirection) {
  const clean = text.replace(/[\t\r\n]+/g, " ");
  const first = bidi.getEmbeddingLevels(clean, direction);
  const rtl = direction === "rtl" || (direction === "auto" && first.paragraphs[0]!.level % 2 === 1);
  const found = rtl ? latinRunsToIsolate(clean) : [];
  if (found.length === 0) return { clean, levels: first.levels, runs: [] as [number, number][] };
  let isolated = "";
  let last = 0;
  const runs: [number, number][] = [];
  for (const [from, to] of found) {
    isolated += clean.slice(last, from) + LRI;
    runs.push([isolated.length, isolated.length + to - from]);
    isolated += clean.slice(from, to) + PDI;
    last = to;
  }
  isolated += clean.slice(last);
  return { clean: isolated, levels: bidi.getEmbeddingLevels(isolated, "rtl").levels, runs };
}

function prepare(text: string, direction: TextDirection): Prepared {
  const { clean, levels, runs } = paragraph(text, direction);
  const mirrored = bidi.getMirroredCharactersMap(clean, levels);
  const cells = shapeArabic(clean).map((cell, index) => {
    if (cell === "") return "";
    if (INVISIBLE.test(cell)) return "";
    if (SPACE_LIKE.test(cell)) return "\u00a0";
    return mirrored.get(index) ?? cell;
  });
  const faces: (Face | null)[] = cells.map((cell) =>
    cell === "" || SPACES.has(cell) ? null : faceFor(cell),
  );
  // A space takes the face of the text before it at its level (else after it), so that a phrase in one
  // font stays one run.
  cells.forEach((cell, index) => {
    if (!SPACES.has(cell)) return;
    const near = (step: 1 | -1) => {
      for (let at = index + step; at >= 0 && at < cells.length; at += step) {
        if (levels[at] !== levels[index]) return null;
        if (faces[at]) return faces[at];
      }
      return null;
    };
    faces[index] = near(-1) ?? near(1) ?? loadFaces()[0]!;
  });
  return { text: clean, levels, runs, cells, faces };
}

// ---------------------------------------------------------------------------------------------------
// Lines.

/** A run of one face and one level, as pdfkit draws it: left to right, its width measured. */
interface Piece {
  text: string;
  font: string;
  features: Features;
  width: number;
}

/** One line of a paragraph, in the order it is drawn (left to right). */
export interface TextLine {
  pieces: Piece[];
  width: number;
  size: number;
}

/** What a document needs to measure and draw text: pdfkit's `font`, `widthOfString` and `text`. */
export interface PdfTextTarget {
  registerFont(name: string, src: Buffer): unknown;
  font(name: string, size?: number): unknown;
  widthOfString(text: string, options?: object): number;
  text(text: string, x: number, y: number, options: object): unknown;
}

/**
 * Text on one pdfkit document: `lines` cuts a paragraph into lines of a width, `draw` places a line.
 * Each run goes to pdfkit whole (pdfkit lays out word by word unless features are given), so a run of
 * Arabic is laid out as one and comes out right to left. `finish` before the document ends.
 */
export class PdfText {
  private readonly registered = new Set<string>();
  /** Texts laid out in this document, by font, size and text: a layout costs tens of microseconds. */
  private readonly widths = new Map<string, { text: string; width: number }>();

  constructor(private readonly doc: PdfTextTarget) {}

  private use(face: Face, style: TextStyle): string {
    const weight = style.weight ?? 400;
    const name = face.name(weight);
    if (!this.registered.has(name)) {
      this.doc.registerFont(name, fontFile(face.file(weight)));
      this.registered.add(name);
    }
    this.doc.font(name, style.size);
    return name;
  }

  private measure(text: string, face: Face, style: TextStyle): number {
    return this.laidOut(text, face, style).width;
  }

  /**
   * `text` as fontkit can lay it out in `face`, and its width. fontkit throws on some sequences it cannot
   * position (a mark with no base before it): the text is then tried without its marks, then without
   * anything at all, so that one odd name costs its accents, not the whole document.
   */
  private laidOut(text: string, face: Face, style: TextStyle): { text: string; width: number } {
    if (text === "") return { text, width: 0 };
    const key = `${face.name(style.weight ?? 400)}|${style.size}|${text}`;
    let found = this.widths.get(key);
    if (found === undefined) {
      this.use(face, style);
      for (const candidate of [text, text.replace(MARKS, "")]) {
        try {
          found = {
            text: candidate,
            width: this.doc.widthOfString(candidate, { features: face.features }),
          };
          break;
        } catch {
          // The next candidate, or nothing.
        }
      }
      found ??= { text: "", width: 0 };
      this.widths.set(key, found);
    }
    return found;
  }

  /** The width of the units `from` to `to` (exclusive), each stretch of one face measured whole. */
  private rangeWidth(prepared: Prepared, from: number, to: number, style: TextStyle): number {
    let width = 0;
    let face: Face | null = null;
    let text = "";
    for (let index = from; index < to; index++) {
      const next = prepared.faces[index];
      if (!next) continue;
      if (next !== face) {
        if (face) width += this.measure(text, face, style);
        face = next;
        text = "";
      }
      text += prepared.cells[index];
    }
    return face ? width + this.measure(text, face, style) : width;
  }

  /**
   * `text` as lines at most `maxWidth` wide (one line when no width is given), broken at spaces, or
   * inside a word too long for a line. `direction` is the paragraph's: the document's for its own texts,
   * "auto" for what a person typed (a name, an address), as the page's `dir="auto"` does.
   */
  lines(
    text: string,
    style: TextStyle,
    direction: TextDirection,
    maxWidth = Number.POSITIVE_INFINITY,
  ): TextLine[] {
    const prepared = prepare(text, direction);
    const { cells } = prepared;
    // An isolated Latin run ("TU-7K2M3 (Orange Money)") stays on one line, unless it is wider than one.
    const kept = new Uint8Array(cells.length);
    for (const [from, to] of prepared.runs)
      if (this.rangeWidth(prepared, from, to, style) <= maxWidth) kept.fill(1, from, to);
    // Lines break at spaces only: a no-break space (French "12,00 €") keeps its words together.
    const isSpace = (index: number) => prepared.text[index] === " " && kept[index] === 0;
    const ranges: [number, number][] = [];
    let start = 0;
    while (start < cells.length) {
      while (start < cells.length && isSpace(start)) start++;
      if (start >= cells.length) break;
      // The most whole words that fit (each measured once, with the spaces before it).
      let end = start;
      let width = 0;
      while (end < cells.length) {
        let wordEnd = end;
        while (wordEnd < cells.length && isSpace(wordEnd)) wordEnd++;
        while (wordEnd < cells.length && !isSpace(wordEnd)) wordEnd++;
        const wordWidth = this.rangeWidth(prepared, end, wordEnd, style);
        if (end > start && width + wordWidth > maxWidth) break;
        if (end === start && wordWidth > maxWidth) {
          // A word longer than the line: as many of its characters as fit, at least one.
          end = start + 1;
          while (end < wordEnd && this.rangeWidth(prepared, start, end + 1, style) <= maxWidth)
            end++;
          break;
        }
        width += wordWidth;
        end = wordEnd;
      }
      ranges.push([start, end]);
      start = end;
    }
    return ranges.map(([from, to]) => this.line(prepared, from, to, style));
  }

  /** The units `from` to `to` as a line: runs of one level and face, ordered by the rule L2 of UAX 9. */
  private line(prepared: Prepared, from: number, to: number, style: TextStyle): TextLine {
    const runs: { start: number; end: number; level: number; face: Face }[] = [];
    for (let index = from; index < to; index++) {
      const face = prepared.faces[index];
      if (!face) continue;
      const level = prepared.levels[index]!;
      const last = runs.at(-1);
      if (last && last.level === level && last.face === face) last.end = index + 1;
      else runs.push({ start: index, end: index + 1, level, face });
    }
    // L2: from the highest level down to the lowest odd one, reverse every stretch of runs at that level
    // or higher.
    const levels = runs.map((run) => run.level);
    const highest = Math.max(0, ...levels);
    const lowestOdd = Math.min(...levels.map((level) => (level % 2 === 1 ? level : level + 1)));
    for (let level = highest; level >= lowestOdd; level--) {
      for (let index = 0; index < runs.length;) {
        if (runs[index]!.level < level) {
          index++;
          continue;
        }
        let end = index;
        while (end < runs.length && runs[end]!.level >= level) end++;
        runs.splice(index, end - index, ...runs.slice(index, end).reverse());
        index = end;
      }
    }
    const pieces = runs.map((run) => {
      let text = prepared.cells.slice(run.start, run.end).join("");
      // A run reads right to left at an odd level. fontkit reverses a run whose script is written right to
      // left and no other: the rest is reversed here, so that every run comes out in display order.
      if ((run.level % 2 === 1) !== laidOutReversed(text)) text = reversedClusters(text);
      const laid = this.laidOut(text, run.face, style);
      return {
        text: laid.text,
        font: this.use(run.face, style),
        features: run.face.features,
        width: laid.width,
      };
    });
    return { pieces, width: pieces.reduce((sum, piece) => sum + piece.width, 0), size: style.size };
  }

  /** Draws `line` from `x` (its left end) on the baseline `y`. */
  draw(line: TextLine, x: number, y: number): void {
    let at = x;
    for (const piece of line.pieces) {
      this.doc.font(piece.font, line.size);
      this.doc.text(piece.text, at, y, {
        lineBreak: false,
        baseline: "alphabetic",
        features: piece.features,
        textWidth: piece.width,
      });
      at += piece.width;
    }
  }

  /**
   * The text layer: what each glyph of the document reads as (its ToUnicode map). pdfkit maps a glyph to
   * the characters fontkit first gave it: a presentation form (U+FE91 for an initial ب), or a no-break
   * space for the space glyph. Each is mapped to its NFKC form instead when that is one character, so
   * that copying, searching and a screen reader get the text as it was written. A lam-alef ligature
   * keeps its one character (U+FEFB, which NFKC makes lam then alef): as two, a reader that reverses a
   * right-to-left run character by character (pdf.js does) would read alef then lam.
   */
  finish(): void {
    const fonts = (this.doc as unknown as { _fontFamilies?: Record<string, { unicode?: unknown }> })
      ._fontFamilies;
    for (const font of new Set(Object.values(fonts ?? {}))) {
      if (!Array.isArray(font.unicode)) continue;
      font.unicode = font.unicode.map((codePoints: number[]) => {
        if (codePoints.length !== 1) return codePoints;
        const normal = [...String.fromCodePoint(codePoints[0]!).normalize("NFKC")];
        return normal.length === 1 ? [normal[0]!.codePointAt(0)!] : codePoints;
      });
    }
  }
}
