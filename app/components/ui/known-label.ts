import { useMessage, useMessageExists } from "~/i18n/use-message";
import type { Namespace } from "~/i18n/resources";

/**
 * Words for a label key held in data, such as the audit log's vocabulary: "audit.actions.coinsAdjust" (in
 * `namespace`) or "admin-catalogue:audit.productCreate" (in another one). `fallback` (the code itself)
 * when there is no key or the catalogues have no such text: the vocabulary is data, so each key is looked
 * up rather than assumed.
 */
export function useKnownLabel(namespace: Namespace = "admin") {
  const message = useMessage();
  // Notes the key's namespace for the page, and loads it in the browser if the page came without it.
  const known = useMessageExists();
  return (key: string | undefined, fallback: string) => {
    if (!key) return fallback;
    const full = key.includes(":") ? key.replace(":", ".") : `${namespace}.${key}`;
    return known(full) ? (message(full) ?? fallback) : fallback;
  };
}
