import { perInstance } from "~/lib/instance-cache";
import type { Catalogues } from "./i18n";
import type { Translator } from "./translator";
import { useTranslation } from "./use-translation";

const ELEMENT_ID = "catalogues";

// In the browser, what the server wrote: the element keeps it across renders (React does not compare a
// script's contents when it hydrates, and must not rewrite them afterwards).
let written: string | null | undefined;
function writtenByServer(): string {
  if (written === undefined)
    written =
      typeof document === "undefined"
        ? null
        : (document.getElementById(ELEMENT_ID)?.textContent ?? null);
  return written ?? "{}";
}

// A server translator's catalogues never change (one per language for the process), and pages use a few
// sets of namespaces: each set is serialised once, not on every signed-in page (tens of KiB each).
const serialisedSets = new WeakMap<Translator, Map<string, string>>();

function serialised(i18n: Translator, namespaces: string[]): string {
  return perInstance(serialisedSets, i18n, namespaces.join(","), () => {
    const all = i18n.catalogues();
    const page = Object.fromEntries(
      namespaces.filter((ns) => ns in all).map((ns) => [ns, all[ns]]),
    );
    // "<" escaped: a catalogue text can never close the element.
    return JSON.stringify(page).replace(/</g, "\\u003c");
  });
}

/**
 * The page's catalogues as a JSON data block, rendered after everything that translates (the end of
 * <body>), so every namespace the page used is known. The browser reads it before hydrating.
 */
export function CatalogueData({ used }: { used: Set<string> | null }) {
  const { i18n } = useTranslation();
  let json: string;
  if (used) json = serialised(i18n, [...used].sort());
  else json = writtenByServer();
  return (
    <script
      id={ELEMENT_ID}
      type="application/json"
      suppressHydrationWarning
      dangerouslySetInnerHTML={{ __html: json }}
    />
  );
}

/** The catalogues the server wrote into this page. */
export function readCatalogueData(): Catalogues {
  try {
    return JSON.parse(writtenByServer()) as Catalogues;
  } catch {
    return {};
  }
}
