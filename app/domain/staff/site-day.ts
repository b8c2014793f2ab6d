import { Cron } from "croner";

/**
 * The calendar day `now` falls in, read in the site's time zone: from the midnight that started it
 * (included) to the next (excluded). A day there may last 23 or 25 hours, and where the clocks jump at
 * midnight it starts at the first minute that exists; croner reads the zone's rules for both. Support's
 * daily goodwill limit counts the credits given in this window.
 */
export function siteDay(timeZone: string, now: Date): { start: Date; end: Date } {
  const midnight = new Cron("0 0 * * *", { timezone: timeZone, paused: true });
  // The next midnight is strictly after now; the one before it is at or before now, so a change made
  // at midnight exactly counts in the day it opens.
  const end = midnight.nextRun(now);
  const start = end ? midnight.previousRuns(1, end)[0] : undefined;
  if (!end || !start)
    throw new Error(`No midnight found in ${timeZone} around ${now.toISOString()}`);
  return { start, end };
}
