import { createContext, useContext } from "react";

/**
 * The enhance script, given by entry.server (which owns its bundle): its file, and its code when the
 * server can write it into the page. Only server-rendered pages use it: in the browser it is always React.
 */
export const EnhanceScriptContext = createContext<{ src: string; code: string | null } | null>(
  null,
);

/**
 * The one script of a page served without React (ADR 13). Written into the page when the server has its
 * code, so a first visit does not wait a round trip for it; otherwise the file, at low priority, since
 * nothing of the first paint needs it. A module script either way: it runs once the page is parsed.
 */
export function EnhanceScript({ nonce }: { nonce: string }) {
  const script = useContext(EnhanceScriptContext);
  if (!script) return null;
  const { src, code } = script;
  return code ? (
    <script
      type="module"
      nonce={nonce}
      data-enhance=""
      dangerouslySetInnerHTML={{ __html: code }}
    />
  ) : (
    <script type="module" src={src} nonce={nonce} fetchPriority="low" data-enhance="" />
  );
}
