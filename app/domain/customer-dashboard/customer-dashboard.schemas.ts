import { z } from "~/lib/zod";
import { MAX_ROW_ID } from "~/lib/id-field";
import { DASHBOARD_TABS } from "./customer-dashboard";

// Schemas only: actions, loaders, *.server.ts and tests import this file, never a page's code, so zod
// never reaches the browser (docs/architecture.md).

export const dashboardQuerySchema = z.object({
  tab: z.enum(DASHBOARD_TABS).catch("overview"),
  before: z.coerce.number().int().positive().optional().catch(undefined),
  page: z.coerce.number().int().min(1).max(10_000).catch(1),
  /** The billing tab's page of invoices and receipts, paged apart from its orders. */
  invoices: z.coerce.number().int().min(1).max(10_000).catch(1),
  /** The service whose renewal the services tab asks to confirm (the step before any charge). */
  renew: z.coerce.number().int().positive().max(MAX_ROW_ID).optional().catch(undefined),
});
export type DashboardQuery = z.infer<typeof dashboardQuerySchema>;
