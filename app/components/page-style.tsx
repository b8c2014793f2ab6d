import { createContext, useContext } from "react";
import { Links } from "react-router";

/** The page's stylesheet text, given by entry.server when it can write it into the page (ADR 29). */
export const PageStyleContext = createContext<string | null>(null);

// In the browser, what the server wrote (React does not compare a <style>'s text when it hydrates, and must
// not rewrite it afterwards); null when the page linked its stylesheet.
let written: string | null | undefined;
function writtenByServer(): string | null {
  if (written === undefined)
    written =
      typeof document === "undefined"
        ? null
        : (document.querySelector("style[data-page-style]")?.textContent ?? null);
  return written;
}

/**
 * The page's styles: on a page React hydrates, the stylesheet written into the page when the server has
 * it, so the first paint waits for nothing but the HTML; otherwise (pages served without React, whose
 * visitors move between pages that share the cached file, or the development server) the usual links.
 */
export function PageStyle({ inline, nonce }: { inline: boolean; nonce: string }) {
  const fromServer = useContext(PageStyleContext);
  const css = typeof document === "undefined" ? (inline ? fromServer : null) : writtenByServer();
  if (css === null) return <Links />;
  return (
    <style
      data-page-style=""
      nonce={nonce}
      suppressHydrationWarning
      dangerouslySetInnerHTML={{ __html: css }}
    />
  );
}
