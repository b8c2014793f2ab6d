import type { Generated } from "kysely";
import type { Timestamp } from "./columns";

/**
 * A customer's cancellation of a service (migration 0054, docs/self-service.md): at the end of its term,
 * or a refund within 14 days of its order. At most one open (scheduled or requested) a service.
 */
export interface ServiceCancellationsTable {
  id: Generated<number>;
  hosting_service_id: number;
  user_id: string;
  /** end_of_term | refund (a CHECK). */
  kind: string;
  /** One of CANCELLATION_REASONS (a CHECK). */
  reason: string;
  /** The customer's own words, if any. */
  reason_text: string | null;
  /** end_of_term: scheduled | withdrawn | done; refund: requested | withdrawn | approved | refused. */
  state: string;
  /** A refund's amount: what it would give back, then what it gave back. */
  refund_cents: Generated<number>;
  /** An end of term: the service's automatic renewal before it switched it off (1 or 0). */
  auto_renew_before: number | null;
  /** An end of term: the expiry the service runs to. */
  ends_at: Timestamp | null;
  /** The admin who decided a refund; null for the system. */
  decided_by: string | null;
  decided_at: Timestamp | null;
  /** Why an admin refused a refund. */
  decision_reason: string | null;
  /** JSON: the numbers of the credit notes an approved refund issued. */
  credit_notes: Generated<string>;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export interface ServiceCancellationTables {
  service_cancellations: ServiceCancellationsTable;
}
