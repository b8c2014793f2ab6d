import { describe, expect, it } from "vitest";
import { labelKeyFamily, labelKeys, messageKeys } from "./label-keys";

describe("labelKeys", () => {
  it("maps each value to its key under the prefix, in the order given", () => {
    const labels = labelKeys("orders", "status", ["pending", "approved", "rejected"]);
    expect(labels).toEqual({
      pending: "status.pending",
      approved: "status.approved",
      rejected: "status.rejected",
    });
    expect(Object.keys(labels)).toEqual(["pending", "approved", "rejected"]);
  });

  it("types each value as its key", () => {
    const labels = labelKeys("tickets", "priorities", ["low", "high"] as const);
    const key: "priorities.low" = labels.low;
    expect(key).toBe("priorities.low");
  });

  it("remembers the family, for the catalogue test", () => {
    const values = ["asc", "desc"] as const;
    const labels = labelKeys("admin", "users.directions", values);
    expect(labelKeyFamily(labels)).toEqual({
      namespace: "admin",
      prefix: "users.directions",
      values,
    });
    expect(labelKeyFamily({ asc: "users.directions.asc" })).toBeUndefined();
    expect(labelKeyFamily("users.directions.asc")).toBeUndefined();
  });

  it("cannot be changed after it is made", () => {
    const labels = labelKeys("coins", "kinds", ["renewal"]);
    expect(Object.isFrozen(labels)).toBe(true);
  });
});

describe("messageKeys", () => {
  it("maps each value to its key with the namespace first, as a domain message key", () => {
    const errors = messageKeys("services", "errors.price", ["required", "tooLarge"]);
    expect(errors).toEqual({
      required: "services.errors.price.required",
      tooLarge: "services.errors.price.tooLarge",
    });
    const key: "services.errors.price.required" = errors.required;
    expect(key).toBe("services.errors.price.required");
    expect(Object.isFrozen(errors)).toBe(true);
  });

  it("remembers the family as labelKeys does, for the catalogue test", () => {
    const values = ["required", "invalid"] as const;
    expect(labelKeyFamily(messageKeys("admin-catalogue", "money", values))).toEqual({
      namespace: "admin-catalogue",
      prefix: "money",
      values,
    });
  });
});
