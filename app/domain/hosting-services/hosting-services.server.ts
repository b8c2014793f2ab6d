import { record } from "~/domain/events/events.server";
import { payFromCoins, type InsufficientCoins } from "~/domain/coins/coins.server";
import { customerVat } from "~/domain/invoices/invoices";
import {
  invoiceTermsFor,
  issueRenewalInvoice,
  type InvoicingContext,
} from "~/domain/invoices/issuing.server";
import { getSettings } from "~/domain/settings/settings.server";
import { ledgerReason } from "~/domain/coins/ledger-reason";
import { sql, type ExpressionBuilder } from "kysely";
import type { Database } from "~/db/schema";
import {
  addDays,
  BILLING_CYCLES,
  cycleEnd,
  quote,
  type BillingCycle,
} from "~/domain/orders/orders";
import { listActiveProducts } from "~/domain/catalogue/catalogue.server";
import { accountLike, fewAccountsContaining, oneOf } from "~/domain/accounts/user-directory.server";
import { isPostgres } from "~/db/dialect";
import { containsAny } from "~/db/like-pattern";
import { fetchPage, pageWindow, type PageRequest } from "~/db/paging";
import type { SortDirection } from "~/lib/sort-directions";
import { LIST_PAGE_SIZE } from "~/domain/customer-dashboard/customer-dashboard";
import { customerCount, ofCustomer, withOwner } from "~/db/customer-rows";
import {
  inTransaction,
  storeOncePerKey,
  refuse,
  rowOrRefuse,
  type Db,
  type Tx,
} from "~/db/transaction";
import {
  canRenew,
  canTransition,
  suspensionReasonOf,
  expiryOnDate,
  renewalAmounts,
  renewalExpiry,
  renewalQuote,
  renewalTermStart,
  TRANSITIONS,
  type ServiceAction,
  type AdminServiceView,
  type EditServiceInput,
  type ExpiringWithin,
  type HostingService,
  type RenewalQuote,
  type ServiceListQuery,
  type ServiceSort,
  type ServiceStatus,
} from "./hosting-services";
import { panelLinkOf } from "~/domain/provisioning/panel-link.server";
import { servicePanelOf } from "~/domain/provisioning/panel-plan";
import { switchAutoRenew } from "./auto-renew.server";

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
  "auto_renew",
  "suspension_reason",
  "suspended_at",
  "panel_state",
  "panel_address",
  "panel_ports",
  "panel_identifier",
] as const;

// What toService reads: not `suspended_at`, which `columns` reads along for renewService (the refund of
// a renewal restores the suspension it lifted) and which the admin list's ADMIN_SERVICE_COLUMNS lacks.
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
  auto_renew: number;
  suspension_reason: string | null;
  panel_state: string | null;
  panel_address: string | null;
  panel_ports: string | null;
  panel_identifier: string | null;
};

/** `panelUrl`: the game panel's address, for the link to a server's page. */
function toService(row: Row, panelUrl: string | null = null): HostingService {
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
    autoRenew: Number(row.auto_renew) === 1,
    suspensionReason: row.status === "suspended" ? suspensionReasonOf(row.suspension_reason) : null,
    panel: servicePanelOf(row, panelUrl),
  };
}

/**
 * A step: a new active service, running one term of its billing cycle from `now` (1, 3, 6 or 12 calendar
 * months, `cycleEnd`). An approved order and an admin's "add service" both make their service here.
 */
async function insertService(
  trx: Tx,
  service: Omit<
    HostingService,
    "id" | "status" | "expiresAt" | "createdAt" | "autoRenew" | "suspensionReason" | "panel"
  > & { autoRenew?: boolean },
  now: Date,
): Promise<HostingService> {
  const iso = now.toISOString();
  const row = await trx
    .insertInto("hosting_services")
    .values({
      user_id: service.userId,
      product_id: service.productId,
      name: service.name,
      server_name: service.serverName,
      type: service.type,
      billing_cycle: service.billingCycle,
      monthly_price_cents: service.monthlyPriceCents,
      cycle_price_cents: service.cyclePriceCents,
      status: "active",
      expires_at: cycleEnd(now, service.billingCycle),
      created_at: iso,
      updated_at: iso,
      auto_renew: service.autoRenew ? 1 : 0,
    })
    .returning(columns)
    .executeTakeFirstOrThrow();
  return toService(row);
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
    /** The order form's automatic renewal switch. */
    autoRenew?: boolean;
  },
  now = new Date(),
): Promise<HostingService> {
  return insertService(
    trx,
    {
      userId: order.userId,
      productId: order.productId,
      name: order.productName,
      serverName: order.serverName,
      type: order.productType,
      billingCycle: order.billingCycle,
      monthlyPriceCents: order.monthlyPriceCents,
      cyclePriceCents: order.cyclePriceCents,
      autoRenew: order.autoRenew ?? false,
    },
    now,
  );
}

export type AdminAddServiceResult =
  | { ok: true; service: HostingService }
  /**
   * The form names a user who does not exist: `invalid`, not `notFound`, on purpose. What is wrong is the
   * form's user field (typed by the admin), answered with the form again and its message.
   */
  | { ok: false; kind: "invalid"; error: "services.errors.userNotFound" };

/**
 * Spec section 5: an admin adds a service for a user, active. It is priced and runs its term as an order
 * of the same plan and cycle would: `quote` gives the cycle's price (months × the monthly price, less the
 * cycle's discount), which each renewal charges, and the service runs the cycle's months. The monthly price
 * is the one typed, or the chosen product's when none is.
 */
export async function adminAddService(
  db: Db,
  input: {
    actorId: string;
    userId: string;
    name: string;
    /** The monthly price; undefined: the product's (0 without one). */
    priceCents?: number;
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
          .select(["id", "type", "price_cents"])
          .where("id", "=", input.productId)
          .executeTakeFirst()
      : undefined;
    const price = quote({
      productPriceCents: input.priceCents ?? product?.price_cents ?? 0,
      cycle: input.billingCycle,
      backup: "choliba",
    });
    const service = await insertService(
      trx,
      {
        userId: user.id,
        productId: product?.id ?? null,
        name: input.name,
        serverName: input.serverName ?? "",
        type: product?.type ?? null,
        billingCycle: input.billingCycle,
        monthlyPriceCents: price.monthlyCents,
        cyclePriceCents: price.subtotalCents,
      },
      new Date(),
    );
    await record(trx, { type: "service.added", actorId: input.actorId, service });
    return { ok: true, service };
  });
}

export type ChangeStatusResult =
  | { ok: true; service: HostingService }
  | { ok: false; kind: "notFound"; error: "services.errors.notFound" }
  /** The service's status (changed since the page listed it, perhaps) does not allow the action. */
  | { ok: false; kind: "conflict"; error: "services.errors.transitionNotAllowed" };

const serviceNotFound = { ok: false, kind: "notFound", error: "services.errors.notFound" } as const;

/**
 * A condition that a column of the service is still as it was read: equal to the value, or null as it
 * was (SQL's = is never true of a null).
 */
function sameAs(column: "suspension_reason" | "suspended_at", value: string | null) {
  return (eb: ExpressionBuilder<Database, "hosting_services">) =>
    value === null ? eb(column, "is", null) : eb(column, "=", value);
}

/** A service's row as its events name it. */
function serviceRef(row: {
  id: number | bigint;
  user_id: string;
  name: string;
  server_name: string;
}) {
  return { id: Number(row.id), userId: row.user_id, name: row.name, serverName: row.server_name };
}

/** Step: the service (the customer's own, when `userId` is given), or a notFound refusal. */
async function findServiceOrRefuse(trx: Tx, serviceId: number, userId?: string) {
  const query = trx.selectFrom("hosting_services").select(columns).where("id", "=", serviceId);
  return rowOrRefuse(ofCustomer(query, "hosting_services", userId), serviceNotFound);
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
    const now = new Date().toISOString();
    // An admin's suspension says so, and the lifecycle never lifts it; a reactivation clears the reason.
    const suspension =
      input.action === "suspend"
        ? { suspension_reason: "admin", suspended_at: now }
        : input.action === "reactivate"
          ? { suspension_reason: null, suspended_at: null }
          : {};
    const row = await trx
      .updateTable("hosting_services")
      .set({ status: to, updated_at: now, ...suspension })
      .where("id", "=", input.serviceId)
      .where("status", "in", from)
      .returning(columns)
      .executeTakeFirst();
    if (!row) refuse<ChangeStatusResult>("conflict", "services.errors.transitionNotAllowed");
    await record(trx, {
      type: "service.statusChanged",
      actorId: input.actorId,
      action: input.action,
      service: serviceRef(before),
      from: before.status,
      to,
      reason: input.reason,
      panel: await panelLinkOf(trx, input.serviceId),
      at: now,
    });
    return { ok: true, service: toService(row) };
  });
}

export async function deleteService(
  db: Db,
  input: { actorId: string; serviceId: number },
): Promise<{ ok: true } | { ok: false; kind: "notFound"; error: "services.errors.notFound" }> {
  return inTransaction(db, async (trx) => {
    const before = await findServiceOrRefuse(trx, input.serviceId);
    // Read before the row goes: the sync job deletes the panel's server by its id.
    const link = await panelLinkOf(trx, input.serviceId);
    await trx.deleteFrom("hosting_services").where("id", "=", input.serviceId).execute();
    await record(trx, {
      type: "service.deleted",
      actorId: input.actorId,
      service: toService(before),
      panel: link,
    });
    return { ok: true as const };
  });
}

export type RenewResult =
  | { ok: true; service: HostingService; duplicate: boolean }
  | { ok: false; kind: "notFound"; error: "services.errors.notFound" }
  /** The form's key was made for another customer: a stale form. */
  | { ok: false; kind: "invalid"; error: "orders.errors.expired" }
  /** Only an active service renews; the balance, as it is now, must cover the cycle (its price is `totalCents`). */
  | { ok: false; kind: "conflict"; error: "services.errors.cannotRenew" }
  /** The renewal's price is not the one the confirmation showed (`shownPriceCents`). */
  | { ok: false; kind: "conflict"; error: "services.errors.renewalPriceChanged" }
  | InsufficientCoins;

/**
 * A customer pays one cycle from coins; the expiry moves on by the cycle's calendar months from the later
 * of now and the current expiry (`renewalExpiry`). The idempotency key makes a retried or doubled request
 * count once.
 */
export async function renewService(
  db: Db,
  input: {
    userId: string;
    serviceId: number;
    idempotencyKey: string;
    /** The time of the renewal (the lifecycle's clock); now by default. */
    now?: Date;
    /**
     * The lifecycle renews from coins as the customer asked: the same charge and ledger entry,
     * with the system as its actor, an audit entry and a notification in the same transaction.
     */
    automatic?: boolean;
    /** The settings the caller has (the request's cache); read in the transaction when not given. */
    settings?: InvoicingContext;
    /**
     * What the confirmation showed the customer (`renewalQuote`'s `priceCents`): a renewal whose price
     * changed since (the service's price, the VAT settings, their billing country) is refused, not
     * charged at the new price.
     */
    shownPriceCents?: number;
  },
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
  return storeOncePerKey(existing, () =>
    inTransaction(db, async (trx): Promise<RenewResult> => {
      const service = await findServiceOrRefuse(trx, input.serviceId, input.userId);
      const status = service.status as ServiceStatus;
      const suspension = suspensionReasonOf(service.suspension_reason);
      // The lifecycle renews only a running service whose switch is still on (read here: a refund or the
      // customer may have turned it off since the run planned it); a customer may also renew one
      // suspended for expiry.
      if (
        !canRenew(status, suspension) ||
        (input.automatic && (status !== "active" || Number(service.auto_renew) !== 1))
      ) {
        refuse<RenewResult>("conflict", "services.errors.cannotRenew");
      }
      const cycle = (
        service.billing_cycle in BILLING_CYCLES ? service.billing_cycle : "monthly"
      ) as BillingCycle;
      const now = input.now ?? new Date();
      const newExpiry = renewalExpiry(service.expires_at, cycle, now);
      // What is charged: the one renewal price, the cycle's with the VAT added when prices do not
      // include it (ADR 36), as the confirmation and the lifecycle's plan priced it.
      const terms = await invoiceTermsFor(
        trx,
        input.userId,
        input.settings ?? (await getSettings(trx)),
      );
      const amounts = renewalAmounts(service.cycle_price_cents, {
        rateBp: terms.vatRateBp,
        pricesIncludeVat: terms.pricesIncludeVat,
      });
      const amount = amounts.totalCents;
      if (input.shownPriceCents !== undefined && input.shownPriceCents !== amount)
        refuse<RenewResult>("conflict", "services.errors.renewalPriceChanged");
      const actorId = input.automatic ? null : input.userId;
      let ledgerEntryId: number | null = null;
      if (amount > 0) {
        const paid = await payFromCoins(trx, amount, {
          userId: input.userId,
          kind: "renewal",
          reason: ledgerReason("renewal", { service: service.name }),
          actorId,
          hostingServiceId: service.id,
        });
        ledgerEntryId = paid.entryId;
      }
      const reactivated = status === "suspended";
      // What a refund of this renewal restores (takeBackRenewalTerm): the suspension it lifted.
      const suspendedAt = reactivated ? service.suspended_at : null;
      const renewal = await trx
        .insertInto("service_renewals")
        .values({
          hosting_service_id: service.id,
          user_id: input.userId,
          idempotency_key: input.idempotencyKey,
          amount_cents: amount,
          previous_expires_at: service.expires_at,
          new_expires_at: newExpiry,
          reactivated_suspended_at: suspendedAt,
          created_at: now.toISOString(),
        })
        .returning("id")
        .executeTakeFirstOrThrow();
      const row = await trx
        .updateTable("hosting_services")
        .set({
          expires_at: newExpiry,
          updated_at: now.toISOString(),
          ...(reactivated ? { status: "active", suspension_reason: null, suspended_at: null } : {}),
        })
        .where("id", "=", service.id)
        .where("status", "=", status)
        // The suspension it lifts, as read: on PostgreSQL an admin may have reactivated the service and
        // suspended it again, for their own reason, since; the lifecycle never lifts theirs, nor may this.
        .where(sameAs("suspension_reason", service.suspension_reason))
        .where(sameAs("suspended_at", service.suspended_at))
        // The expiry it renews from: on PostgreSQL (read committed) another renewal, a refund taking a
        // term back or an admin's edit may have moved it since it was read; renewing from the old one
        // would charge a term and add none (refused instead: the payment rolls back).
        .where("expires_at", "=", service.expires_at)
        .returning(columns)
        .executeTakeFirst();
      if (!row) refuse<RenewResult>("conflict", "services.errors.cannotRenew");
      await record(
        trx,
        {
          type: "service.renewed",
          actorId,
          automatic: input.automatic === true,
          service: serviceRef(service),
          renewalId: Number(renewal.id),
          ledgerEntryId,
          amountCents: amount,
          previousExpiresAt: service.expires_at,
          expiresAt: newExpiry,
          reactivated: reactivated ? { status, suspensionReason: suspension } : null,
          panel: await panelLinkOf(trx, service.id),
        },
        now,
      );
      // Its invoice; on PostgreSQL numbered as the transaction commits (ADR 37).
      await issueRenewalInvoice(trx, terms, {
        userId: input.userId,
        service: { id: Number(service.id), name: service.name, billingCycle: cycle },
        renewalId: Number(renewal.id),
        priceCents: service.cycle_price_cents,
        from: renewalTermStart(service.expires_at, now),
        until: newExpiry,
        amounts,
        ledgerEntryId,
        actorId,
        now,
      });
      return { ok: true, service: toService(row), duplicate: false };
    }),
  );
}

export type QuoteRenewalResult =
  | { ok: true; quote: RenewalQuote }
  | { ok: false; kind: "notFound"; error: "services.errors.notFound" }
  | { ok: false; kind: "conflict"; error: "services.errors.cannotRenew" };

/**
 * What renewing one of the customer's services would do, charging nothing: the price, the new expiry and
 * the balance after (or what it lacks). The customer confirms this before renewService charges.
 */
export async function quoteRenewal(
  db: Db,
  input: {
    userId: string;
    serviceId: number;
    /** The VAT settings the caller has (the request's cache); read when not given. */
    invoicing?: InvoicingContext["invoicing"];
  },
  now = new Date(),
): Promise<QuoteRenewalResult> {
  const [row, user, invoicing] = await Promise.all([
    db
      .selectFrom("hosting_services")
      .select(columns)
      .where("id", "=", input.serviceId)
      .where("user_id", "=", input.userId)
      .executeTakeFirst(),
    db
      .selectFrom("users")
      .select(["coin_balance_cents", "billing_country"])
      .where("id", "=", input.userId)
      .executeTakeFirst(),
    input.invoicing ?? getSettings(db).then((settings) => settings.invoicing),
  ]);
  if (!row || !user) return serviceNotFound;
  const service = toService(row);
  if (!canRenew(service.status, service.suspensionReason))
    return { ok: false, kind: "conflict", error: "services.errors.cannotRenew" };
  return {
    ok: true,
    quote: renewalQuote(
      service,
      user.coin_balance_cents,
      now,
      customerVat(invoicing, user.billing_country),
    ),
  };
}

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
      .select(columns.map((column) => `hosting_services.${column}` as const))
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

export type EditServiceResult =
  | { ok: true; service: HostingService; changed: boolean }
  | { ok: false; kind: "notFound"; error: "services.errors.notFound" };

/**
 * An admin edits a service: its name, its price per cycle (what each renewal charges), its expiry date
 * (that day, at the time of day it expired before) and an admin's note. The fields that change are
 * written to the audit log, old and new values, in the same transaction; nothing changed writes nothing.
 */
export async function editServiceByAdmin(
  db: Db,
  input: EditServiceInput & { actorId: string },
): Promise<EditServiceResult> {
  return inTransaction(db, async (trx) => {
    // The service with its admin's note (not among a customer's columns), in one read.
    const found = await rowOrRefuse(
      trx
        .selectFrom("hosting_services")
        .select([...columns, "admin_note"])
        .where("id", "=", input.serviceId),
      serviceNotFound,
    );
    const before = {
      name: found.name,
      cyclePriceCents: found.cycle_price_cents,
      expiresAt: new Date(found.expires_at).toISOString(),
      adminNote: found.admin_note,
    };
    const after = {
      name: input.name,
      cyclePriceCents: input.price,
      expiresAt: expiryOnDate(before.expiresAt, input.expiresOn),
      adminNote: input.adminNote,
    };
    const fields = (Object.keys(before) as (keyof typeof before)[]).filter(
      (key) => before[key] !== after[key],
    );
    if (fields.length === 0) return { ok: true, service: toService(found), changed: false };
    const row = await trx
      .updateTable("hosting_services")
      .set({
        name: after.name,
        cycle_price_cents: after.cyclePriceCents,
        expires_at: after.expiresAt,
        admin_note: after.adminNote,
        updated_at: new Date().toISOString(),
      })
      .where("id", "=", input.serviceId)
      .returning(columns)
      .executeTakeFirstOrThrow();
    await record(trx, {
      type: "service.edited",
      actorId: input.actorId,
      serviceId: input.serviceId,
      change: {
        before: Object.fromEntries(fields.map((key) => [key, before[key]])),
        after: Object.fromEntries(fields.map((key) => [key, after[key]])),
      },
    });
    return { ok: true, service: toService(row), changed: true };
  });
}

/** How many services a page of /admin/services shows. */
export const ADMIN_SERVICES_PAGE_SIZE = 25;
/** Up to this many services (or accounts) a search text names are looked up by id; past it, row by row. */
const FEW_MATCHES = 1_000;
const TRIGRAM = 3;

/**
 * The ids of the services whose name contains `text`, when there are no more than FEW_MATCHES of them;
 * null when there are more or the text is too short for the trigram index (migration 0020: an FTS5 table
 * on SQLite, a pg_trgm index on PostgreSQL, which serves the LIKE itself).
 */
async function fewServicesNamed(db: Db, text: string): Promise<number[] | null> {
  if ([...text].length < TRIGRAM) return null;
  let rows: { id: number }[];
  if (isPostgres(db)) {
    rows = await db
      .selectFrom("hosting_services")
      .select("id")
      .where(containsAny(["lower(hosting_services.name)"], text))
      .limit(FEW_MATCHES + 1)
      .execute();
  } else {
    const phrase = `"${text.replaceAll('"', '""')}"`;
    rows = (
      await sql<{ id: number }>`
        select rowid as id from hosting_services_search where hosting_services_search match ${phrase}
        limit ${FEW_MATCHES + 1}
      `.execute(db)
    ).rows;
  }
  return rows.length > FEW_MATCHES ? null : rows.map((row) => Number(row.id));
}

const sortColumns = {
  created: "hosting_services.created_at",
  expires: "hosting_services.expires_at",
  price: "hosting_services.cycle_price_cents",
  customer: "users.name",
} as const satisfies Record<ServiceSort, string>;

/**
 * Every customer's services for admins: searched by customer name or email and service name, filtered by
 * status, type and "expiring within N days" (an expiry between now and then), sorted, and paged on the
 * server, ADMIN_SERVICES_PAGE_SIZE a page. Sized for 100,000 services (migration 0020): each sort reads
 * the page in the order of an index, ties broken by id; a rare search text is looked up by id in the
 * trigram indexes, and a common one is checked row by row, which meets its matches quickly.
 */
/** What the admin list and the admin edit read of a service and its customer. */
const ADMIN_SERVICE_COLUMNS = [
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
  "hosting_services.admin_note",
  "hosting_services.auto_renew",
  "hosting_services.suspension_reason",
  "hosting_services.panel_state",
  "hosting_services.panel_address",
  "hosting_services.panel_ports",
  "hosting_services.panel_identifier",
  "users.email",
  "users.name as user_name",
] as const;

export async function listServicesForAdmin(
  db: Db,
  query: PageRequest &
    Partial<{
      q: string;
      status: ServiceStatus;
      type: string;
      within: ExpiringWithin;
      sort: ServiceSort;
      dir: SortDirection;
    }>,
  now = new Date(),
) {
  let base = withOwner(db, "hosting_services");
  const q = query.q?.replaceAll("\u0000", "").trim().toLowerCase();
  if (q) {
    const [accounts, named] = await Promise.all([
      fewAccountsContaining(db, q, "name or email"),
      fewServicesNamed(db, q),
    ]);
    if (accounts && named) {
      // Only the lists that name something: an "or 1 = 0" beside an IN list made SQLite read every
      // service in the sort's order instead of looking the few up (93 ms instead of 0.1 at 170,000).
      const found = [
        ...(accounts.length ? [oneOf("hosting_services.user_id", accounts)] : []),
        ...(named.length ? [sql<boolean>`hosting_services.id in (${sql.join(named)})`] : []),
      ];
      base = base.where(
        found.length ? sql<boolean>`(${sql.join(found, sql` or `)})` : sql<boolean>`1 = 0`,
      );
    } else {
      base = base.where(
        sql<boolean>`(${accountLike(q, "name or email")} or ${containsAny(
          ["lower(hosting_services.name)"],
          q,
        )})`,
      );
    }
  }
  if (query.status) base = base.where("hosting_services.status", "=", query.status);
  if (query.type) base = base.where("hosting_services.type", "=", query.type);
  if (query.within) {
    base = base
      .where("hosting_services.expires_at", ">", now.toISOString())
      .where("hosting_services.expires_at", "<=", addDays(now, Number(query.within)));
  }
  const sort = query.sort ?? "created";
  const direction = query.dir ?? "desc";
  const { rows, hasMore } = await fetchPage(
    base
      .select([...ADMIN_SERVICE_COLUMNS])
      .orderBy(sql.ref(sortColumns[sort]), direction)
      .orderBy("hosting_services.id", direction),
    pageWindow(query, ADMIN_SERVICES_PAGE_SIZE),
  );
  return {
    services: rows.map((row): AdminServiceView => ({
      ...toService(row),
      userEmail: row.email,
      userName: row.user_name,
      adminNote: row.admin_note,
    })),
    hasMore,
  };
}

/**
 * What /admin/services shows: a page of the list, the products the add form offers, and the service whose
 * edit form is open (`editing`: null when `edit` names none that exists).
 */
export async function adminServicesPage(db: Db, query: ServiceListQuery, now = new Date()) {
  const [list, products, editing] = await Promise.all([
    listServicesForAdmin(db, query, now),
    listActiveProducts(db),
    typeof query.edit === "number" ? findServiceForAdmin(db, query.edit) : undefined,
  ]);
  return {
    ...list,
    products: products.map((product) => ({ id: product.id, name: product.name })),
    editing: editing ?? null,
    // The moment the list was read at (its "expiring within" filter too): the badges say "expired"
    // against it, so the browser's hydration shows what the server's page did.
    now: now.toISOString(),
  };
}

async function findServiceForAdmin(db: Db, id: number): Promise<AdminServiceView | undefined> {
  const row = await withOwner(db, "hosting_services")
    .select([...ADMIN_SERVICE_COLUMNS])
    .where("hosting_services.id", "=", id)
    .executeTakeFirst();
  return row
    ? {
        ...toService(row),
        userEmail: row.email,
        userName: row.user_name,
        adminNote: row.admin_note,
      }
    : undefined;
}
