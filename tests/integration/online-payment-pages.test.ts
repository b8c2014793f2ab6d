import { expect, it } from "vitest";
import { signIn } from "~/domain/accounts/accounts.server";
import { CONFIRM_JOB } from "~/domain/payments/online-payments";
import * as topUp from "~/routes/top-up";
import * as paymentPage from "~/routes/top-up-payment";
import { registeredCustomer } from "../support/account-fixtures";
import { onlineWorld, runQueuedConfirmations } from "../support/online-payment-fixtures";
import {
  contextFor,
  cookieHeader,
  postAction,
  routeArgs,
  settle,
  type ActionAnswer,
} from "../support/request-context";
import { describeEachDatabase } from "../support/test-database";

// The customer's side of paying online through the route modules: /dashboard/top-up's "Continue to
// payment" sends them to the provider, and /dashboard/top-up/payments/:id is where the provider sends
// them back (docs/online-payments.md).
describeEachDatabase("online payment pages", (app) => {
  let signIns = 0;
  async function customer() {
    const n = ++signIns;
    const email = `online${n}-${Date.now()}@example.com`;
    const userId = await registeredCustomer(app(), {
      name: "Online Buyer",
      email,
      password: "Online-pw-73915",
    });
    const result = await signIn(
      app(),
      { email, password: "Online-pw-73915" },
      { ip: `10.63.0.${n}` },
    );
    if (!result.ok) throw new Error("sign in failed");
    return { userId, cookie: cookieHeader(result.setCookies) };
  }
  async function load(route: { loader: (args: never) => unknown }, path: string, cookie: string) {
    const match = /^\/dashboard\/top-up\/payments\/([^/?]+)/.exec(path);
    return settle(async () =>
      route.loader(
        routeArgs({
          request: new Request(`http://localhost${path}`, { headers: { cookie } }),
          context: await contextFor(app(), { cookie }),
          params: match ? { id: match[1]! } : {},
        }),
      ),
    );
  }
  const confirmJobs = () =>
    app().db.selectFrom("jobs").select("payload").where("type", "=", CONFIRM_JOB).execute();

  it("sends the customer to the provider, brings them back, and shows the coins once credited", async () => {
    const world = await onlineWorld(app());
    app().paymentProviders = world.providers;
    const buyer = await customer();

    // "Continue to payment": the checkout made at the provider, the browser sent to its page.
    const started = (await postAction(
      app(),
      topUp,
      "/dashboard/top-up",
      { intent: "payOnline", methodId: String(world.methodId), coins: "5" },
      { cookie: buyer.cookie, ip: "203.0.113.7" },
    )) as Response;
    expect(started.status).toBe(302);
    const location = started.headers.get("location")!;
    expect(location).toMatch(/^https:\/\/pay\.example\/checkout\/ref-\d+$/);
    const [asked] = world.provider.started;
    expect(asked).toMatchObject({ amount: 5500, currency: "MAD", customerIp: "203.0.113.7" });
    const paymentPath = new URL(asked!.returnUrl).pathname;
    expect(paymentPath).toMatch(/^\/dashboard\/top-up\/payments\/\d+$/);

    // While it is pending, the top-up page points to it instead of the manual instructions.
    const topUpPage = (await load(topUp, "/dashboard/top-up", buyer.cookie)) as {
      current: unknown;
      pendingPaymentId: number | null;
    };
    expect(topUpPage.current).toBeNull();
    expect(`/dashboard/top-up/payments/${topUpPage.pendingPaymentId}`).toBe(paymentPath);

    // Back from the provider (its marker in the query): one confirmation asked, then the page's own
    // address, which only reads (looking again asks nothing more).
    const back = (await load(
      paymentPage,
      `${paymentPath}?transaction_id=txn-777`,
      buyer.cookie,
    )) as Response;
    expect(back.status).toBe(302);
    expect(back.headers.get("location")).toBe(paymentPath);
    const pending = (await load(paymentPage, paymentPath, buyer.cookie)) as {
      payment: { state: string; methodName: string; leftCheckout: boolean };
    };
    expect(pending.payment).toMatchObject({
      state: "pending",
      methodName: "Card (YouCan Pay)",
      leftCheckout: false,
    });
    await load(paymentPage, paymentPath, buyer.cookie);
    const jobs = await confirmJobs();
    expect(jobs).toHaveLength(1);
    expect(JSON.parse(jobs[0]!.payload)).toMatchObject({ captureHint: "txn-777" });

    // The worker's confirmation: paid, credited; the page shows the coins, the balance and the receipt.
    const reference = (
      await app()
        .db.selectFrom("top_up_requests")
        .select("reference")
        .where("user_id", "=", buyer.userId)
        .executeTakeFirstOrThrow()
    ).reference;
    world.provider.lookUps = [
      { state: "paid", amount: 5500, currency: "MAD", reference, captureRef: "txn-777" },
    ];
    await runQueuedConfirmations(app(), world);
    const paid = (await load(paymentPage, paymentPath, buyer.cookie)) as {
      payment: {
        state: string;
        creditedCoins: number;
        balanceCents: number;
        receiptNumber: string;
      };
    };
    expect(paid.payment).toMatchObject({ state: "paid", creditedCoins: 5, balanceCents: 500 });
    expect(paid.payment.receiptNumber).toMatch(/\S/);
    // Decided: a return now asks nothing more.
    await load(paymentPage, `${paymentPath}?transaction_id=txn-777`, buyer.cookie);
    expect(await confirmJobs()).toHaveLength(1);
  });

  it("says when the customer left the provider's page, and shows no one else's payment", async () => {
    const world = await onlineWorld(app(), "paypal");
    app().paymentProviders = world.providers;
    const buyer = await customer();
    const other = await customer();
    await postAction(
      app(),
      topUp,
      "/dashboard/top-up",
      { intent: "payOnline", methodId: String(world.methodId), coins: "5" },
      { cookie: buyer.cookie },
    );
    const [asked] = world.provider.started;
    expect(asked).toMatchObject({ amount: 500, currency: "EUR" });
    const paymentPath = new URL(asked!.returnUrl).pathname;
    const cancelled = new URL(asked!.cancelUrl);
    expect(cancelled.pathname).toBe(paymentPath);

    const back = (await load(
      paymentPage,
      `${cancelled.pathname}${cancelled.search}&token=ORDER-1`,
      buyer.cookie,
    )) as Response;
    expect(back.headers.get("location")).toBe(`${paymentPath}?left=1`);
    const left = (await load(paymentPage, `${paymentPath}?left=1`, buyer.cookie)) as {
      payment: { leftCheckout: boolean };
    };
    expect(left.payment.leftCheckout).toBe(true);

    // Another customer's payment, a return to it, and an id that is none: the 404 page.
    for (const path of [
      paymentPath,
      `${paymentPath}?token=ORDER-1`,
      "/dashboard/top-up/payments/x",
    ]) {
      const answer = (await load(paymentPage, path, other.cookie)) as { init: { status: number } };
      expect(answer.init.status, path).toBe(404);
    }
  });

  it("refuses a start the provider does not answer, on the form, with nothing charged", async () => {
    const world = await onlineWorld(app());
    app().paymentProviders = world.providers;
    world.provider.start = { ok: false, failure: "unavailable" };
    const buyer = await customer();
    const answer = (await postAction(
      app(),
      topUp,
      "/dashboard/top-up",
      { intent: "payOnline", methodId: String(world.methodId), coins: "5" },
      { cookie: buyer.cookie },
    )) as ActionAnswer;
    expect(answer.init?.status).toBeGreaterThanOrEqual(400);
    expect(answer.init?.status).toBeLessThan(500);
    expect(answer.data).toMatchObject({
      ok: false,
      message: "payments.errors.checkoutFailed",
      intent: "request",
    });
    // A typed amount out of the form's range is the form's own refusal, on its field.
    const typo = (await postAction(
      app(),
      topUp,
      "/dashboard/top-up",
      { intent: "payOnline", methodId: String(world.methodId), coins: "abc" },
      { cookie: buyer.cookie },
    )) as ActionAnswer;
    expect(typo.init?.status).toBe(400);
    expect(typo.data).toMatchObject({
      intent: "request",
      fieldErrors: { coins: expect.any(String) },
    });
  });
});
