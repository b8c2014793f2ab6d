import { randomUUID } from "node:crypto";
import { describe, expect, it } from "vitest";
import { signIn } from "~/domain/accounts/accounts.server";
import { rejectOrder } from "~/domain/orders/orders.server";
import * as adminClients from "~/routes/admin/clients";
import * as adminTicket from "~/routes/admin/ticket";
import {
  adminId,
  balanceOf,
  customerWithCoins,
  expectLedgerIntact,
  placedOrder,
  productId,
} from "../../../tests/support/money-fixtures";
import { readRow, readRows } from "../../../tests/support/read-column";
import {
  contextFor,
  cookieHeader,
  postAction,
  routeArgs,
  settle,
} from "../../../tests/support/request-context";
import { refusal } from "../../../tests/support/results";
import { describeEachDatabase, TEST_ADMIN } from "../../../tests/support/test-database";
import { customerWithTicket } from "../../../tests/support/ticket-fixtures";
import { MAX_ADJUSTMENT_CENTS, MAX_BALANCE_CENTS } from "./coins";
import { adjustCoins, postLedgerEntry } from "./coins.server";

type Result = { data: { ok: boolean; message: string }; init: { status: number } | null };

describeEachDatabase("coin changes: idempotency keys and bounds", (app) => {
  const entriesOf = async (userId: string) =>
    (await app().db.selectFrom("coin_ledger").select("id").where("user_id", "=", userId).execute())
      .length;
  const auditsOf = async (userId: string) =>
    (await readRows(app().db, "audit_log", ["id"], { action: "coins.adjust", target_id: userId }))
      .length;

  it("changes the balance once for a key, however often the change is posted", async () => {
    const user = await customerWithCoins(app(), 0);
    const admin = await adminId(app());
    const change = {
      userId: user,
      amountCents: 2_500,
      reason: "goodwill",
      actorId: admin,
      idempotencyKey: randomUUID(),
    };
    const first = await adjustCoins(app().db, change);
    expect(first).toEqual({ ok: true, balanceCents: 2_500, appliedCents: 2_500, clamped: false });
    expect(await adjustCoins(app().db, change)).toEqual({ ...first, duplicate: true });
    // At the same moment, too: the ledger's unique key lets one through.
    const racing = { ...change, idempotencyKey: randomUUID() };
    const results = await Promise.all(
      Array.from({ length: 6 }, () => adjustCoins(app().db, racing)),
    );
    expect(results.every((result) => result.ok)).toBe(true);
    expect(await balanceOf(app(), user)).toBe(5_000);
    expect(await entriesOf(user)).toBe(2);
    expect(await auditsOf(user)).toBe(2);
    await expectLedgerIntact(app());
  });

  it("returns the first result of a removal down to 0, not 'no coins to remove'", async () => {
    const user = await customerWithCoins(app(), 300);
    const change = {
      userId: user,
      amountCents: -1_000,
      reason: "chargeback",
      actorId: await adminId(app()),
      idempotencyKey: randomUUID(),
    };
    const first = await adjustCoins(app().db, change);
    expect(first).toEqual({ ok: true, balanceCents: 0, appliedCents: -300, clamped: true });
    expect(await adjustCoins(app().db, change)).toMatchObject({ ok: true, appliedCents: -300 });
    expect(await balanceOf(app(), user)).toBe(0);
  });

  it("treats a key used for another customer as an expired form", async () => {
    const first = await customerWithCoins(app(), 0);
    const second = await customerWithCoins(app(), 0);
    const idempotencyKey = randomUUID();
    const admin = await adminId(app());
    await adjustCoins(app().db, {
      userId: first,
      amountCents: 100,
      reason: "r",
      actorId: admin,
      idempotencyKey,
    });
    expect(
      await adjustCoins(app().db, {
        userId: second,
        amountCents: 100,
        reason: "r",
        actorId: admin,
        idempotencyKey,
      }),
    ).toEqual(refusal("invalid", "coins.errors.formExpired"));
    expect(await balanceOf(app(), second)).toBe(0);
  });

  it("bounds the balance: credits within the limit reach the maximum and no further", async () => {
    const user = await customerWithCoins(app(), 0);
    const admin = await adminId(app());
    for (let i = 0; i < MAX_BALANCE_CENTS / MAX_ADJUSTMENT_CENTS; i++) {
      const credit = await adjustCoins(app().db, {
        userId: user,
        amountCents: MAX_ADJUSTMENT_CENTS,
        reason: `credit ${i}`,
        actorId: admin,
      });
      expect(credit.ok).toBe(true);
    }
    expect(await balanceOf(app(), user)).toBe(MAX_BALANCE_CENTS);
    expect(
      await adjustCoins(app().db, {
        userId: user,
        amountCents: 1,
        reason: "one more",
        actorId: admin,
      }),
    ).toEqual(refusal("conflict", "coins.errors.balanceTooHigh"));
    // The ledger step refuses it itself, whoever calls it.
    expect(
      await app()
        .db.transaction()
        .execute((trx) =>
          postLedgerEntry(trx, { userId: user, amountCents: 1, kind: "admin_adjustment" }),
        ),
    ).toBeNull();
    // And the database, for a write that goes round the step.
    await expect(
      app()
        .db.updateTable("users")
        .set({ coin_balance_cents: MAX_BALANCE_CENTS + 1 })
        .where("id", "=", user)
        .execute(),
    ).rejects.toThrow(/users_coin_balance_max/);
    // Removing still works at the maximum.
    expect(
      await adjustCoins(app().db, {
        userId: user,
        amountCents: -100,
        reason: "fix",
        actorId: admin,
      }),
    ).toMatchObject({ ok: true, balanceCents: MAX_BALANCE_CENTS - 100 });
    await expectLedgerIntact(app());
  });

  it("keeps an order pending when its refund would pass the maximum", async () => {
    const user = await customerWithCoins(app(), 10_000);
    const order = await placedOrder(app(), user, {
      productId: await productId(app(), "samp-premium"),
    });
    const admin = await adminId(app());
    for (let balance = await balanceOf(app(), user); balance < MAX_BALANCE_CENTS;) {
      const step = Math.min(MAX_ADJUSTMENT_CENTS, MAX_BALANCE_CENTS - balance);
      await adjustCoins(app().db, {
        userId: user,
        amountCents: step,
        reason: "fill",
        actorId: admin,
      });
      balance += step;
    }
    expect(
      await rejectOrder(app().db, { orderId: order.id, actorId: admin, reason: "no" }),
    ).toEqual(refusal("conflict", "coins.errors.balanceTooHigh"));
    const row = await readRow(app().db, "orders", ["status"], { id: order.id });
    expect(row.status).toBe("pending");
    await expectLedgerIntact(app());
  });

  describe("through the admin pages", () => {
    let cookie: string | undefined;
    const adminCookie = async () => {
      if (cookie) return cookie;
      const result = await signIn(
        app(),
        { email: TEST_ADMIN.email, password: TEST_ADMIN.password },
        { ip: "10.60.0.1" },
      );
      if (!result.ok) throw new Error("sign in failed");
      return (cookie = cookieHeader(result.setCookies));
    };
    const post = async (
      module: { action: (args: never) => unknown },
      path: string,
      fields: Record<string, string>,
      params: Record<string, string> = {},
    ) => postAction(app(), module, path, fields, { cookie: await adminCookie(), params });

    it("the clients page: a replayed post changes the coins once; no key, no change", async () => {
      const user = await customerWithCoins(app(), 0);
      const fields = { intent: "coins", userId: user, amount: "12.50", reason: "gift" };
      const missing = (await post(adminClients, "/admin/clients", fields)) as Result;
      expect(missing.init?.status).toBe(400);
      expect(missing.data.message).toBe("coins.errors.formExpired");
      const keyed = { ...fields, idempotencyKey: randomUUID() };
      for (let i = 0; i < 3; i++)
        expect(await post(adminClients, "/admin/clients", keyed)).toMatchObject({
          ok: true,
          message: "coins.admin.updated",
        });
      expect(await balanceOf(app(), user)).toBe(1_250);
      const loaded = (await settle(async () =>
        adminClients.loader(
          routeArgs({
            request: new Request("http://localhost/admin/clients", {
              headers: { cookie: await adminCookie() },
            }),
            context: await contextFor(app(), { cookie: await adminCookie() }),
            params: {},
          }),
        ),
      )) as { users: { id: string }[]; coinKeys: Record<string, string> };
      // Every row's form has its own key.
      const keys = loaded.users.map((row) => loaded.coinKeys[row.id]);
      expect(keys.every((key) => typeof key === "string" && key.length >= 16)).toBe(true);
      expect(new Set(keys).size).toBe(keys.length);
    });

    it("a ticket's credit: the client page's bound, once per key, never a server error", async () => {
      const { owner: user, ticket } = await customerWithTicket(app(), { department: "billing" });
      const path = `/admin/tickets/${ticket.id}`;
      const params = { id: String(ticket.id) };
      const credit = (amount: string, idempotencyKey = randomUUID()) =>
        post(adminTicket, path, { intent: "coins", amount, idempotencyKey }, params);

      // 999,999,999 coins once overflowed PostgreSQL's integer (a 500); now a clear refusal.
      for (const amount of ["999999999", "1000000.01", "-5", "0", "abc"]) {
        const refused = (await credit(amount)) as Result;
        expect(refused.init?.status, amount).toBe(400);
        expect(refused.data.message, amount).toBe("coins.errors.creditInvalid");
      }
      const noKey = (await post(
        adminTicket,
        path,
        { intent: "coins", amount: "5" },
        params,
      )) as Result;
      expect(noKey.data.message).toBe("coins.errors.formExpired");
      expect(await balanceOf(app(), user)).toBe(0);

      const key = randomUUID();
      // The first post credits and says so (a payment, with its receipt: a form without the choice); a
      // replay of its key credits nothing and says what the first did.
      for (let i = 0; i < 3; i++)
        expect(await credit("1000000", key)).toMatchObject({
          ok: true,
          message:
            i === 0 ? "tickets.admin.coinsAddedWithReceipt" : "tickets.admin.coinsAlreadyAdded",
          amountCents: MAX_ADJUSTMENT_CENTS,
          balanceCents: MAX_ADJUSTMENT_CENTS,
        });
      expect(await balanceOf(app(), user)).toBe(MAX_ADJUSTMENT_CENTS);
      expect(await entriesOf(user)).toBe(1);
      await expectLedgerIntact(app());
    });
  });
});
