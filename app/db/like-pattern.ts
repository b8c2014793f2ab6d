/** A LIKE pattern that matches `text` anywhere, with LIKE's own wildcards in it escaped. */
export function containsPattern(text: string): string {
  return `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}
