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
