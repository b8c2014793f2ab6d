/**
 * npm run bench:lifecycle — does the daily run of the service lifecycle (ADR 28) stay fast, and
 * does its time follow what is due rather than every service? For each database (SQLite with the app's
 * own pragmas, and PostgreSQL on a durable throwaway cluster when its binaries are there) it seeds two
 * databases of the same day's work, 2,000 due services among 10,000 and among 100,000, switches the
 * lifecycle on, and times one `runLifecycle` call at the seeded clock, then a second one right after
 * (which must find nothing). A warm-up run on a database of the due services alone comes first, per
 * database, and is not measured.
 *
 * The due services are a day's mix: reminders 7, 3 and 1 days ahead, automatic renewals with enough coins
 * (on the expiry day and within the grace period) and without (told they are short), suspensions past the
 * grace period, warnings before a termination, terminations after the suspension period; and pending
 * orders older than 7 days, given up on and refunded (2% of the due services, beside them). Every
 * customer's coins are real ledger rows. The other services are not due: active and expiring 9 to 60
 * days later, or terminated long ago; a few orders are pending but recent.
 *
 * Errors counted: a run that throws, counts that differ from what was seeded, a second run that finds
 * anything, and the ledger check (`findLedgerDiscrepancies`) not empty after the runs. Budgets (verdict
 * table, exit code 1 when one is missed): the run over 100,000 services with 2,000 due under 10 s per
 * database; its time over the run with 2,000 due among 10,000 <= 1.5 per database; 0 errors.
 *
 * `--quick` seeds 100 due among 500 and among 2,000, to prove the script works (its figures measure
 * nothing); --sqlite-only skips PostgreSQL. Seeding is multi-row inserts in large transactions with
 * explicit ids, as seed-scale.ts does it.
 */
import { rmSync } from "node:fs";
import path from "node:path";
import { performance } from "node:perf_hooks";
import { sql, type Kysely } from "kysely";
import pg from "pg";
import { parseEnv } from "../../app/config/env.server";
import { createServices, prepareDatabase } from "../../app/context.server";
import type { Database } from "../../app/db/schema";
import { findLedgerDiscrepancies } from "../../app/domain/coins/coins.server";
import { runLifecycle } from "../../app/domain/lifecycle/lifecycle.server";
import {
  DAY_MS,
  LIFECYCLE_ACTIONS,
  zeroCounts,
  type LifecycleCounts,
} from "../../app/domain/lifecycle/lifecycle";
import { defaultSettings } from "../../app/domain/settings/settings";
import { updateSettingsSection } from "../../app/domain/settings/settings.server";
import {
  describeDurability,
  durabilitySettings,
  findPostgresBin,
  isDurable,
  startPostgresCluster,
} from "../../tests/support/postgres-cluster";
import {
  atMost,
  BENCH_ADMIN,
  BENCH_SECRET,
  below,
  none,
  passes,
  printTable,
  QUICK,
  reportVerdicts,
  type Verdict,
} from "./lib";
import { BatchWriter, random, type Row } from "./seed-scale";

const DUE = QUICK ? 100 : 2_000;
const SIZES = QUICK ? [500, 2_000] : [10_000, 100_000];
const TIME_BUDGET_S = 10;
const RATIO_BUDGET = 1.5;
const HOUR = 3_600_000;
const verdicts: Verdict[] = [];
const fmt = (n: number) => n.toLocaleString("en-US");

/**
 * The day's due services, as shares of DUE (they add up to 1). Each kind expects one count of one action:
 * a short renewal is put in the grace period (expired yesterday), so it gets no reminder as well.
 */
const MIX = [
  { kind: "remind7", share: 0.2, action: "reminded" },
  { kind: "remind3", share: 0.1, action: "reminded" },
  { kind: "remind1", share: 0.1, action: "reminded" },
  { kind: "renewToday", share: 0.1, action: "renewed" },
  { kind: "renewGrace", share: 0.1, action: "renewed" },
  { kind: "shortNone", share: 0.05, action: "renewalShort" },
  { kind: "shortSome", share: 0.05, action: "renewalShort" },
  { kind: "suspend", share: 0.15, action: "suspended" },
  { kind: "warn", share: 0.05, action: "warned" },
  { kind: "terminate", share: 0.1, action: "terminated" },
] as const satisfies readonly { kind: string; share: number; action: keyof LifecycleCounts }[];
type DueKind = (typeof MIX)[number]["kind"];
/** Pending orders past the 7 days, beside the due services. */
const DUE_ORDERS = Math.round(DUE * 0.02);
/** Customers who own the services that are not due: four services each. */
const SERVICES_PER_IDLE_CUSTOMER = 4;

interface Seeded {
  services: number;
  dueServices: number;
  dueOrders: number;
  expected: LifecycleCounts;
  seconds: number;
}

/** Seeds a new database (a SQLite file is removed first; a PostgreSQL database must be empty). */
async function seed(db: Kysely<Database>, dialect: string, total: number, now: number) {
  const started = Date.now();
  const admin = await db
    .selectFrom("users")
    .select("id")
    .where("email", "=", BENCH_ADMIN.email)
    .executeTakeFirstOrThrow();
  const products = await db
    .selectFrom("products")
    .select(["id", "name", "type", "price_cents"])
    .where("price_cents", ">", 0)
    .orderBy("id")
    .execute();
  if (products.length === 0) throw new Error("no priced product in the catalogue");
  const maxId = async (table: "coin_ledger" | "orders" | "hosting_services") =>
    Number(
      (
        await db
          .selectFrom(table)
          .select((eb) => eb.fn.max("id").as("m"))
          .executeTakeFirst()
      )?.m ?? 0,
    );
  let ledgerId = await maxId("coin_ledger");
  let orderId = await maxId("orders");
  let serviceId = await maxId("hosting_services");
  const rand = random(20261124);
  const writer = new BatchWriter(db, 30_000);
  const iso = (time: number) => new Date(time).toISOString();
  const created = iso(now - 400 * DAY_MS);
  let customers = 0;
  const expected = zeroCounts();

  const inTransaction = async (work: () => Promise<void>) =>
    db.transaction().execute(async (trx) => {
      writer.db = trx;
      try {
        await work();
        await writer.flush();
      } finally {
        writer.db = db;
      }
    });

  /**
   * A customer whose balance is `balanceCents`, its ledger a top-up of `topUpCents` (what follows it, an
   * order's payment, brings the one to the other).
   */
  const customer = async (balanceCents: number, topUpCents = balanceCents) => {
    const id = `lc-${String(++customers).padStart(6, "0")}`;
    await writer.add("users", {
      id,
      name: `Lifecycle Customer ${customers}`,
      email: `lc.${customers}@example.test`,
      role: "user",
      status: "active",
      coin_balance_cents: balanceCents,
      must_change_password: 0,
      created_at: created,
      updated_at: created,
    });
    if (topUpCents > 0) await ledger(id, topUpCents, topUpCents, "admin_adjustment");
    return id;
  };
  const ledger = async (
    userId: string,
    amount: number,
    balanceAfter: number,
    kind: string,
    extra: Row = {},
  ) =>
    writer.add("coin_ledger", {
      id: ++ledgerId,
      user_id: userId,
      amount_cents: amount,
      balance_after_cents: balanceAfter,
      kind,
      reason: kind === "admin_adjustment" ? "Top-up" : "Order",
      actor_id: kind === "admin_adjustment" ? admin.id : userId,
      order_id: null,
      hosting_service_id: null,
      created_at: iso(now - 40 * DAY_MS),
      ...extra,
    });
  const service = async (
    userId: string,
    fields: {
      status: string;
      expiresAt: number;
      autoRenew: boolean;
      suspendedAt?: number;
    },
    product = products[serviceId % products.length]!,
  ) => {
    const id = ++serviceId;
    await writer.add("hosting_services", {
      id,
      user_id: userId,
      product_id: product.id,
      name: product.name,
      server_name: `lc-${id}`,
      type: product.type,
      billing_cycle: "monthly",
      monthly_price_cents: product.price_cents,
      cycle_price_cents: product.price_cents,
      status: fields.status,
      expires_at: iso(fields.expiresAt),
      auto_renew: fields.autoRenew ? 1 : 0,
      suspension_reason: fields.suspendedAt === undefined ? null : "expired",
      suspended_at: fields.suspendedAt === undefined ? null : iso(fields.suspendedAt),
      created_at: created,
      updated_at: created,
    });
  };
  /** A pending order paid from coins (a top-up, then its payment), placed at `placedAt`. */
  const pendingOrder = async (placedAt: number) => {
    const product = products[orderId % products.length]!;
    const price = product.price_cents;
    const userId = await customer(0, price);
    const id = ++orderId;
    await writer.add("orders", {
      id,
      user_id: userId,
      product_id: product.id,
      product_name: product.name,
      product_type: product.type,
      product_price_cents: price,
      billing_cycle: "monthly",
      location: "germany",
      ddos_protection: 1,
      player_slots: null,
      backup: "none",
      server_name: `lc-order-${id}`,
      voucher_id: null,
      voucher_code: null,
      monthly_price_cents: price,
      subtotal_cents: price,
      discount_cents: 0,
      total_cents: price,
      paid_with_coins: 1,
      status: "pending",
      idempotency_key: `lc-${id}`,
      reject_reason: null,
      decided_by: null,
      decided_at: null,
      hosting_service_id: null,
      created_at: iso(placedAt),
      updated_at: iso(placedAt),
    });
    await ledger(userId, -price, 0, "order_payment", {
      order_id: id,
      created_at: iso(placedAt),
    });
  };

  // The due services, one customer each (so each renewal's balance is its own), in kind order.
  const dueKinds: DueKind[] = [];
  let assigned = 0;
  MIX.forEach((mix, i) => {
    const count = i === MIX.length - 1 ? DUE - assigned : Math.round(DUE * mix.share);
    assigned += count;
    for (let n = 0; n < count; n++) dueKinds.push(mix.kind);
    expected[mix.action] += count;
  });
  await inTransaction(async () => {
    for (const kind of dueKinds) {
      const product = products[serviceId % products.length]!;
      const price = product.price_cents;
      const jitter = Math.floor(rand() * 6 * HOUR);
      // Coins: a renewal finds its price and some more; a short one nothing, or a part of it.
      const coins =
        kind === "renewToday" || kind === "renewGrace"
          ? price + Math.floor(rand() * 5_000)
          : kind === "shortSome"
            ? Math.max(1, Math.floor(price / 2))
            : kind === "shortNone"
              ? 0
              : Math.floor(rand() * 3) * 1_000;
      const userId = await customer(coins);
      const active = (expiresAt: number, autoRenew: boolean) =>
        service(userId, { status: "active", expiresAt, autoRenew }, product);
      const suspended = (suspendedAt: number) =>
        service(
          userId,
          {
            status: "suspended",
            expiresAt: suspendedAt - 2 * DAY_MS,
            autoRenew: false,
            suspendedAt,
          },
          product,
        );
      if (kind === "remind7") await active(now + 6 * DAY_MS + jitter, false);
      else if (kind === "remind3") await active(now + 2 * DAY_MS + jitter, false);
      else if (kind === "remind1") await active(now + 6 * HOUR + jitter, false);
      else if (kind === "renewToday") await active(now + 6 * HOUR + jitter, true);
      else if (kind === "renewGrace") await active(now - DAY_MS + jitter, true);
      else if (kind === "shortNone" || kind === "shortSome")
        await active(now - DAY_MS + jitter, true);
      else if (kind === "suspend") await active(now - 3 * DAY_MS - jitter, rand() < 0.5);
      else if (kind === "warn") await suspended(now - 12 * DAY_MS - jitter);
      else await suspended(now - 15 * DAY_MS - jitter);
    }
    for (let i = 0; i < DUE_ORDERS; i++) await pendingOrder(now - 8 * DAY_MS - i * 60_000);
    // Recent pending orders, not due: the admin has not reviewed them yet.
    for (let i = 0; i < DUE_ORDERS; i++) await pendingOrder(now - 2 * DAY_MS - i * 60_000);
  });
  expected.ordersExpired = DUE_ORDERS;

  // The services that are not due: 80% active, expiring 9 to 60 days later (a third renewing
  // automatically), 20% terminated months ago.
  const idle = total - DUE;
  for (let done = 0; done < idle;) {
    await inTransaction(async () => {
      const until = Math.min(idle, done + 50_000);
      let owner = "";
      for (; done < until; done++) {
        if (done % SERVICES_PER_IDLE_CUSTOMER === 0)
          owner = await customer(1_000 * (1 + Math.floor(rand() * 20)));
        if (rand() < 0.8)
          await service(owner, {
            status: "active",
            expiresAt: now + 9 * DAY_MS + Math.floor(rand() * 51 * DAY_MS),
            autoRenew: rand() < 1 / 3,
          });
        else
          await service(owner, {
            status: "terminated",
            expiresAt: now - (30 + Math.floor(rand() * 300)) * DAY_MS,
            autoRenew: false,
          });
      }
    });
  }

  if (dialect === "postgres") {
    for (const table of ["coin_ledger", "orders", "hosting_services"])
      await sql`select setval(pg_get_serial_sequence(${table}, 'id'), coalesce((select max(id) from ${sql.table(table)}), 0) + 1, false)`.execute(
        db,
      );
    // As on a database that has been running (see seed-scale.ts).
    await sql`vacuum analyze`.execute(db);
  } else {
    await sql`analyze`.execute(db);
    await sql`pragma wal_checkpoint(truncate)`.execute(db);
  }
  return {
    services: total,
    dueServices: DUE,
    dueOrders: DUE_ORDERS,
    expected,
    seconds: Math.round((Date.now() - started) / 100) / 10,
  } satisfies Seeded;
}

interface Measured {
  database: string;
  services: number;
  due: number;
  runMs: number;
  counts: LifecycleCounts | null;
  secondMs: number;
  errors: string[];
}

const countsText = (counts: LifecycleCounts | null) =>
  counts ? LIFECYCLE_ACTIONS.map((action) => `${action} ${counts[action]}`).join(", ") : "none";

/** Seeds one size, then the first run and the second one, timed; the ledger check after. */
async function measure(dialect: string, databaseUrl: string, total: number): Promise<Measured> {
  if (databaseUrl.startsWith("file:")) {
    const dir = path.dirname(path.resolve(databaseUrl.slice(5)));
    rmSync(dir, { recursive: true, force: true });
  }
  const services = createServices({
    ...parseEnv({
      DATABASE_URL: databaseUrl,
      ADMIN_EMAIL: BENCH_ADMIN.email,
      ADMIN_PASSWORD: BENCH_ADMIN.password,
      // The bench signs its admin in with a password alone (a new install would ask an owner for two-factor).
      FIRST_START_TWO_FACTOR_ROLES: "none",
    }),
    AUTH_SECRET: BENCH_SECRET,
  });
  const { db } = services;
  const errors: string[] = [];
  const result: Measured = {
    database: dialect,
    services: total,
    due: DUE,
    runMs: NaN,
    counts: null,
    secondMs: NaN,
    errors,
  };
  try {
    await prepareDatabase(services);
    // The run's clock: on the hour, as the worker's schedule starts it.
    const now = Math.floor(Date.now() / HOUR) * HOUR;
    const seeded = await seed(db, dialect, total, now);
    console.log(
      `${dialect} ${fmt(total)}: seeded ${fmt(seeded.services)} services (${fmt(seeded.dueServices)} due) and ${seeded.dueOrders} due orders in ${seeded.seconds} s`,
    );
    await updateSettingsSection(db, "lifecycle", { ...defaultSettings().lifecycle, enabled: true });

    try {
      const started = performance.now();
      const run = await runLifecycle(db, { now: new Date(now) });
      result.runMs = performance.now() - started;
      result.counts = run.counts;
      const wrong = LIFECYCLE_ACTIONS.filter(
        (action) => run.counts[action] !== seeded.expected[action],
      );
      if (!run.enabled) errors.push("the lifecycle was off");
      if (wrong.length)
        errors.push(
          `counts differ from the seeded (${wrong.map((a) => `${a} ${run.counts[a]}, expected ${seeded.expected[a]}`).join("; ")})`,
        );
    } catch (error) {
      errors.push(`first run threw: ${(error as Error).message}`);
    }
    try {
      const started = performance.now();
      const again = await runLifecycle(db, { now: new Date(now) });
      result.secondMs = performance.now() - started;
      const found = LIFECYCLE_ACTIONS.filter((action) => again.counts[action] !== 0);
      if (found.length) errors.push(`the second run found something (${countsText(again.counts)})`);
    } catch (error) {
      errors.push(`second run threw: ${(error as Error).message}`);
    }
    const discrepancies = await findLedgerDiscrepancies(db);
    if (discrepancies.length)
      errors.push(`ledger check: ${discrepancies.length} customer(s) whose balance is off`);
    console.log(
      `${dialect} ${fmt(total)}: first run ${result.runMs.toFixed(0)} ms (${countsText(result.counts)}), second run ${result.secondMs.toFixed(0)} ms, ${errors.length} error(s)${errors.length ? `: ${errors.join(" | ")}` : ""}`,
    );
  } finally {
    await services.database.destroy();
  }
  return result;
}

async function benchDialect(dialect: string, databaseUrlFor: (total: number) => string) {
  // A run nobody measures first, on a database of the due services alone: otherwise the first size
  // measured also carries the compiling of the code paths (250 against 107 ms in a --quick run), which
  // flatters the ratio.
  console.log(`${dialect}: warm-up run (not measured)...`);
  await measure(dialect, databaseUrlFor(DUE), DUE);
  const measured: Measured[] = [];
  for (const total of SIZES) measured.push(await measure(dialect, databaseUrlFor(total), total));
  const [small, big] = measured as [Measured, Measured];
  verdicts.push(
    below(
      `${dialect}: daily run, ${fmt(big.services)} services, ${fmt(DUE)} due`,
      big.runMs / 1000,
      TIME_BUDGET_S,
      " s",
    ),
    atMost(
      `${dialect}: run time ${fmt(DUE)} due among ${fmt(big.services)} / among ${fmt(small.services)} (${big.runMs.toFixed(0)} / ${small.runMs.toFixed(0)} ms)`,
      Math.round((big.runMs / small.runMs) * 100) / 100,
      RATIO_BUDGET,
    ),
    none(
      `${dialect}: errors (counts, second run, ledger check)`,
      small.errors.length + big.errors.length,
      [...small.errors, ...big.errors].join("; "),
    ),
  );
  return measured;
}

const results: Measured[] = [];
results.push(
  ...(await benchDialect("sqlite", (total) => `file:./.tmp/bench-lifecycle-${total}/hostfront.db`)),
);
if (process.argv.includes("--sqlite-only")) {
  console.log("--sqlite-only: skipping the PostgreSQL run.");
} else if (findPostgresBin()) {
  const cluster = await startPostgresCluster({ durable: true });
  try {
    const settings = await durabilitySettings(cluster.url);
    console.log(`PostgreSQL: ${describeDurability(settings)}`);
    verdicts.push(
      passes("postgres: commits durable", isDurable(settings), describeDurability(settings)),
    );
    const client = new pg.Client({ connectionString: cluster.url });
    await client.connect();
    for (const total of [DUE, ...SIZES]) await client.query(`create database lifecycle_${total}`);
    await client.end();
    results.push(
      ...(await benchDialect("postgres", (total) =>
        cluster.url.replace(/\/postgres$/, `/lifecycle_${total}`),
      )),
    );
  } finally {
    cluster.stop();
  }
} else {
  console.log("PostgreSQL server binaries not found: skipping the PostgreSQL run.");
  verdicts.push(passes("postgres: run", false, "skipped: no PostgreSQL binaries"));
}

printTable(
  `Lifecycle benchmark: one runLifecycle call at the seeded clock (the first run), then a second at the same clock (must find nothing)`,
  results.map((r) => ({
    database: r.database,
    services: fmt(r.services),
    due: `${fmt(r.due)} + ${DUE_ORDERS} orders`,
    "run ms": r.runMs.toFixed(0),
    counts: countsText(r.counts),
    "second run ms": r.secondMs.toFixed(0),
    errors: r.errors.length,
  })),
);
reportVerdicts(
  `lifecycle benchmark${QUICK ? " (--quick: small sizes, not a measure)" : ""} (copy these rows into docs/performance.md)`,
  verdicts,
);
