import { useEffect, useRef, useState, useSyncExternalStore } from "react";

function onVisibilityChange(changed: () => void) {
  document.addEventListener("visibilitychange", changed);
  return () => document.removeEventListener("visibilitychange", changed);
}

/** Whether the page is on the screen (not a tab in the background, not a locked phone). */
export function usePageVisible(): boolean {
  return useSyncExternalStore(
    onVisibilityChange,
    () => document.visibilityState !== "hidden",
    // The server's HTML, and the hydration that must say what it said.
    () => true,
  );
}

/**
 * A small part of a page kept fresh without loading the page again: `initial` (what the loader gave),
 * then what `url` (a resource route answering JSON) answers, asked `everyMs` after the last answer while
 * the page is on the screen and `enabled` holds. A page coming back to the screen asks at once. New
 * loader data (after a form was sent) replaces what was polled, and the ask under way is dropped.
 *
 * Plain `fetch` rather than a fetcher: a fetcher's failed load is thrown to the route's error boundary,
 * so a phone losing its signal for a moment would lose the page; here a failed or refused answer keeps
 * what is shown and the next turn asks again. Without scripts the page is as it was loaded.
 */
export function usePolledJson<T>(
  url: string,
  initial: T,
  everyMs: number | ((shown: T) => number),
  enabled = true,
): T {
  const [latest, setLatest] = useState({ from: initial, value: initial });
  let shown = latest;
  if (latest.from !== initial) {
    // The loader answered again: its data is newer than anything polled before it.
    shown = { from: initial, value: initial };
    setLatest(shown);
  }
  const every = typeof everyMs === "function" ? everyMs(shown.value) : everyMs;
  const [turn, setTurn] = useState(0);
  const visible = usePageVisible();
  const wasHidden = useRef(false);
  useEffect(() => {
    if (!enabled) return;
    if (!visible) {
      wasHidden.current = true;
      return;
    }
    const delay = wasHidden.current ? 0 : every;
    wasHidden.current = false;
    const controller = new AbortController();
    const timer = setTimeout(() => {
      fetch(url, { signal: controller.signal, headers: { Accept: "application/json" } })
        .then(async (response) => {
          if (response.ok) {
            const value = (await response.json()) as T;
            setLatest({ from: initial, value });
          }
        })
        .catch(() => {
          // No answer: what is shown stays, and the next turn asks again.
        })
        .finally(() => {
          if (!controller.signal.aborted) setTurn((count) => count + 1);
        });
    }, delay);
    return () => {
      clearTimeout(timer);
      controller.abort();
    };
  }, [url, initial, every, enabled, visible, turn]);
  return shown.value;
}
