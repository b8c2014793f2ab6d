import { filterParam, pageParam, textParam } from "~/lib/query-params";
import { z } from "~/lib/zod";
import { LEDGER_KINDS } from "./coins";

// Schemas only: actions, loaders, *.server.ts and tests import this file, never a page's code, so zod
// never reaches the browser (docs/architecture.md).

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
