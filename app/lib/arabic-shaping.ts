/**
 * Arabic letters joined into their contextual forms as Unicode presentation forms (ArabicShaping.txt's
 * rules, for the letters of Arabic, Moroccan Darija and the common Persian ones).
 *
 * Why not the font's OpenType shaping (ADR 40): Noto Sans Arabic shapes by splitting each dotted
 * letter into a dotless skeleton shared by several letters plus its dots, so one glyph stands for ب,
 * ت, ث, ن and ي in a PDF, whose text layer maps each glyph to one text: the text read back (search,
 * copy, screen readers) comes out with the wrong letters. Each presentation form is a glyph of its own
 * in the font, so every glyph of a PDF written from them maps back to one letter.
 */

type Joining = "U" | "R" | "D" | "C" | "T";

/** The forms of a letter, from its isolated form: isolated, final, then initial and medial if it has them. */
const FORMS = new Map<number, { joining: "R" | "D"; isolated: number; count: 2 | 4 }>();

// U+0621 to U+064A: each letter's forms follow each other from U+FE80, in the letters' order.
const BASIC: [from: number, to: number, count: 1 | 2 | 4][] = [
  [0x0621, 0x0621, 1],
  [0x0622, 0x0625, 2],
  [0x0626, 0x0626, 4],
  [0x0627, 0x0627, 2],
  [0x0628, 0x0628, 4],
  [0x0629, 0x0629, 2],
  [0x062a, 0x062e, 4],
  [0x062f, 0x0632, 2],
  [0x0633, 0x063a, 4],
  [0x0641, 0x0647, 4],
  [0x0648, 0x0649, 2],
  [0x064a, 0x064a, 4],
];
let next = 0xfe80;
for (const [from, to, count] of BASIC)
  for (let letter = from; letter <= to; letter++) {
    if (count !== 1) FORMS.set(letter, { joining: count === 4 ? "D" : "R", isolated: next, count });
    next += count;
  }
// Letters beyond U+064A: their forms in Arabic Presentation Forms-A.
for (const [letter, isolated, count] of [
  [0x067e, 0xfb56, 4], // پ
  [0x0686, 0xfb7a, 4], // چ
  [0x0698, 0xfb8a, 2], // ژ
  [0x06a4, 0xfb6a, 4], // ڤ
  [0x06a9, 0xfb8e, 4], // ک
  [0x06ad, 0xfbd3, 4], // ڭ (Moroccan)
  [0x06af, 0xfb92, 4], // گ
  [0x06cc, 0xfbfc, 4], // ی
] as const)
  FORMS.set(letter, { joining: count === 4 ? "D" : "R", isolated, count });

/** Alef maksura joins both ways, but its initial and medial forms sit apart from the others. */
const ALEF_MAKSURA = 0x0649;
const ALEF_MAKSURA_INITIAL = 0xfbe8;

const LAM = 0x0644;
/** Lam followed by an alef is one ligature: the alef's code point, then the ligature's isolated form. */
const LAM_ALEF = new Map([
  [0x0622, 0xfef5],
  [0x0623, 0xfef7],
  [0x0625, 0xfef9],
  [0x0627, 0xfefb],
]);

const TATWEEL = 0x0640;
const ZWJ = 0x200d;
const TRANSPARENT = /^[\p{Mn}\p{Me}\p{Cf}]$/u;

function joiningOf(codePoint: number, char: string): Joining {
  if (codePoint === TATWEEL || codePoint === ZWJ) return "C";
  if (codePoint === 0x0621) return "U";
  const forms = FORMS.get(codePoint);
  if (forms) return codePoint === ALEF_MAKSURA ? "D" : forms.joining;
  // Marks and format characters (but ZWNJ, which breaks a join) let their neighbours join across them.
  if (codePoint !== 0x200c && TRANSPARENT.test(char)) return "T";
  return "U";
}

type Form = "isolated" | "final" | "initial" | "medial";

function formOf(codePoint: number, form: Form): number {
  const forms = FORMS.get(codePoint)!;
  if (codePoint === ALEF_MAKSURA && (form === "initial" || form === "medial"))
    return ALEF_MAKSURA_INITIAL + (form === "medial" ? 1 : 0);
  if (forms.count === 2 && (form === "initial" || form === "medial"))
    form = form === "initial" ? "isolated" : "final";
  const offset = { isolated: 0, final: 1, initial: 2, medial: 3 }[form];
  return forms.isolated + offset;
}

/**
 * `text`, one entry per UTF-16 code unit, each Arabic letter replaced by the presentation form its
 * neighbours give it (an alef after a lam becomes "": the lam carries the ligature). Every other unit is
 * kept as it is, so the entries stay aligned with the text's indices (bidi levels, line breaks).
 */
export function shapeArabic(text: string): string[] {
  const units = [...text].flatMap((char) =>
    char.length === 2
      ? [{ char, codePoint: char.codePointAt(0)! }, null]
      : [{ char, codePoint: char.codePointAt(0)! }],
  );
  const joining = units.map((unit) => (unit ? joiningOf(unit.codePoint, unit.char) : "T"));
  const out = units.map((unit) => (unit ? unit.char : ""));
  /** The nearest letter before or after `index` that is not transparent, or -1. */
  const neighbour = (index: number, step: 1 | -1) => {
    for (let at = index + step; at >= 0 && at < units.length; at += step)
      if (joining[at] !== "T") return at;
    return -1;
  };
  const joinsForward = (at: number) => at >= 0 && (joining[at] === "D" || joining[at] === "C");
  const joinsBack = (at: number) =>
    at >= 0 && (joining[at] === "D" || joining[at] === "R" || joining[at] === "C");
  for (let index = 0; index < units.length; index++) {
    const unit = units[index];
    if (!unit || !FORMS.has(unit.codePoint) || out[index] === "") continue;
    const before = joinsForward(neighbour(index, -1));
    const afterAt = neighbour(index, 1);
    if (unit.codePoint === LAM && afterAt >= 0 && LAM_ALEF.has(units[afterAt]!.codePoint)) {
      out[index] = String.fromCodePoint(
        LAM_ALEF.get(units[afterAt]!.codePoint)! + (before ? 1 : 0),
      );
      out[afterAt] = "";
      continue;
    }
    const after = joining[index] !== "R" && joinsBack(afterAt);
    const form: Form = before ? (after ? "medial" : "final") : after ? "initial" : "isolated";
    out[index] = String.fromCodePoint(formOf(unit.codePoint, form));
  }
  return out;
}
