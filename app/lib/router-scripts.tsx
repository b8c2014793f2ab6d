import { useState } from "react";
import { Scripts } from "react-router";

/*
 * React Router's <Scripts> under Preact (ADR 42). On the server it writes ten or so
 * <link rel="modulepreload"> tags, which React 19 moves into <head>, and the scripts that start the
 * browser. Hydrating <Scripts> in the browser, Preact found no such links in <body>, made them there and
 * removed the server's from <head>: a change to <head>'s links makes the browser restyle the whole page
 * (measured: 30 to 55 ms at CPU x4 on /admin/clients, a long task of its own), and the scripts had
 * already run. So <Scripts> renders on the server only, and <head> keeps the links as they came.
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
