import type { SelectQueryBuilder } from "kysely";

/** Where a page starts and how many rows it holds. */
export type PageWindow = { limit: number; offset: number };

/**
 * One page of `query`'s rows and whether another page follows: it asks for one row more than the page
 * holds, so no count is needed to know.
 */
export async function fetchPage<DB, TB extends keyof DB, O>(
  query: SelectQueryBuilder<DB, TB, O>,
  page: PageWindow,
): Promise<{ rows: O[]; hasMore: boolean }> {
  const rows = await query
    .limit(page.limit + 1)
    .offset(page.offset)
    .execute();
  return { rows: rows.slice(0, page.limit), hasMore: rows.length > page.limit };
}

/** How many rows `query` (its tables and conditions, nothing selected yet) matches. */
export async function countRows<DB, TB extends keyof DB, O>(
  query: SelectQueryBuilder<DB, TB, O>,
): Promise<number> {
  const row = await query
    .select((eb) => eb.fn.countAll<number>().as("n"))
    .$castTo<{ n: number }>()
    .executeTakeFirstOrThrow();
  return Number(row.n);
}
