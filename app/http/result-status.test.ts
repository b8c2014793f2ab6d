import { describe, expect, it } from "vitest";
import type { FailureKind } from "~/lib/result";
import { statusOf } from "./result-status";

describe("statusOf", () => {
  it.each<[FailureKind, number]>([
    ["invalid", 400],
    ["unauthenticated", 401],
    ["forbidden", 403],
    ["notFound", 404],
    ["conflict", 409],
    ["limited", 429],
  ])("answers a %s refusal with %i", (kind, status) => {
    expect(statusOf({ kind })).toBe(status);
  });
});
