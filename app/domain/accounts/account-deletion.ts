export type { DeletionActionInput } from "./account-deletion.schemas";

// A customer's request to delete their account, and the admin's completion of it (ADR 19,
// docs/security.md#account-deletion). Messages are catalogue keys ("namespace.key").

/** A pending request as the account tab shows it: when, and what the account held then. */
export interface PendingDeletion {
  requestedAt: string;
  activeServices: number;
  pendingOrders: number;
  balanceCents: number;
}
