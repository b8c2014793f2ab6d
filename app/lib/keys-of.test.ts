import { describe, expect, it } from "vitest";
import { keysOf } from "./keys-of";

describe("keysOf", () => {
  it("lists an object's keys in the order they are written", () => {
    const labels = { pending: "status.pending", approved: "status.approved", "Game Hosting": "x" };
    expect(keysOf(labels)).toEqual(["pending", "approved", "Game Hosting"]);
  });

  it("types the list as the union of the keys", () => {
    const keys: readonly ("a" | "b")[] = keysOf({ a: 1, b: 2 });
    expect(keys).toEqual(["a", "b"]);
  });
});
