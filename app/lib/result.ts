/**
 * What kind of refusal a domain result is, said where the result is made, so a route answers with the
 * status the refusal deserves (app/http/result-status.ts) without reading its message key.
 */
export type FailureKind =
  "invalid" | "unauthenticated" | "forbidden" | "notFound" | "conflict" | "limited";
