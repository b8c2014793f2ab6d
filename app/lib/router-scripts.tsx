import { useState } from "react";
import { Scripts } from "react-router";

/*
 * React Router's <Scripts> under Preact (ADR 42). On the server it writes ten or so
 * <link rel="modulepreload"> tags, which React 19 moves into <head>, and the scripts that start the
 * browser. Hydrating <Scripts> in the browser, Preact found no such links in <body>, made them there and
 * removed the server's from <head>, and moved the page's <style> back in front of where they had been:
 * a stylesheet taken out and put back restyles the whole page (30 to 55 ms at CPU x4 on /admin/clients,
 * a long task of its own). The scripts had already run. So <Scripts> renders on the server only (its
 * effect that marks React Router hydrated matters in SPA mode only, which we do not use), and <head>
 * keeps the links where React put them, before the <style> (root.tsx).
 */
export function RouterScripts({ nonce }: { nonce: string | undefined }) {
  if (import.meta.env.SSR) return <Scripts nonce={nonce} />;
  return null;
}

/** The modulepreload links the server's <Scripts> put in <head>, rendered as they are: never changed. */
export function HoistedModulePreloads() {
  const [hrefs] = useState(() =>
    import.meta.env.SSR
      ? []
      : [...document.head.querySelectorAll<HTMLLinkElement>('link[rel="modulepreload"]')].map(
          (link) => link.getAttribute("href") ?? "",
        ),
  );
  return hrefs.map((href) => <link key={href} rel="modulepreload" href={href} />);
}
