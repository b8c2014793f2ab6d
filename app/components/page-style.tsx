import { createContext, useContext } from "react";
import { Links, UNSAFE_FrameworkContext } from "react-router";

// React's types have no `disabled` on <link>, which HTML has (and React writes, as on any element).
const DISABLED = { disabled: true } as object;

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
  const hrefs = useContext(UNSAFE_FrameworkContext)?.manifest.routes.root?.css ?? [];
  const css = typeof document === "undefined" ? (inline ? fromServer : null) : writtenByServer();
  if (css === null) return <Links />;
  return (
    <>
      <style
        data-page-style=""
        nonce={nonce}
        suppressHydrationWarning
        dangerouslySetInnerHTML={{ __html: css }}
      />
      {/* The files the <style> holds, as disabled links: a browser fetches no disabled stylesheet, and
          React Router, which preloads a route's stylesheet before its first navigation there (and before
          each loader call of a route that has one) unless a link to it is on the page, finds them and
          waits for nothing. Without them the first move to another page waited for the whole file. */}
      {hrefs.map((href) => (
        <link key={href} rel="stylesheet" href={href} {...DISABLED} data-page-style-of="" />
      ))}
    </>
  );
}
