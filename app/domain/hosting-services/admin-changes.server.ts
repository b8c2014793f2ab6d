import { record } from "~/domain/events/events.server";
import { quote, type BillingCycle } from "~/domain/orders/orders";
import { inTransaction, refuse, rowOrRefuse, type Db } from "~/db/transaction";
import { panelLinkOf } from "~/domain/provisioning/panel-link.server";
import { requireStaffPermission, type StaffForbidden } from "~/domain/staff/staff-actor.server";
import {
  canTransition,
  expiryOnDate,
  TRANSITIONS,
  type EditServiceInput,
  type HostingService,
  type ServiceAction,
  type ServiceStatus,
} from "./hosting-services";
import {
  findServiceOrRefuse,
  insertService,
  SERVICE_COLUMNS,
  serviceNotFound,
  serviceRef,
  toService,
} from "./service-rows.server";

// What an admin changes on a service: adds one, suspends, reactivates or terminates it, deletes or edits it.
// Each checks its actor's role again (`services.manage`) in its own transaction, whatever route called it.

export type AdminAddServiceResult =
  | { ok: true; service: HostingService }
  /**
   * The form names a user who does not exist: `invalid`, not `notFound`, on purpose. What is wrong is the
   * form's user field (typed by the admin), answered with the form again and its message.
   */
  | { ok: false; kind: "invalid"; error: "services.errors.userNotFound" }
  | StaffForbidden;

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
    await requireStaffPermission(trx, input.actorId, "services.manage");
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
  | { ok: false; kind: "conflict"; error: "services.errors.transitionNotAllowed" }
  | StaffForbidden;

/** Suspend, reactivate or terminate; a terminated service never changes again. */
export async function changeServiceStatus(
  db: Db,
  input: { actorId: string; serviceId: number; action: ServiceAction; reason?: string },
): Promise<ChangeStatusResult> {
  return inTransaction(db, async (trx) => {
    await requireStaffPermission(trx, input.actorId, "services.manage");
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
      .returning(SERVICE_COLUMNS)
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
): Promise<
  { ok: true } | { ok: false; kind: "notFound"; error: "services.errors.notFound" } | StaffForbidden
> {
  return inTransaction(db, async (trx) => {
    await requireStaffPermission(trx, input.actorId, "services.manage");
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

export type EditServiceResult =
  | { ok: true; service: HostingService; changed: boolean }
  | { ok: false; kind: "notFound"; error: "services.errors.notFound" }
  | StaffForbidden;

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
    await requireStaffPermission(trx, input.actorId, "services.manage");
    // The service with its admin's note (not among a customer's columns), in one read.
    const found = await rowOrRefuse(
      trx
        .selectFrom("hosting_services")
        .select([...SERVICE_COLUMNS, "admin_note"])
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
      .returning(SERVICE_COLUMNS)
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
