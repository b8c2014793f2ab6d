import { describe, expect, it } from "vitest";
import { settledOrThrown } from "./use-shim";

function thrownBy(read: () => unknown): unknown {
  try {
    read();
  } catch (error) {
    return error;
  }
  return undefined;
}

// The browser's use() for a promise (Preact has none, ADR 42): thrown while pending, for a <Suspense>
// above to wait on; then its value, or its error, as React's use() gives them.
describe("settledOrThrown", () => {
  it("throws the promise while it is pending, then gives its value", async () => {
    const promise = Promise.resolve("catalogue");
    expect(thrownBy(() => settledOrThrown(promise))).toBe(promise);
    await promise;
    expect(settledOrThrown(promise)).toBe("catalogue");
  });

  it("throws a rejected promise's reason once it has settled", async () => {
    const failure = new Error("no catalogue");
    const promise = Promise.reject(failure);
    expect(thrownBy(() => settledOrThrown(promise))).toBe(promise);
    await promise.catch(() => undefined);
    expect(thrownBy(() => settledOrThrown(promise))).toBe(failure);
  });
});
