import type { BillingCycle } from "~/domain/orders/orders";

/**
 * The service lifecycle's rules, pure: given the settings, a service or order and the time of
 * the run (`now`, injected so tests move a fake clock day by day), what is due. The use-cases in
 * lifecycle.server.ts select the candidates from the database with the same windows (`dueWindows`) and
 * ask these functions about each one.
 */

export const DAY_MS = 86_400_000;

/** The lifecycle's settings (the `lifecycle` section of the site settings). */
export interface LifecycleSettings {
  enabled: boolean;
  firstReminderDays: number;
  secondReminderDays: number;
  lastReminderDays: number;
  graceDays: number;
  terminationDays: number;
  terminationWarningDays: number;
  expireOrders: boolean;
  orderExpiryDays: number;
}

/** What one run did (or, previewed, would do), in counts. */
export interface LifecycleCounts {
  /** Reminders before expiry. */
  reminded: number;
  /** Services renewed from coins. */
  renewed: number;
  /** "Automatic renewal lacks N coins" notifications. */
  renewalShort: number;
  suspended: number;
  /** Warnings that a service suspended for expiry will be terminated. */
  warned: number;
  terminated: number;
  /** Pending orders rejected and refunded for want of a decision. */
  ordersExpired: number;
}

export const LIFECYCLE_ACTIONS = [
  "reminded",
  "renewed",
  "renewalShort",
  "suspended",
  "warned",
  "terminated",
  "ordersExpired",
] as const satisfies readonly (keyof LifecycleCounts)[];
export type LifecycleAction = (typeof LIFECYCLE_ACTIONS)[number];

export function zeroCounts(): LifecycleCounts {
  // Typed as every action's count, so a count missing from LIFECYCLE_ACTIONS fails to compile here.
  return Object.fromEntries(LIFECYCLE_ACTIONS.map((action) => [action, 0])) as Record<
    LifecycleAction,
    number
  >;
}

/** A service the lifecycle acts on, with its customer (the preview names them). */
export interface LifecycleService {
  serviceId: number;
  userId: string;
  userEmail: string;
  name: string;
  serverName: string;
  expiresAt: string;
  /** What renewing it charges its customer (`renewalAmounts`' total: the cycle price, VAT added if due). */
  priceCents: number;
  /** What a renewal adds (its mail says what renewing costs, as the renewal's quote does). */
  billingCycle: BillingCycle;
  /** When it was suspended for expiry (the warning and the termination). */
  suspendedAt: string | null;
}

/** A pending order the lifecycle gives up on. */
export interface LifecycleOrder {
  orderId: number;
  userId: string;
  userEmail: string;
  productName: string;
  totalCents: number;
  createdAt: string;
}

/** How many services (or orders) of each action the preview lists; its counts are exact. */
export const PREVIEW_LIMIT = 50;

export interface LifecyclePreview {
  enabled: boolean;
  /**
   * The moment previewed, as an ISO string: the list says "expired" or "expires" against it, so the
   * server's page and the browser's hydration of it agree however late the hydration comes.
   */
  now: string;
  counts: LifecycleCounts;
  /** The first PREVIEW_LIMIT of each action, in the order the run takes them. */
  services: {
    remind: (LifecycleService & { days: number })[];
    renew: LifecycleService[];
    short: (LifecycleService & { missingCents: number })[];
    suspend: LifecycleService[];
    warn: LifecycleService[];
    terminate: LifecycleService[];
  };
  orders: LifecycleOrder[];
}

function at(iso: string | Date): number {
  return typeof iso === "string" ? Date.parse(iso) : iso.getTime();
}

function plusDays(time: number, days: number): string {
  return new Date(time + days * DAY_MS).toISOString();
}

/** The reminder days of the settings, each once, largest first, without the zeros (left out). */
export function reminderThresholds(settings: LifecycleSettings): number[] {
  const days = [settings.firstReminderDays, settings.secondReminderDays, settings.lastReminderDays];
  return [...new Set(days.filter((day) => day > 0))].sort((a, b) => b - a);
}

/**
 * The reminder due for a service expiring at `expiresAt`: the smallest threshold that the time left has
 * reached (a service found 12 hours before its expiry gets the 1-day reminder, not all three at once), or
 * null when it has expired or no threshold is reached. With one run a day each threshold comes due on one
 * run; its key makes it once per service and expiry date whatever the runs.
 */
export function dueReminder(expiresAt: string, now: Date, thresholds: number[]): number | null {
  const left = at(expiresAt) - now.getTime();
  if (left <= 0) return null;
  let due: number | null = null;
  for (const days of thresholds)
    if (left <= days * DAY_MS && (due === null || days < due)) due = days;
  return due;
}

/**
 * The automatic renewal is tried from the expiry day (the last day before it expires, so a renewal loses
 * none of the term: it runs from the old expiry) to the end of the grace period.
 */
export function inRenewalWindow(expiresAt: string, now: Date, graceDays: number): boolean {
  const expiry = at(expiresAt);
  return dueAtNextRun(expiresAt, now) && now.getTime() < expiry + graceDays * DAY_MS;
}

/**
 * A service with this expiry is due at the lifecycle's next run: renewed if its automatic renewal is on
 * (or, past its grace, suspended).
 */
export function dueAtNextRun(expiresAt: string, now: Date): boolean {
  return at(expiresAt) - now.getTime() <= DAY_MS;
}

/** An active service this far past its expiry is suspended for it. */
export function pastGrace(expiresAt: string, now: Date, graceDays: number): boolean {
  return now.getTime() >= at(expiresAt) + graceDays * DAY_MS;
}

/** A service suspended for expiry at `suspendedAt` is terminated `terminationDays` later. */
export function terminationDue(suspendedAt: string, now: Date, settings: LifecycleSettings) {
  return now.getTime() >= at(suspendedAt) + settings.terminationDays * DAY_MS;
}

/** The warning comes `terminationWarningDays` before the termination (at once when that is longer). */
export function terminationWarningDue(
  suspendedAt: string,
  now: Date,
  settings: LifecycleSettings,
): boolean {
  if (settings.terminationWarningDays <= 0) return false;
  const lead = Math.min(settings.terminationWarningDays, settings.terminationDays);
  const from = at(suspendedAt) + (settings.terminationDays - lead) * DAY_MS;
  return now.getTime() >= from && !terminationDue(suspendedAt, now, settings);
}

/** The date the termination is due on, for the warning's text. */
export function terminationDate(
  suspendedAt: string,
  settings: Pick<LifecycleSettings, "terminationDays">,
): string {
  return plusDays(at(suspendedAt), settings.terminationDays);
}

/** When an active service expiring at `expiresAt` is suspended unless it is renewed: its grace later. */
export function suspensionDate(
  expiresAt: string,
  settings: Pick<LifecycleSettings, "graceDays">,
): string {
  return plusDays(at(expiresAt), settings.graceDays);
}

/** What the lifecycle will do to a service unless it is renewed, and when (ISO times, or null). */
export interface ServiceDeadlines {
  suspendsAt: string | null;
  terminatesAt: string | null;
}

/**
 * What the services tab's card says comes next (the short balance's mail gives the same two dates): an
 * active service is suspended `graceDays` after its expiry and terminated `terminationDays` after that
 * (the run suspends it within the hour it falls due, so the termination is then at most that much
 * later); one suspended for expiry is terminated `terminationDays` after its suspension. Nothing when
 * the lifecycle is off (nothing happens by itself), for a service an admin suspended (the lifecycle
 * never touches it) and for a terminated one.
 */
export function serviceDeadlines(
  service: {
    status: string;
    expiresAt: string;
    suspensionReason: string | null;
    suspendedAt: string | null;
  },
  settings: Pick<LifecycleSettings, "enabled" | "graceDays" | "terminationDays">,
): ServiceDeadlines {
  const none = { suspendsAt: null, terminatesAt: null };
  if (!settings.enabled) return none;
  if (service.status === "active") {
    const suspendsAt = suspensionDate(service.expiresAt, settings);
    return { suspendsAt, terminatesAt: terminationDate(suspendsAt, settings) };
  }
  if (
    service.status === "suspended" &&
    service.suspensionReason === "expired" &&
    service.suspendedAt
  )
    return { suspendsAt: null, terminatesAt: terminationDate(service.suspendedAt, settings) };
  return none;
}

/** A pending order is given up on `orderExpiryDays` after it was placed, when the setting is on. */
export function orderExpired(createdAt: string, now: Date, settings: LifecycleSettings): boolean {
  return (
    settings.expireOrders && now.getTime() >= at(createdAt) + settings.orderExpiryDays * DAY_MS
  );
}

/** Whole days between two times, rounded up (what a reminder says is left). */
export function daysLeft(expiresAt: string, now: Date): number {
  return Math.max(0, Math.ceil((at(expiresAt) - now.getTime()) / DAY_MS));
}

/** The run's calendar day (UTC): a short balance is told once per service, expiry date and day. */
export function runDay(now: Date): string {
  return now.toISOString().slice(0, 10);
}

// Keys written with the notifications (unique): each reminder or warning is written once whatever the
// runs. An expiry read back from either database is normalized, so the key is the same on both.
const iso = (time: string) => new Date(time).toISOString();

export function reminderKey(serviceId: number, expiresAt: string, days: number): string {
  return `lifecycle:remind:${serviceId}:${iso(expiresAt)}:${days}`;
}

export function renewalShortKey(serviceId: number, expiresAt: string, now: Date): string {
  return `lifecycle:short:${serviceId}:${iso(expiresAt)}:${runDay(now)}`;
}

export function terminationWarningKey(serviceId: number, suspendedAt: string): string {
  return `lifecycle:warn:${serviceId}:${iso(suspendedAt)}`;
}

/** The renewal's idempotency key (unique in service_renewals): never twice for one expiry date. */
export function autoRenewalKey(serviceId: number, expiresAt: string): string {
  return `lifecycle:renew:${serviceId}:${iso(expiresAt)}`;
}

/**
 * The windows the database selects candidates by (ISO times, compared with the indexed columns), so a
 * run reads the services that are due and not every service.
 */
export function dueWindows(settings: LifecycleSettings, now: Date) {
  const time = now.getTime();
  const thresholds = reminderThresholds(settings);
  return {
    now: now.toISOString(),
    /** Reminders: active, expiring after now and no later than this. */
    remindUntil: plusDays(time, thresholds[0] ?? 0),
    /** Automatic renewal: active, switched on, expiring after `renewFrom` and no later than `renewUntil`. */
    renewFrom: plusDays(time, -settings.graceDays),
    renewUntil: plusDays(time, 1),
    /** Suspension: active and expired no later than this. */
    suspendUntil: plusDays(time, -settings.graceDays),
    /** Warning: suspended for expiry no later than this. */
    warnUntil: plusDays(
      time,
      -(
        settings.terminationDays -
        Math.min(settings.terminationWarningDays, settings.terminationDays)
      ),
    ),
    /** Termination: suspended for expiry no later than this. */
    terminateUntil: plusDays(time, -settings.terminationDays),
    /** Orders: pending and placed no later than this. */
    ordersUntil: plusDays(time, -settings.orderExpiryDays),
  };
}

/**
 * Who renews from coins and who is short, in the order the run tries them: each customer's balance pays
 * their services one after another (earliest expiry first), so the second service of a customer whose
 * coins cover one is short by what is left.
 */
export function planRenewals<S extends { userId: string; priceCents: number }>(
  candidates: readonly S[],
  balances: ReadonlyMap<string, number>,
): { renew: S[]; short: (S & { missingCents: number })[] } {
  const left = new Map(balances);
  const renew: S[] = [];
  const short: (S & { missingCents: number })[] = [];
  for (const service of candidates) {
    const balance = left.get(service.userId) ?? 0;
    if (balance >= service.priceCents) {
      left.set(service.userId, balance - service.priceCents);
      renew.push(service);
    } else short.push({ ...service, missingCents: service.priceCents - balance });
  }
  return { renew, short };
}
