import { describe, expect, it } from "vitest";
import { withFormField, z } from "./zod";

describe("withFormField", () => {
  const checked = (fields: Record<string, unknown>) =>
    Object.keys(fields)
      .filter((name) => name.startsWith("item-"))
      .map((name) => Number(name.slice("item-".length)));
  const schema = withFormField(
    "items",
    checked,
    z.object({ name: z.string(), items: z.array(z.number()) }),
  );

  it("hands the schema what the reader makes of all the form's fields", () => {
    expect(schema.parse({ name: "a", "item-3": "on", "item-7": "on" })).toEqual({
      name: "a",
      items: [3, 7],
    });
    expect(schema.parse({ name: "a", items: "typed" })).toEqual({ name: "a", items: [] });
  });

  it("leaves anything but a record of fields to the schema to refuse", () => {
    expect(schema.safeParse(null).success).toBe(false);
    expect(schema.safeParse([]).success).toBe(false);
  });
});
