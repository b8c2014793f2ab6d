import { describe, expect, it } from "vitest";
import { saveActions } from "./save-actions";
import { z } from "./zod";

const fields = { name: z.string().min(1, "name.required"), size: z.coerce.number() };
const [create, update] = saveActions(fields, z.coerce.number().int().positive(), (value, ctx) => {
  if (value.size > 10) ctx.addIssue({ code: "custom", path: ["size"], message: "size.tooLarge" });
});

describe("saveActions", () => {
  it("reads a create from the form's fields and an update from them and the row's id", () => {
    expect(create.parse({ intent: "create", name: "a", size: "2" })).toEqual({
      intent: "create",
      name: "a",
      size: 2,
    });
    expect(update.parse({ intent: "update", id: "7", name: "a", size: "2" })).toEqual({
      intent: "update",
      id: 7,
      name: "a",
      size: 2,
    });
    expect(update.safeParse({ intent: "update", name: "a", size: "2" }).success).toBe(false);
  });

  it("checks both the same way", () => {
    for (const result of [
      create.safeParse({ intent: "create", name: "a", size: "11" }),
      update.safeParse({ intent: "update", id: "7", name: "a", size: "11" }),
    ]) {
      expect(result.error?.issues.map((issue) => [issue.path, issue.message])).toEqual([
        [["size"], "size.tooLarge"],
      ]);
    }
  });
});
