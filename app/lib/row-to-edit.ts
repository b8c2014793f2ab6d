/**
 * The row an editor's form is open on, as its page reads the `edit` parameter (editParam): nothing when
 * no form is open, "new" for an empty form, else the row `find` reads, or null when it is not there.
 */
export async function rowToEdit<T>(
  edit: number | "new" | undefined,
  find: (id: number) => Promise<T | undefined>,
): Promise<T | "new" | null | undefined> {
  if (edit === undefined || edit === "new") return edit;
  return (await find(edit)) ?? null;
}
