import {
  SERVER_STATE_TONES,
  STATUS_REFRESH_MS,
  type ServerState,
  type ServerStatusView,
} from "~/domain/servers/server-control";
import { numberFormat } from "~/lib/intl-format";

// The card's figures as it writes them, and how often it asks for them: pure, so the tests and both pages
// (the customer's and the staff's) read them alike.

/** While a server is moving (an action waits, or it starts, stops or installs), the card asks this often. */
export const MOVING_REFRESH_MS = 2_000;

const MOVING_STATES: ReadonlySet<ServerState> = new Set(["starting", "stopping", "installing"]);

/** How long the card waits before asking for the state again. */
export function refreshEvery(status: Pick<ServerStatusView, "state" | "lastAction">): number {
  const moving = MOVING_STATES.has(status.state) || status.lastAction?.state === "queued";
  return moving ? MOVING_REFRESH_MS : STATUS_REFRESH_MS;
}

/** The kit's badge colour of each of the state's tones. */
const BADGE_TONES = {
  success: "green",
  warning: "yellow",
  danger: "red",
  muted: "grey",
} as const;

export function stateBadgeTone(state: ServerState) {
  return BADGE_TONES[SERVER_STATE_TONES[state]];
}

/** A share of a limit, 0 to 100, for a bar's width (none without a limit). */
export function barPercent(used: number | null, limit: number): number | null {
  if (used === null || limit <= 0) return null;
  return Math.min(100, Math.max(0, (used / limit) * 100));
}

/** A size in MiB, in gigabytes from 1024 on (one decimal at most), and the catalogue key of its unit. */
export function sizeParts(mib: number, locale: string): { key: "gb" | "mb"; value: string } {
  if (mib >= 1024)
    return {
      key: "gb",
      value: numberFormat(locale, { maximumFractionDigits: 1 }).format(mib / 1024),
    };
  return { key: "mb", value: numberFormat(locale, { maximumFractionDigits: 0 }).format(mib) };
}

/** A share of one core (the panel's cpu_absolute: 250 is two cores and a half) as the reader writes it. */
export function cpuText(percent: number, locale: string): string {
  return numberFormat(locale, { style: "percent", maximumFractionDigits: 0 }).format(percent / 100);
}

/** A duration in its two largest units: days and hours, hours and minutes, minutes, or seconds. */
export function durationParts(
  seconds: number,
):
  | { unit: "days"; days: number; hours: number }
  | { unit: "hours"; hours: number; minutes: number }
  | { unit: "minutes"; minutes: number }
  | { unit: "seconds"; seconds: number } {
  const whole = Math.max(0, Math.floor(seconds));
  if (whole >= 86_400)
    return { unit: "days", days: Math.floor(whole / 86_400), hours: Math.floor(whole / 3600) % 24 };
  if (whole >= 3600)
    return { unit: "hours", hours: Math.floor(whole / 3600), minutes: Math.floor(whole / 60) % 60 };
  if (whole >= 60) return { unit: "minutes", minutes: Math.floor(whole / 60) };
  return { unit: "seconds", seconds: whole };
}

/** A state's age in its largest unit: "12 s", "3 min", "2 h". */
export function ageParts(seconds: number): {
  unit: "seconds" | "minutes" | "hours";
  value: number;
} {
  if (seconds >= 3600) return { unit: "hours", value: Math.floor(seconds / 3600) };
  if (seconds >= 60) return { unit: "minutes", value: Math.floor(seconds / 60) };
  return { unit: "seconds", value: Math.max(0, Math.floor(seconds)) };
}
