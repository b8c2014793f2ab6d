import { createContext, useContext } from "react";
// Bundled on its own (Vite's worker build: one small self-contained file, none of the app's chunks).
import enhanceScriptUrl from "~/entry.enhance.ts?worker&url";

export { enhanceScriptUrl };

/** The enhance script's code when the server can write it into the page (entry.server), else null. */
export const EnhanceScriptContext = createContext<string | null>(null);

/**
 * The one script of a page served without React (ADR 13). Written into the page when the server has its
 * code, so a first visit does not wait a round trip for it; otherwise the file, at low priority, since
 * nothing of the first paint needs it. A module script either way: it runs once the page is parsed.
 */
export function EnhanceScript({ nonce }: { nonce: string }) {
  const code = useContext(EnhanceScriptContext);
  return code ? (
    <script
      type="module"
      nonce={nonce}
      data-enhance=""
      dangerouslySetInnerHTML={{ __html: code }}
    />
  ) : (
    <script
      type="module"
      src={enhanceScriptUrl}
      nonce={nonce}
      fetchPriority="low"
      data-enhance=""
    />
  );
}
