import { z } from "./zod";

/** The largest id a table's row can have (a 32-bit integer on PostgreSQL). */
export const MAX_ROW_ID = 2_147_483_647;

/** A row's id from a form: anything else, with the one message, reads as a row that does not exist. */
export function idField(notFound: string, max: number = MAX_ROW_ID) {
  return z.coerce.number({ error: notFound }).int(notFound).positive(notFound).max(max, notFound);
}
