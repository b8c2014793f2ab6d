import { Suspense, type ReactNode } from "react";

/**
 * A <Suspense> boundary in the browser build only (ADR 42). Preact has no transitions, so a page that
 * suspends there (a catalogue to load on a page reached by a link, use-shim) needs a boundary above it,
 * below <html>. On the server React renders the page whole, and a boundary would send a page that
 * suspends as a fallback plus a hidden copy that React's inline script reveals a frame later: without
 * JavaScript the page stayed hidden, and Preact could hydrate before the reveal and leave it blank.
 */
export function ClientSuspense({ children }: { children: ReactNode }) {
  if (import.meta.env.SSR) return children;
  return <Suspense fallback={null}>{children}</Suspense>;
}
