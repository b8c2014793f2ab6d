import { randomUUID } from "node:crypto";
import { afterEach } from "vitest";
import type { AppServices } from "~/context.server";
import { registerCustomer } from "~/domain/accounts/accounts.server";
import { listActiveProducts } from "~/domain/catalogue/catalogue.server";
import { adjustCoins, findLedgerDiscrepancies } from "~/domain/coins/coins.server";
import { type OrderFormInput } from "~/domain/orders/orders";
import { orderFormSchema } from "~/domain/orders/orders.schemas";
import { renewService } from "~/domain/hosting-services/renewal.server";
import { approveOrder, placeOrder } from "~/domain/orders/orders.server";
import { TEST_ADMIN } from "./test-database";

let counter = 0;

export async function adminId(app: AppServices): Promise<string> {
  const row = await app.db
    .selectFrom("users")
    .select("id")
    .where("email", "=", TEST_ADMIN.email)
    .executeTakeFirstOrThrow();
  return row.id;
}

/** A test's opening as the seed admin: the database and the admin's id (who does what the test does). */
export async function asAdmin(app: AppServices) {
  return { db: app.db, admin: await adminId(app) };
}

/** A fresh customer holding `coinsCents`, given through the ledger like any admin credit. */
export async function customerWithCoins(app: AppServices, coinsCents: number): Promise<string> {
  const email = `buyer${Date.now()}${counter++}@example.com`;
  const result = await registerCustomer(
    app,
    { name: "Buyer", email, password: "Buyer-pw-8842", confirmPassword: "Buyer-pw-8842" },
    { registrationOpen: true },
  );
  if (!result.ok) throw new Error(result.error);
  if (coinsCents > 0) {
    const credit = await adjustCoins(app.db, {
      userId: result.userId,
      amountCents: coinsCents,
      reason: "test credit",
      actorId: await adminId(app),
    });
    if (!credit.ok) throw new Error(credit.error);
  }
  return result.userId;
}

export async function productId(app: AppServices, slug: string): Promise<number> {
  const product = (await listActiveProducts(app.db)).find((p) => p.slug === slug);
  if (!product) throw new Error(`no product ${slug}`);
  return product.id;
}

type OrderOverrides = Partial<Record<keyof OrderFormInput, unknown>> & { productId: number };

export function orderInput(overrides: OrderOverrides): OrderFormInput {
  return orderFormSchema.parse({
    serverName: "Test server",
    idempotencyKey: randomUUID(),
    ...overrides,
  });
}

export async function balanceOf(app: AppServices, userId: string): Promise<number> {
  const row = await app.db
    .selectFrom("users")
    .select("coin_balance_cents")
    .where("id", "=", userId)
    .executeTakeFirstOrThrow();
  return row.coin_balance_cents;
}

/** The ids of `userId`'s orders, oldest first. */
export async function ordersOf(app: AppServices, userId: string) {
  return app.db
    .selectFrom("orders")
    .select("id")
    .where("user_id", "=", userId)
    .orderBy("id")
    .execute();
}

export async function expectLedgerIntact(app: AppServices): Promise<void> {
  const discrepancies = await findLedgerDiscrepancies(app.db);
  if (discrepancies.length)
    throw new Error(`ledger differs from balances: ${JSON.stringify(discrepancies)}`);
}

/** A suite's opening for money: after each of its tests, the ledger still matches every balance. */
export function expectLedgerIntactAfterEach(app: () => AppServices): void {
  afterEach(async () => {
    await expectLedgerIntact(app());
  });
}

/** `userId` orders the product `slug` from a fresh form: the outcome, a refusal included. */
export async function orderProduct(app: AppServices, userId: string, slug: string) {
  return placeOrder(app.db, userId, orderInput({ productId: await productId(app, slug) }));
}

/** Places an order that must go through, and returns it. */
export async function placedOrder(app: AppServices, userId: string, overrides: OrderOverrides) {
  const placed = await placeOrder(app.db, userId, orderInput(overrides));
  if (!placed.ok) throw new Error(placed.error);
  return placed.order;
}

/** Places an order and has the seed admin approve it: `approved.hostingServiceId` is running. */
export async function approvedOrder(app: AppServices, userId: string, overrides: OrderOverrides) {
  const placed = await placedOrder(app, userId, overrides);
  const approved = await approveOrder(app.db, { orderId: placed.id, actorId: await adminId(app) });
  if (!approved.ok) throw new Error(approved.error);
  return { placed, approved: approved.order };
}

/**
 * A fresh customer holding `coinsCents` who bought `slug` (SA-MP starter unless said otherwise), approved
 * by the seed admin: the customer's id and their running service's id.
 */
export async function customerWithRunningService(
  app: AppServices,
  coinsCents: number,
  slug = "samp-starter",
) {
  const user = await customerWithCoins(app, coinsCents);
  const { approved } = await approvedOrder(app, user, { productId: await productId(app, slug) });
  return { user, serviceId: approved.hostingServiceId! };
}

/** `userId` renews `serviceId` from a form of its own (a fresh key), as the services tab sends it. */
export function renewWithNewKey(app: AppServices, userId: string, serviceId: number) {
  return renewService(app.db, { userId, serviceId, idempotencyKey: randomUUID() });
}

/**
 * A voucher valid from yesterday to tomorrow for every plan: `percent` % off (or `fixedCents` off),
 * `maxUses` times, `usedCount` of them taken. Codes are stored upper case, as the form sends them.
 */
export async function insertVoucher(
  app: AppServices,
  code: string,
  terms: { percent?: number; fixedCents?: number; maxUses?: number; usedCount?: number },
): Promise<void> {
  const now = Date.now();
  await app.db
    .insertInto("vouchers")
    .values({
      code,
      description: "",
      discount_type: terms.fixedCents === undefined ? "percentage" : "fixed",
      discount_value: terms.fixedCents ?? terms.percent ?? 10,
      min_purchase_cents: 0,
      max_uses: terms.maxUses ?? 10,
      used_count: terms.usedCount ?? 0,
      is_active: 1,
      valid_from: new Date(now - 86_400_000).toISOString(),
      valid_until: new Date(now + 86_400_000).toISOString(),
      applicable_services: JSON.stringify("all"),
      created_at: new Date(now).toISOString(),
      updated_at: new Date(now).toISOString(),
    })
    .execute();
}

/**
 * `count` ledger entries of one cent for `userId`, dated by `at(index)`, written straight in, two
 * thousand a statement, with running balances and the balance set to match (the books still add up).
 * The account is expected to hold no coins before.
 */
export async function centEntries(
  app: AppServices,
  userId: string,
  count: number,
  at: (index: number) => string,
): Promise<void> {
  for (let start = 0; start < count; start += 2_000)
    await app.db
      .insertInto("coin_ledger")
      .values(
        Array.from({ length: Math.min(2_000, count - start) }, (_, k) => ({
          user_id: userId,
          amount_cents: 1,
          balance_after_cents: start + k + 1,
          kind: "admin_adjustment",
          reason: "bulk",
          created_at: at(start + k),
        })),
      )
      .execute();
  await app.db
    .updateTable("users")
    .set({ coin_balance_cents: count })
    .where("id", "=", userId)
    .execute();
}
