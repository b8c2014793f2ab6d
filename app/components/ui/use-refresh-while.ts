import { useEffect } from "react";
import { useRevalidator } from "react-router";

/**
 * Loads the page's data again every `everyMs` while `waiting` holds: a page showing what the worker has
 * not done yet (a check, a server being made, a payment being confirmed) follows it without a reload.
 * `changed` is what tells one load from the next (a state, a count): each new value starts the wait
 * again. Without scripts the page is as it was loaded, and a plain reload shows the news.
 */
export function useRefreshWhile(waiting: boolean, everyMs: number, changed: unknown = null): void {
  const revalidator = useRevalidator();
  useEffect(() => {
    if (!waiting) return;
    const timer = setTimeout(() => {
      if (revalidator.state === "idle") void revalidator.revalidate();
    }, everyMs);
    return () => clearTimeout(timer);
  }, [waiting, everyMs, changed, revalidator]);
}
