import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { startFakeYouCanPay, type FakeYouCanPay } from "../../../../tests/support/fake-youcanpay";
import type { CheckoutRequest, PaymentRef } from "./provider";
import { createYouCanPayProvider, youCanPayProvider as provider } from "./youcanpay.server";

// YouCan Pay's client against its double over HTTP (tests/support/fake-youcanpay.ts): no database.

/** A webhook endpoint: records what YouCan Pay posts and answers the scripted status (then 200). */
interface Receiver {
  url: string;
  received: { headers: Record<string, string>; body: string }[];
  answers: number[];
  close(): Promise<void>;
}

async function startReceiver(): Promise<Receiver> {
  const received: Receiver["received"] = [];
  const answers: number[] = [];
  const server: Server = createServer((req, res) => {
    let body = "";
    req.on("data", (chunk: Buffer) => (body += chunk.toString("utf8")));
    req.on("end", () => {
      const headers: Record<string, string> = {};
      for (const [name, value] of Object.entries(req.headers))
        if (typeof value === "string") headers[name] = value;
      received.push({ headers, body });
      res.writeHead(answers.shift() ?? 200).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks/payments/youcanpay`,
    received,
    answers,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

let fake: FakeYouCanPay;
let receiver: Receiver;
let sequence = 0;

beforeAll(async () => {
  fake = await startFakeYouCanPay();
  receiver = await startReceiver();
});
afterAll(async () => {
  await fake.close();
  await receiver.close();
});
beforeEach(() => {
  fake.webhookUrl = receiver.url;
  receiver.received.length = 0;
  receiver.answers.length = 0;
  fake.requests.length = 0;
});
afterEach(() => fake.releaseAnswers());

function checkout(overrides: Partial<CheckoutRequest> = {}): CheckoutRequest {
  sequence += 1;
  return {
    paymentId: sequence,
    reference: `TU-YCP${sequence}`,
    amount: 2_000,
    currency: "MAD",
    returnUrl: `https://shop.example/dashboard/top-up/return?payment=${sequence}`,
    cancelUrl: `https://shop.example/dashboard/top-up?cancelled=${sequence}`,
    customerIp: "196.200.1.2",
    locale: "fr",
    ...overrides,
  };
}

/** A checkout started through the client: the request, the token, and where the customer is sent. */
async function started(overrides: Partial<CheckoutRequest> = {}) {
  const request = checkout(overrides);
  const result = await provider.startCheckout(fake.config(), request);
  if (!result.ok) throw new Error(`start failed: ${result.failure} ${result.detail}`);
  return { request, token: result.providerRef, redirectUrl: result.redirectUrl };
}

function refOf(
  request: CheckoutRequest,
  captureRef: string | null,
  token: string | null = null,
): PaymentRef {
  return {
    paymentId: request.paymentId,
    providerRef: token,
    captureRef,
    reference: request.reference,
    currency: request.currency,
  };
}

/** Presses a button of the payment form as the customer's browser does: where it sends them. */
async function press(token: string, button: "pay" | "decline" | "cancel") {
  const response = await fetch(`${fake.apiUrl}/payment-form/${token}/${button}`, {
    method: "POST",
    redirect: "manual",
  });
  return { status: response.status, location: response.headers.get("location") };
}

function transactionIdOf(location: string | null): string {
  const id = new URL(location ?? "").searchParams.get("transaction_id");
  if (!id) throw new Error(`no transaction id in ${location}`);
  return id;
}

describe("starting a checkout", () => {
  it("tokenizes with the SDK's body and sends the customer to the token's form in their language", async () => {
    const { request, token, redirectUrl } = await started();
    expect(fake.requests).toEqual([
      {
        method: "POST",
        path: "/api/tokenize",
        body: {
          pri_key: fake.privateKey,
          order_id: request.reference,
          amount: "2000",
          currency: "MAD",
          customer_ip: "196.200.1.2",
          success_url: request.returnUrl,
          error_url: request.returnUrl,
          metadata: { payment_id: request.paymentId },
        },
      },
    ]);
    expect(fake.tokens.get(token)).toMatchObject({ orderId: request.reference, amount: 2_000 });
    expect(redirectUrl).toBe(`${fake.apiUrl}/payment-form/${token}?lang=fr`);
    const form = await fetch(redirectUrl);
    expect(form.status).toBe(200);
    expect(await form.text()).toContain(">Pay</button>");
  });

  it("asks for the form in English when the customer's language is not one it has", async () => {
    const { token, redirectUrl } = await started({ locale: "de" });
    expect(redirectUrl).toBe(`${fake.apiUrl}/payment-form/${token}?lang=en`);
  });

  it("maps YouCan Pay's refusals and failures", async () => {
    const wrongKey = await provider.startCheckout(fake.config({ secret: "pri_wrong" }), checkout());
    expect(wrongKey).toEqual({ ok: false, failure: "unauthorized", detail: "Unauthenticated." });

    const tooSmall = await provider.startCheckout(fake.config(), checkout({ amount: 10 }));
    expect(tooSmall).toEqual({
      ok: false,
      failure: "refused",
      detail: "the amount is less than minimum transaction amount",
    });

    fake.failNext("/api/tokenize", 503);
    const down = await provider.startCheckout(fake.config(), checkout());
    expect(down).toMatchObject({ ok: false, failure: "unavailable" });

    fake.failNext("/api/tokenize", 200, { token: {} });
    const noToken = await provider.startCheckout(fake.config(), checkout());
    expect(noToken).toEqual({
      ok: false,
      failure: "unavailable",
      detail: "no token in the answer",
    });

    const nowhere = await provider.startCheckout(
      fake.config({ apiUrl: "http://127.0.0.1:1" }),
      checkout(),
    );
    expect(nowhere).toMatchObject({ ok: false, failure: "unavailable" });
  });

  it("answers timeout when the answer does not come, though the token was made", async () => {
    const impatient = createYouCanPayProvider({ timeoutMs: 50 });
    fake.holdNext("/api/tokenize");
    const request = checkout();
    const result = await impatient.startCheckout(fake.config(), request);
    expect(result).toMatchObject({ ok: false, failure: "timeout" });
    expect(fake.heldAnswers()).toBe(1);
    expect([...fake.tokens.values()].some((t) => t.orderId === request.reference)).toBe(true);
  });
});

describe("looking a payment up", () => {
  it("reads a payment made on the form by the transaction id the return carries", async () => {
    const { request, token } = await started();
    const { status, location } = await press(token, "pay");
    expect(status).toBe(302);
    expect(location).toMatch(
      /^https:\/\/shop\.example\/dashboard\/top-up\/return\?payment=\d+&transaction_id=/,
    );
    const transactionId = transactionIdOf(location);

    fake.requests.length = 0;
    const answer = await provider.lookUp(fake.config(), refOf(request, transactionId, token));
    expect(answer).toEqual({
      ok: true,
      state: "paid",
      reference: request.reference,
      amount: 2_000,
      currency: "MAD",
      captureRef: transactionId,
      refundedAmount: 0,
    });
    expect(fake.requests).toEqual([
      {
        method: "GET",
        path: `/api/transactions/${transactionId}?pri_key=${fake.privateKey}`,
        body: null,
      },
    ]);
  });

  it("refuses a transaction id that names another order", async () => {
    const mine = await started();
    const theirs = await started();
    const { location } = await press(theirs.token, "pay");
    const answer = await provider.lookUp(
      fake.config(),
      refOf(mine.request, transactionIdOf(location)),
    );
    expect(answer).toEqual({ ok: false, failure: "refused", detail: "reference mismatch" });
  });

  it("reads a declined attempt as failed, and the payment after it as paid", async () => {
    const { request, token } = await started();
    const declined = await press(token, "decline");
    expect(declined.status).toBe(302);
    const back = new URL(declined.location ?? "");
    expect(back.searchParams.get("message")).toBe("The card was declined.");
    const failed = await provider.lookUp(
      fake.config(),
      refOf(request, transactionIdOf(declined.location)),
    );
    expect(failed).toMatchObject({ ok: true, state: "failed", reference: request.reference });

    const paid = await press(token, "pay");
    const answer = await provider.lookUp(
      fake.config(),
      refOf(request, transactionIdOf(paid.location)),
    );
    expect(answer).toMatchObject({ ok: true, state: "paid" });
    expect((await press(token, "pay")).status).toBe(409);

    // The declined attempt's id, the one the customer's first return carried, finds the payment too;
    // when the order's attempts cannot be listed, the declined one is the answer.
    const firstReturn = refOf(request, transactionIdOf(declined.location));
    expect(await provider.lookUp(fake.config(), firstReturn)).toMatchObject({
      ok: true,
      state: "paid",
      captureRef: transactionIdOf(paid.location),
    });
    fake.failNext("/api/transactions", 503);
    expect(await provider.lookUp(fake.config(), firstReturn)).toMatchObject({
      ok: true,
      state: "failed",
      captureRef: firstReturn.captureRef,
    });
  });

  it("sends a customer who cancels back with no transaction", async () => {
    const { request, token } = await started();
    const { status, location } = await press(token, "cancel");
    expect(status).toBe(302);
    expect(location).toBe(request.returnUrl);
  });

  it("finds the order's transaction in the account's list when no transaction id is known", async () => {
    const { request, token } = await started();
    const before = await provider.lookUp(fake.config(), refOf(request, null, token));
    expect(before).toMatchObject({ ok: true, state: "pending", captureRef: null, amount: 0 });

    await fake.decline(token);
    fake.deliverNext("dropped");
    const { transaction } = await fake.pay(token);
    fake.requests.length = 0;
    const after = await provider.lookUp(fake.config(), refOf(request, null, token));
    expect(after).toMatchObject({
      ok: true,
      state: "paid",
      reference: request.reference,
      captureRef: transaction.id,
      amount: 2_000,
    });
    expect(fake.requests.map((r) => r.path)).toEqual([
      `/api/transactions?pri_key=${fake.privateKey}`,
    ]);
  });

  it("reports the amount actually paid, and a refund made in the dashboard", async () => {
    const { request, token } = await started();
    fake.nextPaidAmount(1_999);
    const { transaction } = await fake.pay(token);
    expect(await provider.lookUp(fake.config(), refOf(request, transaction.id))).toMatchObject({
      ok: true,
      state: "paid",
      amount: 1_999,
    });
    await fake.refund(transaction.id);
    expect(await provider.lookUp(fake.config(), refOf(request, transaction.id))).toMatchObject({
      ok: true,
      state: "refunded",
      amount: 1_999,
      refundedAmount: 1_999,
    });
  });

  it("reads the amount as each source writes it, and an unknown status as still pending", async () => {
    const request = checkout();
    const ref = refOf(request, "t-1");
    const answer = (fields: Record<string, unknown>) => {
      fake.failNext("/api/transactions/*", 200, {
        id: "t-1",
        order_id: request.reference,
        status: 1,
        amount: "2000",
        currency: "MAD",
        base_amount: null,
        base_currency: null,
        created_at: "2026-01-01 10:00:00",
        ...fields,
      });
      return provider.lookUp(fake.config(), ref);
    };
    expect(await answer({})).toMatchObject({ ok: true, state: "paid", amount: 2_000 });
    expect(await answer({ amount: 2_000 })).toMatchObject({ ok: true, amount: 2_000 });
    expect(await answer({ amount: "20.00" })).toMatchObject({ ok: true, amount: 2_000 });
    expect(await answer({ amount: "20.5" })).toMatchObject({ ok: true, amount: 2_050 });
    expect(await answer({ status: "1" })).toMatchObject({ ok: true, state: "paid" });
    expect(await answer({ status: -1 })).toMatchObject({ ok: true, state: "cancelled" });
    expect(await answer({ status: 7 })).toMatchObject({
      ok: true,
      state: "pending",
      detail: "unknown status 7",
    });
    for (const amount of ["20,00", "-5", "2e3", null])
      expect(await answer({ amount }), String(amount)).toMatchObject({
        ok: false,
        failure: "unavailable",
      });
    expect(await answer({ order_id: undefined })).toMatchObject({
      ok: false,
      failure: "unavailable",
    });
  });

  it("maps an unknown id, a bad key, a server error and a timeout", async () => {
    const { request, token } = await started();
    const { transaction } = await fake.pay(token);
    const ref = refOf(request, transaction.id);

    expect(await provider.lookUp(fake.config(), refOf(request, "no-such-transaction"))).toEqual({
      ok: false,
      failure: "refused",
      detail: "Transaction not found.",
    });
    expect(await provider.lookUp(fake.config({ secret: "pri_wrong" }), ref)).toMatchObject({
      ok: false,
      failure: "unauthorized",
    });
    fake.failNext("/api/transactions/*", 500);
    expect(await provider.lookUp(fake.config(), ref)).toMatchObject({
      ok: false,
      failure: "unavailable",
    });
    fake.failNext("/api/transactions/*", 422, {
      success: false,
      message: "invalid id",
      code: "001",
    });
    expect(await provider.lookUp(fake.config(), ref)).toEqual({
      ok: false,
      failure: "refused",
      detail: "invalid id",
    });

    fake.holdNext("/api/transactions/*");
    const impatient = createYouCanPayProvider({ timeoutMs: 50 });
    expect(await impatient.lookUp(fake.config(), ref)).toMatchObject({
      ok: false,
      failure: "timeout",
    });
  });
});

describe("notifications", () => {
  async function paidNotification() {
    const { request, token } = await started();
    const { transaction } = await fake.pay(token);
    const delivered = receiver.received.at(-1)!;
    return { request, token, transaction, headers: delivered.headers, body: delivered.body };
  }

  it("reads a signed transaction.paid: its event, token, transaction and our reference", async () => {
    const { request, token, transaction, headers, body } = await paidNotification();
    expect(headers["x-youcanpay-signature"]).toMatch(/^[0-9a-f]{64}$/);
    const read = provider.readNotification(fake.config(), headers, body);
    expect(read).toEqual({
      ok: true,
      claim: {
        eventId: (JSON.parse(body) as { id: string }).id,
        eventType: "transaction.paid",
        kind: "payment",
        providerRef: token,
        captureRef: transaction.id,
        reference: request.reference,
        headers: { "x-youcanpay-signature": headers["x-youcanpay-signature"] },
      },
    });
    expect(await provider.verifyNotification(fake.config(), headers, body)).toEqual({
      ok: true,
      valid: true,
    });
  });

  it("refuses a forged signature, a missing one, and a body altered after signing", async () => {
    const { headers, body } = await paidNotification();
    const config = fake.config();

    const altered = body.replace('"amount":"2000"', '"amount":"200000"');
    expect(altered).not.toBe(body);
    expect(provider.readNotification(config, headers, altered)).toEqual({
      ok: false,
      refusal: "badSignature",
    });
    expect(provider.readNotification(config, {}, body)).toEqual({
      ok: false,
      refusal: "badSignature",
    });
    expect(provider.readNotification(config, { "x-youcanpay-signature": "not hex" }, body)).toEqual(
      { ok: false, refusal: "badSignature" },
    );
    expect(
      provider.readNotification(
        config,
        { "x-youcanpay-signature": fake.sign(body, "pri_other") },
        body,
      ),
    ).toEqual({ ok: false, refusal: "badSignature" });
    expect(await provider.verifyNotification(config, headers, altered)).toEqual({
      ok: true,
      valid: false,
    });

    fake.deliverNext("forged");
    const { token } = await started();
    await fake.pay(token);
    const forged = receiver.received.at(-1)!;
    expect(provider.readNotification(config, forged.headers, forged.body)).toEqual({
      ok: false,
      refusal: "badSignature",
    });
  });

  it("refuses a well-signed body that is not an event it can read", async () => {
    const config = fake.config();
    const signed = (body: string) =>
      provider.readNotification(config, { "x-youcanpay-signature": fake.sign(body) }, body);
    const transaction = {
      id: "t-1",
      order_id: "TU-AAAAA",
      status: 1,
      amount: "2000",
      currency: "MAD",
    };
    for (const body of [
      "not json",
      "[]",
      JSON.stringify({ event_name: "transaction.paid", payload: { transaction } }),
      JSON.stringify({ id: "e-1", payload: { transaction } }),
      JSON.stringify({ id: "e-1", event_name: "transaction.paid" }),
      JSON.stringify({ id: "e-1", event_name: "transaction.paid", payload: {} }),
      JSON.stringify({
        id: "e-1",
        event_name: "transaction.paid",
        payload: { transaction: { ...transaction, order_id: "" } },
      }),
    ])
      expect(signed(body), body).toEqual({ ok: false, refusal: "malformed" });
  });

  it("maps each event to what it is about", async () => {
    const { request, token } = await started();
    const { transaction: failed } = await fake.decline(token);
    const { transaction: paid } = await fake.pay(token);
    await fake.refund(paid.id);
    const config = fake.config();
    const claims = receiver.received.map((r) =>
      provider.readNotification(config, r.headers, r.body),
    );
    expect(claims).toMatchObject([
      {
        ok: true,
        claim: { eventType: "transaction.failed", kind: "payment", captureRef: failed.id },
      },
      { ok: true, claim: { eventType: "transaction.paid", kind: "payment", captureRef: paid.id } },
      {
        ok: true,
        claim: {
          eventType: "transaction.refunded",
          kind: "refund",
          captureRef: paid.id,
          reference: request.reference,
        },
      },
    ]);

    const other = JSON.stringify({
      id: "e-9",
      event_name: "withdrawal.created",
      sandbox: true,
      payload: {},
    });
    expect(
      provider.readNotification(config, { "x-youcanpay-signature": fake.sign(other) }, other),
    ).toEqual({
      ok: true,
      claim: {
        eventId: "e-9",
        eventType: "withdrawal.created",
        kind: "other",
        providerRef: null,
        captureRef: null,
        reference: null,
        headers: { "x-youcanpay-signature": fake.sign(other) },
      },
    });
  });
});

describe("the double's deliveries", () => {
  it("sends one notification twice, holds and releases others out of order, loses a dropped one", async () => {
    const a = await started();
    const b = await started();
    const c = await started();
    fake.deliverNext("twice", "held", "held", "dropped");
    await fake.pay(a.token);
    await fake.pay(b.token);
    await fake.pay(c.token);
    const d = await started();
    await fake.pay(d.token);
    const e = await started();
    await fake.pay(e.token);
    const orderOf = (body: string) =>
      (JSON.parse(body) as { payload: { transaction: { order_id: string } } }).payload.transaction
        .order_id;
    expect(receiver.received.map((r) => orderOf(r.body))).toEqual([
      a.request.reference,
      a.request.reference,
      e.request.reference,
    ]);
    expect(receiver.received[0]!.body).toBe(receiver.received[1]!.body);

    await fake.releaseHeld({ reverse: true });
    expect(receiver.received.slice(3).map((r) => orderOf(r.body))).toEqual([
      c.request.reference,
      b.request.reference,
    ]);
    await fake.redeliver();
    expect(receiver.received).toHaveLength(5);
  });

  it("keeps a notification the webhook did not take until the test asks to send it again", async () => {
    const { token } = await started();
    receiver.answers.push(500);
    await fake.pay(token);
    expect(fake.deliveries.at(-1)).toMatchObject({ status: 500 });
    await fake.redeliver();
    expect(fake.deliveries.at(-1)).toMatchObject({ status: 200 });
    expect(receiver.received.at(-1)!.body).toBe(receiver.received.at(-2)!.body);
    await fake.redeliver();
    expect(receiver.received).toHaveLength(2);
  });
});

describe("refunds", () => {
  it("are made in YouCan Pay's dashboard: the client says so without a call", async () => {
    const { request, token } = await started();
    const { transaction } = await fake.pay(token);
    fake.requests.length = 0;
    expect(
      await provider.refund(fake.config(), refOf(request, transaction.id), 2_000, "refund-1"),
    ).toEqual({
      ok: true,
      outcome: "manual",
    });
    expect(fake.requests).toEqual([]);
  });
});
