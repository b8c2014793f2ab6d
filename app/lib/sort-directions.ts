/**
 * Which way a list is sorted. Apart from query-params.ts (made of zod) so pages and browser-safe domain
 * modules may name the directions without bringing zod to the browser (docs/architecture.md).
 */
export const SORT_DIRECTIONS = ["asc", "desc"] as const;
export type SortDirection = (typeof SORT_DIRECTIONS)[number];
