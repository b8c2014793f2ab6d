import { describe, expect, it, vi } from "vitest";
import { rowToEdit } from "./row-to-edit";

describe("rowToEdit", () => {
  const rows = new Map([[7, { id: 7, name: "Minecraft" }]]);
  const find = async (id: number) => rows.get(id);

  it("reads the row the form is open on, null when it is not there", async () => {
    expect(await rowToEdit(7, find)).toEqual({ id: 7, name: "Minecraft" });
    expect(await rowToEdit(8, find)).toBeNull();
  });

  it("reads nothing for an empty form or none", async () => {
    const never = vi.fn(find);
    expect(await rowToEdit("new", never)).toBe("new");
    expect(await rowToEdit(undefined, never)).toBeUndefined();
    expect(never).not.toHaveBeenCalled();
  });
});
