import { expect, it } from "vitest";
import { signIn } from "~/domain/accounts/accounts.server";
import { confirmOnlinePayment } from "~/domain/payments/online-payment-confirm.server";
import { REFUND_JOB } from "~/domain/payments/online-payments";
import { runRefund, type RefundPayload } from "~/domain/payments/online-refunds.server";
import { registeredCustomer } from "../support/account-fixtures";
import { appFetch } from "../support/app-harness";
import { balanceOf } from "../support/money-fixtures";
import { receiveNotification } from "~/domain/payments/payment-notifications.server";
import {
  onlineWorld,
  runQueuedConfirmations,
  startedPayment,
  type OnlineWorld,
} from "../support/online-payment-fixtures";
import { scriptedNotification } from "../support/scripted-provider";
import { cookieHeader } from "../support/request-context";
import { describeEachDatabase, TEST_ADMIN } from "../support/test-database";

// /admin/top-ups' refunds of online payments, as requests reach the page: the payment shown on its
// request's row, the refund intent's refusals field by field, a partial and a full refund, and the
// provider's answers (refunded, refused with its reason, manual) shown to the admin.
describeEachDatabase("refunds on /admin/top-ups", (app) => {
  let signIns = 0;
  async function cookieOf(email: string, password: string) {
    const result = await signIn(app(), { email, password }, { ip: `10.63.0.${++signIns}` });
    if (!result.ok) throw new Error("sign in failed");
    return cookieHeader(result.setCookies);
  }
  const fetch = () => appFetch(app());

  /** A payment of 10 coins (110.00 MAD) credited, captured as `tx-<name>`. */
  async function paidPayment(world: OnlineWorld, name: string) {
    const payment = await startedPayment(app(), world, { coins: 10 });
    world.provider.lookUps = [
      { state: "paid", amount: 11_000, currency: "MAD", captureRef: `tx-${name}` },
    ];
    const outcome = await confirmOnlinePayment(
      app().db,
      { paymentId: payment.paymentId },
      { ...world.wiring, now: new Date() },
    );
    expect(outcome).toBe("credited");
    return payment;
  }

  /** The refund jobs waiting, run once each as the worker would. */
  async function runRefunds(world: OnlineWorld) {
    const jobs = await app()
      .db.selectFrom("jobs")
      .select(["id", "payload"])
      .where("type", "=", REFUND_JOB)
      .where("state", "=", "queued")
      .execute();
    for (const job of jobs) {
      await runRefund(app().db, JSON.parse(job.payload) as RefundPayload, {
        ...world.wiring,
        now: new Date(),
      });
      await app()
        .db.updateTable("jobs")
        .set({ state: "succeeded" })
        .where("id", "=", job.id)
        .execute();
    }
    return jobs.length;
  }

  const refundJobs = async () =>
    (await app().db.selectFrom("jobs").select("id").where("type", "=", REFUND_JOB).execute())
      .length;

  async function post(cookie: string, form: Record<string, string>, search = "") {
    return fetch()(`/admin/top-ups${search}`, { cookie, form });
  }
  async function page(cookie: string, reference: string) {
    const response = await fetch()(`/admin/top-ups?q=${reference}`, { cookie });
    expect(response.status).toBe(200);
    return response.text();
  }

  it("shows a paid payment and refuses each refund it cannot make, with a clear message", async () => {
    const world = await onlineWorld(app());
    const admin = await cookieOf(TEST_ADMIN.email, TEST_ADMIN.password);
    const paid = await paidPayment(world, "shown");
    const html = await page(admin, paid.reference);
    for (const text of [
      "YouCan Pay",
      "Paid online",
      "tx-shown",
      "Paid MAD",
      `Refund ${paid.reference}`,
    ])
      expect(html, text).toContain(text);

    const id = String(paid.paymentId);
    const refused: [Record<string, string>, number, string][] = [
      [{ amount: "ten" }, 400, "Type a number, such as 11.50"],
      [{ amount: "" }, 400, "Type an amount, such as 11.00."],
      [{ amount: "0" }, 400, "The amount must be more than 0"],
      [{ amount: "12.345" }, 400, "Use at most 2 decimals."],
      [{ amount: "110.01" }, 400, "The amount must be more than 0"],
      [{ amount: "1.00", paymentId: "999999" }, 404, "This payment does not exist."],
      [{ amount: "1.00", paymentId: "abc" }, 400, "This payment does not exist."],
    ];
    for (const [fields, status, message] of refused) {
      const answer = await post(admin, { intent: "refund", paymentId: id, ...fields });
      expect(answer.status, JSON.stringify(fields)).toBe(status);
      const body = await answer.text();
      expect(body, JSON.stringify(fields)).toContain(message);
    }
    // An unknown intent is a bad post, as before.
    expect((await post(admin, { intent: "explode", paymentId: id })).status).toBe(400);

    // A payment still pending cannot be refunded.
    const pending = await startedPayment(app(), world, { coins: 5 });
    const notPaid = await post(admin, {
      intent: "refund",
      paymentId: String(pending.paymentId),
      amount: "1.00",
    });
    expect(notPaid.status).toBe(409);
    expect(await notPaid.text()).toContain("Only a paid online payment can be refunded.");

    // A customer is turned away before anything is asked.
    const email = `refunder${signIns}@example.com`;
    await registeredCustomer(app(), { name: "Refunder", email, password: "Refund-pw-73915" });
    const customer = await cookieOf(email, "Refund-pw-73915");
    const asCustomer = await post(customer, { intent: "refund", paymentId: id, amount: "1.00" });
    expect(asCustomer.status).toBe(302);
    expect(asCustomer.headers.get("location")).toBe("/");
    expect(await refundJobs()).toBe(0);
    expect(await app().db.selectFrom("online_payment_refunds").select("id").execute()).toEqual([]);
  });

  it("refunds in part then in full, shows each outcome, and tells a manual or refused one clearly", async () => {
    const world = await onlineWorld(app());
    const admin = await cookieOf(TEST_ADMIN.email, TEST_ADMIN.password);
    const paid = await paidPayment(world, "parts");
    const id = String(paid.paymentId);

    // Half of it: back to the same page with a toast, the refund in progress, no second one meanwhile.
    const asked = await post(
      admin,
      { intent: "refund", paymentId: id, amount: "55,00" },
      `?q=${paid.reference}`,
    );
    expect(asked.status).toBe(302);
    expect(asked.headers.get("location")).toBe(`/admin/top-ups?q=${paid.reference}`);
    expect(asked.headers.get("set-cookie")).toContain("toast.refundAsked");
    let html = await page(admin, paid.reference);
    expect(html).toContain("Refund of MAD");
    expect(html).toContain("in progress");
    expect(html).not.toContain(`Refund ${paid.reference}`);
    const again = await post(admin, { intent: "refund", paymentId: id, amount: "1.00" });
    expect(again.status).toBe(409);
    expect(await again.text()).toContain("A refund of this payment is already under way.");

    world.provider.refunds = [{ ok: true, outcome: "refunded", refundRef: "rf-half" }];
    world.provider.lookUps = [
      {
        state: "paid",
        amount: 11_000,
        currency: "MAD",
        captureRef: "tx-parts",
        refundedAmount: 5_500,
      },
    ];
    expect(await runRefunds(world)).toBe(1);
    expect(await balanceOf(app(), paid.userId)).toBe(500);
    html = await page(admin, paid.reference);
    expect(html).toContain("Refunded so far: MAD");
    expect(html).toMatch(/MAD\s55\.00 refunded/);
    expect(html).toContain(`Refund ${paid.reference}`);

    // The rest, refused by the provider: its reason is shown, and the refund can be asked again.
    world.provider.refunds = [{ ok: false, failure: "refused", detail: "TRANSACTION_REFUSED" }];
    expect((await post(admin, { intent: "refund", paymentId: id, amount: "55.00" })).status).toBe(
      302,
    );
    await runRefunds(world);
    html = await page(admin, paid.reference);
    expect(html).toContain("refused by YouCan Pay");
    expect(html).toContain("TRANSACTION_REFUSED");
    expect(html).toContain(`Refund ${paid.reference}`);

    // Again, and YouCan Pay has no refund call: the admin is told to refund in its dashboard.
    world.provider.refunds = [{ ok: true, outcome: "manual" }];
    expect((await post(admin, { intent: "refund", paymentId: id, amount: "55.00" })).status).toBe(
      302,
    );
    await runRefunds(world);
    html = await page(admin, paid.reference);
    expect(html).toContain("to make in YouCan Pay&#x27;s dashboard");
    expect(html).toContain("YouCan Pay has no refund call: refund MAD");
    // Nothing was taken back for it yet.
    expect(await balanceOf(app(), paid.userId)).toBe(500);
    const states = await app()
      .db.selectFrom("online_payment_refunds")
      .select(["amount", "state", "detail"])
      .where("online_payment_id", "=", paid.paymentId)
      .orderBy("id")
      .execute();
    expect(states).toEqual([
      { amount: 5_500, state: "refunded", detail: null },
      { amount: 5_500, state: "refused", detail: "TRANSACTION_REFUSED" },
      { amount: 5_500, state: "manual", detail: null },
    ]);

    // The admin refunds the rest in the dashboard; its notification records it: refunded in full.
    const notice = scriptedNotification(world.providerSecret, {
      id: "evt-dashboard-refund",
      kind: "refund",
      captureRef: "tx-parts",
    });
    await receiveNotification(
      app().db,
      { provider: "youcanpay", headers: notice.headers, rawBody: notice.rawBody },
      world.wiring,
    );
    world.provider.lookUps = [
      {
        state: "refunded",
        amount: 11_000,
        currency: "MAD",
        captureRef: "tx-parts",
        refundedAmount: 11_000,
      },
    ];
    await runQueuedConfirmations(app(), world);
    expect(await balanceOf(app(), paid.userId)).toBe(0);
    html = await page(admin, paid.reference);
    expect(html).toContain("Refunded in full");
    expect(html).not.toContain("to make in YouCan Pay&#x27;s dashboard");
    expect(html).not.toContain(`Refund ${paid.reference}`);
    expect(
      (
        await app()
          .db.selectFrom("online_payment_refunds")
          .select("state")
          .where("online_payment_id", "=", paid.paymentId)
          .orderBy("id")
          .execute()
      ).map((row) => row.state),
    ).toEqual(["refunded", "refused", "refunded"]);
  });

  it("shows a payment that did not end in a credit, with why", async () => {
    const world = await onlineWorld(app());
    const admin = await cookieOf(TEST_ADMIN.email, TEST_ADMIN.password);
    const payment = await startedPayment(app(), world, { coins: 5 });
    // Paid, but less than asked: a mismatch, never credited.
    world.provider.lookUps = [
      { state: "paid", amount: 100, currency: "MAD", captureRef: "tx-odd" },
    ];
    await confirmOnlinePayment(
      app().db,
      { paymentId: payment.paymentId },
      { ...world.wiring, now: new Date() },
    );
    const html = await page(admin, payment.reference);
    expect(html).toContain("Failed");
    expect(html).toContain("Paid, but not the amount, currency or reference asked: not credited");
    expect(html).not.toContain(`Refund ${payment.reference}`);
  });
});
