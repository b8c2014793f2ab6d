import type { Generated } from "kysely";
import type { Timestamp } from "./columns";

// A customer's change of plan (migration 0053, docs/self-service.md, ADR 58).

/** One change the admin allows: a service of `from_product_id` may move to `to_product_id`. */
export interface ProductPlanPathsTable {
  from_product_id: number;
  to_product_id: number;
  created_at: Timestamp;
}

/** Where the resize of a changed service's server on the game panel stands (a CHECK). */
export type PlanChangeResizeState = "none" | "queued" | "done" | "failed";

/** One change of plan made: what it cost or gave back, with what documents, and the panel's resize. */
export interface PlanChangesTable {
  id: Generated<number>;
  hosting_service_id: number;
  user_id: string;
  /** Null once the product is deleted; its name stays in `from_name`. */
  from_product_id: number | null;
  to_product_id: number | null;
  from_name: string;
  to_name: string;
  billing_cycle: string;
  previous_cycle_price_cents: number;
  new_cycle_price_cents: number;
  previous_monthly_price_cents: number;
  new_monthly_price_cents: number;
  /** Charged (an upgrade) or credited (a downgrade), VAT included: never negative. */
  amount_cents: number;
  /** upgrade | downgrade (a CHECK). */
  direction: string;
  /** The invoice (upgrade) or credit note (downgrade) issued with it. */
  document_id: number | null;
  /** The coin ledger row that moved the coins; null when nothing moved (a change of 0). */
  ledger_entry_id: number | null;
  /** The service's expiry when it changed, which the price was prorated to (and which stays). */
  expires_at: Timestamp;
  /** The form's key, unique per customer. */
  idempotency_key: string;
  resize_state: Generated<string>;
  created_at: Timestamp;
  updated_at: Timestamp;
}

/** The tables of plan changes, joined to `Database` (schema.ts). */
export interface PlanChangeTables {
  product_plan_paths: ProductPlanPathsTable;
  plan_changes: PlanChangesTable;
}
