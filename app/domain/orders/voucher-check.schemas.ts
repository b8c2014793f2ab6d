import { requiredText, z } from "~/lib/zod";
import {
  BACKUP_IDS,
  BILLING_CYCLE_IDS,
  normalizeVoucherCode,
  type Backup,
  type BillingCycle,
} from "./orders";

// Schemas only: actions, loaders, *.server.ts and tests import this file, never a page's code, so zod
// never reaches the browser (docs/architecture.md).

/** What the order form sends to check a code: the code and what it would apply to. */
export const voucherCheckQuerySchema = z.object({
  code: requiredText("orders.errors.voucherNotFound", 40).transform(normalizeVoucherCode),
  product: z.coerce
    .number({ error: "orders.errors.required" })
    .int("orders.errors.required")
    .positive("orders.errors.required")
    .max(2_147_483_647, "orders.errors.required"),
  billingCycle: z
    .enum(BILLING_CYCLE_IDS as [BillingCycle, ...BillingCycle[]], "orders.errors.invalidOption")
    .default("monthly"),
  backup: z
    .enum(BACKUP_IDS as [Backup, ...Backup[]], "orders.errors.invalidOption")
    .default("choliba"),
});
export type VoucherCheckQuery = z.infer<typeof voucherCheckQuerySchema>;
