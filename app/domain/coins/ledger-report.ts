import { z } from "~/lib/zod";
import { LEDGER_KINDS } from "./coins";

export const LEDGER_PAGE_SIZE_ADMIN = 50;

const day = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2}$/)
  .refine((value) => !Number.isNaN(Date.parse(`${value}T00:00:00.000Z`)))
  .optional()
  .catch(undefined);

/** /admin/transactions' query string: a value that does not parse is ignored, never an error. */
export const ledgerReportQuerySchema = z.object({
  customer: z.string().max(254).optional().catch(undefined),
  kind: z.enum(LEDGER_KINDS).optional().catch(undefined),
  from: day,
  to: day,
  page: z.coerce.number().int().min(1).max(100_000).catch(1),
});
export type LedgerReportQuery = z.infer<typeof ledgerReportQuerySchema>;
