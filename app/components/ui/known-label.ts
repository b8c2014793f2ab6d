import { useMessage, type MessageKey } from "~/i18n/use-message";
import { useTranslation } from "~/i18n/use-translation";
import type { Namespace } from "~/i18n/resources";

/**
 * Words for a label key held in data, such as the audit log's vocabulary: "audit.actions.coinsAdjust" (in
 * `namespace`) or "admin-catalogue:audit.productCreate" (in another one). `fallback` (the code itself)
 * when there is no key or the catalogues have no such text: the vocabulary is data, so each key is looked
 * up rather than assumed.
 */
export function useKnownLabel(namespace: Namespace = "admin") {
  const { i18n } = useTranslation(namespace);
  const message = useMessage();
  const known = (key: string): key is MessageKey => i18n.exists(key.replace(".", ":"));
  return (key: string | undefined, fallback: string) => {
    if (!key) return fallback;
    const full = key.includes(":") ? key.replace(":", ".") : `${namespace}.${key}`;
    return known(full) ? (message(full) ?? fallback) : fallback;
  };
}
