import { describe, expect, it } from "vitest";
import { editorActionSchema, editorOutcome, rowActions, saveActions } from "./save-actions";
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

describe("rowActions", () => {
  it("reads each row button as its intent and the row's id", () => {
    const [enable, remove] = rowActions(z.coerce.number().int().positive(), ["enable", "delete"]);
    expect(enable.parse({ intent: "enable", id: "3" })).toEqual({ intent: "enable", id: 3 });
    expect(remove.parse({ intent: "delete", id: "4" })).toEqual({ intent: "delete", id: 4 });
    expect(enable.safeParse({ intent: "delete", id: "3" }).success).toBe(false);
    expect(remove.safeParse({ intent: "delete" }).success).toBe(false);
  });
});

describe("editorActionSchema", () => {
  const id = z.coerce.number().int().positive();
  const schema = editorActionSchema(
    "item",
    (form: { name: string; size: number }) => ({ label: `${form.name} (${form.size})` }),
    "errors.unknownAction",
    [...saveActions(fields, id, () => {}), ...rowActions(id, ["delete"])],
  );

  it("gives a create and an update the item made of their form", () => {
    expect(schema.parse({ intent: "create", name: "a", size: "2" })).toEqual({
      intent: "create",
      item: { label: "a (2)" },
    });
    expect(schema.parse({ intent: "update", id: "7", name: "a", size: "2" })).toEqual({
      intent: "update",
      id: 7,
      item: { label: "a (2)" },
    });
  });

  it("keeps a row's button as parsed and refuses any other intent", () => {
    expect(schema.parse({ intent: "delete", id: "5" })).toEqual({ intent: "delete", id: 5 });
    expect(schema.safeParse({ intent: "rename", id: "5" }).error?.issues[0]?.message).toBe(
      "errors.unknownAction",
    );
  });
});

describe("editorOutcome", () => {
  type Result =
    { ok: true; item: { id: number } } | { ok: false; kind: "notFound"; error: "errors.notFound" };
  // As a use-case returns them: typed as the whole result, either side.
  const saved = { ok: true, item: { id: 9 } } as Result;
  const refused = { ok: false, kind: "notFound", error: "errors.notFound" } as Result;

  it("says what worked, on the row acted on or the one a create saved", () => {
    expect(editorOutcome(saved, 4, "items.updated")).toEqual({
      ok: true,
      id: 4,
      message: "items.updated",
    });
    expect(editorOutcome(saved, (done) => done.item.id, "items.created")).toEqual({
      ok: true,
      id: 9,
      message: "items.created",
    });
  });

  it("hands a refusal back as it came", () => {
    expect(editorOutcome(refused, 4, "items.updated")).toBe(refused);
    expect(editorOutcome(refused, (done) => done.item.id, "items.created")).toBe(refused);
  });
});
