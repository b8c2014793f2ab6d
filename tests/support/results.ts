import type { FailureKind } from "~/lib/result";

/** A domain function's refusal as a test expects it: not done, the kind of failure and its message key. */
export function refusal(kind: FailureKind, error: string) {
  return { ok: false, kind, error };
}
