import { randomUUID } from "node:crypto";
import fc from "fast-check";
import { expect, it } from "vitest";
import { adjustCoins } from "~/domain/coins/coins.server";
import { changeServiceStatus } from "~/domain/hosting-services/admin-changes.server";
import { renewService } from "~/domain/hosting-services/renewal.server";
import { listActiveProducts } from "~/domain/catalogue/catalogue.server";
import {
  adminId,
  approvedOrder,
  customerWithCoins,
  expectLedgerIntact,
  orderInput,
} from "../../../tests/support/money-fixtures";
import { readRows } from "../../../tests/support/read-column";
import { atOnce, describeEachDatabase } from "../../../tests/support/test-database";
import { approveOrder, placeOrder, rejectOrder } from "./orders.server";

/**
 * Runs of `npm test` stay short; MONEY_PATH_RUNS=200 (say) is a soak. Each run is one batch of operations
 * started in an order fast-check's scheduler picks and then left to run at once: on PostgreSQL over the
 * pool's several connections, on SQLite through the process's one write connection (real concurrency
 * across processes on SQLite is tests/integration/cross-process-races.test.ts).
 */
const RUNS = Number(process.env.MONEY_PATH_RUNS ?? 12);

const op = fc.oneof(
  fc.record({
    kind: fc.constant("adjust" as const),
    user: fc.nat(),
    amount: fc.integer({ min: -5000, max: 5000 }).filter((n) => n !== 0),
  }),
  fc.record({
    kind: fc.constant("order" as const),
    user: fc.nat(),
    product: fc.nat(),
    cycle: fc.constantFrom("monthly", "quarterly", "semiannual", "annual"),
    voucher: fc.boolean(),
    sameKeyTwice: fc.boolean(),
  }),
  fc.record({ kind: fc.constantFrom("approve" as const, "reject" as const), order: fc.nat() }),
  fc.record({ kind: fc.constant("renew" as const), service: fc.nat(), sameKeyTwice: fc.boolean() }),
  fc.record({
    kind: fc.constantFrom("suspend" as const, "reactivate" as const, "terminate" as const),
    service: fc.nat(),
  }),
);

describeEachDatabase("money path under random interleavings", (app, dialect) => {
  it(
    atOnce(
      dialect,
      "charges every order and renewal its price exactly once, whatever runs at the same time",
    ),
    async () => {
      const admin = await adminId(app());
      const products = await listActiveProducts(app().db);
      const users = [
        await customerWithCoins(app(), 3000),
        await customerWithCoins(app(), 0),
        await customerWithCoins(app(), 20_000),
      ];
      // Something to decide and renew from the first run on.
      await approvedOrder(app(), users[2]!, { productId: products[0]!.id });
      await placeOrder(app().db, users[2]!, orderInput({ productId: products[0]!.id }));

      /** Orders decided by any run: an order is approved or rejected once, ever. */
      const decided = new Map<number, string>();
      const terminated = new Set<number>();

      await fc.assert(
        fc.asyncProperty(
          fc.scheduler(),
          fc.array(op, { minLength: 4, maxLength: 16 }),
          async (s, ops) => {
            const db = app().db;
            const orders = await db
              .selectFrom("orders")
              .select("id")
              .where("user_id", "in", users)
              .execute();
            const services = await db
              .selectFrom("hosting_services")
              .select(["id", "user_id"])
              .where("user_id", "in", users)
              .execute();
            /** Order keys and renewal keys used in this run, with every answer they got. */
            const orderAnswers = new Map<string, { id?: number }[]>();
            const renewAnswers = new Map<string, { duplicate?: boolean }[]>();

            const perform = async (step: (typeof ops)[number]) => {
              switch (step.kind) {
                case "adjust":
                  await adjustCoins(db, {
                    userId: users[step.user % users.length]!,
                    amountCents: step.amount,
                    reason: "property",
                    actorId: admin,
                  });
                  return;
                case "order": {
                  const input = orderInput({
                    productId: products[step.product % products.length]!.id,
                    billingCycle: step.cycle,
                    voucherCode: step.voucher ? "WELCOME10" : undefined,
                  });
                  const userId = users[step.user % users.length]!;
                  const answers: { id?: number }[] = [];
                  orderAnswers.set(input.idempotencyKey, answers);
                  // The same form sent twice at once (a double click).
                  const results = await Promise.all(
                    times(step.sameKeyTwice ? 2 : 1, () => placeOrder(db, userId, input)),
                  );
                  for (const r of results) if (r.ok) answers.push({ id: r.order.id });
                  return;
                }
                case "approve":
                case "reject": {
                  const order = orders[step.order % Math.max(orders.length, 1)];
                  if (!order) return;
                  const id = Number(order.id);
                  const result =
                    step.kind === "approve"
                      ? await approveOrder(db, { orderId: id, actorId: admin })
                      : await rejectOrder(db, { orderId: id, actorId: admin, reason: "property" });
                  if (result.ok) {
                    expect(decided.get(id), `order ${id} decided twice`).toBeUndefined();
                    decided.set(id, step.kind);
                  }
                  return;
                }
                case "renew": {
                  const service = services[step.service % Math.max(services.length, 1)];
                  if (!service) return;
                  const key = randomUUID();
                  const answers: { duplicate?: boolean }[] = [];
                  renewAnswers.set(key, answers);
                  const results = await Promise.all(
                    times(step.sameKeyTwice ? 2 : 1, () =>
                      renewService(db, {
                        userId: service.user_id,
                        serviceId: Number(service.id),
                        idempotencyKey: key,
                      }),
                    ),
                  );
                  for (const r of results) if (r.ok) answers.push({ duplicate: r.duplicate });
                  return;
                }
                default: {
                  const service = services[step.service % Math.max(services.length, 1)];
                  if (!service) return;
                  const result = await changeServiceStatus(db, {
                    actorId: admin,
                    serviceId: Number(service.id),
                    action: step.kind,
                  });
                  if (result.ok && result.service.status === "terminated")
                    terminated.add(result.service.id);
                }
              }
            };

            // The scheduler picks the order the operations start in; none waits for another to finish.
            const running = ops.map((step, i) =>
              s
                .schedule(Promise.resolve(i), `${i}: ${JSON.stringify(step)}`)
                .then(() => perform(step)),
            );
            await s.waitAll();
            await Promise.all(running);

            await expectInvariants(orderAnswers, renewAnswers);
          },
        ),
        { numRuns: RUNS },
      );

      async function expectInvariants(
        orderAnswers: Map<string, { id?: number }[]>,
        renewAnswers: Map<string, { duplicate?: boolean }[]>,
      ) {
        const db = app().db;
        const negative = await db
          .selectFrom("users")
          .select("id")
          .where("coin_balance_cents", "<", 0)
          .execute();
        expect(negative).toHaveLength(0);
        // Each balance is the sum of its ledger.
        await expectLedgerIntact(app());

        // Every order: paid once, exactly its total; refunded once, exactly its total, if and only if
        // it was rejected.
        const orders = await db
          .selectFrom("orders")
          .select(["id", "total_cents", "status", "idempotency_key"])
          .where("user_id", "in", users)
          .execute();
        const ledger = await db
          .selectFrom("coin_ledger")
          .select(["kind", "amount_cents", "order_id", "hosting_service_id"])
          .where("user_id", "in", users)
          .execute();
        for (const order of orders) {
          const id = Number(order.id);
          const of = (kind: string) =>
            ledger.filter((e) => e.order_id === id && e.kind === kind).map((e) => e.amount_cents);
          const total = order.total_cents;
          expect(of("order_payment"), `payments of order ${id}`).toEqual(total > 0 ? [-total] : []);
          expect(of("order_refund"), `refunds of order ${id}`).toEqual(
            order.status === "rejected" && total > 0 ? [total] : [],
          );
          if (decided.has(id))
            expect(order.status).toBe(decided.get(id) === "approve" ? "approved" : "rejected");
        }
        // An order form's key made one order, and every answer to it named that order.
        for (const [key, answers] of orderAnswers) {
          const made = orders.filter((o) => o.idempotency_key === key).map((o) => Number(o.id));
          expect(made.length, `orders of key ${key}`).toBeLessThanOrEqual(1);
          for (const answer of answers) expect(answer.id).toBe(made[0]);
        }

        // Every service: one renewal debit of its cycle price per renewal row, nothing more or less.
        const services = await db
          .selectFrom("hosting_services")
          .select(["id", "status", "cycle_price_cents"])
          .where("user_id", "in", users)
          .execute();
        const renewals = await db
          .selectFrom("service_renewals")
          .select(["hosting_service_id", "amount_cents", "idempotency_key"])
          .where("user_id", "in", users)
          .execute();
        for (const service of services) {
          const id = Number(service.id);
          const rows = renewals.filter((r) => r.hosting_service_id === id);
          for (const row of rows) expect(row.amount_cents).toBe(service.cycle_price_cents);
          const debits = ledger
            .filter((e) => e.hosting_service_id === id && e.kind === "renewal")
            .map((e) => e.amount_cents);
          expect(debits, `renewal debits of service ${id}`).toEqual(
            service.cycle_price_cents > 0 ? rows.map((r) => -r.amount_cents) : [],
          );
          if (terminated.has(id)) expect(service.status).toBe("terminated");
        }
        // A renewal key renewed once: at most one first answer, and a row if anything was answered ok.
        for (const [key, answers] of renewAnswers) {
          const rows = renewals.filter((r) => r.idempotency_key === key);
          expect(answers.filter((a) => !a.duplicate).length).toBeLessThanOrEqual(1);
          expect(rows).toHaveLength(answers.length > 0 ? 1 : 0);
        }
        // Every decided order carries exactly one decision in the audit log.
        for (const id of decided.keys()) {
          const entries = await readRows(db, "audit_log", ["action"], {
            target_type: "order",
            target_id: String(id),
          });
          expect(entries).toHaveLength(1);
        }
      }
    },
    120_000,
  );
});

function times<T>(n: number, make: (i: number) => T): T[] {
  return Array.from({ length: n }, (_, i) => make(i));
}
