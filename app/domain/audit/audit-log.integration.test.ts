import { sql } from "kysely";
import { expect, it } from "vitest";
import { updateUserByAdmin } from "~/domain/accounts/user-admin.server";
import { adjustCoins } from "~/domain/coins/coins.server";
import { LEDGER_TOTALS_LIMIT } from "~/domain/coins/ledger-report";
import { listLedgerForAdmin } from "~/domain/coins/ledger-report.server";
import { rejectOrder } from "~/domain/orders/orders.server";
import { provisionAdmin } from "~/domain/accounts/accounts.server";
import {
  asAdmin,
  centEntries,
  customerWithCoins,
  placedOrder,
  productId,
} from "../../../tests/support/money-fixtures";
import { readRow, readRows } from "../../../tests/support/read-column";
import { describeEachDatabase, TEST_ADMIN } from "../../../tests/support/test-database";
import { auditLogQuerySchema } from "./audit-log.schemas";
import { auditLogVocabulary, listAuditLog } from "./audit-log.server";

const all = { page: 1, pageSize: 100 };

describeEachDatabase("audit log and coin ledger for admins", (app) => {
  /** The ledger page's totals for `entries` credits of one cent each. */
  const centCredits = (entries: number) => ({
    capped: false,
    entries,
    netCents: entries,
    creditsCents: entries,
    debitsCents: 0,
  });
  const setBalance = (userId: string, cents: number) =>
    app()
      .db.updateTable("users")
      .set({ coin_balance_cents: cents })
      .where("id", "=", userId)
      .execute();

  it("lists the audit log newest first, filtered by actor, action and target", async () => {
    const { db, admin } = await asAdmin(app());
    const second = await provisionAdmin(app(), {
      email: "second-admin@example.com",
      password: "Second-admin-pw-77",
      name: "Second Admin",
    });
    expect(second.status).toBe("created");
    const secondId = (await readRow(db, "users", ["id"], { email: "second-admin@example.com" })).id;

    const customer = await customerWithCoins(app(), 2_000);
    const email = (await readRow(db, "users", ["email"], { id: customer })).email;
    await adjustCoins(db, {
      userId: customer,
      amountCents: -500,
      reason: "typo",
      actorId: secondId,
    });
    await updateUserByAdmin(db, {
      userId: customer,
      name: "Renamed Buyer",
      email,
      actorId: secondId,
    });

    const { entries } = await listAuditLog(db, all);
    expect(entries.map((e) => e.id)).toEqual([...entries.map((e) => e.id)].sort((a, b) => b - a));
    expect(entries[0]).toMatchObject({
      action: "user.update",
      actorEmail: "second-admin@example.com",
      targetType: "user",
      targetId: customer,
      targetName: "Renamed Buyer",
      targetEmail: email,
    });

    const byActor = await listAuditLog(db, { ...all, actor: "SECOND-admin" });
    expect(byActor.entries.map((e) => e.action)).toEqual(["user.update", "coins.adjust"]);
    const byActorName = await listAuditLog(db, { ...all, actor: "second admin" });
    expect(byActorName.entries).toHaveLength(2);
    const byMainAdmin = await listAuditLog(db, { ...all, actor: TEST_ADMIN.email });
    expect(byMainAdmin.entries.every((e) => e.actorEmail === TEST_ADMIN.email)).toBe(true);
    expect(byMainAdmin.entries.length).toBeGreaterThan(0);

    const byAction = await listAuditLog(db, { ...all, action: "coins.adjust" });
    expect(byAction.entries.every((e) => e.action === "coins.adjust")).toBe(true);
    expect(byAction.entries.map((e) => e.reason)).toEqual(["typo", "test credit"]);
    const byPrefix = await listAuditLog(db, { ...all, action: "user." });
    expect(byPrefix.entries.map((e) => e.action)).toEqual(["user.update"]);

    const byTargetEmail = await listAuditLog(db, { ...all, target: email.toUpperCase() });
    expect(byTargetEmail.entries).toHaveLength(3);
    const byTargetName = await listAuditLog(db, { ...all, target: "renamed" });
    expect(byTargetName.entries).toHaveLength(3);
    const byTargetId = await listAuditLog(db, { ...all, targetType: "user", target: customer });
    expect(byTargetId.entries).toHaveLength(3);
    const none = await listAuditLog(db, { ...all, targetType: "order" });
    expect(none.entries).toEqual([]);

    const combined = await listAuditLog(db, {
      ...all,
      actor: "second",
      action: "coins.adjust",
      target: email,
    });
    expect(combined.entries).toHaveLength(1);

    const paged = await listAuditLog(db, { page: 1, pageSize: 2 });
    expect(paged).toMatchObject({ hasMore: true });
    expect(paged.entries).toHaveLength(2);
    const vocabulary = await auditLogVocabulary(db);
    expect(vocabulary.actions).toEqual(["coins.adjust", "user.update"]);
    expect(vocabulary.targetTypes).toEqual(["user"]);
    expect(admin).not.toBe(secondId);
  });

  it("reads a filter from the query string, ignoring what does not parse", () => {
    expect(
      auditLogQuerySchema.parse({
        actor: "a@b.c",
        action: "coins.adjust",
        targetType: "user",
        page: "2",
      }),
    ).toEqual({ actor: "a@b.c", action: "coins.adjust", targetType: "user", page: 2 });
    expect(
      auditLogQuerySchema.parse({ action: "drop table;", targetType: "nope", page: "-1" }),
    ).toEqual({ page: 1 });
  });

  it("lists every customer's ledger, filtered by customer, kind and dates, with totals", async () => {
    const { db, admin } = await asAdmin(app());
    const tag = `ledger${Date.now()}`;
    const alice = await customerWithCoins(app(), 0);
    const bob = await customerWithCoins(app(), 0);
    const rename = async (id: string, who: string) =>
      db
        .updateTable("users")
        .set({ email: `${who}-${tag}@example.com` })
        .where("id", "=", id)
        .execute();
    await rename(alice, "alice");
    await rename(bob, "bob");
    await adjustCoins(db, { userId: alice, amountCents: 3_000, reason: "gift", actorId: admin });
    await adjustCoins(db, { userId: bob, amountCents: 1_000, reason: "gift", actorId: admin });
    const placed = await placedOrder(app(), alice, {
      productId: await productId(app(), "samp-starter"),
    });
    await rejectOrder(db, { orderId: placed.id, actorId: admin, reason: "no stock" });

    const mine = await listLedgerForAdmin(db, { ...all, customer: tag });
    expect(mine.entries.map((e) => [e.userEmail.split("-")[0], e.kind, e.amountCents])).toEqual([
      ["alice", "order_refund", placed.totalCents],
      ["alice", "order_payment", -placed.totalCents],
      ["bob", "admin_adjustment", 1_000],
      ["alice", "admin_adjustment", 3_000],
    ]);
    expect(mine.totals).toEqual({
      capped: false,
      entries: 4,
      netCents: 4_000,
      creditsCents: 4_000 + placed.totalCents,
      debitsCents: -placed.totalCents,
    });
    expect(mine.entries[0]).toMatchObject({ orderId: placed.id });
    expect(mine.entries[3]).toMatchObject({ reason: "gift", actorEmail: TEST_ADMIN.email });

    // Two characters: too short for the trigram index, so every row's account is checked instead.
    const short = await listLedgerForAdmin(db, { ...all, customer: "-L" });
    expect(short.entries.every((e) => e.userEmail.includes("-l"))).toBe(true);
    expect(
      short.entries.filter((e) => e.userEmail.endsWith(`${tag}@example.com`)).map((e) => e.id),
    ).toEqual(mine.entries.map((e) => e.id));
    expect(short.totals).toMatchObject({ capped: false, entries: short.entries.length });

    const alices = await listLedgerForAdmin(db, { ...all, customer: `ALICE-${tag}` });
    expect(alices.totals).toMatchObject({ entries: 3, netCents: 3_000 });
    const payments = await listLedgerForAdmin(db, { ...all, customer: tag, kind: "order_payment" });
    expect(payments.totals).toMatchObject({ entries: 1, netCents: -placed.totalCents });

    // Dates: move Bob's credit to last year; the range includes both of its days.
    await db
      .updateTable("coin_ledger")
      .set({ created_at: "2025-03-10T23:59:59.000Z" })
      .where("user_id", "=", bob)
      .execute();
    const march = await listLedgerForAdmin(db, {
      ...all,
      customer: tag,
      from: "2025-03-10",
      to: "2025-03-10",
    });
    expect(march.entries.map((e) => e.userEmail.split("-")[0])).toEqual(["bob"]);
    const since = await listLedgerForAdmin(db, { ...all, customer: tag, from: "2025-03-11" });
    expect(since.totals.entries).toBe(3);
    const until = await listLedgerForAdmin(db, { ...all, customer: tag, to: "2025-03-09" });
    expect(until.totals).toEqual(centCredits(0));

    // Paged on the server; the totals still cover every match.
    const page = await listLedgerForAdmin(db, { customer: tag, page: 1, pageSize: 3 });
    expect(page.entries).toHaveLength(3);
    expect(page.hasMore).toBe(true);
    expect(page.totals.entries).toBe(4);
    const last = await listLedgerForAdmin(db, { customer: tag, page: 2, pageSize: 3 });
    expect(last.entries.map((e) => e.userEmail.split("-")[0])).toEqual(["alice"]);
    expect(last.hasMore).toBe(false);
  });

  it("adds up a customer's entries exactly at any size; a text many accounts share stops at LEDGER_TOTALS_LIMIT", async () => {
    const db = app().db;
    const tag = `many${Date.now()}`;
    const customer = await customerWithCoins(app(), 0);
    await db
      .updateTable("users")
      .set({ email: `${tag}@example.com` })
      .where("id", "=", customer)
      .execute();
    // One cent more than the limit, written straight in with running balances so the books still add up.
    const count = LEDGER_TOTALS_LIMIT + 1;
    const day = (i: number) => (i < count - 5 ? "2025-01-01" : "2025-02-01");
    await centEntries(app(), customer, count, (i) => `${day(i)}T12:00:00.000Z`);

    const everything = await listLedgerForAdmin(db, { ...all, customer: tag });
    expect(everything.totals).toEqual(centCredits(count));
    expect(everything.entries).toHaveLength(100);
    expect(everything.hasMore).toBe(true);
    const february = await listLedgerForAdmin(db, { ...all, customer: tag, from: "2025-02-01" });
    expect(february.totals).toEqual(centCredits(5));
    const none = await listLedgerForAdmin(db, { ...all, customer: tag, kind: "renewal" });
    expect(none.totals).toMatchObject({ capped: false, entries: 0 });

    // Two characters are too short for the trigram index: every account may match, so past the limit the
    // page says so rather than add up a million joined rows on every view.
    const broad = await listLedgerForAdmin(db, { ...all, customer: tag.slice(0, 2) });
    expect(broad.totals).toEqual({ capped: true, entries: LEDGER_TOTALS_LIMIT });
    expect(broad.entries).toHaveLength(100);
  });

  it("adds up the whole ledger exactly by kind and dates, closed days summed once and again when an entry moves into them", async () => {
    const db = app().db;
    const customer = await customerWithCoins(app(), 0);
    let balance = 0;
    const write = async (created_at: string, amount_cents: number, kind: string) => {
      balance += amount_cents;
      await db
        .insertInto("coin_ledger")
        .values({
          user_id: customer,
          amount_cents,
          balance_after_cents: balance,
          kind,
          reason: "dated",
          created_at,
        })
        .execute();
      await setBalance(customer, balance);
    };
    await write("2024-06-01T00:00:00.000Z", 5_000, "admin_adjustment");
    await write("2024-06-01T23:59:59.999Z", -1_200, "order_payment");
    await write("2024-06-03T10:00:00.000Z", 700, "order_refund");
    await write("2024-06-09T08:00:00.000Z", -300, "renewal");
    await write("2024-06-10T08:00:00.000Z", 2_000, "admin_adjustment");
    // "Now" is the 10th: the 9th and the 10th are open, the days before are closed and summed once.
    const now = new Date("2024-06-10T12:00:00.000Z");

    const expected = async (filter: { kind?: string; from?: string; to?: string }) => {
      let query = db
        .selectFrom("coin_ledger")
        .select([
          sql<number>`count(*)`.as("entries"),
          sql<number>`coalesce(sum(case when amount_cents > 0 then amount_cents else 0 end), 0)`.as(
            "credits",
          ),
          sql<number>`coalesce(sum(case when amount_cents < 0 then amount_cents else 0 end), 0)`.as(
            "debits",
          ),
        ]);
      if (filter.kind) query = query.where("kind", "=", filter.kind);
      if (filter.from) query = query.where("created_at", ">=", `${filter.from}T00:00:00.000Z`);
      if (filter.to) {
        const next = new Date(`${filter.to}T00:00:00.000Z`);
        next.setUTCDate(next.getUTCDate() + 1);
        query = query.where("created_at", "<", next.toISOString());
      }
      const row = await query.executeTakeFirstOrThrow();
      return {
        capped: false,
        entries: Number(row.entries),
        netCents: Number(row.credits) + Number(row.debits),
        creditsCents: Number(row.credits),
        debitsCents: Number(row.debits),
      };
    };
    const filters = [
      {},
      { kind: "admin_adjustment" as const },
      { kind: "order_payment" as const, from: "2024-06-01", to: "2024-06-01" },
      { from: "2024-06-02" },
      { to: "2024-06-02" },
      { from: "2024-06-03", to: "2024-06-09" },
      { from: "2024-06-09" },
      { from: "2024-06-11" },
      { from: "2024-06-05", to: "2024-06-04" },
      { from: "1990-01-01", to: "2030-12-31" },
    ];
    const check = async () => {
      for (const filter of filters)
        expect(
          (await listLedgerForAdmin(db, { ...all, ...filter }, now)).totals,
          JSON.stringify(filter),
        ).toEqual(await expected(filter));
    };
    await check();
    const summed = await db
      .selectFrom("ledger_days")
      .select("day")
      .where("day", ">=", "2024-06-01")
      .where("day", "<=", "2024-06-30")
      .orderBy("day")
      .execute();
    expect(summed.map((row) => row.day)).toEqual([
      "2024-06-01",
      "2024-06-02",
      "2024-06-03",
      "2024-06-04",
      "2024-06-05",
      "2024-06-06",
      "2024-06-07",
      "2024-06-08",
    ]);
    const june1 = await readRows(
      db,
      "ledger_day_totals",
      ["kind", "entries", "credits_cents", "debits_cents"],
      { day: "2024-06-01" },
      "kind",
    );
    expect(june1.map((row) => [row.kind, Number(row.entries)])).toEqual(
      expect.arrayContaining([
        ["admin_adjustment", expect.any(Number)],
        ["order_payment", expect.any(Number)],
      ]),
    );

    // An entry written into a closed day, and one moved from a closed day to another: both days are
    // summed again, and the totals still equal the ledger's.
    await write("2024-06-02T09:00:00.000Z", 400, "admin_adjustment");
    await db
      .updateTable("coin_ledger")
      .set({ created_at: "2024-06-05T09:00:00.000Z" })
      .where("user_id", "=", customer)
      .where("kind", "=", "order_refund")
      .execute();
    await check();
    // A second look reads the sums again and finds the same.
    await check();
  });
});
