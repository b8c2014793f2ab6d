/**
 * A number typed on an Arabic or Persian keyboard, in the digits every parser here reads: Arabic-Indic
 * (U+0660 to U+0669) and Extended Arabic-Indic (U+06F0 to U+06F9) digits become 0 to 9, and the Arabic
 * decimal separator (U+066B) a point. Phones with an Arabic layout type these digits by default.
 */
export function westernDigits(text: string): string {
  return text.replace(/[\u0660-\u0669\u06f0-\u06f9\u066b]/g, (char) => {
    const code = char.charCodeAt(0);
    if (code === 0x066b) return ".";
    return String(code >= 0x06f0 ? code - 0x06f0 : code - 0x0660);
  });
}
