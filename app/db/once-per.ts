import type { Db } from "./transaction";

/**
 * A gate for housekeeping that runs at most once per `everyMs` on each database handle (called after
 * each request's work, so an idle site does no work). `due(db, now)` says whether it is time, and if
 * so counts this call as the run; `force` runs it whatever the time.
 */
export function oncePer(everyMs: number) {
  const lastRun = new WeakMap<Db, number>();
  return function due(db: Db, now: Date, force = false): boolean {
    if (!force && now.getTime() - (lastRun.get(db) ?? 0) < everyMs) return false;
    lastRun.set(db, now.getTime());
    return true;
  };
}
