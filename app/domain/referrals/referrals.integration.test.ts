import { randomUUID } from "node:crypto";
import { expect, it } from "vitest";
import { registerCustomer } from "~/domain/accounts/accounts.server";
import { requestRefund } from "~/domain/hosting-services/cancellation.server";
import { approveRefund } from "~/domain/hosting-services/refund-decision.server";
import { rejectOrder } from "~/domain/orders/orders.server";
import { markTopUpPaid, requestTopUp } from "~/domain/payments/top-up-requests.server";
import { enabledOrangeMoney } from "../../../tests/support/top-up-fixtures";
import {
  adminId,
  approvedOrder,
  balanceOf,
  customerWithCoins,
  expectLedgerIntactAfterEach,
  placedOrder,
  productId,
} from "../../../tests/support/money-fixtures";
import { pngProof } from "../../../tests/support/proof-files";
import { refusal } from "../../../tests/support/results";
import { atOnce, describeEachDatabase } from "../../../tests/support/test-database";
import { REFUND_WINDOW_DAYS } from "~/domain/hosting-services/cancellation";
import {
  decideReferral,
  loadAffiliatesAdmin,
  loadReferralsPage,
  readReferralSettings,
  recordReferral,
  referralCodeOf,
  runReferralRewards,
  saveReferralSettings,
  settleReferral,
} from "./referrals.server";
import { rewardCents } from "./referrals";

const DAY = 86_400_000;
let counter = 0;

describeEachDatabase("referrals", (app, dialect) => {
  expectLedgerIntactAfterEach(app);

  /** A new customer registered through `code` from `address`, as the register page records it. */
  async function referredCustomer(code: string | null, address: string | null = null) {
    const email = `friend${Date.now()}${counter++}@example.com`;
    const result = await registerCustomer(
      app(),
      { name: "Friend Name", email, password: "Friend-pw-8842", confirmPassword: "Friend-pw-8842" },
      { registrationOpen: true, referral: code ? { code, address } : null },
    );
    if (!result.ok) throw new Error(result.error);
    return result.userId;
  }

  /** A referrer with a code, and a friend they referred who holds coins for an order. */
  async function referral(options: { friendAddress?: string | null } = {}) {
    const referrer = await customerWithCoins(app(), 0);
    const code = await referralCodeOf(app().db, referrer);
    const friend = await referredCustomer(code, options.friendAddress ?? null);
    await creditFriend(friend);
    return { referrer, code, friend };
  }

  async function creditFriend(friend: string) {
    const { adjustCoins } = await import("~/domain/coins/coins.server");
    const credited = await adjustCoins(app().db, {
      userId: friend,
      amountCents: 20_000,
      reason: "test credit",
      actorId: await adminId(app()),
    });
    if (!credited.ok) throw new Error(credited.error);
  }

  async function firstOrder(friend: string) {
    const { placed, approved } = await approvedOrder(app(), friend, {
      productId: await productId(app(), "samp-starter"),
    });
    return { ...placed, hostingServiceId: approved.hostingServiceId };
  }

  /** The moment the first order's window ends, and a millisecond after. */
  async function windowOf(orderId: number) {
    const row = await app()
      .db.selectFrom("orders")
      .select(["created_at", "total_cents"])
      .where("id", "=", orderId)
      .executeTakeFirstOrThrow();
    const end = Date.parse(String(row.created_at)) + REFUND_WINDOW_DAYS * DAY;
    return { last: new Date(end), after: new Date(end + 1), totalCents: row.total_cents };
  }

  async function stateOf(referred: string) {
    const row = await app()
      .db.selectFrom("referrals")
      .select(["id", "state", "flags"])
      .where("referred_id", "=", referred)
      .executeTakeFirstOrThrow();
    return { id: Number(row.id), state: row.state, flags: JSON.parse(row.flags) as string[] };
  }

  async function rewardsOf(referralId: number) {
    return app()
      .db.selectFrom("referral_rewards")
      .selectAll()
      .where("referral_id", "=", referralId)
      .execute();
  }

  async function rewardEntries(referrer: string) {
    return app()
      .db.selectFrom("coin_ledger")
      .select(["amount_cents", "idempotency_key", "reason_key"])
      .where("user_id", "=", referrer)
      .where("kind", "=", "referral_reward")
      .execute();
  }

  async function settings(change: { percentBasisPoints?: number; monthlyCapCents?: number }) {
    const saved = await saveReferralSettings(app().db, {
      actorId: await adminId(app()),
      settings: { ...(await readReferralSettings(app().db)), ...change },
    });
    if (!saved.ok) throw new Error(saved.error);
  }

  it("pays nothing up to the window's last moment, then the reward once, a millisecond after", async () => {
    await settings({ percentBasisPoints: 1000, monthlyCapCents: 0 });
    const { referrer, friend } = await referral();
    const order = await firstOrder(friend);
    const window = await windowOf(order.id);

    await runReferralRewards(app().db, { now: new Date(window.last.getTime() - DAY) });
    await runReferralRewards(app().db, { now: window.last });
    expect((await stateOf(friend)).state).toBe("waiting");
    expect(await rewardEntries(referrer)).toEqual([]);

    const counts = await runReferralRewards(app().db, { now: window.after });
    expect(counts.paid).toBeGreaterThanOrEqual(1);
    const reward = rewardCents(window.totalCents, 1000);
    expect(reward).toBeGreaterThan(0);
    expect(await balanceOf(app(), referrer)).toBe(reward);
    const { id, state } = await stateOf(friend);
    expect(state).toBe("paid");
    expect(await rewardEntries(referrer)).toEqual([
      {
        amount_cents: reward,
        idempotency_key: `referral-reward:${id}`,
        reason_key: "referralReward",
      },
    ]);
    // The referrer is told, once.
    const notices = await app()
      .db.selectFrom("notifications")
      .select("kind")
      .where("user_id", "=", referrer)
      .where("kind", "=", "referral_reward_paid")
      .execute();
    expect(notices).toHaveLength(1);

    // Run again, and again later: nothing more.
    await runReferralRewards(app().db, { now: window.after });
    await runReferralRewards(app().db, { now: new Date(window.after.getTime() + 40 * DAY) });
    expect(await balanceOf(app(), referrer)).toBe(reward);
    expect(await rewardEntries(referrer)).toHaveLength(1);
  });

  it(
    atOnce(dialect, "pays a referral once when two workers settle it at the same moment"),
    async () => {
      await settings({ percentBasisPoints: 1000, monthlyCapCents: 0 });
      const { referrer, friend } = await referral();
      const order = await firstOrder(friend);
      const { after } = await windowOf(order.id);
      const { id } = await stateOf(friend);
      const current = await readReferralSettings(app().db);
      const outcomes = await Promise.all([
        runReferralRewards(app().db, { now: after }),
        runReferralRewards(app().db, { now: after }),
        settleReferral(app().db, id, after, current),
        settleReferral(app().db, id, after, current),
      ]);
      expect(outcomes).toHaveLength(4);
      expect(await rewardEntries(referrer)).toHaveLength(1);
      expect(await rewardsOf(id)).toHaveLength(1);
      expect(await balanceOf(app(), referrer)).toBe(rewardCents(order.totalCents, 1000));
    },
  );

  it("refuses a second reward for the same referral in the database", async () => {
    await settings({ percentBasisPoints: 1000, monthlyCapCents: 0 });
    const { friend } = await referral();
    const order = await firstOrder(friend);
    await runReferralRewards(app().db, { now: (await windowOf(order.id)).after });
    const { id } = await stateOf(friend);
    const [reward] = await rewardsOf(id);
    // Even written around the use-case, a second row for the referral is refused by its key.
    await expect(
      app()
        .db.insertInto("referral_rewards")
        .values({ ...reward!, created_at: new Date().toISOString() })
        .execute(),
    ).rejects.toThrow();
    // And a referral put back to waiting by hand is not paid again: the ledger's key refuses it.
    await app()
      .db.updateTable("referrals")
      .set({ state: "waiting" })
      .where("id", "=", id)
      .execute();
    const current = await readReferralSettings(app().db);
    expect(await settleReferral(app().db, id, (await windowOf(order.id)).after, current)).toBe(
      "settled",
    );
    expect(await rewardsOf(id)).toHaveLength(1);
  });

  it("gives nothing for a first order rejected, or refunded within its window", async () => {
    const admin = await adminId(app());
    // Rejected by the staff: its coins came back.
    const rejected = await referral();
    const pending = await placedOrder(app(), rejected.friend, {
      productId: await productId(app(), "samp-starter"),
    });
    const refusedOrder = await rejectOrder(app().db, {
      orderId: pending.id,
      actorId: admin,
      reason: "Test",
    });
    expect(refusedOrder.ok).toBe(true);
    // Refunded in the window at the customer's request, decided by the staff (no automatic approval).
    const selfService = await app()
      .db.selectFrom("settings")
      .select("value")
      .where("key", "=", "selfService")
      .executeTakeFirstOrThrow();
    await app()
      .db.updateTable("settings")
      .set({ value: JSON.stringify({ ...JSON.parse(selfService.value), autoRefundMaxCoins: 0 }) })
      .where("key", "=", "selfService")
      .execute();
    const refunded = await referral();
    const order = await firstOrder(refunded.friend);
    const asked = await requestRefund(app().db, {
      userId: refunded.friend,
      serviceId: order.hostingServiceId!,
      reason: "tooExpensive",
      reasonText: null,
    });
    expect(asked.ok).toBe(true);
    // While the refund waits for a decision, nothing is paid even after the window.
    const { after } = await windowOf(order.id);
    await runReferralRewards(app().db, { now: after });
    expect((await stateOf(refunded.friend)).state).toBe("waiting");
    const cancellation = await app()
      .db.selectFrom("service_cancellations")
      .select("id")
      .where("hosting_service_id", "=", order.hostingServiceId!)
      .executeTakeFirstOrThrow();
    const approved = await approveRefund(app().db, { id: Number(cancellation.id), actorId: admin });
    expect(approved.ok).toBe(true);
    await app()
      .db.updateTable("settings")
      .set({ value: selfService.value })
      .where("key", "=", "selfService")
      .execute();

    await runReferralRewards(app().db, { now: new Date(after.getTime() + DAY) });
    expect((await stateOf(rejected.friend)).state).toBe("refunded");
    expect((await stateOf(refunded.friend)).state).toBe("refunded");
    expect(await rewardEntries(rejected.referrer)).toEqual([]);
    expect(await rewardEntries(refunded.referrer)).toEqual([]);
  });

  it("pays up to the monthly cap and records the rest as not paid", async () => {
    const referrer = await customerWithCoins(app(), 0);
    const code = await referralCodeOf(app().db, referrer);
    const friends = [await referredCustomer(code), await referredCustomer(code)];
    for (const friend of friends) await creditFriend(friend);
    const orders = [await firstOrder(friends[0]!), await firstOrder(friends[1]!)];
    const reward = rewardCents(orders[0]!.totalCents, 5000);
    // A cap that holds one reward and a part of the second.
    const cap = reward + Math.floor(reward / 2);
    await settings({ percentBasisPoints: 5000, monthlyCapCents: cap });
    const { after } = await windowOf(orders[1]!.id);
    await runReferralRewards(app().db, { now: after });

    expect(await balanceOf(app(), referrer)).toBe(cap);
    const states = await Promise.all(friends.map(stateOf));
    expect(states.map((s) => s.state).sort()).toEqual(["over_cap", "paid"]);
    const over = states.find((s) => s.state === "over_cap")!;
    const [capped] = await rewardsOf(over.id);
    expect(capped).toMatchObject({
      reward_cents: reward,
      paid_cents: cap - reward,
      unpaid_cents: reward - (cap - reward),
    });
    // The customer's page shows both.
    const page = await loadReferralsPage(app().db, referrer);
    expect(page.paidCents).toBe(cap);
    expect(page.unpaidCents).toBe(reward - (cap - reward));
    expect(page.referrals).toHaveLength(2);
    expect(page.referrals[0]!.email).toMatch(/^f\*\*\*@e\*\*\*\.com$/);
  });

  it("refuses a referral to oneself, an unknown code, and a second referral of one customer", async () => {
    const customer = await customerWithCoins(app(), 0);
    const code = await referralCodeOf(app().db, customer);
    expect(await recordReferral(app().db, { referredId: customer, code })).toEqual(
      refusal("invalid", "referrals.errors.self"),
    );
    expect(await recordReferral(app().db, { referredId: customer, code: "ZZZZZZZZ" })).toEqual(
      refusal("invalid", "referrals.errors.unknownCode"),
    );
    const other = await customerWithCoins(app(), 0);
    const otherCode = await referralCodeOf(app().db, other);
    expect((await recordReferral(app().db, { referredId: customer, code: otherCode })).ok).toBe(
      true,
    );
    const third = await customerWithCoins(app(), 0);
    const thirdCode = await referralCodeOf(app().db, third);
    expect(await recordReferral(app().db, { referredId: customer, code: thirdCode })).toEqual(
      refusal("conflict", "referrals.errors.alreadyReferred"),
    );
    // The database refuses oneself too, whatever the code does.
    await expect(
      app()
        .db.insertInto("referrals")
        .values({
          referrer_id: other,
          referred_id: other,
          code: otherCode,
          registered_ip: null,
          created_at: new Date().toISOString(),
          updated_at: new Date().toISOString(),
        })
        .execute(),
    ).rejects.toThrow();
    // A customer's code is made once and kept.
    expect(await referralCodeOf(app().db, customer)).toBe(code);
  });

  it("flags a friend who registered from the referrer's address, and pays only once an admin lets it through", async () => {
    await settings({ percentBasisPoints: 1000, monthlyCapCents: 0 });
    const referrer = await customerWithCoins(app(), 0);
    const code = await referralCodeOf(app().db, referrer);
    const address = `203.0.113.${(counter++ % 200) + 1}`;
    await app()
      .db.insertInto("sessions")
      .values({
        id: randomUUID(),
        user_id: referrer,
        token: randomUUID(),
        expires_at: new Date(Date.now() + DAY).toISOString(),
        ip_address: address,
        user_agent: null,
        created_at: new Date().toISOString(),
        updated_at: new Date().toISOString(),
      })
      .execute();
    const friend = await referredCustomer(code, `::ffff:${address}`);
    await creditFriend(friend);
    const flagged = await stateOf(friend);
    expect(flagged).toMatchObject({ state: "flagged", flags: ["sameAddress"] });

    const order = await firstOrder(friend);
    const { after } = await windowOf(order.id);
    await runReferralRewards(app().db, { now: after });
    expect(await rewardEntries(referrer)).toEqual([]);

    const admin = await adminId(app());
    expect(
      await decideReferral(app().db, { actorId: admin, id: flagged.id, decision: "pay" }),
    ).toEqual({ ok: true, state: "waiting" });
    // Decided once: a second decision is refused.
    expect(
      await decideReferral(app().db, { actorId: admin, id: flagged.id, decision: "reject" }),
    ).toEqual(refusal("conflict", "referrals.errors.notFlagged"));
    await runReferralRewards(app().db, { now: after });
    expect(await rewardEntries(referrer)).toHaveLength(1);
    const audit = await app()
      .db.selectFrom("audit_log")
      .select("action")
      .where("target_type", "=", "referral")
      .where("target_id", "=", String(flagged.id))
      .execute();
    expect(audit.map((row) => row.action)).toEqual(["referral.clear"]);
  });

  it("flags a friend who sent the referrer's top-up proof file, and pays nothing once rejected", async () => {
    await settings({ percentBasisPoints: 1000, monthlyCapCents: 0 });
    const { referrer, friend } = await referral();
    const method = await enabledOrangeMoney(app());
    const proof = await pngProof(`shared-${counter++}.png`, { width: 40 + (counter % 500) });
    for (const userId of [referrer, friend]) {
      const asked = await requestTopUp(app().db, { userId, methodId: method.id, coins: 10 });
      if (!asked.ok) throw new Error(asked.error);
      const paid = await markTopUpPaid(app().db, {
        userId,
        requestId: asked.request.id,
        payerAccount: "0622 222 222",
        paidOn: new Date().toISOString().slice(0, 10),
        proofs: [proof],
      });
      if (!paid.ok) throw new Error(paid.error);
    }
    const order = await firstOrder(friend);
    await runReferralRewards(app().db, { now: (await windowOf(order.id)).after });
    const flagged = await stateOf(friend);
    expect(flagged).toMatchObject({ state: "flagged", flags: ["sameProof"] });
    expect(await rewardEntries(referrer)).toEqual([]);

    const admin = await adminId(app());
    expect(
      await decideReferral(app().db, { actorId: admin, id: flagged.id, decision: "reject" }),
    ).toEqual({ ok: true, state: "rejected" });
    await runReferralRewards(app().db, {
      now: new Date((await windowOf(order.id)).after.getTime() + DAY),
    });
    expect(await rewardEntries(referrer)).toEqual([]);
    const listed = await loadAffiliatesAdmin(app().db, { page: 1, state: "rejected" });
    expect(listed.referrals.map((row) => row.id)).toContain(flagged.id);
  });

  it("keeps the settings to the admins who manage affiliates, and audits a change", async () => {
    const customer = await customerWithCoins(app(), 0);
    const before = await readReferralSettings(app().db);
    expect((await saveReferralSettings(app().db, { actorId: customer, settings: before })).ok).toBe(
      false,
    );
    await settings({ percentBasisPoints: 750, monthlyCapCents: 2500 });
    expect(await readReferralSettings(app().db)).toMatchObject({
      percentBasisPoints: 750,
      monthlyCapCents: 2500,
    });
    const audit = await app()
      .db.selectFrom("audit_log")
      .select("action")
      .where("action", "=", "referral.settings")
      .execute();
    expect(audit.length).toBeGreaterThanOrEqual(1);
  });
});
