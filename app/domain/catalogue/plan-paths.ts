// The changes of plan an admin allows (docs/self-service.md, migration 0053): from a product, to others
// of its type. Pure: the product editor's checkbox names and the list they make, safe in the browser.

/** A checkbox of the product editor's "Customers may change to": `changeTo-<product id>`. */
export const CHANGE_TO_FIELD_PREFIX = "changeTo-";

export function changeToFieldName(productId: number): string {
  return `${CHANGE_TO_FIELD_PREFIX}${productId}`;
}

/** The refusal of a path to a product of another type, or to one that does not exist. */
export const PLAN_PATH_TYPE_ERROR = "admin-catalogue.products.errors.changeToType";

/**
 * The product form's "Customers may change to" checkboxes (`changeTo-3`: "on") as the list the
 * product's fields read (`changeTo`: "3,5"). The editor's group always sends an empty `changeTo` with
 * its boxes, so that none ticked is no path at all (an unticked checkbox sends nothing); a form without
 * the group (nothing sent) leaves the product's paths as they are (undefined).
 */
export function withChangeToList(fields: Readonly<Record<string, unknown>>): string | undefined {
  const ids: string[] = [];
  for (const [field, value] of Object.entries(fields)) {
    if (typeof value !== "string" || value === "") continue;
    if (field.startsWith(CHANGE_TO_FIELD_PREFIX))
      ids.push(field.slice(CHANGE_TO_FIELD_PREFIX.length));
  }
  if (ids.length > 0) return ids.join(",");
  return typeof fields.changeTo === "string" ? fields.changeTo : undefined;
}

/** The form's product ids, each once, in order; null when one is not an id. */
export function parseChangeTo(text: string): number[] | null {
  const ids: number[] = [];
  for (const part of text.split(",")) {
    const trimmed = part.trim();
    if (trimmed === "") continue;
    if (!/^\d{1,9}$/.test(trimmed) || Number(trimmed) < 1) return null;
    if (!ids.includes(Number(trimmed))) ids.push(Number(trimmed));
  }
  return ids;
}
