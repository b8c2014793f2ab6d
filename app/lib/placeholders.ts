/**
 * Texts the server renders for the enhance script (app/entry.enhance.ts) keep their {{name}} placeholders,
 * to be filled in the browser: the server translates t("gate.countdown", { seconds: placeholder("seconds") })
 * and the script calls fillPlaceholders(text, { seconds: 4 }). The catalogue stays the only source of
 * the words, in every language.
 */
export function placeholder(name: string): string {
  return `{{${name}}}`;
}

/** Replaces each {{name}} with its value; a placeholder without a value stays as it is. */
export function fillPlaceholders(text: string, values: Record<string, string | number>): string {
  return text.replace(/\{\{(\w+)\}\}/g, (whole, name: string) =>
    Object.hasOwn(values, name) ? String(values[name]) : whole,
  );
}
