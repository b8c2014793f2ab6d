import { record, recordAll, type DomainEvent } from "~/domain/events/events.server";
import { renewalAmounts } from "~/domain/hosting-services/hosting-services";
import { customerVat } from "~/domain/invoices/invoices";
import { renewService } from "~/domain/hosting-services/renewal.server";
import { writtenNoticeKeys } from "~/domain/notifications/notification-reads.server";
import type { RenewalTerms } from "~/domain/mail/mail-events";
import { BILLING_CYCLES, type BillingCycle } from "~/domain/orders/orders";
import { rejectOrder } from "~/domain/orders/orders.server";
import { getSettings } from "~/domain/settings/settings.server";
import type { Settings } from "~/domain/settings/settings";
import { withOwner } from "~/db/customer-rows";
import { inTransaction, type Db, type Tx } from "~/db/transaction";
import {
  autoRenewalKey,
  daysLeft,
  dueReminder,
  dueWindows,
  planRenewals,
  reminderKey,
  reminderThresholds,
  renewalShortKey,
  suspensionDate,
  terminationDate,
  terminationWarningDue,
  terminationWarningKey,
  zeroCounts,
  PREVIEW_LIMIT,
  type LifecycleCounts,
  type LifecycleOrder,
  type LifecyclePreview,
  type LifecycleService,
  type LifecycleSettings,
} from "./lifecycle";
import { panelLinkOf, type PanelLink } from "~/domain/provisioning/panel-link.server";
import { endAtTerm } from "~/domain/hosting-services/cancellation.server";

/** What is due at `now`: the same selection for a run and for its preview. */
export interface LifecyclePlan {
  renew: LifecycleService[];
  /** Auto-renewal switched on, but the balance lacks `missingCents` (not told yet today). */
  short: (LifecycleService & { missingCents: number })[];
  suspend: LifecycleService[];
  warn: LifecycleService[];
  terminate: LifecycleService[];
  /**
   * Active services the customer cancelled at the end of their term, whose expiry has come: ended now,
   * with no reminder, renewal or suspension before (counted with the terminations).
   */
  endAtTerm: LifecycleService[];
  /** Reminders not written yet, with the threshold (days) each one is. */
  remind: (LifecycleService & { days: number })[];
  ordersExpired: LifecycleOrder[];
}

export interface LifecycleRun {
  /** False when the lifecycle's switch is off: nothing was done. */
  enabled: boolean;
  counts: LifecycleCounts;
}

/**
 * Suspends or terminates a service for expiry in a transaction of its own: `change` updates it only
 * while it is still as the plan read it (it returns nothing when another run or an admin changed it
 * first); then its event is recorded (`event`, given the service's place on the game panel): in the audit
 * log (done by no one, for "expired"), told to its owner in the list and by mail, the panel following.
 * True when the service was changed.
 */
async function expiryStep(
  db: Db,
  serviceId: number,
  now: Date,
  step: {
    change: (trx: Tx) => Promise<unknown>;
    /** Its event, made in the step's transaction (a suspension's reads the balance it leaves). */
    event: (trx: Tx, panel: PanelLink) => Promise<DomainEvent>;
  },
): Promise<boolean> {
  return inTransaction(db, async (trx) => {
    if (!(await step.change(trx))) return false;
    await record(trx, await step.event(trx, await panelLinkOf(trx, serviceId)), now);
    return true;
  });
}

/** Services joined with their customer, as the lifecycle reads them. */
function servicesQuery(db: Db) {
  return withOwner(db, "hosting_services").select([
    "hosting_services.id",
    "hosting_services.user_id",
    "users.email",
    "users.coin_balance_cents",
    // The customer's VAT: what renewing costs them.
    "users.billing_country",
    "hosting_services.name",
    "hosting_services.server_name",
    "hosting_services.expires_at",
    "hosting_services.cycle_price_cents",
    "hosting_services.billing_cycle",
    "hosting_services.suspended_at",
  ]);
}

/**
 * Active services expiring after `after` (when given) and by `until`, soonest first: those cancelled at
 * the end of their term (`ends_at_expiry`) with them only when `ending` says so, and only them then.
 */
function activeExpiring(db: Db, after: string | null, until: string, ending = false) {
  let query = servicesQuery(db)
    .where("hosting_services.status", "=", "active")
    .where("hosting_services.ends_at_expiry", "=", ending ? 1 : 0)
    .where("hosting_services.expires_at", "<=", until);
  if (after !== null) query = query.where("hosting_services.expires_at", ">", after);
  return query.orderBy("hosting_services.expires_at").orderBy("hosting_services.id");
}

type ServiceRow = Awaited<ReturnType<ReturnType<typeof servicesQuery>["execute"]>>[number];

/** A service as the lifecycle plans with it, priced as its renewal charges (`renewalAmounts`). */
function toLifecycleService(row: ServiceRow, invoicing: Settings["invoicing"]): LifecycleService {
  const vat = customerVat(invoicing, row.billing_country);
  return {
    serviceId: Number(row.id),
    userId: row.user_id,
    userEmail: row.email,
    name: row.name,
    serverName: row.server_name,
    expiresAt: new Date(row.expires_at).toISOString(),
    priceCents: renewalAmounts(row.cycle_price_cents, vat).totalCents,
    billingCycle: (row.billing_cycle in BILLING_CYCLES
      ? row.billing_cycle
      : "monthly") as BillingCycle,
    suspendedAt: row.suspended_at ? new Date(row.suspended_at).toISOString() : null,
  };
}

/**
 * What the lifecycle would do at `now` with these settings, reading only what is due: each selection is
 * a window of an indexed column ((status, expires_at) and (suspension_reason, suspended_at) of
 * hosting_services, (status, created_at) of orders), and what was already told (its notification's key)
 * is left out.
 */
export async function planLifecycle(
  db: Db,
  { lifecycle: settings, invoicing }: Pick<Settings, "lifecycle" | "invoicing">,
  now: Date,
): Promise<LifecyclePlan> {
  const toService = (row: ServiceRow) => toLifecycleService(row, invoicing);
  const window = dueWindows(settings, now);
  const thresholds = reminderThresholds(settings);
  const [renewRows, suspendRows, expiredRows, remindRows, orderRows] = await Promise.all([
    activeExpiring(db, window.renewFrom, window.renewUntil)
      .where("hosting_services.auto_renew", "=", 1)
      .execute(),
    activeExpiring(db, null, window.suspendUntil).execute(),
    // Both the warnings and the terminations: suspended for expiry long enough to be warned.
    servicesQuery(db)
      .where("hosting_services.suspension_reason", "=", "expired")
      .where("hosting_services.suspended_at", "<=", window.warnUntil)
      .where("hosting_services.status", "=", "suspended")
      .orderBy("hosting_services.suspended_at")
      .orderBy("hosting_services.id")
      .execute(),
    thresholds.length === 0
      ? Promise.resolve([])
      : activeExpiring(db, window.now, window.remindUntil).execute(),
    settings.expireOrders
      ? withOwner(db, "orders")
          .select([
            "orders.id",
            "orders.user_id",
            "users.email",
            "orders.product_name",
            "orders.total_cents",
            "orders.created_at",
          ])
          .where("orders.status", "=", "pending")
          .where("orders.created_at", "<=", window.ordersUntil)
          .orderBy("orders.created_at")
          .orderBy("orders.id")
          .execute()
      : Promise.resolve([]),
  ]);
  // Cancelled at the end of their term, their expiry come: ended, whatever else would be due.
  const endingRows = await activeExpiring(db, null, window.now, true).execute();

  // The run gives up on orders first: their refunds are in the balances the renewals are paid from, so a
  // second run at the same time finds nothing more to renew.
  const balances = new Map(renewRows.map((row) => [row.user_id, row.coin_balance_cents]));
  for (const order of orderRows)
    if (balances.has(order.user_id))
      balances.set(order.user_id, balances.get(order.user_id)! + order.total_cents);
  const renewals = planRenewals(renewRows.map(toService), balances);
  const renewing = new Set(renewals.renew.map((service) => service.serviceId));

  const terminate: LifecycleService[] = [];
  const warnable: LifecycleService[] = [];
  for (const service of expiredRows.map(toService)) {
    if (!service.suspendedAt) continue;
    if (terminationWarningDue(service.suspendedAt, now, settings)) warnable.push(service);
    else if (Date.parse(service.suspendedAt) <= Date.parse(window.terminateUntil))
      terminate.push(service);
  }

  const remindable = remindRows
    .map(toService)
    .filter((service) => !renewing.has(service.serviceId))
    .flatMap((service) => {
      const days = dueReminder(service.expiresAt, now, thresholds);
      return days === null ? [] : [{ ...service, days }];
    });

  // What was told already: one look-up for every key this run could write.
  const keys = [
    ...renewals.short.map((service) => renewalShortKey(service.serviceId, service.expiresAt, now)),
    ...warnable.map((service) => terminationWarningKey(service.serviceId, service.suspendedAt!)),
    ...remindable.map((service) => reminderKey(service.serviceId, service.expiresAt, service.days)),
  ];
  const told = keys.length ? await writtenNoticeKeys(db, keys) : new Set<string>();

  return {
    renew: renewals.renew,
    short: renewals.short.filter(
      (service) => !told.has(renewalShortKey(service.serviceId, service.expiresAt, now)),
    ),
    suspend: suspendRows.map(toService),
    warn: warnable.filter(
      (service) => !told.has(terminationWarningKey(service.serviceId, service.suspendedAt!)),
    ),
    terminate,
    endAtTerm: endingRows.map(toService),
    remind: remindable.filter(
      (service) => !told.has(reminderKey(service.serviceId, service.expiresAt, service.days)),
    ),
    ordersExpired: orderRows.map((row) => ({
      orderId: Number(row.id),
      userId: row.user_id,
      userEmail: row.email,
      productName: row.product_name,
      totalCents: row.total_cents,
      createdAt: new Date(row.created_at).toISOString(),
    })),
  };
}

/**
 * What renewing a service costs a customer whose balance is `balanceCents`: its renewal price as the
 * plan read it (`renewalAmounts`, as the services tab's confirmation and the charge price it), never
 * priced here.
 */
function renewalTerms(service: LifecycleService, balanceCents: number): RenewalTerms {
  return {
    priceCents: service.priceCents,
    billingCycle: service.billingCycle,
    missingCents: Math.max(0, service.priceCents - balanceCents),
  };
}

/** The event of a due automatic renewal that the customer's balance does not cover. */
function renewalShort(
  service: LifecycleService & { missingCents: number },
  now: Date,
  settings: LifecycleSettings,
): DomainEvent {
  // When it is suspended, then terminated, unless renewed: as the services tab's card says.
  const suspendsAt = suspensionDate(service.expiresAt, settings);
  return {
    type: "service.renewalShort",
    service: serviceRefOf(service),
    expiresAt: service.expiresAt,
    missingCents: service.missingCents,
    at: now.toISOString(),
    renewal: renewalTerms(service, service.priceCents - service.missingCents),
    suspendsAt,
    terminatesAt: terminationDate(suspendsAt, settings),
  };
}

/** A customer's balance as their transaction sees it. */
async function balanceOf(trx: Tx, userId: string): Promise<number> {
  const row = await trx
    .selectFrom("users")
    .select("coin_balance_cents")
    .where("id", "=", userId)
    .executeTakeFirst();
  return row?.coin_balance_cents ?? 0;
}

/** A service as its events name it. */
function serviceRefOf(service: LifecycleService) {
  const { serviceId: id, userId, name, serverName } = service;
  return { id, userId, name, serverName };
}

/**
 * The run's notices of one kind (reminders, warnings, renewals short of coins), recorded a few hundred to
 * a transaction (`recordAll`: each notice and its mail written once, by its key); returns how many were
 * told for the first time.
 */
async function recordNotices(db: Db, events: DomainEvent[], now: Date): Promise<number> {
  let told = 0;
  for (let i = 0; i < events.length; i += 500) {
    const batch = events.slice(i, i + 500);
    told += await inTransaction(db, (trx) => recordAll(trx, batch, now));
  }
  return told;
}

/**
 * The daily run of the service lifecycle, a use-case a scheduled job calls with its clock:
 * reads the settings and, when the lifecycle is switched on, does what `planLifecycle` finds due, each
 * transition in its own transaction with its audit entry (the system as the actor) and the customer's
 * notification and mail: renewals from coins (through `renewService`, as a click would) or the coins they
 * lack, suspensions for expiry, warnings and terminations, reminders, and pending orders given up on
 * (through `rejectOrder`, refunded). Running it again at the same time changes nothing: every transition
 * is a conditional update or an idempotency key, every notice and message a unique key. Switched off, it
 * does nothing.
 */
export async function runLifecycle(db: Db, { now }: { now: Date }): Promise<LifecycleRun> {
  const siteSettings = await getSettings(db);
  const settings = siteSettings.lifecycle;
  const counts = zeroCounts();
  if (!settings.enabled) return { enabled: false, counts };
  const plan = await planLifecycle(db, siteSettings, now);

  for (const order of plan.ordersExpired) {
    const result = await rejectOrder(db, {
      orderId: order.orderId,
      actorId: null,
      reason: `Not reviewed within ${settings.orderExpiryDays} days`,
      expired: { days: settings.orderExpiryDays, now },
    });
    // Decided since the plan read it, or a refund the balance's ceiling refuses: it stays as it is.
    if (result.ok) counts.ordersExpired += 1;
  }
  const short = [...plan.short];
  for (const service of plan.renew) {
    const result = await renewService(db, {
      userId: service.userId,
      serviceId: service.serviceId,
      idempotencyKey: autoRenewalKey(service.serviceId, service.expiresAt),
      now,
      automatic: true,
      // Read once for the run: each renewal's invoice is issued with them.
      settings: siteSettings,
    });
    if (result.ok) {
      if (!result.duplicate) counts.renewed += 1;
    } else if (result.error === "orders.errors.insufficientCoins") {
      // The balance went down since the plan read it (an order, another process): told as short.
      short.push({ ...service, missingCents: result.missingCents });
    }
  }
  counts.renewalShort = await recordNotices(
    db,
    short.map((service) => renewalShort(service, now, settings)),
    now,
  );

  const cutoffs = dueWindows(settings, now);
  for (const service of plan.suspend) {
    const done = await expiryStep(db, service.serviceId, now, {
      change: (trx) =>
        trx
          .updateTable("hosting_services")
          .set({
            status: "suspended",
            suspension_reason: "expired",
            suspended_at: now.toISOString(),
            updated_at: now.toISOString(),
          })
          .where("id", "=", service.serviceId)
          .where("status", "=", "active")
          .where("expires_at", "<=", cutoffs.suspendUntil)
          .returning("id")
          .executeTakeFirst(),
      event: async (trx, panel) => ({
        type: "service.suspendedForExpiry",
        service: serviceRefOf(service),
        expiresAt: service.expiresAt,
        suspendedAt: now.toISOString(),
        terminatesAt: terminationDate(now.toISOString(), settings),
        renewal: renewalTerms(service, await balanceOf(trx, service.userId)),
        panel,
      }),
    });
    if (done) counts.suspended += 1;
  }

  // Cancelled at the end of their term: ended at the expiry, the customer told once.
  for (const service of plan.endAtTerm)
    if (await inTransaction(db, (trx) => endAtTerm(trx, service, now))) counts.terminated += 1;

  for (const service of plan.terminate) {
    const done = await expiryStep(db, service.serviceId, now, {
      change: (trx) =>
        trx
          .updateTable("hosting_services")
          .set({ status: "terminated", updated_at: now.toISOString() })
          .where("id", "=", service.serviceId)
          .where("status", "=", "suspended")
          .where("suspension_reason", "=", "expired")
          .where("suspended_at", "<=", cutoffs.terminateUntil)
          .returning("id")
          .executeTakeFirst(),
      event: async (_trx, panel) => ({
        type: "service.terminatedForExpiry",
        service: serviceRefOf(service),
        suspendedAt: service.suspendedAt,
        panel,
      }),
    });
    if (done) counts.terminated += 1;
  }

  counts.warned = await recordNotices(
    db,
    plan.warn.map((service): DomainEvent => {
      const terminatesAt = terminationDate(service.suspendedAt!, settings);
      return {
        type: "service.terminationWarned",
        service: serviceRefOf(service),
        suspendedAt: service.suspendedAt!,
        terminatesAt,
        days: daysLeft(terminatesAt, now),
      };
    }),
    now,
  );

  counts.reminded = await recordNotices(
    db,
    plan.remind.map((service): DomainEvent => ({
      type: "service.expiryReminded",
      service: serviceRefOf(service),
      expiresAt: service.expiresAt,
      days: service.days,
    })),
    now,
  );

  return { enabled: true, counts };
}

/**
 * What the next run would do at `now`, doing nothing: the counts of each action and the first
 * PREVIEW_LIMIT services or orders of each (shown on /admin/settings before the switch is turned on).
 */
export async function previewLifecycle(db: Db, { now }: { now: Date }): Promise<LifecyclePreview> {
  const siteSettings = await getSettings(db);
  const settings = siteSettings.lifecycle;
  const plan = await planLifecycle(db, siteSettings, now);
  const first = <T>(items: T[]) => items.slice(0, PREVIEW_LIMIT);
  return {
    enabled: settings.enabled,
    now: now.toISOString(),
    counts: {
      reminded: plan.remind.length,
      renewed: plan.renew.length,
      renewalShort: plan.short.length,
      suspended: plan.suspend.length,
      warned: plan.warn.length,
      terminated: plan.terminate.length + plan.endAtTerm.length,
      ordersExpired: plan.ordersExpired.length,
    },
    services: {
      remind: first(plan.remind),
      renew: first(plan.renew),
      short: first(plan.short),
      suspend: first(plan.suspend),
      warn: first(plan.warn),
      terminate: first([...plan.endAtTerm, ...plan.terminate]),
    },
    orders: first(plan.ordersExpired),
  };
}
