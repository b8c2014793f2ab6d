import { expect, it } from "vitest";
import { writeLedgerEntry } from "~/domain/coins/coins.server";
import { findInvoiceDiscrepancies } from "~/domain/invoices/reconciliation.server";
import { inTransaction } from "~/db/transaction";
import {
  adminId,
  balanceOf,
  customerWithCoins,
  expectLedgerIntact,
} from "../../../tests/support/money-fixtures";
import {
  onlineWorld,
  runQueuedConfirmations,
  staffNotices,
  startedPayment,
  type OnlineWorld,
} from "../../../tests/support/online-payment-fixtures";
import { scriptedNotification } from "../../../tests/support/scripted-provider";
import { describeEachDatabase } from "../../../tests/support/test-database";
import { confirmOnlinePayment } from "./online-payment-confirm.server";
import { REFUND_JOB } from "./online-payments";
import { refundOnlinePayment, runRefund, type RefundPayload } from "./online-refunds.server";
import { receiveNotification } from "./payment-notifications.server";

describeEachDatabase("online refunds and reversals", (app) => {
  const db = () => app().db;

  /** A payment of 10 coins (110.00 MAD) credited. */
  async function paidPayment(world: OnlineWorld) {
    const payment = await startedPayment(app(), world, { coins: 10 });
    world.provider.lookUps = [
      { state: "paid", amount: 11_000, currency: "MAD", captureRef: "tx-r" },
    ];
    expect(
      await confirmOnlinePayment(
        db(),
        { paymentId: payment.paymentId },
        { ...world.wiring, now: new Date() },
      ),
    ).toBe("credited");
    return payment;
  }

  /** The refund jobs waiting, run once each as the worker would. */
  async function runRefunds(world: OnlineWorld, paymentId: number) {
    const jobs = (
      await db()
        .selectFrom("jobs")
        .select(["id", "payload"])
        .where("type", "=", REFUND_JOB)
        .where("state", "=", "queued")
        .execute()
    ).filter((job) => (JSON.parse(job.payload) as RefundPayload).paymentId === paymentId);
    const outcomes = [];
    for (const job of jobs) {
      outcomes.push(
        await runRefund(db(), JSON.parse(job.payload) as RefundPayload, {
          ...world.wiring,
          now: new Date(),
        }),
      );
      await db().updateTable("jobs").set({ state: "succeeded" }).where("id", "=", job.id).execute();
    }
    return outcomes;
  }

  const paymentRow = (id: number) =>
    db().selectFrom("online_payments").selectAll().where("id", "=", id).executeTakeFirstOrThrow();
  const creditNotes = (userId: string) =>
    db()
      .selectFrom("invoices")
      .select(["number", "total_cents", "refund_method", "ledger_entry_id", "lines", "reason"])
      .where("user_id", "=", userId)
      .where("kind", "=", "credit_note")
      .orderBy("id")
      .execute();

  it("refuses a refund that cannot be: not an admin, not paid, more than is left, one under way", async () => {
    const world = await onlineWorld(app());
    const admin = await adminId(app());
    const pending = await startedPayment(app(), world);
    expect(
      await refundOnlinePayment(db(), {
        adminId: admin,
        paymentId: pending.paymentId,
        amount: 100,
      }),
    ).toEqual({
      ok: false,
      kind: "conflict",
      error: "payments.errors.notRefundable",
    });
    const paid = await paidPayment(world);
    expect(
      await refundOnlinePayment(db(), {
        adminId: paid.userId,
        paymentId: paid.paymentId,
        amount: 100,
      }),
    ).toMatchObject({ ok: false, error: "payments.errors.adminOnly" });
    for (const amount of [0, -5, 11_001, 1.5])
      expect(
        await refundOnlinePayment(db(), { adminId: admin, paymentId: paid.paymentId, amount }),
      ).toMatchObject({
        ok: false,
        error: "payments.errors.refundTooLarge",
      });
    expect(
      (await refundOnlinePayment(db(), { adminId: admin, paymentId: paid.paymentId, amount: 100 }))
        .ok,
    ).toBe(true);
    expect(
      await refundOnlinePayment(db(), { adminId: admin, paymentId: paid.paymentId, amount: 100 }),
    ).toMatchObject({
      ok: false,
      error: "payments.errors.refundInProgress",
    });
    expect(
      await refundOnlinePayment(db(), { adminId: admin, paymentId: 999_999, amount: 1 }),
    ).toMatchObject({
      ok: false,
      kind: "notFound",
    });
  });

  it("a full refund through the provider: a credit note, the coins taken back, the payment refunded, once", async () => {
    const world = await onlineWorld(app());
    const admin = await adminId(app());
    const paid = await paidPayment(world);
    expect(await balanceOf(app(), paid.userId)).toBe(1_000);
    expect(
      (
        await refundOnlinePayment(db(), {
          adminId: admin,
          paymentId: paid.paymentId,
          amount: 11_000,
        })
      ).ok,
    ).toBe(true);
    world.provider.refunds = [{ ok: true, outcome: "refunded", refundRef: "rf-1" }];
    world.provider.lookUps = [
      {
        state: "refunded",
        amount: 11_000,
        currency: "MAD",
        captureRef: "tx-r",
        refundedAmount: 11_000,
      },
    ];
    expect(await runRefunds(world, paid.paymentId)).toEqual(["recorded"]);
    const refundCall = world.provider.calls.find((call) => call.method === "refund")!;
    expect(refundCall.args[1]).toBe(11_000);
    expect(refundCall.args[2]).toMatch(new RegExp(`^refund-${paid.paymentId}-`));
    expect(await paymentRow(paid.paymentId)).toMatchObject({
      state: "refunded",
      refunded_amount: 11_000,
    });
    expect(await balanceOf(app(), paid.userId)).toBe(0);
    const notes = await creditNotes(paid.userId);
    expect(notes).toHaveLength(1);
    expect(notes[0]).toMatchObject({
      total_cents: -1_000,
      refund_method: "outside",
      ledger_entry_id: null,
    });
    expect(notes[0]!.number).toMatch(/^HFC-/);
    expect(JSON.parse(notes[0]!.lines)[0].params).not.toHaveProperty("shortCents");
    // The provider's refund notification afterwards, and a second look: nothing new.
    const note = scriptedNotification(world.providerSecret, {
      id: "evt-refund-1",
      kind: "refund",
      captureRef: "tx-r",
    });
    expect(
      (await receiveNotification(db(), { provider: "youcanpay", ...note }, world.wiring)).status,
    ).toBe(200);
    await runQueuedConfirmations(app(), world);
    expect(await creditNotes(paid.userId)).toHaveLength(1);
    expect(await balanceOf(app(), paid.userId)).toBe(0);
    expect(await staffNotices(app(), "top_up_refund_recorded")).not.toHaveLength(0);
    const customerNotice = await db()
      .selectFrom("notifications")
      .select("params")
      .where("user_id", "=", paid.userId)
      .where("kind", "=", "top_up_refunded")
      .execute();
    expect(customerNotice.map((row) => JSON.parse(row.params))).toEqual([
      { reference: paid.reference, amountCents: 1_000 },
    ]);
    const audit = await db()
      .selectFrom("audit_log")
      .select(["actor_id"])
      .where("action", "=", "top_up.refund")
      .where("target_id", "=", String(paid.requestId))
      .execute();
    expect(audit).toEqual([{ actor_id: admin }]);
    await expectLedgerIntact(app());
    expect(await findInvoiceDiscrepancies(db())).toEqual([]);
  });

  it("partial refunds add up to the whole credit; a refund past the balance stops at 0 and says the rest", async () => {
    const world = await onlineWorld(app());
    const admin = await adminId(app());
    const paid = await paidPayment(world);
    world.provider.refunds = [{ ok: true, outcome: "refunded", refundRef: "rf-a" }];
    world.provider.lookUps = [
      { state: "paid", amount: 11_000, currency: "MAD", captureRef: "tx-r", refundedAmount: 3_300 },
    ];
    await refundOnlinePayment(db(), { adminId: admin, paymentId: paid.paymentId, amount: 3_300 });
    expect(await runRefunds(world, paid.paymentId)).toEqual(["recorded"]);
    expect(await paymentRow(paid.paymentId)).toMatchObject({
      state: "paid",
      refunded_amount: 3_300,
    });
    expect(await balanceOf(app(), paid.userId)).toBe(700);
    // The provider's refund notification, and another look at the same total: nothing new.
    await confirmOnlinePayment(
      db(),
      { paymentId: paid.paymentId },
      { ...world.wiring, now: new Date() },
    );
    expect(await creditNotes(paid.userId)).toHaveLength(1);
    expect(await balanceOf(app(), paid.userId)).toBe(700);

    // The customer spends 5 coins; the rest refunded takes back what is left, 2 coins, not 7.
    await inTransaction(db(), (trx) =>
      writeLedgerEntry(trx, {
        userId: paid.userId,
        amountCents: -500,
        kind: "admin_adjustment",
        reason: "spent",
      }),
    );
    world.provider.lookUps = [
      {
        state: "refunded",
        amount: 11_000,
        currency: "MAD",
        captureRef: "tx-r",
        refundedAmount: 11_000,
      },
    ];
    await refundOnlinePayment(db(), { adminId: admin, paymentId: paid.paymentId, amount: 7_700 });
    expect(await runRefunds(world, paid.paymentId)).toEqual(["recorded"]);
    expect(await balanceOf(app(), paid.userId)).toBe(0);
    expect(await paymentRow(paid.paymentId)).toMatchObject({
      state: "refunded",
      refunded_amount: 11_000,
    });
    const notes = await creditNotes(paid.userId);
    expect(notes.map((row) => row.total_cents)).toEqual([-300, -700]);
    expect(JSON.parse(notes[1]!.lines)[0].params).toMatchObject({
      shortCents: 500,
      refunded: 7_700,
    });
    const short = await staffNotices(app(), "top_up_refund_short");
    expect(short.map((row) => JSON.parse(row.params))).toContainEqual({
      reference: paid.reference,
      amountCents: 500,
    });
    await expectLedgerIntact(app());
    expect(await findInvoiceDiscrepancies(db())).toEqual([]);
  });

  it("a provider without a refund call tells the admin to refund by hand; a refusal is told; a timeout retried", async () => {
    const world = await onlineWorld(app());
    const admin = await adminId(app());
    const paid = await paidPayment(world);
    world.provider.refunds = [{ ok: true, outcome: "manual" }];
    await refundOnlinePayment(db(), { adminId: admin, paymentId: paid.paymentId, amount: 5_500 });
    expect(await runRefunds(world, paid.paymentId)).toEqual(["manual"]);
    expect(await staffNotices(app(), "online_refund_manual")).not.toHaveLength(0);
    expect(await paymentRow(paid.paymentId)).toMatchObject({ state: "paid", refunded_amount: 0 });
    expect(await creditNotes(paid.userId)).toEqual([]);

    world.provider.refunds = [{ ok: false, failure: "refused", detail: "TRANSACTION_REFUSED" }];
    await refundOnlinePayment(db(), { adminId: admin, paymentId: paid.paymentId, amount: 5_500 });
    expect(await runRefunds(world, paid.paymentId)).toEqual(["refused"]);
    expect(await staffNotices(app(), "online_refund_refused")).not.toHaveLength(0);

    world.provider.refunds = [{ ok: false, failure: "timeout" }];
    await expect(
      runRefund(
        db(),
        { paymentId: paid.paymentId, amount: 5_500, adminId: admin, key: "k" },
        { ...world.wiring, now: new Date() },
      ),
    ).rejects.toThrow(/timeout/);
    expect(await balanceOf(app(), paid.userId)).toBe(1_000);
  });

  it("a reversal the provider reports takes the coins back as the system, and staff are told", async () => {
    const world = await onlineWorld(app());
    const paid = await paidPayment(world);
    const other = await customerWithCoins(app(), 0);
    expect(other).toBeTruthy();
    const note = scriptedNotification(world.providerSecret, {
      id: "evt-reversal",
      type: "capture.reversed",
      kind: "reversal",
      providerRef: paid.provider_ref,
    });
    expect(
      await receiveNotification(db(), { provider: "youcanpay", ...note }, world.wiring),
    ).toMatchObject({
      status: 200,
    });
    world.provider.lookUps = [
      { state: "refunded", amount: 11_000, currency: "MAD", captureRef: "tx-r", refundedAmount: 0 },
    ];
    expect(await runQueuedConfirmations(app(), world)).toEqual(["refundsAligned"]);
    expect(await paymentRow(paid.paymentId)).toMatchObject({
      state: "refunded",
      refunded_amount: 11_000,
    });
    expect(await balanceOf(app(), paid.userId)).toBe(0);
    const audit = await db()
      .selectFrom("audit_log")
      .select(["actor_id"])
      .where("action", "=", "top_up.refund")
      .where("target_id", "=", String(paid.requestId))
      .execute();
    expect(audit).toEqual([{ actor_id: null }]);
    expect(await staffNotices(app(), "top_up_refund_recorded")).not.toHaveLength(0);
    await expectLedgerIntact(app());
  });
});
