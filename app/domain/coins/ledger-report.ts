import { filterParam, pageParam, textParam } from "~/lib/query-params";
import { z } from "~/lib/zod";
import { LEDGER_KINDS } from "./coins";
import type { StoredLedgerReason } from "./ledger-reason";

export const LEDGER_PAGE_SIZE_ADMIN = 50;
/**
 * A customer text that many accounts share (a search, not a report) has its totals summed over at most
 * this many entries; past it the page says "more than" and asks for more of the email. Every other filter
 * adds up exactly (ledger-report.server.ts).
 */
export const LEDGER_TOTALS_LIMIT = 1_000;

export type LedgerTotals =
  | { capped: false; entries: number; netCents: number; creditsCents: number; debitsCents: number }
  | { capped: true; entries: typeof LEDGER_TOTALS_LIMIT };

const day = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2}$/)
  .refine((value) => !Number.isNaN(Date.parse(`${value}T00:00:00.000Z`)))
  .optional()
  .catch(undefined);

/** /admin/transactions' query string: a value that does not parse is ignored, never an error. */
export const ledgerReportQuerySchema = z.object({
  customer: textParam(254),
  kind: filterParam(LEDGER_KINDS),
  from: day,
  to: day,
  page: pageParam,
});
export type LedgerReportQuery = z.infer<typeof ledgerReportQuerySchema>;

/** One coin movement in the admin transactions report; its reason is shown with `ledgerReasonText`. */
export interface LedgerReportRow extends StoredLedgerReason {
  id: number;
  at: string;
  userId: string;
  userName: string;
  userEmail: string;
  amountCents: number;
  balanceAfterCents: number;
  kind: string;
  orderId: number | null;
  hostingServiceId: number | null;
  actorEmail: string | null;
}
