import { fetchPage, pageWindow, type PageRequest } from "~/db/paging";
import { LIST_PAGE_SIZE } from "~/domain/customer-dashboard/customer-dashboard";
import { customerCount } from "~/db/customer-rows";
import { inTransaction, type Db } from "~/db/transaction";
import type { HostingService } from "./hosting-services";
import { switchAutoRenew } from "./auto-renew.server";
import { findServiceOrRefuse, SERVICE_COLUMNS, toService } from "./service-rows.server";

// A customer's services: their count, the dashboard's pages and lists, and their automatic renewal switch.

/** The count of active services (one customer's, or everyone's), as a query to run or to nest. */
export function activeServicesCount(db: Db, userId?: string) {
  return customerCount(
    db.selectFrom("hosting_services").where("status", "=", "active"),
    "hosting_services",
    userId,
  );
}

/** A customer's services, newest first, a page of the dashboard's LIST_PAGE_SIZE at a time. */
export async function listCustomerServicePage(db: Db, userId: string, page: PageRequest) {
  const { rows, hasMore } = await fetchPage(
    db
      .selectFrom("hosting_services")
      .leftJoin("panel_connections", (join) => join.on("panel_connections.id", "=", 1))
      .select(SERVICE_COLUMNS.map((column) => `hosting_services.${column}` as const))
      .select("panel_connections.url as panel_url")
      .where("hosting_services.user_id", "=", userId)
      .orderBy("hosting_services.id", "desc"),
    pageWindow(page, LIST_PAGE_SIZE),
  );
  return {
    services: rows.map((row) => ({
      ...toService(row, row.panel_url),
      // The card counts its termination from it (docs/automation.md "The service lifecycle").
      suspendedAt: row.status === "suspended" ? row.suspended_at : null,
    })),
    hasMore,
  };
}

export type SetAutoRenewResult =
  | { ok: true; service: HostingService; changed: boolean }
  | { ok: false; kind: "notFound"; error: "services.errors.notFound" };

/**
 * The customer turns the automatic renewal of one of their services on or off (the dashboard's switch).
 * Another customer's service is not found, nor is one deleted (or no longer theirs) between its read and
 * its update; setting what is already set changes nothing.
 */
export async function setAutoRenew(
  db: Db,
  input: { userId: string; serviceId: number; autoRenew: boolean },
): Promise<SetAutoRenewResult> {
  return inTransaction(db, async (trx) => {
    const found = await findServiceOrRefuse(trx, input.serviceId, input.userId);
    const value = input.autoRenew ? 1 : 0;
    if (Number(found.auto_renew) === value)
      return { ok: true, service: toService(found), changed: false };
    const row = await switchAutoRenew(trx, {
      serviceId: input.serviceId,
      userId: input.userId,
      on: input.autoRenew,
    });
    if (row) return { ok: true, service: toService(row), changed: true };
    // Not switched here: a request committed since the read set it so already, or deleted the service
    // (or it is no longer the customer's). The step's null does not say which, so read it again in this
    // transaction: a service gone is refused as one never found, not answered with the row read before.
    const current = await findServiceOrRefuse(trx, input.serviceId, input.userId);
    return { ok: true, service: toService(current), changed: false };
  });
}

/** A customer's newest 50 services: the ticket form's choice, the dashboard's renewals. */
export async function listCustomerServices(db: Db, userId: string) {
  return (await listCustomerServicePage(db, userId, { page: 1, pageSize: 50 })).services;
}
