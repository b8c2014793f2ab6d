import { describe, expect, it } from "vitest";
import type { Db } from "~/db/transaction";
import { postLedgerEntry } from "~/domain/coins/coins.server";
import { changeServiceStatus } from "~/domain/hosting-services/admin-changes.server";
import { setAutoRenew } from "~/domain/hosting-services/customer-services.server";
import { renewService } from "~/domain/hosting-services/renewal.server";
import { serviceLabel, type ServiceAction } from "~/domain/hosting-services/hosting-services";
import { MAIL_SEND_JOB } from "~/domain/mail/mail-sender.server";
import { setMailPreferences } from "~/domain/mail/mail-preferences.server";
import { rejectOrder } from "~/domain/orders/orders.server";
import { defaultSettings } from "~/domain/settings/settings";
import { saveSettingsForm } from "~/domain/settings/settings-form.server";
import { updateSettingsSection } from "~/domain/settings/settings.server";
import { settingsActionSchema } from "~/domain/settings/settings.schemas";
import {
  adminId,
  approvedOrder,
  asAdmin,
  customerWithCoins,
  customerWithRunningService,
  expectLedgerIntact,
  productId,
  renewWithNewKey,
} from "../../../tests/support/money-fixtures";
import { latestRow, readColumn, readRow, readRows } from "../../../tests/support/read-column";
import { refusal } from "../../../tests/support/results";
import { describeEachDatabase } from "../../../tests/support/test-database";
import { previewLifecycle, runLifecycle } from "./lifecycle.server";

const DAY = 86_400_000;
const HOUR = 3_600_000;
/** The fleet's first run: 03:00 UTC, and every run after it one day later. */
const T0 = Date.parse("2031-03-01T03:00:00.000Z");
const SERVICES = 1_000;
const CUSTOMERS = 250;
const ORDERS = 60;
const DAYS = 50;
/** The fleet's customers' languages in turn: none chosen (the site's default, Arabic) is the third. */
const FLEET_LOCALES = ["fr", "en", undefined] as const;

// ---------------------------------------------------------------------------------------------------
// The expectation, computed here from the rules as docs/automation.md states them, without the domain's code.

interface ModelService {
  id: number;
  userId: string;
  name: string;
  /** What its notices and mail call it: the plan, and the server's name when it has one. */
  label: string;
  priceCents: number;
  months: number;
  autoRenew: boolean;
  status: "active" | "suspended" | "terminated";
  reason: "expired" | "admin" | null;
  expiresAt: number;
  suspendedAt: number | null;
}
interface ModelOrder {
  id: number;
  userId: string;
  product: string;
  totalCents: number;
  createdAt: number;
  status: "pending" | "rejected";
}
type Counts = Record<
  "reminded" | "renewed" | "renewalShort" | "suspended" | "warned" | "terminated" | "ordersExpired",
  number
>;

/** Nothing done yet: the model's own zero, not the code's (it checks that code). */
function noCounts(): Counts {
  return {
    reminded: 0,
    renewed: 0,
    renewalShort: 0,
    suspended: 0,
    warned: 0,
    terminated: 0,
    ordersExpired: 0,
  };
}

/** N calendar months later, the day kept or cut to the month's last day, the time of day kept. */
function monthsLater(time: number, months: number): number {
  const d = new Date(time);
  const target = d.getUTCMonth() + months;
  const lastDay = new Date(Date.UTC(d.getUTCFullYear(), target + 1, 0)).getUTCDate();
  return Date.UTC(
    d.getUTCFullYear(),
    target,
    Math.min(d.getUTCDate(), lastDay),
    d.getUTCHours(),
    d.getUTCMinutes(),
    d.getUTCSeconds(),
    d.getUTCMilliseconds(),
  );
}

class Model {
  told = new Set<string>();
  notices: string[] = [];
  /** The mail each notice sends (docs/mail.md), as `mailOf` describes it. */
  mails: string[] = [];
  renewalDebits: number[] = [];
  constructor(
    readonly services: ModelService[],
    readonly orders: ModelOrder[],
    readonly balances: Map<string, number>,
    /** Customers who turned every optional kind of mail off. */
    readonly optedOut: ReadonlySet<string>,
  ) {}

  /**
   * A notice, and its mail. `document`: the numbered document its mail carries (a renewal's invoice),
   * which reaches a customer who turned that mail off by itself (docs/mail.md#documents-and-top-ups).
   */
  tell(
    userId: string,
    kind: string,
    params: Record<string, string | number>,
    key?: string,
    document?: string,
  ) {
    if (key) {
      if (this.told.has(key)) return false;
      this.told.add(key);
    }
    this.notices.push(notice(userId, kind, params));
    const mail = mailOf(userId, kind, params);
    if (mail && !(this.optedOut.has(userId) && OPTIONAL_MAIL.has(mail.kind)))
      this.mails.push(mail.text);
    else if (mail && document) this.mails.push(`${userId} documentIssued ${document}`);
    return true;
  }

  /** One daily run at `now`: grace 2 days, reminders 7/3/1, termination 14 days warned 3 before. */
  run(now: number): Counts {
    const counts = noCounts();
    const active = this.services.filter((s) => s.status === "active");
    const byExpiry = (a: ModelService, b: ModelService) => a.expiresAt - b.expiresAt || a.id - b.id;
    // What is due is decided on the state before the run.
    const renewable = active
      .filter((s) => s.autoRenew && s.expiresAt - now <= DAY && now < s.expiresAt + 2 * DAY)
      .sort(byExpiry);
    const suspendable = active.filter((s) => now >= s.expiresAt + 2 * DAY);
    const expiredSuspensions = this.services.filter(
      (s) => s.status === "suspended" && s.reason === "expired",
    );
    // Orders first: their refunds pay this run's renewals.
    for (const order of this.orders) {
      if (order.status !== "pending" || now < order.createdAt + 7 * DAY) continue;
      order.status = "rejected";
      this.balances.set(order.userId, this.balances.get(order.userId)! + order.totalCents);
      counts.ordersExpired += 1;
      this.tell(order.userId, "order_expired", { id: order.id, product: order.product, count: 7 });
    }
    const day = Math.round((now - T0) / DAY);
    const renewed = new Set<ModelService>();
    for (const s of renewable) {
      const balance = this.balances.get(s.userId)!;
      if (balance >= s.priceCents) {
        this.balances.set(s.userId, balance - s.priceCents);
        this.renewalDebits.push(s.priceCents);
        s.expiresAt = monthsLater(Math.max(now, s.expiresAt), s.months);
        const until = new Date(s.expiresAt).toISOString();
        renewed.add(s);
        counts.renewed += 1;
        this.tell(
          s.userId,
          "service_auto_renewed",
          { service: s.label, amountCents: s.priceCents },
          undefined,
          `invoice of service #${s.id} renewed until ${until}`,
        );
      } else {
        const key = `short ${s.id} ${s.expiresAt} ${day}`;
        const missing = s.priceCents - balance;
        if (
          this.tell(
            s.userId,
            "service_renewal_short",
            { service: s.label, amountCents: missing },
            key,
          )
        )
          counts.renewalShort += 1;
      }
    }
    for (const s of suspendable) {
      s.status = "suspended";
      s.reason = "expired";
      s.suspendedAt = now;
      counts.suspended += 1;
      this.tell(s.userId, "service_suspended_expired", { service: s.label });
    }
    for (const s of expiredSuspensions) {
      if (now >= s.suspendedAt! + 14 * DAY) {
        s.status = "terminated";
        counts.terminated += 1;
        this.tell(s.userId, "service_terminated", { service: s.label });
      }
    }
    for (const s of expiredSuspensions) {
      if (s.status !== "suspended" || now < s.suspendedAt! + 11 * DAY) continue;
      const left = Math.ceil((s.suspendedAt! + 14 * DAY - now) / DAY);
      if (
        this.tell(
          s.userId,
          "service_termination_warning",
          { service: s.label, count: left },
          `warn ${s.id}`,
        )
      )
        counts.warned += 1;
    }
    for (const s of active) {
      // A service renewed in this run is not reminded of the expiry it no longer has.
      if (s.status !== "active" || renewed.has(s)) continue;
      const left = s.expiresAt - now;
      if (left <= 0) continue;
      const threshold = [1, 3, 7].find((days) => left <= days * DAY);
      if (threshold === undefined) continue;
      const key = `remind ${s.id} ${s.expiresAt} ${threshold}`;
      if (
        this.tell(s.userId, "service_expiry_reminder", { service: s.label, count: threshold }, key)
      )
        counts.reminded += 1;
    }
    return counts;
  }
}

/** The kinds of mail a customer may turn off, as docs/mail.md lists them (not the code's list). */
const OPTIONAL_MAIL = new Set([
  "orderRejected",
  "serviceExpiring",
  "serviceRenewalShort",
  "serviceRenewed",
]);

/** Each notice's mail: its kind and what it says (the service or order, its days or coins). */
function mailOf(
  userId: string,
  kind: string,
  params: Record<string, string | number>,
): { kind: string; text: string } | null {
  const mail = (mailKind: string, what: string) => ({
    kind: mailKind,
    text: `${userId} ${mailKind} ${what}`,
  });
  switch (kind) {
    case "order_rejected":
      return mail("orderRejected", `#${params.id} reason ${params.reason}`);
    case "order_expired":
      return mail("orderRejected", `#${params.id} expired ${params.count}`);
    case "service_auto_renewed":
      return mail("serviceRenewed", `${params.service} automatic ${params.amountCents}`);
    case "service_renewal_short":
      return mail("serviceRenewalShort", `${params.service} ${params.amountCents}`);
    case "service_suspended_expired":
      return mail("serviceSuspended", `${params.service} expired`);
    case "service_termination_warning":
      return mail("serviceTerminationWarning", `${params.service} ${params.count}`);
    case "service_terminated":
      return mail("serviceTerminated", `${params.service} expired`);
    case "service_expiry_reminder":
      return mail("serviceExpiring", `${params.service} ${params.count}`);
    default:
      return null;
  }
}

/** An outbox row described as `mailOf` describes the model's. */
function describeMail(row: { user_id: string | null; kind: string; params: string }): string {
  const p = JSON.parse(row.params) as Record<string, string | number | boolean>;
  // A renewal's invoice, found when its message is written (docs/mail.md#documents-and-top-ups).
  const source = (p as { documentOf?: { serviceId?: number; until?: string } }).documentOf;
  const what: Record<string, string> = {
    orderRejected:
      p.expiredDays === undefined
        ? `#${p.id} reason ${p.reason}`
        : `#${p.id} expired ${p.expiredDays}`,
    serviceRenewed: `${p.service} ${p.automatic ? "automatic" : "by hand"} ${p.amountCents}`,
    serviceRenewalShort: `${p.service} ${p.missingCents}`,
    serviceSuspended: `${p.service} ${p.reason}`,
    serviceTerminationWarning: `${p.service} ${p.days}`,
    serviceTerminated: `${p.service} ${p.reason}`,
    serviceExpiring: `${p.service} ${p.days}`,
    documentIssued: `invoice of service #${source?.serviceId} renewed until ${source?.until}`,
  };
  return `${row.user_id} ${row.kind} ${what[row.kind] ?? JSON.stringify(p)}`;
}

function notice(userId: string, kind: string, params: Record<string, unknown>): string {
  const sorted = Object.fromEntries(Object.entries(params).sort(([a], [b]) => (a < b ? -1 : 1)));
  return `${userId} ${kind} ${JSON.stringify(sorted)}`;
}

// ---------------------------------------------------------------------------------------------------
// The fleet, written straight into the database (its customers need no passwords).

async function insertInChunks<T>(items: T[], insert: (chunk: T[]) => Promise<unknown>) {
  for (let i = 0; i < items.length; i += 200) await insert(items.slice(i, i + 200));
}

async function seedFleet(db: Db, admin: string) {
  const created = new Date(T0 - 40 * DAY).toISOString();
  const users = Array.from({ length: CUSTOMERS }, (_, u) => ({
    id: `fleet-${u}`,
    name: `Fleet ${u}`,
    email: `fleet${u}@example.com`,
    // Mail in French, in English, or (none chosen) in the site's default language.
    locale: FLEET_LOCALES[u % FLEET_LOCALES.length] ?? null,
    created_at: created,
    updated_at: created,
  }));
  await insertInChunks(users, (chunk) => db.insertInto("users").values(chunk).execute());
  // One customer in five turned every optional kind of mail off in the account tab.
  const optedOut = new Set(users.filter((_, u) => u % 5 === 2).map((user) => user.id));
  for (const userId of optedOut) await setMailPreferences(db, { userId, receive: [] });
  const balances = new Map<string, number>();
  await db.transaction().execute(async (trx) => {
    for (const [u, user] of users.entries()) {
      // 0, 10, 20 or 30 coins, and what the customer's pending order cost on top.
      const coins = (u % 4) * 1_000 + (u < ORDERS ? 700 : 0);
      if (coins > 0)
        await postLedgerEntry(trx, {
          userId: user.id,
          amountCents: coins,
          kind: "admin_adjustment",
          reason: "fleet",
          actorId: admin,
        });
      balances.set(user.id, coins);
    }
  });

  const services: ModelService[] = [];
  const rows = Array.from({ length: SERVICES }, (_, i) => {
    const adminSuspended = i % 20 === 7;
    const terminated = i % 50 === 13;
    const months = i % 10 === 0 ? 3 : 1;
    return {
      user_id: `fleet-${i % CUSTOMERS}`,
      product_id: null,
      name: `Fleet server ${i}`,
      // The server's own name: none (a row from before it had one), a name, one typed with spaces, blank.
      server_name: ["", `Base ${i}`, ` Base ${i} `, "  "][i % 4]!,
      billing_cycle: months === 3 ? "quarterly" : "monthly",
      monthly_price_cents: 500,
      cycle_price_cents: 500 + (i % 5) * 100,
      status: adminSuspended ? "suspended" : terminated ? "terminated" : "active",
      suspension_reason: adminSuspended ? (i % 40 === 7 ? "admin" : null) : null,
      suspended_at: adminSuspended ? new Date(T0 - 20 * DAY).toISOString() : null,
      auto_renew: i % 3 === 0 ? 0 : 1,
      // Spread over 30 days, at different hours of the day, never at a run's own minute.
      expires_at: new Date(T0 + (i % 30) * DAY + (i % 7) * 3 * HOUR + 17 * 60_000).toISOString(),
      created_at: created,
      updated_at: created,
    };
  });
  await insertInChunks(rows, async (chunk) => {
    const inserted = await db
      .insertInto("hosting_services")
      .values(chunk)
      .returning("id")
      .execute();
    inserted.forEach((row, k) => {
      const source = chunk[k]!;
      services.push({
        id: Number(row.id),
        userId: source.user_id,
        name: source.name,
        label: source.server_name.trim()
          ? `${source.name} (${source.server_name.trim()})`
          : source.name,
        priceCents: source.cycle_price_cents,
        months: source.billing_cycle === "quarterly" ? 3 : 1,
        autoRenew: source.auto_renew === 1,
        status: source.status as ModelService["status"],
        reason: source.suspension_reason as ModelService["reason"],
        expiresAt: Date.parse(source.expires_at),
        suspendedAt: source.suspended_at ? Date.parse(source.suspended_at) : null,
      });
    });
  });

  // Pending orders placed from 5 days before the first run to 10 days after it, each paid from coins.
  const product = await db
    .selectFrom("products")
    .select(["id", "name", "type", "price_cents"])
    .executeTakeFirstOrThrow();
  const orders: ModelOrder[] = [];
  await db.transaction().execute(async (trx) => {
    for (let k = 0; k < ORDERS; k++) {
      const createdAt = T0 - 5 * DAY + k * 6 * HOUR + 30 * 60_000;
      const userId = `fleet-${k}`;
      const row = await trx
        .insertInto("orders")
        .values({
          user_id: userId,
          product_id: product.id,
          product_name: product.name,
          product_type: product.type,
          product_price_cents: product.price_cents,
          billing_cycle: "monthly",
          location: "Frankfurt",
          ddos_protection: 1,
          player_slots: null,
          backup: "choliba",
          server_name: `Order ${k}`,
          monthly_price_cents: 700,
          subtotal_cents: 700,
          total_cents: 700,
          status: "pending",
          idempotency_key: `fleet-order-${k}-0123456789`,
          created_at: new Date(createdAt).toISOString(),
          updated_at: new Date(createdAt).toISOString(),
        })
        .returning("id")
        .executeTakeFirstOrThrow();
      await postLedgerEntry(trx, {
        userId,
        amountCents: -700,
        kind: "order_payment",
        reason: "fleet order",
        actorId: userId,
        orderId: Number(row.id),
      });
      balances.set(userId, balances.get(userId)! - 700);
      orders.push({
        id: Number(row.id),
        userId,
        // As the notice names it: the plan and the server.
        product: serviceLabel({ name: product.name, serverName: `Order ${k}` }),
        totalCents: 700,
        createdAt,
        status: "pending",
      });
    }
  });
  return new Model(services, orders, balances, optedOut);
}

async function tableCounts(db: Db) {
  const count = async (
    table:
      "notifications" | "audit_log" | "coin_ledger" | "service_renewals" | "mail_outbox" | "jobs",
  ) =>
    Number(
      (
        await db
          .selectFrom(table)
          .select((eb) => eb.fn.countAll<number>().as("n"))
          .executeTakeFirstOrThrow()
      ).n,
    );
  return {
    notifications: await count("notifications"),
    audit: await count("audit_log"),
    ledger: await count("coin_ledger"),
    renewals: await count("service_renewals"),
    mail: await count("mail_outbox"),
    jobs: await count("jobs"),
  };
}

describeEachDatabase("the service lifecycle", (app) => {
  const enable = (overrides: Partial<ReturnType<typeof defaultSettings>["lifecycle"]> = {}) =>
    updateSettingsSection(app().db, "lifecycle", {
      ...defaultSettings().lifecycle,
      enabled: true,
      ...overrides,
    });

  it("does nothing while switched off, and says so, but previews what it would do", async () => {
    const db = app().db;
    await updateSettingsSection(db, "lifecycle", defaultSettings().lifecycle);
    const customer = "off-customer";
    const at = new Date(T0 - 100 * DAY).toISOString();
    await db
      .insertInto("users")
      .values({
        id: customer,
        name: "Off",
        email: "off@example.com",
        created_at: at,
        updated_at: at,
      })
      .execute();
    await db
      .insertInto("hosting_services")
      .values({
        user_id: customer,
        product_id: null,
        name: "Long expired",
        monthly_price_cents: 500,
        cycle_price_cents: 500,
        expires_at: at,
        created_at: at,
        updated_at: at,
      })
      .execute();
    const before = await tableCounts(db);
    const run = await runLifecycle(db, { now: new Date(T0 - 50 * DAY) });
    expect(run).toEqual({
      enabled: false,
      counts: noCounts(),
    });
    expect(await tableCounts(db)).toEqual(before);
    const preview = await previewLifecycle(db, { now: new Date(T0 - 50 * DAY) });
    expect(preview.enabled).toBe(false);
    expect(preview.counts.suspended).toBe(1);
    expect(preview.services.suspend.map((s) => s.name)).toEqual(["Long expired"]);
    expect(await tableCounts(db)).toEqual(before);
    // Out of the fleet's way.
    await db.deleteFrom("hosting_services").where("user_id", "=", customer).execute();
  });

  it("runs a fleet of 1,000 services day by day for 50 days exactly as the rules say, each day once", async () => {
    const db = app().db;
    const admin = await adminId(app());
    const model = await seedFleet(db, admin);
    await enable();
    // The customers without a language of their own are written to in the site's default.
    await updateSettingsSection(db, "general", {
      ...defaultSettings().general,
      defaultLocale: "ar",
    });
    // A quarter of the pending orders is decided by an admin before the lifecycle gets to them.
    for (const order of model.orders.filter((_, k) => k % 4 === 1)) {
      const result = await rejectOrder(db, {
        orderId: order.id,
        actorId: admin,
        reason: "no stock",
      });
      expect(result.ok).toBe(true);
      order.status = "rejected";
      model.balances.set(order.userId, model.balances.get(order.userId)! + order.totalCents);
      model.tell(order.userId, "order_rejected", {
        id: order.id,
        product: order.product,
        reason: "no stock",
      });
    }
    const totals = noCounts();
    const zero = { ...totals };
    for (let day = 0; day < DAYS; day++) {
      const now = new Date(T0 + day * DAY);
      const preview = await previewLifecycle(db, { now });
      const expected = model.run(now.getTime());
      expect(preview.counts, `preview of day ${day}`).toEqual(expected);
      const run = await runLifecycle(db, { now });
      expect(run, `day ${day}`).toEqual({ enabled: true, counts: expected });
      for (const key of Object.keys(totals) as (keyof Counts)[]) totals[key] += expected[key];
      // The same day again (a retried job, a second process): nothing changes.
      const before = await tableCounts(db);
      const again = await runLifecycle(db, { now: new Date(now.getTime() + 5 * 60_000) });
      expect(again.counts, `day ${day} again`).toEqual(zero);
      expect(await tableCounts(db)).toEqual(before);
    }
    // Every kind of step happened, so the comparison below means something.
    for (const [action, total] of Object.entries(totals)) expect(total, action).toBeGreaterThan(0);

    const services = await db
      .selectFrom("hosting_services")
      .select(["id", "status", "suspension_reason", "expires_at", "suspended_at"])
      .where("user_id", "like", "fleet-%")
      .orderBy("id")
      .execute();
    expect(
      services.map((s) => ({
        id: Number(s.id),
        status: s.status,
        reason: s.status === "suspended" ? s.suspension_reason : null,
        expiresAt: Date.parse(s.expires_at),
        suspendedAt: s.status === "suspended" && s.suspended_at ? Date.parse(s.suspended_at) : null,
      })),
    ).toEqual(
      model.services.map((s) => ({
        id: s.id,
        status: s.status,
        reason: s.status === "suspended" ? s.reason : null,
        expiresAt: s.expiresAt,
        suspendedAt: s.status === "suspended" ? s.suspendedAt : null,
      })),
    );
    // Admin suspensions were never lifted nor ended.
    expect(
      model.services.filter((s) => s.reason !== "expired" && s.status === "suspended"),
    ).toHaveLength(50);

    const balances = await db
      .selectFrom("users")
      .select(["id", "coin_balance_cents"])
      .where("id", "like", "fleet-%")
      .execute();
    expect(new Map(balances.map((u) => [u.id, u.coin_balance_cents]))).toEqual(model.balances);

    const renewals = await readRows(db, "coin_ledger", ["amount_cents"], { kind: "renewal" });
    expect(renewals).toHaveLength(model.renewalDebits.length);
    expect(renewals.reduce((sum, row) => sum + row.amount_cents, 0)).toBe(
      -model.renewalDebits.reduce((sum, cents) => sum + cents, 0),
    );
    expect(model.renewalDebits).toHaveLength(totals.renewed);

    const notifications = await db
      .selectFrom("notifications")
      .select(["user_id", "kind", "params"])
      .where("user_id", "like", "fleet-%")
      .execute();
    expect(
      notifications
        .map((row) =>
          notice(row.user_id, row.kind, JSON.parse(row.params) as Record<string, unknown>),
        )
        .sort(),
    ).toEqual([...model.notices].sort());

    const audit = await db
      .selectFrom("audit_log")
      .select(["action", (eb) => eb.fn.countAll<number>().as("n")])
      .where("actor_id", "is", null)
      .where("target_type", "in", ["hosting_service", "order"])
      .groupBy("action")
      .execute();
    expect(Object.fromEntries(audit.map((row) => [row.action, Number(row.n)]))).toEqual({
      "service.auto_renew": totals.renewed,
      "service.suspend": totals.suspended,
      "service.terminate": totals.terminated,
      "order.expire": totals.ordersExpired,
    });

    // Every notice's mail, queued with it: once, in the customer's language, none of a kind turned off.
    const mails = await db
      .selectFrom("mail_outbox")
      .select(["id", "user_id", "kind", "locale", "params"])
      .where("user_id", "like", "fleet-%")
      .execute();
    expect(mails.map(describeMail).sort()).toEqual([...model.mails].sort());
    for (const kind of ["serviceSuspended", "serviceTerminationWarning", "serviceTerminated"])
      expect(
        mails.some((row) => row.kind === kind && model.optedOut.has(row.user_id!)),
        `${kind} reaches a customer who turned the optional mail off`,
      ).toBe(true);
    const localeOf = (userId: string) =>
      FLEET_LOCALES[Number(userId.slice("fleet-".length)) % FLEET_LOCALES.length] ?? "ar";
    expect(mails.filter((row) => row.locale !== localeOf(row.user_id!))).toEqual([]);
    expect(new Set(mails.map((row) => row.locale))).toEqual(new Set(["fr", "en", "ar"]));
    // Each message has its send job.
    const jobs = new Set(
      (
        await db.selectFrom("jobs").select("unique_key").where("type", "=", MAIL_SEND_JOB).execute()
      ).map((job) => job.unique_key),
    );
    expect(mails.filter((row) => !jobs.has(`mail:${row.id}`))).toEqual([]);
    await updateSettingsSection(db, "general", defaultSettings().general);
    await expectLedgerIntact(app());
  }, 120_000);

  it("audits turning the lifecycle on from the settings form", async () => {
    const db = app().db;
    await updateSettingsSection(db, "lifecycle", defaultSettings().lifecycle);
    const admin = await adminId(app());
    const form = settingsActionSchema.parse({
      intent: "lifecycle",
      enabled: "on",
      firstReminderDays: "7",
      secondReminderDays: "3",
      lastReminderDays: "1",
      graceDays: "2",
      terminationDays: "14",
      terminationWarningDays: "3",
      expireOrders: "on",
      orderExpiryDays: "7",
    });
    const saved = await saveSettingsForm(app(), { ...form, actorId: admin });
    expect(saved).toEqual({ ok: true, changed: ["enabled"] });
    const row = await latestRow(
      db,
      "audit_log",
      ["actor_id", "action", "target_id", "before", "after"],
      { action: "settings.update" },
    );
    expect(row).toEqual({
      actor_id: admin,
      action: "settings.update",
      target_id: "lifecycle",
      before: JSON.stringify({ enabled: false }),
      after: JSON.stringify({ enabled: true }),
    });
    await updateSettingsSection(db, "lifecycle", defaultSettings().lifecycle);
  });

  it("lets a customer renew a service suspended for expiry, which reactivates it; an admin's suspension stays", async () => {
    const db = app().db;
    await enable();
    const at = new Date(T0 - 200 * DAY);
    const customer = "renewing-customer";
    await db
      .insertInto("users")
      .values({
        id: customer,
        name: "Renewing",
        email: "renewing@example.com",
        created_at: at.toISOString(),
        updated_at: at.toISOString(),
      })
      .execute();
    await db.transaction().execute((trx) =>
      postLedgerEntry(trx, {
        userId: customer,
        amountCents: 5_000,
        kind: "admin_adjustment",
        reason: "t",
      }),
    );
    const insert = (name: string, extra: object) =>
      db
        .insertInto("hosting_services")
        .values({
          user_id: customer,
          product_id: null,
          name,
          monthly_price_cents: 800,
          cycle_price_cents: 800,
          expires_at: new Date(T0 - 190 * DAY).toISOString(),
          created_at: at.toISOString(),
          updated_at: at.toISOString(),
          ...extra,
        })
        .returning("id")
        .executeTakeFirstOrThrow();
    const mine = await insert("Expired one", { server_name: "Karim RP" });
    const held = await insert("Held by an admin", {
      status: "suspended",
      suspension_reason: "admin",
      suspended_at: at.toISOString(),
    });
    const now = new Date(T0 - 180 * DAY);
    const run = await runLifecycle(db, { now });
    expect(run.counts.suspended).toBe(1);
    const renewed = await renewService(db, {
      userId: customer,
      serviceId: Number(mine.id),
      idempotencyKey: "renew-after-suspension-0001",
      now: new Date(now.getTime() + DAY),
    });
    expect(renewed).toMatchObject({
      ok: true,
      service: { status: "active", suspensionReason: null },
    });
    // From the later of now and the old expiry: now, one calendar month on.
    expect(renewed.ok && renewed.service.expiresAt).toBe(
      new Date(monthsLater(now.getTime() + DAY, 1)).toISOString(),
    );
    const refused = await renewService(db, {
      userId: customer,
      serviceId: Number(held.id),
      idempotencyKey: "renew-admin-suspended-0001",
    });
    expect(refused).toMatchObject({ ok: false, error: "services.errors.cannotRenew" });
    // The automation never lifts nor ends it, however long it waits.
    await runLifecycle(db, { now: new Date(now.getTime() + 60 * DAY) });
    const row = await readRow(db, "hosting_services", ["status", "suspension_reason"], {
      id: held.id,
    });
    expect(row).toEqual({ status: "suspended", suspension_reason: "admin" });
    const audit = await readRows(
      db,
      "audit_log",
      ["actor_id", "action", "reason"],
      { target_type: "hosting_service", target_id: String(mine.id) },
      "id",
    );
    expect(audit.slice(0, 2)).toEqual([
      { actor_id: null, action: "service.suspend", reason: "expired" },
      { actor_id: customer, action: "service.reactivate", reason: "renewal" },
    ]);
    // Told by mail of the suspension, then of the renewal they made (a receipt, saying it runs again),
    // then of the next suspension once the renewed term ran out unrenewed (60 days on).
    const mails = await readRows(
      db,
      "mail_outbox",
      ["user_id", "kind", "locale", "params"],
      { user_id: customer },
      "id",
    );
    expect(mails.map(describeMail)).toEqual([
      `${customer} serviceSuspended Expired one (Karim RP) expired`,
      `${customer} serviceRenewed Expired one (Karim RP) by hand 800`,
      `${customer} serviceSuspended Expired one (Karim RP) expired`,
    ]);
    // Its notices name it the same way: the plan, and the server's own name.
    const notices = await readRows(
      db,
      "notifications",
      ["kind", "params"],
      { user_id: customer },
      "id",
    );
    expect(notices.map((row) => [row.kind, JSON.parse(row.params)])).toEqual([
      ["service_suspended_expired", { service: "Expired one (Karim RP)" }],
      ["service_reactivated", { service: "Expired one (Karim RP)" }],
      ["service_suspended_expired", { service: "Expired one (Karim RP)" }],
    ]);
    expect(JSON.parse(mails[1]!.params)).toMatchObject({
      reactivated: true,
      expiresAt: renewed.ok && renewed.service.expiresAt,
    });
    await expectLedgerIntact(app());
  });
});

describe("the fleet's own calendar arithmetic", () => {
  it("adds calendar months as the spec does", () => {
    expect(new Date(monthsLater(Date.parse("2031-01-31T05:00:00Z"), 1)).toISOString()).toBe(
      "2031-02-28T05:00:00.000Z",
    );
    expect(new Date(monthsLater(Date.parse("2031-11-30T05:00:00Z"), 3)).toISOString()).toBe(
      "2032-02-29T05:00:00.000Z",
    );
  });
});

describeEachDatabase("automatic renewal switch and suspension reasons", (app) => {
  it("gives a service the order's automatic renewal, and lets only its customer switch it", async () => {
    const product = await productId(app(), "samp-starter");
    const on = await customerWithCoins(app(), 10_000);
    const { approved } = await approvedOrder(app(), on, { productId: product, autoRenew: "on" });
    const off = await customerWithCoins(app(), 10_000);
    const unticked = await approvedOrder(app(), off, { productId: product });
    const serviceOn = approved.hostingServiceId!;
    expect(await readColumn(app(), "hosting_services", "auto_renew", ["id", serviceOn])).toBe(1);
    expect(
      await readColumn(app(), "hosting_services", "auto_renew", [
        "id",
        unticked.approved.hostingServiceId!,
      ]),
    ).toBe(0);

    expect(
      await setAutoRenew(app().db, { userId: on, serviceId: serviceOn, autoRenew: false }),
    ).toMatchObject({
      ok: true,
      changed: true,
      service: { autoRenew: false },
    });
    expect(
      await setAutoRenew(app().db, { userId: on, serviceId: serviceOn, autoRenew: false }),
    ).toMatchObject({
      ok: true,
      changed: false,
    });
    // Another customer's service is not theirs to switch.
    expect(
      await setAutoRenew(app().db, { userId: off, serviceId: serviceOn, autoRenew: true }),
    ).toEqual(refusal("notFound", "services.errors.notFound"));
    expect(await readColumn(app(), "hosting_services", "auto_renew", ["id", serviceOn])).toBe(0);
  });

  it("records an admin's suspension as the admin's, and a reactivation clears it", async () => {
    const { db, admin } = await asAdmin(app());
    const { user, serviceId } = await customerWithRunningService(app(), 10_000);
    const byAdmin = (action: ServiceAction) =>
      changeServiceStatus(db, { actorId: admin, serviceId, action });
    expect(await byAdmin("suspend")).toMatchObject({
      ok: true,
      service: { status: "suspended", suspensionReason: "admin" },
    });
    const mailOfService = async () =>
      (
        await db
          .selectFrom("mail_outbox")
          .select(["user_id", "kind", "params"])
          .where("user_id", "=", user)
          .where("kind", "like", "service%")
          .orderBy("id")
          .execute()
      ).map(describeMail);
    expect(await mailOfService()).toEqual([
      `${user} serviceSuspended SAMP Starter (Test server) admin`,
    ]);
    // Renewable only through support.
    expect(await renewWithNewKey(app(), user, serviceId)).toEqual(
      refusal("conflict", "services.errors.cannotRenew"),
    );
    expect(await byAdmin("reactivate")).toMatchObject({
      ok: true,
      service: { status: "active", suspensionReason: null },
    });
    expect(
      await readColumn(app(), "hosting_services", "suspended_at", ["id", serviceId]),
    ).toBeNull();
    // A reactivation is in the customer's list only; a termination by an admin is mailed, once.
    expect(await mailOfService()).toHaveLength(1);
    expect(await byAdmin("terminate")).toMatchObject({ ok: true });
    expect((await mailOfService()).slice(1)).toEqual([
      `${user} serviceTerminated SAMP Starter (Test server) admin`,
    ]);
  });
});
