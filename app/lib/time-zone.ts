/** The site's time zone when the settings name none: the company's own (Morocco). */
export const DEFAULT_TIME_ZONE = "Africa/Casablanca";

// The settings are parsed (and their zone checked) on every order's and renewal's transaction, and a
// DateTimeFormat costs a fraction of a millisecond: the zones found valid are remembered. Only valid ones,
// so a stream of made-up names cannot grow the set past the runtime's own list.
const known = new Set<string>();

/** Whether `value` is a time zone this runtime knows (an IANA name such as "Europe/Paris", or "UTC"). */
export function isTimeZone(value: string): boolean {
  if (known.has(value)) return true;
  try {
    new Intl.DateTimeFormat("en", { timeZone: value });
  } catch {
    return false;
  }
  known.add(value);
  return true;
}
