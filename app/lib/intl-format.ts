import { intlLocale } from "./money";

// Making an Intl formatter costs tens of microseconds (ICU loads the locale's data), using one about a
// microsecond; pages made them on every render, a dozen or more per page. They are immutable, so one per
// locale and options serves every request.
const formatters = new Map<string, Intl.NumberFormat | Intl.DateTimeFormat>();

/** The one formatter of its kind for a locale and options, made on first use. */
function shared<Options, Format extends Intl.NumberFormat | Intl.DateTimeFormat>(
  kind: string,
  make: new (locale: string, options: Options) => Format,
  locale: string,
  options: Options,
): Format {
  const key = `${kind}|${locale}|${JSON.stringify(options)}`;
  let format = formatters.get(key) as Format | undefined;
  if (!format) {
    format = new make(intlLocale(locale), options);
    formatters.set(key, format);
  }
  return format;
}

export function numberFormat(locale: string, options: Intl.NumberFormatOptions = {}) {
  return shared("n", Intl.NumberFormat, locale, options);
}

export function dateTimeFormat(locale: string, options: Intl.DateTimeFormatOptions = {}) {
  return shared("d", Intl.DateTimeFormat, locale, options);
}

/**
 * The date and time most pages write a moment in: "24 Nov 2026, 14:05", or with `seconds`
 * "24 Nov 2026, 14:05:09" (the logs, where moments seconds apart are told apart). Without `timeZone`,
 * the server's (or browser's) own.
 */
export function mediumDateTime(
  locale: string,
  { timeZone, seconds = false }: { timeZone?: string; seconds?: boolean } = {},
) {
  return dateTimeFormat(locale, {
    dateStyle: "medium",
    timeStyle: seconds ? "medium" : "short",
    timeZone,
  });
}

/** The date alone, as most pages write a day: "24 Nov 2026". */
export function mediumDate(locale: string) {
  return dateTimeFormat(locale, { dateStyle: "medium" });
}

/**
 * A calendar day ("2026-11-24", as a date input sends it) in the reader's language: "24 Nov 2026" (or
 * "24 November 2026", long, as documents write dates).
 * Read at midnight UTC and written in UTC, so no time zone moves it to the day before or after.
 */
export function formatCalendarDay(
  day: string,
  locale: string,
  dateStyle: "medium" | "long" = "medium",
): string {
  const date = new Date(`${day}T00:00:00Z`);
  if (Number.isNaN(date.getTime())) return day;
  return dateTimeFormat(locale, { dateStyle, timeZone: "UTC" }).format(date);
}
