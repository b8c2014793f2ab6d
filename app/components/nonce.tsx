import { createContext, useContext } from "react";

/** The per-request CSP nonce, provided by entry.server; empty in the browser, where it is not needed. */
export const NonceContext = createContext("");

export function useNonce() {
  return useContext(NonceContext);
}
