/**
 * Where a line of mixed Arabic and Latin text needs a directional isolate (a `<bdi>`).
 *
 * In a right-to-left line, digits take the direction of the text around them: "بسعة 5 GB" shows as
 * "GB 5", an address with a port or an amount can come out reordered. A run of Latin text that holds a
 * digit ("5 GB", "192.168.1.10:7777", "0x1F", "4,36 €") is therefore isolated as a whole, words and
 * punctuation between its ends included, so it reads left to right in one piece. Runs without a digit are
 * left alone: plain Latin words are strongly left to right already, and cutting them into isolates would
 * turn them into neutrals that the surrounding Arabic then reorders.
 */

/** A Latin letter, a Western digit, a euro or percent sign, or an isolate mark (app/i18n/i18n.ts). */
const EDGE = String.raw`\p{Script=Latin}0-9€%\u2068\u2069`;
/** What may sit between two edges of one run: spaces (no line break) and the punctuation of a sentence. */
const GLUE = String.raw` \u00a0\u202f.,:;!?'"’/\\_+\-#@&=()\[\]*~|`;
const RUN = new RegExp(`[${EDGE}](?:[${EDGE}${GLUE}]*[${EDGE}])?`, "gu");
const DIGIT = /[0-9]/;

export interface BidiPart {
  text: string;
  /** This part is a Latin run with a digit: render it in its own left-to-right isolate. */
  isolate: boolean;
}

/** The text cut into parts, in order, that join back to it; the parts to isolate are marked. */
export function bidiParts(text: string): BidiPart[] {
  const parts: BidiPart[] = [];
  let last = 0;
  for (const match of text.matchAll(RUN)) {
    if (!DIGIT.test(match[0])) continue;
    const start = match.index;
    if (start > last) parts.push({ text: text.slice(last, start), isolate: false });
    parts.push({ text: match[0], isolate: true });
    last = start + match[0].length;
  }
  if (last < text.length) parts.push({ text: text.slice(last), isolate: false });
  return parts;
}

/**
 * A run as a PDF's line isolates it: `RUN`, except that a colon, semicolon, question or exclamation mark
 * followed by a space ends it ("42: SA-MP 100 slots" is a number, then a name, each in its place in the
 * Arabic sentence), while one inside a run ("192.168.1.10:7777", "12:30") does not.
 */
const CLAUSE = ":;!?";
const SOFT_GLUE = GLUE.replace(/[:;!?]/g, "");
const LINE_RUN = new RegExp(
  `[${EDGE}](?:(?:[${EDGE}${SOFT_GLUE}]|[${CLAUSE}](?![ \u00a0\u202f]))*[${EDGE}])?`,
  "gu",
);

const OPENING: Record<string, string> = { "(": ")", "[": "]" };
const CLOSING: Record<string, string> = { ")": "(", "]": "[" };
const BRACKET = /[()[\]]/;

/** How many of `text`'s opening brackets have no closing one after them (negative: closings left open). */
function openBrackets(text: string): number {
  let open = 0;
  for (const char of text) {
    if (char in OPENING) open++;
    else if (char in CLOSING) open--;
  }
  return open;
}

/**
 * The Latin runs of a right-to-left line that a PDF isolates and keeps on one line (pdf-text.server.ts),
 * as `[start, end)` ranges: each run with a digit (a document number, a reference, an amount) or a
 * bracket, with the brackets that enclose it or close it. Left to the line breaker, "(Orange Money)" was
 * cut at its space, "(Orange" ending one right-to-left line and "Money)" starting the next, and a reader
 * (pdf.js) took "Orange)" and "(Money" out of them; a document number beside Arabic came back in two.
 */
export function latinRunsToIsolate(text: string): [number, number][] {
  const runs: [number, number][] = [];
  for (const match of text.matchAll(LINE_RUN)) {
    let start = match.index;
    let end = start + match[0].length;
    // Never into the run before (odd brackets such as "a) (b").
    const floor = runs.at(-1)?.[1] ?? 0;
    // "(Orange Money)": the brackets around a run belong to it.
    while (start > floor && text[end] !== undefined && OPENING[text[start - 1]!] === text[end]) {
      start--;
      end++;
    }
    // "TU-7K2M3 (Orange Money": the bracket it opened closes right after it (or before it).
    let open = openBrackets(text.slice(start, end));
    while (open > 0 && text[end] !== undefined && text[end]! in CLOSING) {
      end++;
      open--;
    }
    while (open < 0 && start > floor && text[start - 1]! in OPENING) {
      start--;
      open++;
    }
    const run = text.slice(start, end);
    if (DIGIT.test(run) || BRACKET.test(run)) runs.push([start, end]);
  }
  return runs;
}

/**
 * The marks that steer the bidirectional algorithm by hand: embeddings and overrides (U+202A to U+202E),
 * isolates (U+2066 to U+2069) and the implicit marks (LRM, RLM, ALM). A name or an address typed with
 * them can reorder what follows it on a document, or force a run of Arabic left to right, which the
 * PDF's layout then cannot shape; the page's `dir="auto"` and our own isolates do the work instead.
 */
const DIRECTIONAL_CONTROLS = /[\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/gu;

/** `text` without its directional controls (a name, an address, a company's details). */
export function withoutDirectionalControls(text: string): string {
  return text.replace(DIRECTIONAL_CONTROLS, "");
}
