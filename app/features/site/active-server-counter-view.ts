import {
  ACTIVE_SERVER_COUNTER,
  activeServersNumber,
  nextActiveServerCount,
} from "~/domain/site/site";
import { fillPlaceholders } from "~/lib/placeholders";

/** The counter on a page served without React (called by the enhance script). */
export function startActiveServerCounter(element: HTMLElement): void {
  const text = element.dataset.activeServers ?? "";
  const locale = element.dataset.locale ?? "en";
  let count: number = ACTIVE_SERVER_COUNTER.start;
  setInterval(() => {
    count = nextActiveServerCount(count);
    element.textContent = fillPlaceholders(text, { servers: activeServersNumber(count, locale) });
  }, ACTIVE_SERVER_COUNTER.intervalMs);
}
