import { intlLocale } from "./money";

// Making an Intl formatter costs tens of microseconds (ICU loads the locale's data), using one about a
// microsecond; pages made them on every render, a dozen or more per page. They are immutable, so one per
// locale and options serves every request.
const formatters = new Map<string, Intl.NumberFormat | Intl.DateTimeFormat>();

function shared<F extends Intl.NumberFormat | Intl.DateTimeFormat>(key: string, make: () => F): F {
  let format = formatters.get(key) as F | undefined;
  if (!format) {
    format = make();
    formatters.set(key, format);
  }
  return format;
}

export function numberFormat(
  locale: string,
  options: Intl.NumberFormatOptions = {},
): Intl.NumberFormat {
  return shared(
    `n|${locale}|${JSON.stringify(options)}`,
    () => new Intl.NumberFormat(intlLocale(locale), options),
  );
}

export function dateTimeFormat(
  locale: string,
  options: Intl.DateTimeFormatOptions = {},
): Intl.DateTimeFormat {
  return shared(
    `d|${locale}|${JSON.stringify(options)}`,
    () => new Intl.DateTimeFormat(intlLocale(locale), options),
  );
}
