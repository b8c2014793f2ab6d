import { dateTimeFormat } from "~/lib/intl-format";
import { DEFAULT_TIME_ZONE } from "~/lib/time-zone";
import type { MailContext } from "./mail-templates";

// A message's stored values read back for its template (they are JSON written by mail-plan.server.ts,
// and a row queued by an older version may lack one): text, an amount, a moment.

/** A value as text: a string as it is, a number written out, anything else empty. */
export const text = (value: unknown) =>
  typeof value === "string" ? value : typeof value === "number" ? String(value) : "";

/** An amount in cents, 0 when it is not a number. */
export const cents = (value: unknown) =>
  typeof value === "number" && Number.isFinite(value) ? value : 0;

/** A date and time in the reader's language and the site's time zone ("12 March 2031, 04:17"). */
export function formatWhen(value: unknown, context: Pick<MailContext, "locale" | "timeZone">) {
  const time = typeof value === "string" ? Date.parse(value) : NaN;
  if (Number.isNaN(time)) return "";
  return dateTimeFormat(context.locale, {
    dateStyle: "long",
    timeStyle: "short",
    timeZone: context.timeZone ?? DEFAULT_TIME_ZONE,
  }).format(time);
}
