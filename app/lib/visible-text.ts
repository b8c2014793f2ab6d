/**
 * Text a stranger typed (a failed login's email) shown to an admin: React already escapes it, so it can
 * never become markup; this also replaces control and bidirectional-override characters with U+FFFD, so
 * the value cannot hide itself or reorder what is around it, and cuts it to `max` characters.
 */
// C0 and C1 controls, the bidi embeddings, overrides and isolates, and the zero-width marks: matching
// control characters is the point here.
const INVISIBLE =
  // eslint-disable-next-line no-control-regex
  /[\u0000-\u001f\u007f-\u009f\u061c\u200b-\u200f\u202a-\u202e\u2066-\u2069\ufeff]/g;

export function visibleText(value: string, max = 320): string {
  const text = value.replace(INVISIBLE, "\ufffd");
  return text.length > max ? `${text.slice(0, max)}…` : text;
}
