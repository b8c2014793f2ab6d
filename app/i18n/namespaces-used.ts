import { createContext, useContext } from "react";

/**
 * While the server renders a page, the namespaces its texts came from (useTranslation and useMessage
 * add to them); null in the browser. The page then carries those catalogues, in its language only, as
 * data (catalogue-data.tsx, ADR 29).
 */
export const NamespacesUsed = createContext<Set<string> | null>(null);

/** Adds a namespace to the page's catalogues during a server render; nothing in the browser. */
export function useRecordNamespace(): (ns: string) => void {
  const used = useContext(NamespacesUsed);
  return (ns) => void used?.add(ns);
}
