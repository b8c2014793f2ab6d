import { expect, it } from "vitest";
import {
  customerWithCoins,
  balanceOf,
  expectLedgerIntact,
} from "../../../tests/support/money-fixtures";
import {
  creditsOf,
  onlineWorld,
  runQueuedConfirmations,
  staffNotices,
  startedPayment,
} from "../../../tests/support/online-payment-fixtures";
import { scriptedNotification } from "../../../tests/support/scripted-provider";
import { atOnce, describeEachDatabase } from "../../../tests/support/test-database";
import { getDocument } from "~/domain/invoices/documents.server";
import { ProviderUnavailable } from "./online-payment-alerts.server";
import { askConfirmation, readOnlinePayment, startOnlinePayment } from "./online-checkout.server";
import { confirmOnlinePayment } from "./online-payment-confirm.server";
import { reconcileOnlinePayments } from "./online-payment-jobs.server";
import { CONFIRM_JOB, MAX_CHECKOUTS_PER_HOUR } from "./online-payments";
import {
  FORGED_BODY_KEPT_CHARS,
  MAX_FORGED_KEPT_PER_HOUR,
  receiveNotification,
} from "./payment-notifications.server";
import { requestTopUp } from "./top-up-requests.server";
import { MAX_NOTIFICATION_BYTES } from "./providers/provider";

const MINUTE = 60_000;

describeEachDatabase("online payments", (app, dialect) => {
  const db = () => app().db;
  const paymentRow = (id: number) =>
    db().selectFrom("online_payments").selectAll().where("id", "=", id).executeTakeFirstOrThrow();
  const requestState = async (id: number) =>
    (
      await db()
        .selectFrom("top_up_requests")
        .select("state")
        .where("id", "=", id)
        .executeTakeFirstOrThrow()
    ).state;
  const confirmJobs = async (paymentId: number) =>
    (
      await db()
        .selectFrom("jobs")
        .select(["id", "payload", "unique_key"])
        .where("type", "=", CONFIRM_JOB)
        .orderBy("id")
        .execute()
    ).filter((job) => (JSON.parse(job.payload) as { paymentId: number }).paymentId === paymentId);

  it("starts a checkout: the request and its pending payment first, then the provider, never a server error", async () => {
    const world = await onlineWorld(app());
    const customer = await customerWithCoins(app(), 0);
    const input = {
      userId: customer,
      methodId: world.methodId,
      coins: 5,
      origin: "https://shop.example",
      customerIp: "203.0.113.9",
      locale: "fr",
    };
    const started = await startOnlinePayment(db(), input, world.wiring);
    if (!started.ok) throw new Error(started.error);
    expect(started.redirectUrl).toBe(`https://pay.example/checkout/ref-${started.paymentId}`);
    const sent = world.provider.started[0]!;
    expect(sent).toMatchObject({
      paymentId: started.paymentId,
      amount: 5_500,
      currency: "MAD",
      returnUrl: `https://shop.example/dashboard/top-up/payments/${started.paymentId}`,
      cancelUrl: `https://shop.example/dashboard/top-up/payments/${started.paymentId}?cancelled=1`,
      customerIp: "203.0.113.9",
      locale: "fr",
    });
    expect(sent.reference).toMatch(/^TU-/);
    const row = await paymentRow(started.paymentId);
    expect(row).toMatchObject({
      state: "pending",
      amount: 5_500,
      currency: "MAD",
      provider: "youcanpay",
    });
    expect(row.provider_ref).toBe(`ref-${started.paymentId}`);
    expect(await requestState(row.top_up_request_id)).toBe("waiting_payment");

    // Starting again supersedes the checkout left behind (its request cancelled), not refused.
    const again = await startOnlinePayment(db(), input, world.wiring);
    expect(again.ok).toBe(true);
    expect(await paymentRow(started.paymentId)).toMatchObject({
      state: "cancelled",
      problem: "superseded",
    });
    expect(await requestState(row.top_up_request_id)).toBe("cancelled");

    // The provider fails or its client breaks: a refusal, the payment pending without a reference.
    for (const start of [{ ok: false, failure: "timeout" } as const, "throws" as const]) {
      world.provider.start = start;
      const failed = await startOnlinePayment(
        db(),
        { ...input, userId: await customerWithCoins(app(), 0) },
        world.wiring,
      );
      expect(failed).toEqual({
        ok: false,
        kind: "conflict",
        error: "payments.errors.checkoutFailed",
      });
      const left = await db()
        .selectFrom("online_payments")
        .select(["state", "provider_ref"])
        .orderBy("id", "desc")
        .executeTakeFirstOrThrow();
      expect(left).toEqual({ state: "pending", provider_ref: null });
    }
  });

  it("refuses a checkout that cannot be: a manual or disabled method, coins out of bounds, no provider, too many", async () => {
    const world = await onlineWorld(app());
    const customer = await customerWithCoins(app(), 0);
    const base = {
      userId: customer,
      methodId: world.methodId,
      coins: 5,
      origin: "https://shop.example",
      customerIp: "203.0.113.9",
      locale: "en",
    };
    // A provider's method is never asked for with a proof.
    expect(
      await requestTopUp(db(), { userId: customer, methodId: world.methodId, coins: 5 }),
    ).toMatchObject({ ok: false, error: "payments.errors.methodUnavailable" });
    expect(await startOnlinePayment(db(), { ...base, coins: 4 }, world.wiring)).toMatchObject({
      ok: false,
      error: "payments.errors.coinsBelowMin",
    });
    await db()
      .updateTable("payment_methods")
      .set({ kind: "manual" })
      .where("id", "=", world.methodId)
      .execute();
    expect(await startOnlinePayment(db(), base, world.wiring)).toMatchObject({
      ok: false,
      error: "payments.errors.methodUnavailable",
    });
    await db()
      .updateTable("payment_methods")
      .set({ kind: "paypal" })
      .where("id", "=", world.methodId)
      .execute();
    // PayPal has no saved connection in this database.
    await db().deleteFrom("payment_providers").where("provider", "=", "paypal").execute();
    expect(await startOnlinePayment(db(), base, world.wiring)).toEqual({
      ok: false,
      kind: "conflict",
      error: "payments.errors.onlinePaymentUnavailable",
    });
    await db()
      .updateTable("payment_methods")
      .set({ kind: "youcanpay", enabled: 0 })
      .where("id", "=", world.methodId)
      .execute();
    expect(await startOnlinePayment(db(), base, world.wiring)).toMatchObject({
      error: "payments.errors.methodUnavailable",
    });
    await db()
      .updateTable("payment_methods")
      .set({ enabled: 1 })
      .where("id", "=", world.methodId)
      .execute();
    // The manual request's gate: an unverified address, when required.
    expect(
      await startOnlinePayment(db(), base, { ...world.wiring, requireVerifiedEmail: true }),
    ).toMatchObject({ ok: false, error: "auth.verify.required" });
    expect(world.provider.started).toHaveLength(0);

    const now = new Date("2026-12-01T10:00:00Z");
    for (let i = 0; i < MAX_CHECKOUTS_PER_HOUR; i++)
      expect((await startOnlinePayment(db(), { ...base, now }, world.wiring)).ok).toBe(true);
    expect(await startOnlinePayment(db(), { ...base, now }, world.wiring)).toEqual({
      ok: false,
      kind: "limited",
      error: "payments.errors.tooManyCheckouts",
    });
    const later = new Date(now.getTime() + 61 * MINUTE);
    expect((await startOnlinePayment(db(), { ...base, now: later }, world.wiring)).ok).toBe(true);
  });

  it("the return page queues one confirmation and never calls the provider; another's payment is not found", async () => {
    const world = await onlineWorld(app());
    const payment = await startedPayment(app(), world);
    const calls = world.provider.calls.length;
    for (let i = 0; i < 3; i++)
      await askConfirmation(db(), {
        userId: payment.userId,
        paymentId: payment.paymentId,
        captureHint: "tx-9",
      });
    const jobs = await confirmJobs(payment.paymentId);
    expect(jobs).toHaveLength(1);
    expect(JSON.parse(jobs[0]!.payload)).toEqual({
      paymentId: payment.paymentId,
      captureHint: "tx-9",
    });
    expect(world.provider.calls).toHaveLength(calls);
    const stranger = await customerWithCoins(app(), 0);
    expect(await askConfirmation(db(), { userId: stranger, paymentId: payment.paymentId })).toEqual(
      {
        ok: false,
        kind: "notFound",
        error: "payments.errors.paymentNotFound",
      },
    );
    expect(
      await readOnlinePayment(db(), { userId: stranger, paymentId: payment.paymentId }),
    ).toMatchObject({
      ok: false,
      kind: "notFound",
    });
    // A hint that is not an id is dropped.
    await db().deleteFrom("jobs").where("type", "=", CONFIRM_JOB).execute();
    await askConfirmation(db(), {
      userId: payment.userId,
      paymentId: payment.paymentId,
      captureHint: "../x y",
    });
    expect(JSON.parse((await confirmJobs(payment.paymentId))[0]!.payload).captureHint).toBeNull();

    // Its confirmation credits it; the page then shows the coins, the balance and the receipt.
    world.provider.lookUps = [
      { state: "paid", amount: 5_500, currency: "MAD", captureRef: "tx-9" },
    ];
    expect(await runQueuedConfirmations(app(), world)).toEqual(["credited"]);
    expect(world.provider.lookedUp.at(-1)).toMatchObject({
      reference: payment.reference,
      providerRef: payment.provider_ref,
    });
    const view = await readOnlinePayment(db(), {
      userId: payment.userId,
      paymentId: payment.paymentId,
    });
    expect(view).toMatchObject({
      ok: true,
      payment: {
        state: "paid",
        coins: 5,
        creditedCoins: 5,
        balanceCents: 500,
        reference: payment.reference,
      },
    });
    if (!view.ok) throw new Error("none");
    expect(view.payment.receiptNumber).toMatch(/^HFR-/);
    expect(
      await askConfirmation(db(), { userId: payment.userId, paymentId: payment.paymentId }),
    ).toEqual({
      ok: true,
      queued: false,
    });
  });

  it("a notification that comes after the return credited the payment is answered as applied, nothing credited again", async () => {
    const world = await onlineWorld(app());
    const payment = await startedPayment(app(), world);
    world.provider.lookUps = [
      {
        state: "paid",
        amount: 5_500,
        currency: "MAD",
        reference: payment.reference,
        captureRef: "tx-late",
      },
    ];
    await askConfirmation(db(), { userId: payment.userId, paymentId: payment.paymentId });
    expect(await runQueuedConfirmations(app(), world)).toEqual(["credited"]);
    const late = scriptedNotification(world.providerSecret, {
      id: "evt-after-credit",
      providerRef: payment.provider_ref,
    });
    expect(
      (await receiveNotification(db(), { provider: "youcanpay", ...late }, world.wiring)).status,
    ).toBe(200);
    expect(await runQueuedConfirmations(app(), world)).toEqual(["alreadyDone"]);
    const row = await db()
      .selectFrom("provider_notifications")
      .select(["outcome", "handled_at"])
      .where("event_id", "=", "evt-after-credit")
      .executeTakeFirstOrThrow();
    expect(row.outcome).toBe("applied");
    expect(row.handled_at).not.toBeNull();
    expect(await creditsOf(app(), payment.requestId)).toHaveLength(1);
  });

  it("the webhook: too large, unknown provider, malformed, bad signature, unknown payment, replay, and a good one queued", async () => {
    const world = await onlineWorld(app());
    const payment = await startedPayment(app(), world);
    const receive = (headers: Record<string, string>, rawBody: string, provider = "youcanpay") =>
      receiveNotification(db(), { provider, headers, rawBody }, world.wiring);
    const count = async () =>
      Number(
        (
          await db()
            .selectFrom("provider_notifications")
            .select((eb) => eb.fn.countAll().as("n"))
            .executeTakeFirstOrThrow()
        ).n,
      );
    const before = await count();

    expect((await receive({}, "x".repeat(MAX_NOTIFICATION_BYTES + 1))).status).toBe(413);
    const good = scriptedNotification(world.providerSecret, {
      id: "evt-1",
      providerRef: payment.provider_ref,
      captureRef: "tx-1",
    });
    expect((await receive(good.headers, good.rawBody, "stripe")).status).toBe(404);
    expect((await receive({}, "{not json")).status).toBe(400);
    expect(await count()).toBe(before);

    // Forged three times: each kept as refused, staff told once this hour.
    for (const id of ["f-1", "f-2", "f-3"]) {
      const forged = scriptedNotification("wrong-secret", {
        id,
        providerRef: payment.provider_ref,
      });
      expect(await receive(forged.headers, forged.rawBody)).toEqual({
        status: 401,
        body: { ok: false, outcome: "badSignature" },
      });
    }
    const refused = await db()
      .selectFrom("provider_notifications")
      .select(["outcome", "online_payment_id"])
      .where("outcome", "=", "badSignature")
      .execute();
    expect(refused).toHaveLength(3);
    expect(refused.every((row) => row.online_payment_id === null)).toBe(true);
    expect(await staffNotices(app(), "online_payment_bad_signature")).toHaveLength(1);

    const stray = scriptedNotification(world.providerSecret, {
      id: "evt-stray",
      providerRef: "ref-nobody",
    });
    expect(await receive(stray.headers, stray.rawBody)).toEqual({
      status: 200,
      body: { ok: true, outcome: "unknownPayment" },
    });
    expect(await staffNotices(app(), "online_payment_unknown")).toHaveLength(1);

    expect(await receive(good.headers, good.rawBody)).toEqual({
      status: 200,
      body: { ok: true, outcome: "queued" },
    });
    const jobs = await confirmJobs(payment.paymentId);
    expect(jobs).toHaveLength(1);
    expect(JSON.parse(jobs[0]!.payload)).toMatchObject({
      paymentId: payment.paymentId,
      captureHint: "tx-1",
    });
    // The replay: answered 200, nothing new.
    expect(await receive(good.headers, good.rawBody)).toEqual({
      status: 200,
      body: { ok: true, outcome: "duplicate" },
    });
    expect(await confirmJobs(payment.paymentId)).toHaveLength(1);
    expect(await count()).toBe(before + 5);
    // No provider call but the local reading.
    expect(
      world.provider.calls.filter(
        (call) => call.method !== "readNotification" && call.method !== "startCheckout",
      ),
    ).toEqual([]);

    world.provider.lookUps = [
      { state: "paid", amount: 5_500, currency: "MAD", captureRef: "tx-1" },
    ];
    expect(await runQueuedConfirmations(app(), world)).toEqual(["credited"]);
    const kept = await db()
      .selectFrom("provider_notifications")
      .select(["outcome", "online_payment_id"])
      .where("event_id", "=", "evt-1")
      .executeTakeFirstOrThrow();
    expect(kept).toEqual({ outcome: "applied", online_payment_id: payment.paymentId });
  });

  it("credits a payment paid as asked once, with the system as actor, the receipt naming the provider's reference", async () => {
    const world = await onlineWorld(app());
    const payment = await startedPayment(app(), world);
    world.provider.lookUps = [
      { state: "paid", amount: 5_500, currency: "MAD", captureRef: "tx-42" },
    ];
    const run = () =>
      confirmOnlinePayment(
        db(),
        { paymentId: payment.paymentId },
        { ...world.wiring, now: new Date() },
      );
    expect(await run()).toBe("credited");
    expect(await run()).toBe("alreadyDone");
    const credits = await creditsOf(app(), payment.requestId);
    expect(credits).toHaveLength(1);
    expect(credits[0]).toMatchObject({ amount_cents: 500, actor_id: null });
    expect(await balanceOf(app(), payment.userId)).toBe(500);
    expect(await paymentRow(payment.paymentId)).toMatchObject({
      state: "paid",
      capture_ref: "tx-42",
      paid_amount: 5_500,
      paid_currency: "MAD",
    });
    expect(await requestState(payment.requestId)).toBe("approved");
    const receipt = await db()
      .selectFrom("invoices")
      .select(["number", "lines"])
      .where("ledger_entry_id", "=", Number(credits[0]!.id))
      .executeTakeFirstOrThrow();
    expect(JSON.parse(receipt.lines)[0].params).toMatchObject({
      provider: "youcanpay",
      providerRef: "tx-42",
      sent: 5_500,
      currency: "MAD",
    });
    const document = await getDocument(db(), receipt.number, {
      userId: payment.userId,
      isAdmin: false,
    });
    expect(document).toBeTruthy();
    const audit = await db()
      .selectFrom("audit_log")
      .select(["actor_id", "action"])
      .where("target_id", "=", String(payment.requestId))
      .where("action", "=", "top_up.approve")
      .execute();
    expect(audit).toEqual([{ actor_id: null, action: "top_up.approve" }]);
    await expectLedgerIntact(app());
  });

  it("refuses what differs (amount, currency, another top-up's reference), closes what failed, waits on pending", async () => {
    const world = await onlineWorld(app());
    const now = new Date();
    const confirm = (paymentId: number, extra = {}) =>
      confirmOnlinePayment(db(), { paymentId, ...extra }, { ...world.wiring, now });
    for (const wrong of [{ amount: 5_400 }, { currency: "EUR" }, { reference: "TU-ZZZZZ" }]) {
      const payment = await startedPayment(app(), world);
      world.provider.lookUps = [{ state: "paid", amount: 5_500, currency: "MAD", ...wrong }];
      expect(await confirm(payment.paymentId)).toBe("mismatch");
      expect(await paymentRow(payment.paymentId)).toMatchObject({
        state: "failed",
        problem: "mismatch",
      });
      expect(await creditsOf(app(), payment.requestId)).toEqual([]);
      expect(await requestState(payment.requestId)).toBe("cancelled");
      // A mismatch is never credited later, whatever the provider says next.
      world.provider.lookUps = [{ state: "paid", amount: 5_500, currency: "MAD" }];
      expect(await confirm(payment.paymentId)).toBe("alreadyDone");
      expect(await creditsOf(app(), payment.requestId)).toEqual([]);
    }
    expect((await staffNotices(app(), "online_payment_mismatch")).length).toBeGreaterThanOrEqual(3);

    const declined = await startedPayment(app(), world);
    world.provider.lookUps = [{ state: "failed", detail: "INSTRUMENT_DECLINED" }];
    expect(await confirm(declined.paymentId)).toBe("failed");
    expect(await paymentRow(declined.paymentId)).toMatchObject({
      state: "failed",
      problem: "declined",
    });
    expect(await requestState(declined.requestId)).toBe("cancelled");

    const cancelled = await startedPayment(app(), world);
    world.provider.lookUps = [{ state: "cancelled" }];
    expect(await confirm(cancelled.paymentId)).toBe("cancelled");
    expect(
      await readOnlinePayment(db(), { userId: cancelled.userId, paymentId: cancelled.paymentId }),
    ).toMatchObject({
      payment: { state: "cancelled" },
    });

    const waiting = await startedPayment(app(), world);
    world.provider.lookUps = [{ state: "pending" }];
    expect(await confirm(waiting.paymentId)).toBe("waiting");
    expect(await paymentRow(waiting.paymentId)).toMatchObject({ state: "pending" });
    // Back through the cancel address: closed.
    expect(await confirm(waiting.paymentId, { cancelled: true })).toBe("cancelled");
    expect(await paymentRow(waiting.paymentId)).toMatchObject({
      state: "cancelled",
      problem: "cancelledByCustomer",
    });

    // The provider wins: a payment we closed that it says is paid is credited, staff told.
    world.provider.lookUps = [{ state: "paid", amount: 5_500, currency: "MAD" }];
    expect(await confirm(waiting.paymentId)).toBe("credited");
    expect(await creditsOf(app(), waiting.requestId)).toHaveLength(1);
    expect(await requestState(waiting.requestId)).toBe("approved");
    expect(await staffNotices(app(), "online_payment_late_credit")).not.toHaveLength(0);
  });

  it("retries a provider's timeout or outage, tells staff of refused keys without retrying", async () => {
    const world = await onlineWorld(app());
    const payment = await startedPayment(app(), world);
    const confirm = () =>
      confirmOnlinePayment(
        db(),
        { paymentId: payment.paymentId },
        { ...world.wiring, now: new Date() },
      );
    // The capture happened during the timeout: the retry finds it, and credits once.
    world.provider.lookUps = [
      { fail: "timeout" },
      { fail: "unavailable" },
      { state: "paid", amount: 5_500, currency: "MAD", captureRef: "tx-late" },
    ];
    await expect(confirm()).rejects.toBeInstanceOf(ProviderUnavailable);
    await expect(confirm()).rejects.toBeInstanceOf(ProviderUnavailable);
    expect(await confirm()).toBe("credited");
    expect(await confirm()).toBe("alreadyDone");
    expect(await creditsOf(app(), payment.requestId)).toHaveLength(1);

    const other = await startedPayment(app(), world);
    world.provider.lookUps = [{ fail: "unauthorized", detail: "401" }];
    for (let i = 0; i < 3; i++)
      expect(
        await confirmOnlinePayment(
          db(),
          { paymentId: other.paymentId },
          { ...world.wiring, now: new Date() },
        ),
      ).toBe("providerError");
    expect(await staffNotices(app(), "online_payment_provider_error")).toHaveLength(1);
    expect(await paymentRow(other.paymentId)).toMatchObject({ state: "pending" });
  });

  it("checks a PayPal notification's signature with PayPal before anything: a forged one asks nothing more", async () => {
    const world = await onlineWorld(app(), "paypal");
    world.provider.verifyByCall = true;
    const payment = await startedPayment(app(), world);
    const claim = scriptedNotification("anything", {
      id: "WH-1",
      providerRef: payment.provider_ref,
    });
    const received = await receiveNotification(
      db(),
      { provider: "paypal", ...claim },
      world.wiring,
    );
    expect(received.status).toBe(200);
    world.provider.verifications = [{ ok: true, valid: false }];
    expect(await runQueuedConfirmations(app(), world)).toEqual(["forged"]);
    expect(world.provider.lookedUp).toHaveLength(0);
    const row = await db()
      .selectFrom("provider_notifications")
      .select("outcome")
      .where("event_id", "=", "WH-1")
      .executeTakeFirstOrThrow();
    expect(row.outcome).toBe("badSignature");
    expect(await creditsOf(app(), payment.requestId)).toEqual([]);
  });

  it(
    atOnce(
      dialect,
      "credits once however the return, notifications (twice, before the return) and confirmations race",
    ),
    async () => {
      const world = await onlineWorld(app());
      world.provider.lookUps = [
        { state: "paid", amount: 5_500, currency: "MAD", captureRef: "tx-race" },
      ];
      for (let round = 0; round < 3; round++) {
        const payment = await startedPayment(app(), world);
        const note = scriptedNotification(world.providerSecret, {
          id: `evt-race-${payment.paymentId}`,
          providerRef: payment.provider_ref,
        });
        // The notification before the return, twice, then the return.
        await receiveNotification(db(), { provider: "youcanpay", ...note }, world.wiring);
        await receiveNotification(db(), { provider: "youcanpay", ...note }, world.wiring);
        await askConfirmation(db(), { userId: payment.userId, paymentId: payment.paymentId });
        const now = new Date();
        const outcomes = await Promise.all(
          Array.from({ length: 6 }, () =>
            confirmOnlinePayment(db(), { paymentId: payment.paymentId }, { ...world.wiring, now }),
          ),
        );
        expect(outcomes.filter((outcome) => outcome === "credited")).toHaveLength(1);
        expect(await creditsOf(app(), payment.requestId)).toHaveLength(1);
        expect(await balanceOf(app(), payment.userId)).toBe(500);
      }
      await expectLedgerIntact(app());
    },
  );

  it("the reconciliation asks about checkouts pending past 15 minutes and closes those left a day", async () => {
    const world = await onlineWorld(app());
    await db().deleteFrom("jobs").where("type", "=", CONFIRM_JOB).execute();
    const now = new Date("2026-12-02T12:00:00Z");
    const at = (ms: number) => new Date(now.getTime() - ms);
    const fresh = await startedPayment(app(), world, { now: at(5 * MINUTE) });
    const stale = await startedPayment(app(), world, { now: at(20 * MINUTE) });
    const dayOld = await startedPayment(app(), world, { now: at(25 * 60 * MINUTE) });
    world.provider.start = { ok: false, failure: "unavailable" };
    const userId = await customerWithCoins(app(), 0);
    const started = await startOnlinePayment(
      db(),
      {
        userId,
        methodId: world.methodId,
        coins: 5,
        origin: "https://s.example",
        customerIp: "x",
        locale: "en",
        now: at(25 * 60 * MINUTE),
      },
      world.wiring,
    );
    expect(started.ok).toBe(false);
    const noRef = await db()
      .selectFrom("online_payments")
      .select(["id", "top_up_request_id"])
      .where("user_id", "=", userId)
      .executeTakeFirstOrThrow();

    // Other tests' checkouts are in this database too: only these four are looked at.
    expect(await reconcileOnlinePayments(db(), now)).toBeGreaterThanOrEqual(3);
    expect(await reconcileOnlinePayments(db(), now)).toBe(0);
    expect(await confirmJobs(fresh.paymentId)).toHaveLength(0);
    for (const queued of [stale.paymentId, dayOld.paymentId, Number(noRef.id)])
      expect(await confirmJobs(queued)).toHaveLength(1);
    world.provider.lookUps = [{ state: "pending" }];
    await runQueuedConfirmations(app(), world, now);
    expect(await paymentRow(stale.paymentId)).toMatchObject({ state: "pending" });
    expect(await paymentRow(dayOld.paymentId)).toMatchObject({
      state: "cancelled",
      problem: "abandoned",
    });
    expect(await requestState(dayOld.requestId)).toBe("cancelled");
    expect(await paymentRow(Number(noRef.id))).toMatchObject({
      state: "cancelled",
      problem: "abandoned",
    });
    expect(await requestState(Number(noRef.top_up_request_id))).toBe("cancelled");
  });

  it("keeps a bounded part of a flood of forged notifications: a few an hour, the start of each body", async () => {
    const world = await onlineWorld(app());
    // A moment of the test's own, so that only its notifications fall in the hour it counts.
    const start = new Date("2031-03-01T10:00:00Z");
    const forge = (n: number) =>
      scriptedNotification("not-the-key", { id: `flood-${n}-${"x".repeat(3_000)}` });
    const receiveAt = (n: number, now: Date) =>
      receiveNotification(db(), { provider: "youcanpay", ...forge(n), now }, world.wiring);
    for (let n = 0; n < MAX_FORGED_KEPT_PER_HOUR + 5; n++)
      expect((await receiveAt(n, new Date(start.getTime() + n * 1000))).status).toBe(401);
    const keptSince = async (from: Date) =>
      db()
        .selectFrom("provider_notifications")
        .select("body")
        .where("outcome", "=", "badSignature")
        .where("received_at", ">=", from.toISOString())
        .execute();
    const kept = await keptSince(start);
    expect(kept).toHaveLength(MAX_FORGED_KEPT_PER_HOUR);
    expect(kept.every((row) => row.body.length === FORGED_BODY_KEPT_CHARS)).toBe(true);
    // The next hour keeps again.
    const later = new Date(start.getTime() + 2 * 60 * 60 * 1000);
    expect((await receiveAt(1_000, later)).status).toBe(401);
    expect(await keptSince(later)).toHaveLength(1);
  });
});
