import { MAX_ROW_ID } from "./id-field";
import { z } from "./zod";

// A list's query string: a value that does not parse falls back to its default, never an error.

/** The page number: 1 when absent or not a page. */
export const pageParam = z.coerce.number().int().min(1).max(100_000).catch(1);

/** The search box's text: "" when absent or too long. */
export const searchParam = z.string().max(200).catch("");

/** An optional text filter (an email, a name), up to `max` characters: no filter otherwise. */
export function textParam(max: number) {
  return z.string().max(max).optional().catch(undefined);
}

/** An optional filter by one of `values`: no filter when absent or unknown. */
export function filterParam<const T extends readonly string[]>(values: T) {
  return z.enum(values).optional().catch(undefined);
}

/** Which row's form the page shows: a row's id, "new" for an empty one, none otherwise. */
export const editParam = z
  .union([z.literal("new"), z.coerce.number().int().positive().max(MAX_ROW_ID)])
  .optional()
  .catch(undefined);

/** A row's id (a panel egg's, a client's): none when absent or not an id. */
export const idParam = z.coerce
  .number()
  .int()
  .positive()
  .max(MAX_ROW_ID)
  .optional()
  .catch(undefined);
