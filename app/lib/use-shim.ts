import * as React from "react";
import { useContext, type Context } from "react";

// React 19 renders on the server and has `use()`; in the browser `react` is preact/compat, which has none
// (ADR 42). There a context is read with useContext; a promise is followed on the object itself (as React
// does) and thrown while pending, for a <Suspense> above.
type Tracked<T> = Promise<T> & {
  status?: "pending" | "fulfilled" | "rejected";
  value?: T;
  reason?: unknown;
};

function isPromise<T>(usable: Promise<T> | Context<T>): usable is Tracked<T> {
  return typeof (usable as Promise<T>).then === "function";
}

/** The promise's value once settled (noted on the promise, as React notes it); thrown while pending. */
export function settledOrThrown<T>(promise: Tracked<T>): T {
  if (promise.status === "fulfilled") return promise.value as T;
  if (promise.status === "rejected") throw promise.reason;
  if (!promise.status) {
    promise.status = "pending";
    promise.then(
      (value) => {
        promise.status = "fulfilled";
        promise.value = value;
      },
      (reason: unknown) => {
        promise.status = "rejected";
        promise.reason = reason;
      },
    );
  }
  throw promise;
}

function useShim<T>(usable: Promise<T> | Context<T>): T {
  if (isPromise(usable)) return settledOrThrown(usable);
  // Like React's use(), called where the caller needs it: each of our call sites always passes the same
  // kind (a context or a promise), so the hooks Preact counts stay in the same order.
  // eslint-disable-next-line react-hooks/rules-of-hooks
  return useContext(usable as Context<T>);
}

const reactUse = (React as { use?: <T>(usable: Promise<T> | Context<T>) => T }).use;

export const use: <T>(usable: Promise<T> | Context<T>) => T = reactUse ?? useShim;
