import type { ReactNode } from "react";

/**
 * A <noscript> fallback. The server writes its children; a browser that runs scripts keeps them as the
 * text it parsed, which Preact (ADR 42) would replace by elements while hydrating, work in the task
 * before a tap is answered, for content no one sees. So in the browser the server's text is left alone.
 */
export function NoScript({ children }: { children: ReactNode }) {
  if (import.meta.env.SSR) return <noscript>{children}</noscript>;
  return <noscript dangerouslySetInnerHTML={{ __html: "" }} />;
}
