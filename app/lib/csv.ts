/**
 * CSV files people open in a spreadsheet (RFC 4180: comma, double quotes, CRLF), UTF-8 with a byte-order
 * mark so Excel reads accents and Arabic right. Text cells are defused against formula injection: a cell
 * a spreadsheet would read as a formula (=, +, -, @, a tab or a carriage return first, also after spaces
 * or in full-width form) gets a leading apostrophe, so it shows as the text it is and never runs.
 */

/** A number written as it is (never defused, so a negative amount stays a number). */
export interface CsvNumber {
  readonly csvNumber: string;
}

export type CsvCell = string | number | CsvNumber | null;

const BYTE_ORDER_MARK = "\uFEFF";
const FORMULA_START = /^[\s\u00a0]*[=+\-@\uFF1D\uFF0B\uFF0D\uFF20]|^[\t\r\n]/;
const NEEDS_QUOTES = /[",\r\n]|^\s|\s$/;

/** Cents as decimal euros with a dot and two decimals: 1250 → "12.50", -5 → "-0.05". */
export function csvEuros(cents: number): CsvNumber {
  if (!Number.isSafeInteger(cents)) throw new Error("Money in a CSV must be whole cents");
  const abs = Math.abs(cents);
  const text = `${Math.floor(abs / 100)}.${String(abs % 100).padStart(2, "0")}`;
  return { csvNumber: cents < 0 ? `-${text}` : text };
}

/** A text cell, defused and quoted when it has to be. */
export function csvText(value: string): string {
  const defused = FORMULA_START.test(value) ? `'${value}` : value;
  return NEEDS_QUOTES.test(defused) || defused !== value
    ? `"${defused.replaceAll('"', '""')}"`
    : defused;
}

function cell(value: CsvCell): string {
  if (value === null) return "";
  if (typeof value === "number") {
    if (!Number.isSafeInteger(value))
      throw new Error("Numbers in a CSV must be whole; use csvEuros");
    return String(value);
  }
  if (typeof value === "object") return value.csvNumber;
  return csvText(value);
}

/** The whole file: a header row, then the rows, each line ended by CRLF. */
export function toCsv(header: string[], rows: CsvCell[][]): string {
  const lines = [header, ...rows].map((row) => row.map(cell).join(","));
  return `${BYTE_ORDER_MARK}${lines.join("\r\n")}\r\n`;
}

/** Today's date (UTC) for a file name: "2026-11-22". */
export function csvDate(now: Date): string {
  return now.toISOString().slice(0, 10);
}
