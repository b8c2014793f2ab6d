/** The site's time zone when the settings name none: the company's own (Morocco). */
export const DEFAULT_TIME_ZONE = "Africa/Casablanca";

/** Whether `value` is a time zone this runtime knows (an IANA name such as "Europe/Paris", or "UTC"). */
export function isTimeZone(value: string): boolean {
  try {
    new Intl.DateTimeFormat("en", { timeZone: value });
    return true;
  } catch {
    return false;
  }
}
