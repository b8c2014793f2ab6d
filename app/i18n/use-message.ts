import type { TOptions } from "i18next";
import { use, useContext } from "react";
import { namespaceLoading } from "./catalogue-loader";
import { NamespacesUsed } from "./namespaces-used";
import { useTranslation } from "./use-translation";
import type { Namespace, Resources } from "./resources";
import type { Translator } from "./translator";

/** The dotted key paths of one catalogue, plural suffixes folded ("nav.notificationsCount"). */
type KeyPaths<T> = {
  [K in keyof T & string]: T[K] extends string
    ? K extends `${infer Base}_${"zero" | "one" | "two" | "few" | "many" | "other"}`
      ? Base
      : K
    : `${K}.${KeyPaths<T[K]>}`;
}[keyof T & string];

/** A key in one namespace, as that namespace's own `t` takes it ("errors.emailTaken" in auth). */
export type NamespaceKey<Ns extends Namespace> = KeyPaths<Resources[Ns]>;

/**
 * A message key as domain results carry it: the namespace, a dot, then the key in it
 * ("orders.errors.serviceNotFound"). Derived from the English catalogues, so a key that names no text
 * fails the type check.
 */
export type MessageKey = { [Ns in Namespace]: `${Ns}.${NamespaceKey<Ns>}` }[Namespace];

/** The translator's (and i18next's) spelling of a MessageKey: "orders:errors.serviceNotFound". */
type ColonKey<K extends MessageKey> = K extends `${infer Ns}.${infer Rest}`
  ? `${Ns}:${Rest}`
  : never;

export function toColonKey<K extends MessageKey>(key: K): ColonKey<K> {
  const dot = key.indexOf(".");
  return `${key.slice(0, dot)}:${key.slice(dot + 1)}` as ColonKey<K>;
}

/** Translates a message key; a text for a key, nothing for no key (an optional message). */
export interface Translate {
  (key: MessageKey, options?: TOptions): string;
  (key: MessageKey | undefined, options?: TOptions): string | undefined;
}

/**
 * The namespace of a message key ready for `i18n`: noted for the page on the server (ADR 29), loaded in the
 * browser if the page came without it. Called while rendering, so the component can wait for it.
 */
function useNamespaceOf(i18n: Translator): (key: string) => void {
  const used = useContext(NamespacesUsed);
  // `use` may be called inside a render-time function (unlike hooks); it is named apart so the hooks
  // rule does not read this as a hook in a callback.
  const waitFor = use;
  return (key) => {
    const ns = key.slice(0, key.indexOf("."));
    used?.add(ns);
    const loading = used ? null : namespaceLoading(i18n, ns);
    if (loading) waitFor(loading);
  };
}

/** Translates domain message keys (any namespace) into the reader's language. */
export function useMessage(): Translate {
  const { i18n } = useTranslation();
  const ready = useNamespaceOf(i18n);
  function translate(key: MessageKey, options?: TOptions): string;
  function translate(key: MessageKey | undefined, options?: TOptions): string | undefined;
  function translate(key: MessageKey | undefined, options?: TOptions) {
    if (key === undefined) return undefined;
    ready(key);
    return i18n.t(toColonKey(key), options);
  }
  return translate;
}

/** Whether the catalogues have a text for a key ("admin.audit.actions.x"), for vocabularies kept as data. */
export function useMessageExists(): (key: string) => key is MessageKey {
  const { i18n } = useTranslation();
  const ready = useNamespaceOf(i18n);
  return (key: string): key is MessageKey => {
    ready(key);
    return i18n.exists(key.replace(".", ":"));
  };
}
