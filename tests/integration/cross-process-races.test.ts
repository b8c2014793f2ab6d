import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, expect, it } from "vitest";
import { LOGIN_PAIR_FAILURE_LIMIT } from "~/domain/accounts/accounts";
import { registerCustomer } from "~/domain/accounts/accounts.server";
import { quote } from "~/domain/orders/orders";
import {
  adminId,
  approvedOrder,
  balanceOf,
  customerWithCoins,
  expectLedgerIntact,
  insertVoucher,
  orderInput,
  productId,
} from "../support/money-fixtures";
import {
  startRaceWorkers,
  type RaceResult,
  type RaceRun,
  type RaceWorkers,
} from "../support/race-workers";
import { isEarlier } from "../support/process-moments";
import { describeEachDatabase } from "../support/test-database";

/**
 * Production runs WEB_CONCURRENCY server processes on one database. Inside one process every SQLite write
 * waits for the process's own write connection, so "parallel" calls in a test run one after another there;
 * these tests start separate OS processes (tests/support/race-worker.ts) that open the same SQLite file
 * (or PostgreSQL database, each with a pool of its own) as a server process does, wait at a barrier until
 * all are ready, then call the real domain functions at the same moment. The assertions are on the
 * database afterwards.
 */

const WORKERS = 3;
const times = <T>(n: number, make: (i: number) => T) =>
  Array.from({ length: n }, (_, i) => make(i));

const oks = (results: RaceResult[]) => results.filter((r) => "ok" in r && r.ok);
const refusedWith = (results: RaceResult[], error: string) =>
  results.filter((r) => "ok" in r && !r.ok && r.error === error);
const thrown = (results: RaceResult[]) => results.filter((r) => "thrown" in r);

/**
 * The race was real: at least two processes overlapped, each starting its calls before the other had all
 * its answers. (Every process is told to start at once, but on a loaded machine one may be scheduled
 * tens of milliseconds late, so "all of them" would fail for reasons that are not the code's.)
 */
function expectOverlap(run: RaceRun) {
  const overlapping = run.sentAt.some((sent, i) =>
    run.sentAt.some(
      (other, j) =>
        i !== j && isEarlier(sent, run.answeredAt[j]!) && isEarlier(other, run.answeredAt[i]!),
    ),
  );
  expect(overlapping, JSON.stringify({ sentAt: run.sentAt, answeredAt: run.answeredAt })).toBe(
    true,
  );
}

describeEachDatabase("server processes racing on one database", (app, dialect) => {
  let workers: RaceWorkers;
  beforeAll(async () => {
    workers = await startRaceWorkers(app().env.DATABASE_URL, WORKERS);
  });
  afterAll(async () => {
    await workers?.stop();
  });

  /** Every payment row of an order: it must be exactly one, of exactly its total. */
  async function paymentsOf(orderId: number) {
    return app()
      .db.selectFrom("coin_ledger")
      .select("amount_cents")
      .where("order_id", "=", orderId)
      .where("kind", "=", "order_payment")
      .execute();
  }

  it("parallel orders of one customer never spend more than the balance", async () => {
    const product = await productId(app(), "samp-starter");
    const sample = orderInput({ productId: product });
    const row = await app()
      .db.selectFrom("products")
      .select("price_cents")
      .where("id", "=", product)
      .executeTakeFirstOrThrow();
    const price = quote({
      productPriceCents: row.price_cents,
      cycle: sample.billingCycle,
      backup: sample.backup,
    }).totalCents;
    // Enough for exactly five orders; 24 are sent at once from three processes.
    const customer = await customerWithCoins(app(), price * 5);
    const run = await workers.race(
      times(WORKERS, () =>
        times(8, () => ({
          op: "placeOrder" as const,
          userId: customer,
          input: orderInput({ productId: product }),
        })),
      ),
    );
    const results = run.results.flat();
    expect(thrown(results)).toEqual([]);
    expectOverlap(run);
    expect(oks(results)).toHaveLength(5);
    expect(refusedWith(results, "orders.errors.insufficientCoins")).toHaveLength(19);
    expect(await balanceOf(app(), customer)).toBe(0);
    const orders = await app()
      .db.selectFrom("orders")
      .select(["id", "total_cents"])
      .where("user_id", "=", customer)
      .execute();
    expect(orders).toHaveLength(5);
    for (const order of orders)
      expect(await paymentsOf(Number(order.id))).toEqual([{ amount_cents: -order.total_cents }]);
    await expectLedgerIntact(app());
  }, 60_000);

  it("a key replayed by every process at once charges once (orders, renewals, admin credits)", async () => {
    const product = await productId(app(), "samp-starter");
    const customer = await customerWithCoins(app(), 100_000);
    const admin = await adminId(app());
    const { approved } = await approvedOrder(app(), customer, { productId: product });
    const serviceId = approved.hostingServiceId!;
    const before = await app()
      .db.selectFrom("hosting_services")
      .select(["expires_at", "cycle_price_cents"])
      .where("id", "=", serviceId)
      .executeTakeFirstOrThrow();
    const balanceBefore = await balanceOf(app(), customer);

    const order = orderInput({ productId: product });
    const renewalKey = randomUUID();
    const creditKey = `race-credit-${randomUUID()}`;
    const run = await workers.race(
      times(WORKERS, () => [
        ...times(4, () => ({ op: "placeOrder" as const, userId: customer, input: order })),
        ...times(4, () => ({
          op: "renewService" as const,
          userId: customer,
          serviceId,
          idempotencyKey: renewalKey,
        })),
        ...times(4, () => ({
          op: "adjustCoins" as const,
          userId: customer,
          actorId: admin,
          amountCents: 700,
          idempotencyKey: creditKey,
        })),
      ]),
    );
    const results = run.results.flat();
    expect(thrown(results)).toEqual([]);
    expectOverlap(run);
    // Every replay is answered with the first result, none is refused.
    expect(oks(results)).toHaveLength(results.length);

    const orders = await app()
      .db.selectFrom("orders")
      .select(["id", "total_cents"])
      .where("idempotency_key", "=", order.idempotencyKey)
      .execute();
    expect(orders).toHaveLength(1);
    const orderResults = run.results.flatMap((r) => r.slice(0, 4));
    expect(new Set(orderResults.map((r) => ("id" in r ? r.id : null)))).toEqual(
      new Set([Number(orders[0]!.id)]),
    );
    expect(await paymentsOf(Number(orders[0]!.id))).toEqual([
      { amount_cents: -orders[0]!.total_cents },
    ]);

    const renewals = await app()
      .db.selectFrom("service_renewals")
      .select(["amount_cents", "previous_expires_at"])
      .where("idempotency_key", "=", renewalKey)
      .execute();
    expect(renewals).toEqual([
      { amount_cents: before.cycle_price_cents, previous_expires_at: before.expires_at },
    ]);
    const renewalDebits = await app()
      .db.selectFrom("coin_ledger")
      .select("amount_cents")
      .where("hosting_service_id", "=", serviceId)
      .where("kind", "=", "renewal")
      .execute();
    expect(renewalDebits).toEqual([{ amount_cents: -before.cycle_price_cents }]);

    const credits = await app()
      .db.selectFrom("coin_ledger")
      .select("amount_cents")
      .where("idempotency_key", "=", creditKey)
      .execute();
    expect(credits).toEqual([{ amount_cents: 700 }]);

    expect(await balanceOf(app(), customer)).toBe(
      balanceBefore - orders[0]!.total_cents - before.cycle_price_cents + 700,
    );
    await expectLedgerIntact(app());
  }, 60_000);

  it("a voucher's last use goes to exactly one of the orders racing for it", async () => {
    const product = await productId(app(), "samp-starter");
    const customer = await customerWithCoins(app(), 1_000_000);
    const code = `LAST${dialect.toUpperCase()}${Date.now()}`;
    await insertVoucher(app(), code, { fixedCents: 100, maxUses: 3, usedCount: 2 });
    const run = await workers.race(
      times(WORKERS, () =>
        times(5, () => ({
          op: "placeOrder" as const,
          userId: customer,
          input: orderInput({ productId: product, voucherCode: code }),
        })),
      ),
    );
    const results = run.results.flat();
    expect(thrown(results)).toEqual([]);
    expectOverlap(run);
    expect(oks(results)).toHaveLength(1);
    expect(refusedWith(results, "orders.errors.voucherUsedUp")).toHaveLength(14);
    const voucher = await app()
      .db.selectFrom("vouchers")
      .select(["id", "used_count"])
      .where("code", "=", code)
      .executeTakeFirstOrThrow();
    expect(voucher.used_count).toBe(3);
    const withVoucher = await app()
      .db.selectFrom("orders")
      .select("id")
      .where("voucher_id", "=", voucher.id)
      .execute();
    expect(withVoucher).toHaveLength(1);
    await expectLedgerIntact(app());
  }, 60_000);

  it("50 documents issued at once from three processes are numbered 1 to 50, none twice", async () => {
    const customer = await customerWithCoins(app(), 0);
    // A year of its own, so the suite's other documents are not counted.
    const year = 2150;
    const run = await workers.race(
      times(WORKERS, (w) =>
        times(w === 0 ? 18 : 16, () => ({ op: "issueDocument" as const, userId: customer, year })),
      ),
    );
    const results = run.results.flat();
    expect(thrown(results)).toEqual([]);
    expectOverlap(run);
    expect(oks(results)).toHaveLength(50);
    const numbers = await app()
      .db.selectFrom("invoices")
      .select("number")
      .where("number", "like", `HFR-${year}-%`)
      .execute();
    expect(numbers.map((row) => row.number).sort()).toEqual(
      times(50, (i) => `HFR-${year}-${String(i + 1).padStart(6, "0")}`),
    );
  }, 60_000);

  it("the login throttle lets no more wrong passwords through than its limit", async () => {
    const email = `race-login-${dialect}-${Date.now()}@example.com`;
    const registered = await registerCustomer(
      app(),
      { name: "Racer", email, password: "Racer-pw-5521", confirmPassword: "Racer-pw-5521" },
      { registrationOpen: true },
    );
    if (!registered.ok) throw new Error(registered.error);
    const ip = "198.18.9.1";
    const run = await workers.race(
      times(WORKERS, () =>
        times(10, () => ({ op: "signIn" as const, email, password: "Wrong-pw-0000", ip })),
      ),
    );
    const results = run.results.flat();
    expect(thrown(results)).toEqual([]);
    expectOverlap(run);
    expect(oks(results)).toEqual([]);
    expect(refusedWith(results, "errors.invalidCredentials")).toHaveLength(
      LOGIN_PAIR_FAILURE_LIMIT,
    );
    expect(refusedWith(results, "errors.tooManyAttempts")).toHaveLength(
      results.length - LOGIN_PAIR_FAILURE_LIMIT,
    );
    const recorded = await app()
      .db.selectFrom("login_attempts")
      .select((eb) => eb.fn.countAll<number>().as("n"))
      .where("email", "=", email)
      .executeTakeFirstOrThrow();
    expect(Number(recorded.n)).toBe(LOGIN_PAIR_FAILURE_LIMIT);
  }, 60_000);
});
