import { recordAudit } from "~/domain/audit/audit.server";
import { notify } from "~/domain/notifications/notifications.server";
import { postLedgerEntry } from "~/domain/coins/coins.server";
import { addDays, BILLING_CYCLES, cycleDays, type BillingCycle } from "~/domain/orders/orders";
import { fetchPage, pageWindow, type PageRequest } from "~/db/paging";
import { LIST_PAGE_SIZE } from "~/domain/customer-dashboard/customer-dashboard";
import {
  inTransaction,
  isUniqueViolation,
  Refusal,
  refuse,
  type Db,
  type Tx,
} from "~/db/transaction";
import {
  ADMIN_SERVICE_DAYS,
  canRenew,
  canTransition,
  TRANSITIONS,
  type ServiceAction,
  type AdminServiceView,
  type HostingService,
  type ServiceStatus,
} from "./hosting-services";

const columns = [
  "id",
  "user_id",
  "product_id",
  "name",
  "server_name",
  "type",
  "billing_cycle",
  "monthly_price_cents",
  "cycle_price_cents",
  "status",
  "expires_at",
  "created_at",
] as const;

type Row = {
  id: number;
  user_id: string;
  product_id: number | null;
  name: string;
  server_name: string;
  type: string | null;
  billing_cycle: string;
  monthly_price_cents: number;
  cycle_price_cents: number;
  status: string;
  expires_at: string;
  created_at: string;
};

function toService(row: Row): HostingService {
  return {
    id: Number(row.id),
    userId: row.user_id,
    productId: row.product_id,
    name: row.name,
    serverName: row.server_name,
    type: row.type,
    billingCycle: (row.billing_cycle in BILLING_CYCLES
      ? row.billing_cycle
      : "monthly") as BillingCycle,
    monthlyPriceCents: row.monthly_price_cents,
    cyclePriceCents: row.cycle_price_cents,
    status: row.status as ServiceStatus,
    expiresAt: row.expires_at,
    createdAt: row.created_at,
  };
}

/** A step: the service an approved order becomes, active for one cycle from now. */
export async function createServiceFromOrder(
  trx: Tx,
  order: {
    userId: string;
    productId: number;
    productName: string;
    productType: string;
    serverName: string;
    billingCycle: BillingCycle;
    monthlyPriceCents: number;
    cyclePriceCents: number;
  },
  now = new Date(),
): Promise<HostingService> {
  const iso = now.toISOString();
  const row = await trx
    .insertInto("hosting_services")
    .values({
      user_id: order.userId,
      product_id: order.productId,
      name: order.productName,
      server_name: order.serverName,
      type: order.productType,
      billing_cycle: order.billingCycle,
      monthly_price_cents: order.monthlyPriceCents,
      cycle_price_cents: order.cyclePriceCents,
      status: "active",
      expires_at: addDays(now, cycleDays(order.billingCycle)),
      created_at: iso,
      updated_at: iso,
    })
    .returning(columns)
    .executeTakeFirstOrThrow();
  return toService(row);
}

export type AdminAddServiceResult =
  | { ok: true; service: HostingService }
  /**
   * The form names a user who does not exist: `invalid`, not `notFound`, on purpose. What is wrong is the
   * form's user field (typed by the admin), answered with the form again and its message.
   */
  | { ok: false; kind: "invalid"; error: "services.errors.userNotFound" };

/** Spec section 5: an admin adds a service for a user, active, expiring in 30 days. */
export async function adminAddService(
  db: Db,
  input: {
    actorId: string;
    userId: string;
    name: string;
    priceCents: number;
    productId?: number;
    serverName?: string;
    billingCycle: BillingCycle;
  },
): Promise<AdminAddServiceResult> {
  return inTransaction(db, async (trx) => {
    const user = await trx
      .selectFrom("users")
      .select("id")
      .where((eb) =>
        eb.or([eb("id", "=", input.userId), eb("email", "=", input.userId.toLowerCase())]),
      )
      .executeTakeFirst();
    if (!user) refuse<AdminAddServiceResult>("invalid", "services.errors.userNotFound");
    const product = input.productId
      ? await trx
          .selectFrom("products")
          .select(["id", "type"])
          .where("id", "=", input.productId)
          .executeTakeFirst()
      : undefined;
    const now = new Date();
    const iso = now.toISOString();
    const row = await trx
      .insertInto("hosting_services")
      .values({
        user_id: user.id,
        product_id: product?.id ?? null,
        name: input.name,
        server_name: input.serverName ?? "",
        type: product?.type ?? null,
        billing_cycle: input.billingCycle,
        monthly_price_cents: input.priceCents,
        cycle_price_cents: input.priceCents * BILLING_CYCLES[input.billingCycle].months,
        status: "active",
        expires_at: addDays(now, ADMIN_SERVICE_DAYS),
        created_at: iso,
        updated_at: iso,
      })
      .returning(columns)
      .executeTakeFirstOrThrow();
    const service = toService(row);
    await recordAudit(trx, {
      actorId: input.actorId,
      action: "service.add",
      targetType: "hosting_service",
      targetId: service.id,
      after: service,
    });
    return { ok: true, service };
  });
}

export type ChangeStatusResult =
  | { ok: true; service: HostingService }
  | { ok: false; kind: "notFound"; error: "services.errors.notFound" }
  /** The service's status (changed since the page listed it, perhaps) does not allow the action. */
  | { ok: false; kind: "conflict"; error: "services.errors.transitionNotAllowed" };

const serviceNotFound = { ok: false, kind: "notFound", error: "services.errors.notFound" } as const;

/** Step: the service (the customer's own, when `userId` is given), or a notFound refusal. */
async function findServiceOrRefuse(trx: Tx, serviceId: number, userId?: string) {
  let query = trx.selectFrom("hosting_services").select(columns).where("id", "=", serviceId);
  if (userId !== undefined) query = query.where("user_id", "=", userId);
  const service = await query.executeTakeFirst();
  if (!service) throw new Refusal(serviceNotFound);
  return service;
}

/** Suspend, reactivate or terminate; a terminated service never changes again. */
export async function changeServiceStatus(
  db: Db,
  input: { actorId: string; serviceId: number; action: ServiceAction; reason?: string },
): Promise<ChangeStatusResult> {
  return inTransaction(db, async (trx) => {
    const before = await findServiceOrRefuse(trx, input.serviceId);
    if (!canTransition(before.status as ServiceStatus, input.action)) {
      refuse<ChangeStatusResult>("conflict", "services.errors.transitionNotAllowed");
    }
    const { from, to } = TRANSITIONS[input.action];
    const row = await trx
      .updateTable("hosting_services")
      .set({ status: to, updated_at: new Date().toISOString() })
      .where("id", "=", input.serviceId)
      .where("status", "in", from)
      .returning(columns)
      .executeTakeFirst();
    if (!row) refuse<ChangeStatusResult>("conflict", "services.errors.transitionNotAllowed");
    await recordAudit(trx, {
      actorId: input.actorId,
      action: `service.${input.action}`,
      targetType: "hosting_service",
      targetId: input.serviceId,
      before: { status: before.status },
      after: { status: to },
      reason: input.reason,
    });
    if (input.action !== "terminate") {
      await notify(trx, {
        userId: before.user_id,
        kind: input.action === "suspend" ? "service_suspended" : "service_reactivated",
        params: { service: before.name },
        link: "/dashboard?tab=services",
      });
    }
    return { ok: true, service: toService(row) };
  });
}

export async function deleteService(
  db: Db,
  input: { actorId: string; serviceId: number },
): Promise<{ ok: true } | { ok: false; kind: "notFound"; error: "services.errors.notFound" }> {
  return inTransaction(db, async (trx) => {
    const before = await findServiceOrRefuse(trx, input.serviceId);
    await trx.deleteFrom("hosting_services").where("id", "=", input.serviceId).execute();
    await recordAudit(trx, {
      actorId: input.actorId,
      action: "service.delete",
      targetType: "hosting_service",
      targetId: input.serviceId,
      before: toService(before),
    });
    return { ok: true as const };
  });
}

export type RenewResult =
  | { ok: true; service: HostingService; duplicate: boolean }
  | { ok: false; kind: "notFound"; error: "services.errors.notFound" }
  /** The form's key was made for another customer: a stale form. */
  | { ok: false; kind: "invalid"; error: "orders.errors.expired" }
  /** Only an active service renews; the balance, as it is now, must cover the cycle. */
  | { ok: false; kind: "conflict"; error: "services.errors.cannotRenew" }
  | { ok: false; kind: "conflict"; error: "orders.errors.insufficientCoins"; missingCents: number };

/**
 * A customer pays one cycle from coins; the expiry moves on by the cycle's days from the later of now and
 * the current expiry. The idempotency key makes a retried or doubled request count once.
 */
export async function renewService(
  db: Db,
  input: { userId: string; serviceId: number; idempotencyKey: string },
): Promise<RenewResult> {
  const existing = async () => {
    const renewal = await db
      .selectFrom("service_renewals")
      .select(["hosting_service_id", "user_id"])
      .where("idempotency_key", "=", input.idempotencyKey)
      .executeTakeFirst();
    if (!renewal) return undefined;
    // Another customer's key (unique in the table) is a stale form, not a way to their renewal.
    if (renewal.user_id !== input.userId)
      return { ok: false, kind: "invalid", error: "orders.errors.expired" } as const;
    const row = await db
      .selectFrom("hosting_services")
      .select(columns)
      .where("id", "=", renewal.hosting_service_id)
      .executeTakeFirst();
    // The service was deleted since: the retry finds nothing to renew (and must not insert the key again).
    if (!row) return serviceNotFound;
    return { ok: true, service: toService(row), duplicate: true } as const;
  };
  const previous = await existing();
  if (previous) return previous;
  try {
    return await inTransaction(db, async (trx): Promise<RenewResult> => {
      const service = await findServiceOrRefuse(trx, input.serviceId, input.userId);
      if (!canRenew(service.status as ServiceStatus)) {
        refuse<RenewResult>("conflict", "services.errors.cannotRenew");
      }
      const cycle = (
        service.billing_cycle in BILLING_CYCLES ? service.billing_cycle : "monthly"
      ) as BillingCycle;
      const now = new Date();
      const from = Math.max(now.getTime(), Date.parse(service.expires_at));
      const newExpiry = addDays(new Date(from), cycleDays(cycle));
      const amount = service.cycle_price_cents;
      if (amount > 0) {
        const balance = await postLedgerEntry(trx, {
          userId: input.userId,
          amountCents: -amount,
          kind: "renewal",
          reason: `Renewal of ${service.name}`,
          actorId: input.userId,
          hostingServiceId: service.id,
        });
        if (balance === null) {
          const user = await trx
            .selectFrom("users")
            .select("coin_balance_cents")
            .where("id", "=", input.userId)
            .executeTakeFirstOrThrow();
          throw new Refusal<RenewResult>({
            ok: false,
            kind: "conflict",
            error: "orders.errors.insufficientCoins",
            missingCents: amount - user.coin_balance_cents,
          });
        }
      }
      await trx
        .insertInto("service_renewals")
        .values({
          hosting_service_id: service.id,
          user_id: input.userId,
          idempotency_key: input.idempotencyKey,
          amount_cents: amount,
          previous_expires_at: service.expires_at,
          new_expires_at: newExpiry,
          created_at: now.toISOString(),
        })
        .execute();
      const row = await trx
        .updateTable("hosting_services")
        .set({ expires_at: newExpiry, updated_at: now.toISOString() })
        .where("id", "=", service.id)
        .returning(columns)
        .executeTakeFirstOrThrow();
      return { ok: true, service: toService(row), duplicate: false };
    });
  } catch (error) {
    // The same key raced in from a second request: the first one's renewal stands.
    if (isUniqueViolation(error)) {
      const raced = await existing();
      if (raced) return raced;
    }
    throw error;
  }
}

/** A customer's services, newest first, a page of the dashboard's LIST_PAGE_SIZE at a time. */
export async function listCustomerServicePage(db: Db, userId: string, page: PageRequest) {
  const { rows, hasMore } = await fetchPage(
    db
      .selectFrom("hosting_services")
      .select(columns)
      .where("user_id", "=", userId)
      .orderBy("id", "desc"),
    pageWindow(page, LIST_PAGE_SIZE),
  );
  return { services: rows.map(toService), hasMore };
}

/** A customer's newest 50 services: the ticket form's choice, the dashboard's renewals. */
export async function listCustomerServices(db: Db, userId: string) {
  return (await listCustomerServicePage(db, userId, { page: 1, pageSize: 50 })).services;
}

/** How many services /admin/services shows. */
export const ADMIN_SERVICES_PAGE_SIZE = 200;

/** Every customer's services for admins, newest first, paged. */
export async function listServicesForAdmin(
  db: Db,
  filter: PageRequest & { status?: ServiceStatus; search?: string },
) {
  let query = db
    .selectFrom("hosting_services")
    .innerJoin("users", "users.id", "hosting_services.user_id")
    .select([
      "hosting_services.id",
      "hosting_services.user_id",
      "hosting_services.product_id",
      "hosting_services.name",
      "hosting_services.server_name",
      "hosting_services.type",
      "hosting_services.billing_cycle",
      "hosting_services.monthly_price_cents",
      "hosting_services.cycle_price_cents",
      "hosting_services.status",
      "hosting_services.expires_at",
      "hosting_services.created_at",
      "users.email",
      "users.name as user_name",
    ]);
  if (filter.status) query = query.where("hosting_services.status", "=", filter.status);
  const { rows, hasMore } = await fetchPage(
    query.orderBy("hosting_services.id", "desc"),
    pageWindow(filter, ADMIN_SERVICES_PAGE_SIZE),
  );
  return {
    services: rows.map((row): AdminServiceView => ({
      ...toService(row),
      userEmail: row.email,
      userName: row.user_name,
    })),
    hasMore,
  };
}
