import type { FailureKind } from "~/lib/result";

const statuses = {
  invalid: 400,
  unauthenticated: 401,
  forbidden: 403,
  notFound: 404,
  conflict: 409,
  limited: 429,
} as const satisfies Record<FailureKind, number>;

/** The HTTP status a route answers a refused domain result with. */
export function statusOf(result: { kind: FailureKind }): (typeof statuses)[FailureKind] {
  return statuses[result.kind];
}
