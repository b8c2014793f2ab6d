import type { TOptions } from "i18next";
import { useTranslation } from "./use-translation";
import type { Namespace, Resources } from "./resources";

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

/** i18next's spelling of a MessageKey: "orders:errors.serviceNotFound". */
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

/** Translates domain message keys (any namespace) into the reader's language. */
export function useMessage(): Translate {
  const { i18n } = useTranslation();
  function translate(key: MessageKey, options?: TOptions): string;
  function translate(key: MessageKey | undefined, options?: TOptions): string | undefined;
  function translate(key: MessageKey | undefined, options?: TOptions) {
    return key === undefined ? undefined : i18n.t(toColonKey(key), options);
  }
  return translate;
}
