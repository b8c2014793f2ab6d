import type { StoredLedgerReason } from "./ledger-reason";

export type { LedgerReportQuery } from "./ledger-report.schemas";

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
