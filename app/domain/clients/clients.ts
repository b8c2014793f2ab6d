import { labelKeys } from "~/lib/label-keys";
import type { CustomerLedgerEntry } from "~/domain/customer-dashboard/customer-dashboard";
import type { HostingService } from "~/domain/hosting-services/hosting-services";
import type { DocumentSummary } from "~/domain/invoices/invoices";
import type { ClientMailView } from "~/domain/mail/mail";
import type { TopUpRequest } from "~/domain/payments/top-ups";
import type { Order } from "~/domain/orders/orders";
import type { Ticket } from "~/domain/tickets/tickets";

export type { ClientNoteInput } from "./clients.schemas";

// The client page (/admin/clients/:id): one account as admins see it, read in one call.

/** How many of each list the client page shows: the newest first; the full lists have their own pages. */
export const CLIENT_SECTION_SIZE = 20;
/** How many of each list the ticket page's sidebar shows about the ticket's customer. */
export const CLIENT_SUMMARY_SIZE = 5;
export const MAX_CLIENT_NOTE_LENGTH = 2_000;

// Catalogue keys (admin-clients namespace), one family a set of values (docs/i18n.md, ADR 26).
export const CLIENT_ROLE_LABELS = labelKeys("admin-clients", "profile.roles", ["user", "admin"]);
export const CLIENT_STATUS_LABELS = labelKeys("admin-clients", "profile.statuses", [
  "active",
  "deleted",
]);

/** A role or account status in words; one the page does not know is shown as stored. */
export function clientLabel<T extends Record<string, string>>(
  labels: T,
  value: string,
): T[keyof T] | undefined {
  return Object.hasOwn(labels, value) ? labels[value as keyof T] : undefined;
}

/** The account itself. */
export interface ClientProfile {
  id: string;
  name: string;
  email: string;
  /** The language the customer chose, null when they never did. */
  locale: string | null;
  role: string;
  status: string;
  coinBalanceCents: number;
  createdAt: string;
  /** When the customer asked for the account to be deleted, while that request is pending. */
  deletionRequestedAt: string | null;
  adminNote: string | null;
  /** Two-factor sign-in is on: an admin may turn it off for them. */
  twoFactorEnabled: boolean;
}

/** One audit entry about the client: their account, or one of their orders, services or tickets. */
export interface ClientAuditEntry {
  id: number;
  at: string;
  action: string;
  targetType: "user" | "order" | "hosting_service" | "ticket";
  targetId: string;
  actorEmail: string | null;
  reason: string;
}

/** A newest-first list and whether older rows exist beyond it. */
export interface Latest<Row> {
  rows: Row[];
  hasMore: boolean;
}

/** Figures over the whole account, not only the rows shown. */
export interface ClientCounts {
  activeServices: number;
  orders: number;
  pendingOrders: number;
  openTickets: number;
}

/** What /admin/clients/:id shows. */
export interface ClientDetail {
  profile: ClientProfile;
  counts: ClientCounts;
  services: Latest<HostingService>;
  orders: Latest<Order>;
  tickets: Latest<Ticket>;
  /** Invoices, receipts and credit notes. */
  invoices: Latest<DocumentSummary>;
  topUps: Latest<TopUpRequest>;
  /** The messages the outbox holds for the account (sent, waiting, failed or kept). */
  mail: Latest<ClientMailView>;
  ledger: Latest<CustomerLedgerEntry>;
  audit: Latest<ClientAuditEntry>;
}

/** What the admin ticket page's sidebar shows about the ticket's customer. */
export interface ClientSummary {
  counts: ClientCounts;
  services: Latest<HostingService>;
  orders: Latest<Order>;
  ledger: Latest<CustomerLedgerEntry>;
}
