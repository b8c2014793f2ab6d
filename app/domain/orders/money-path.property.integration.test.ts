import { randomUUID } from "node:crypto";
import fc from "fast-check";
import { expect, it } from "vitest";
import { adjustCoins } from "~/domain/coins/coins.server";
import {
  changeServiceStatus,
  renewService,
} from "~/domain/hosting-services/hosting-services.server";
import { listActiveProducts } from "~/domain/catalogue/catalogue.server";
import {
  adminId,
  customerWithCoins,
  expectLedgerIntact,
  orderInput,
} from "../../../tests/support/money-fixtures";
import { describeEachDatabase } from "../../../tests/support/test-database";
import { approveOrder, placeOrder, rejectOrder } from "./orders.server";

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
  }),
  fc.record({ kind: fc.constantFrom("approve" as const, "reject" as const), order: fc.nat() }),
  fc.record({ kind: fc.constant("renew" as const), service: fc.nat(), sameKeyTwice: fc.boolean() }),
  fc.record({
    kind: fc.constantFrom("suspend" as const, "reactivate" as const, "terminate" as const),
    service: fc.nat(),
  }),
);

describeEachDatabase("money path under random sequences", (app) => {
  it("keeps every invariant after every step", async () => {
    const admin = await adminId(app());
    const products = await listActiveProducts(app().db);
    const users = [
      await customerWithCoins(app(), 3000),
      await customerWithCoins(app(), 0),
      await customerWithCoins(app(), 20_000),
    ];

    await fc.assert(
      fc.asyncProperty(fc.array(op, { minLength: 5, maxLength: 25 }), async (ops) => {
        const orders = await app()
          .db.selectFrom("orders")
          .select(["id", "user_id"])
          .where("user_id", "in", users)
          .execute();
        const services = () =>
          app()
            .db.selectFrom("hosting_services")
            .select(["id", "user_id", "status"])
            .where("user_id", "in", users)
            .execute();
        const terminated = new Set(
          (await services()).filter((s) => s.status === "terminated").map((s) => Number(s.id)),
        );
        const decided = new Map<number, string>();

        for (const step of ops) {
          switch (step.kind) {
            case "adjust":
              await adjustCoins(app().db, {
                userId: users[step.user % users.length]!,
                amountCents: step.amount,
                reason: "property",
                actorId: admin,
              });
              break;
            case "order": {
              const result = await placeOrder(
                app().db,
                users[step.user % users.length]!,
                orderInput({
                  productId: products[step.product % products.length]!.id,
                  billingCycle: step.cycle,
                  voucherCode: step.voucher ? "WELCOME10" : undefined,
                }),
              );
              if (result.ok) orders.push({ id: result.order.id, user_id: result.order.userId });
              break;
            }
            case "approve":
            case "reject": {
              const order = orders[step.order % Math.max(orders.length, 1)];
              if (!order) break;
              const id = Number(order.id);
              const result =
                step.kind === "approve"
                  ? await approveOrder(app().db, { orderId: id, actorId: admin })
                  : await rejectOrder(app().db, {
                      orderId: id,
                      actorId: admin,
                      reason: "property",
                    });
              if (result.ok) {
                // No order is decided twice.
                expect(decided.has(id)).toBe(false);
                decided.set(id, step.kind);
              }
              break;
            }
            case "renew": {
              const list = await services();
              const service = list[step.service % Math.max(list.length, 1)];
              if (!service) break;
              const key = randomUUID();
              await renewService(app().db, {
                userId: service.user_id,
                serviceId: Number(service.id),
                idempotencyKey: key,
              });
              if (step.sameKeyTwice)
                await renewService(app().db, {
                  userId: service.user_id,
                  serviceId: Number(service.id),
                  idempotencyKey: key,
                });
              break;
            }
            default: {
              const list = await services();
              const service = list[step.service % Math.max(list.length, 1)];
              if (!service) break;
              const result = await changeServiceStatus(app().db, {
                actorId: admin,
                serviceId: Number(service.id),
                action: step.kind,
              });
              if (result.ok && result.service.status === "terminated")
                terminated.add(result.service.id);
            }
          }

          // After every step: no negative balance, ledger equals balances, terminated stays terminated.
          const negative = await app()
            .db.selectFrom("users")
            .select("id")
            .where("coin_balance_cents", "<", 0)
            .execute();
          expect(negative).toHaveLength(0);
          await expectLedgerIntact(app());
          const now = await services();
          for (const id of terminated)
            expect(now.find((s) => Number(s.id) === id)?.status ?? "terminated").toBe("terminated");
        }
        // Every decided order carries exactly one decision in the audit log.
        for (const id of decided.keys()) {
          const entries = await app()
            .db.selectFrom("audit_log")
            .select("action")
            .where("target_type", "=", "order")
            .where("target_id", "=", String(id))
            .execute();
          expect(entries).toHaveLength(1);
        }
      }),
      { numRuns: 12 },
    );
  }, 120_000);
});
