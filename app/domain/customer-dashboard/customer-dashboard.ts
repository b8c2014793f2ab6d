import { z } from "~/lib/zod";

export const DASHBOARD_TABS = [
  "overview",
  "services",
  "domains",
  "billing",
  "support",
  "account",
] as const;
export type DashboardTab = (typeof DASHBOARD_TABS)[number];
export const LEDGER_PAGE_SIZE = 20;
export const LIST_PAGE_SIZE = 20;

export const dashboardQuerySchema = z.object({
  tab: z.enum(DASHBOARD_TABS).catch("overview"),
  before: z.coerce.number().int().positive().optional().catch(undefined),
  page: z.coerce.number().int().min(1).max(10_000).catch(1),
});
