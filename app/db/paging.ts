import type { SelectQueryBuilder } from "kysely";

/** Where a page starts and how many rows it holds. */
export type PageWindow = { limit: number; offset: number };

/**
 * The page of a list a caller asks a domain list function for: its number, from 1. The domain owns how
 * many rows a page holds; `pageSize` is only for a list shorter than the domain's page (a dashboard's
 * latest few, a test that pages through three rows). Routes pass the page number alone.
 */
export type PageRequest = { page: number; pageSize?: number };

/** The rows of `request`'s page of a list shown `size` rows at a time (or its own `pageSize`). */
export function pageWindow(request: PageRequest, size: number): PageWindow {
  const limit = request.pageSize ?? size;
  return { limit, offset: (request.page - 1) * limit };
}

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
