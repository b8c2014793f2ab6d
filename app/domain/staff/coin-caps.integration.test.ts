import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { adjustCoins } from "~/domain/coins/coins.server";
import { MAX_ADJUSTMENT_CENTS } from "~/domain/coins/coins";
import { defaultSettings } from "~/domain/settings/settings";
import { getSettings, updateSettingsSection } from "~/domain/settings/settings.server";
import { addCoinsFromTicket } from "~/domain/tickets/tickets.server";
import {
  adminId,
  balanceOf,
  customerWithCoins,
  expectLedgerIntactAfterEach,
} from "../../../tests/support/money-fixtures";
import { staffMember } from "../../../tests/support/staff-members";
import { atOnce, describeEachDatabase } from "../../../tests/support/test-database";
import { customerWithTicket } from "../../../tests/support/ticket-fixtures";
import type { AppServices } from "~/context.server";

// The coin caps of the staff roles (ADR 57), checked by the use-case itself whatever route called it:
// Billing's most per change, Support's goodwill credits up to a daily limit per member, counted from the
// ledger in the site's day at the clock the use-case is given.

/** Tokyo keeps no summer time: its day starts at 15:00 UTC all year, whatever the zone's rules say. */
const ZONE = "Asia/Tokyo";
/** 23:30 in Tokyo on 14 June 2030, and its midnight: the next day there, still 14 June in UTC. */
const LATE = new Date("2030-06-14T14:30:00Z");
const NEXT_DAY = new Date("2030-06-14T15:00:00Z");

/** The ledger rows an actor wrote for a customer (what a refused change must not have added). */
async function rowsOf(app: AppServices, userId: string) {
  return app.db
    .selectFrom("coin_ledger")
    .select(["amount_cents", "actor_id"])
    .where("user_id", "=", userId)
    .orderBy("id")
    .execute();
}

describeEachDatabase("the coin caps of staff roles", (app, dialect) => {
  expectLedgerIntactAfterEach(app);

  beforeAll(async () => {
    const settings = await getSettings(app().db);
    await updateSettingsSection(app().db, "general", { ...settings.general, timeZone: ZONE });
    await updateSettingsSection(app().db, "security", {
      ...settings.security,
      billingCoinCap: 500,
      supportDailyCoinCap: 20,
    });
  });
  afterAll(async () => {
    await updateSettingsSection(app().db, "general", defaultSettings().general);
    await updateSettingsSection(app().db, "security", defaultSettings().security);
  });

  const change = (actorId: string, userId: string, amountCents: number, now = LATE) =>
    adjustCoins(app().db, {
      userId,
      amountCents,
      reason: "goodwill",
      actorId,
      idempotencyKey: randomUUID(),
      now,
    });

  it("lets Billing change up to the cap either way, and refuses a cent over with the cap", async () => {
    const billing = await staffMember(app(), "billing");
    const user = await customerWithCoins(app(), 100_000);
    expect(await change(billing, user, 50_000)).toMatchObject({ ok: true, appliedCents: 50_000 });
    expect(await change(billing, user, -50_000)).toMatchObject({ ok: true, appliedCents: -50_000 });
    const before = await rowsOf(app(), user);
    for (const amount of [50_001, -50_001])
      expect(await change(billing, user, amount)).toEqual({
        ok: false,
        kind: "forbidden",
        error: "admin-staff.checks.coinsPerChange",
        params: { cap: "500" },
      });
    expect(await balanceOf(app(), user)).toBe(100_000);
    expect(await rowsOf(app(), user)).toEqual(before);
  });

  it("follows the cap the settings hold now", async () => {
    const billing = await staffMember(app(), "billing");
    const user = await customerWithCoins(app(), 0);
    const settings = await getSettings(app().db);
    await updateSettingsSection(app().db, "security", { ...settings.security, billingCoinCap: 3 });
    try {
      expect(await change(billing, user, 301)).toMatchObject({
        error: "admin-staff.checks.coinsPerChange",
        params: { cap: "3" },
      });
      expect(await change(billing, user, 300)).toMatchObject({ ok: true });
    } finally {
      await updateSettingsSection(app().db, "security", settings.security);
    }
  });

  it("lets Support give goodwill up to the daily limit, counted across customers and tickets", async () => {
    const support = await staffMember(app(), "support");
    const first = await customerWithCoins(app(), 0);
    expect(await change(support, first, 1_250)).toMatchObject({ ok: true });
    // A ticket's goodwill and a ticket's payment both count: the form's choice is no way around it.
    const { owner, ticket } = await customerWithTicket(app());
    const fromTicket = (amountCents: number, creditAs: "goodwill" | "payment") =>
      addCoinsFromTicket(app().db, {
        actorId: support,
        ticketId: ticket.id,
        amountCents,
        creditAs,
        idempotencyKey: randomUUID(),
        now: LATE,
      });
    expect(await fromTicket(250, "goodwill")).toMatchObject({ ok: true });
    expect(await fromTicket(250, "payment")).toMatchObject({ ok: true });
    // 17.50 given: 2.50 left. The credit that passes the limit is refused and says what is left.
    expect(await change(support, first, 251)).toEqual({
      ok: false,
      kind: "forbidden",
      error: "admin-staff.checks.coinsPerDay",
      params: { left: "2.50" },
    });
    expect(await fromTicket(251, "goodwill")).toMatchObject({
      error: "admin-staff.checks.coinsPerDay",
      params: { left: "2.50" },
    });
    expect(await balanceOf(app(), first)).toBe(1_250);
    expect(await balanceOf(app(), owner)).toBe(500);
    // Exactly what is left goes through; then nothing is left.
    expect(await change(support, first, 250)).toMatchObject({ ok: true });
    expect(await change(support, first, 1)).toMatchObject({
      error: "admin-staff.checks.coinsPerDay",
      params: { left: "0" },
    });
    // Another member of Support has a limit of their own, and an Owner none.
    expect(await change(await staffMember(app(), "support"), first, 2_000)).toMatchObject({
      ok: true,
    });
    expect(await change(await adminId(app()), first, 2_000)).toMatchObject({ ok: true });
    expect(await balanceOf(app(), first)).toBe(1_500 + 4_000);
  });

  it("refuses Support a removal and more than the limit in one credit", async () => {
    const support = await staffMember(app(), "support");
    const user = await customerWithCoins(app(), 5_000);
    expect(await change(support, user, -1)).toEqual({
      ok: false,
      kind: "forbidden",
      error: "admin-staff.checks.coinsCreditsOnly",
    });
    expect(await change(support, user, 2_001)).toMatchObject({
      error: "admin-staff.checks.coinsPerChange",
      params: { cap: "20" },
    });
    expect(await balanceOf(app(), user)).toBe(5_000);
    expect(await rowsOf(app(), user)).toHaveLength(1);
  });

  it("gives Support the whole limit again the next day in the site's time zone", async () => {
    const support = await staffMember(app(), "support");
    const user = await customerWithCoins(app(), 0);
    expect(await change(support, user, 2_000)).toMatchObject({ ok: true });
    expect(await change(support, user, 1)).toMatchObject({
      error: "admin-staff.checks.coinsPerDay",
    });
    // Midnight in Tokyo, though still the same day in UTC.
    expect(await change(support, user, 2_000, NEXT_DAY)).toMatchObject({ ok: true });
    expect(await change(support, user, 1, NEXT_DAY)).toMatchObject({
      error: "admin-staff.checks.coinsPerDay",
      params: { left: "0" },
    });
    expect(await balanceOf(app(), user)).toBe(4_000);
  });

  it("bounds an Owner only by the form's own limit", async () => {
    const owner = await adminId(app());
    const user = await customerWithCoins(app(), 0);
    expect(await change(owner, user, MAX_ADJUSTMENT_CENTS)).toMatchObject({
      ok: true,
      appliedCents: MAX_ADJUSTMENT_CENTS,
    });
    expect(await change(owner, user, -MAX_ADJUSTMENT_CENTS)).toMatchObject({
      ok: true,
      appliedCents: -MAX_ADJUSTMENT_CENTS,
    });
  });

  it("refuses a role without coins.adjust, and anyone who is no member of the staff", async () => {
    const user = await customerWithCoins(app(), 1_000);
    const customer = await customerWithCoins(app(), 0);
    for (const actor of [await staffMember(app(), "technician"), customer, randomUUID()])
      for (const amount of [100, -100])
        expect(await change(actor, user, amount)).toEqual({
          ok: false,
          kind: "forbidden",
          error: "admin-staff.checks.forbidden",
          permission: "coins.adjust",
        });
    const { owner: ticketOwner, ticket } = await customerWithTicket(app());
    expect(
      await addCoinsFromTicket(app().db, {
        actorId: await staffMember(app(), "technician"),
        ticketId: ticket.id,
        amountCents: 100,
        creditAs: "goodwill",
      }),
    ).toMatchObject({ kind: "forbidden", permission: "coins.adjust" });
    expect(await balanceOf(app(), user)).toBe(1_000);
    expect(await rowsOf(app(), user)).toHaveLength(1);
    expect(await rowsOf(app(), ticketOwner)).toEqual([]);
  });

  describe("two credits at once", () => {
    it(
      atOnce(dialect, "cannot pass the daily limit together: the credits are counted in turn"),
      async () => {
        const support = await staffMember(app(), "support");
        const users = await Promise.all(
          Array.from({ length: 5 }, () => customerWithCoins(app(), 0)),
        );
        // Five credits of 8 coins against a limit of 20: two fit, whatever order they commit in.
        const results = await Promise.all(users.map((user) => change(support, user, 800)));
        expect(results.filter((result) => result.ok)).toHaveLength(2);
        for (const refused of results.filter((result) => !result.ok))
          expect(refused).toEqual({
            ok: false,
            kind: "forbidden",
            error: "admin-staff.checks.coinsPerDay",
            params: { left: "4" },
          });
        const balances = await Promise.all(users.map((user) => balanceOf(app(), user)));
        expect(balances.reduce((sum, cents) => sum + cents, 0)).toBe(1_600);
      },
    );
  });
});
