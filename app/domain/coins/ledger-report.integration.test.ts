import { sql } from "kysely";
import { expect, it } from "vitest";
import { centEntries, customerWithCoins } from "../../../tests/support/money-fixtures";
import { describeEachDatabase } from "../../../tests/support/test-database";
import { LEDGER_TOTALS_LIMIT } from "./ledger-report";
import { listLedgerForAdmin } from "./ledger-report.server";

const all = { page: 1, pageSize: 100 };

/** The coin ledger report's totals at their edges (the filters themselves: audit-log.integration.test.ts). */
describeEachDatabase("the coin ledger report's totals", (app) => {
  /** A customer with `count` entries of one cent dated `at`, running balances kept. */
  async function customerWithEntries(
    email: string,
    name: string,
    count: number,
    at: (index: number) => string,
  ) {
    const db = app().db;
    const user = await customerWithCoins(app(), 0);
    await db.updateTable("users").set({ email, name }).where("id", "=", user).execute();
    await centEntries(app(), user, count, at);
    return user;
  }

  /** The whole ledger's totals, read from the ledger itself. */
  async function ledgerSums() {
    const row = await app()
      .db.selectFrom("coin_ledger")
      .select([
        sql<number>`count(*)`.as("entries"),
        sql<number>`coalesce(sum(amount_cents), 0)`.as("net"),
      ])
      .executeTakeFirstOrThrow();
    return { entries: Number(row.entries), netCents: Number(row.net) };
  }

  it("sums a closed day again when its only entry moves out of it, leaving it empty", async () => {
    const db = app().db;
    const user = await customerWithEntries("emptied-day@example.com", "Emptied Day", 2, (index) =>
      index === 0 ? "2023-03-03T10:00:00.000Z" : "2023-03-10T10:00:00.000Z",
    );
    const now = new Date("2023-04-01T12:00:00.000Z");
    const before = await listLedgerForAdmin(
      db,
      { ...all, from: "2023-03-01", to: "2023-03-31" },
      now,
    );
    expect(before.totals).toMatchObject({ capped: false, entries: 2, netCents: 2 });
    // Its only entry leaves the 3rd for the 10th: both days are summed again, the 3rd to nothing.
    await db
      .updateTable("coin_ledger")
      .set({ created_at: "2023-03-10T11:00:00.000Z" })
      .where("user_id", "=", user)
      .where("created_at", "=", "2023-03-03T10:00:00.000Z")
      .execute();
    const after = await listLedgerForAdmin(
      db,
      { ...all, from: "2023-03-01", to: "2023-03-31" },
      now,
    );
    expect(after.totals).toMatchObject({ capped: false, entries: 2, netCents: 2 });
    const third = await listLedgerForAdmin(
      db,
      { ...all, from: "2023-03-03", to: "2023-03-03" },
      now,
    );
    expect(third.totals).toMatchObject({ capped: false, entries: 0, netCents: 0 });
    expect((await listLedgerForAdmin(db, all)).totals).toMatchObject(await ledgerSums());
  });

  it("writes the days of a span of exactly 500 days, one batch's worth, once each", async () => {
    const db = app().db;
    await customerWithEntries(
      "five-hundred@example.com",
      "Span",
      1,
      () => "2021-01-01T08:00:00.000Z",
    );
    const now = new Date("2023-06-01T12:00:00.000Z");
    const span = { ...all, from: "2021-01-01", to: "2022-05-15" };
    expect((await listLedgerForAdmin(db, span, now)).totals).toMatchObject({
      entries: 1,
      netCents: 1,
    });
    const days = await db
      .selectFrom("ledger_days")
      .select((eb) => eb.fn.countAll<number>().as("days"))
      .where("day", ">=", span.from)
      .where("day", "<=", span.to)
      .executeTakeFirstOrThrow();
    expect(Number(days.days)).toBe(500);
  });

  it("counts exactly LEDGER_TOTALS_LIMIT entries of a broad text, and matches emails, not names", async () => {
    const db = app().db;
    await customerWithEntries("zqn-limit@example.com", "Limit", LEDGER_TOTALS_LIMIT, () =>
      new Date().toISOString(),
    );
    // Named like the text, with an email that is not: neither listed nor counted.
    await customerWithEntries("named-only@example.com", "Zqn Named", 3, () =>
      new Date().toISOString(),
    );
    // Two characters: too short to look the accounts up, so each row's email is checked.
    const broad = await listLedgerForAdmin(db, { ...all, customer: "ZQ" });
    expect(broad.totals).toEqual({
      capped: false,
      entries: LEDGER_TOTALS_LIMIT,
      netCents: LEDGER_TOTALS_LIMIT,
      creditsCents: LEDGER_TOTALS_LIMIT,
      debitsCents: 0,
    });
    expect(broad.entries).toHaveLength(100);
    expect(broad.entries.every((entry) => entry.userEmail === "zqn-limit@example.com")).toBe(true);
    // Three characters: the few accounts whose email holds them, looked up first.
    const few = await listLedgerForAdmin(db, { ...all, customer: "zqn" });
    expect(few.totals).toEqual(broad.totals);
    expect(few.entries.map((entry) => entry.id)).toEqual(broad.entries.map((entry) => entry.id));
  });
});
