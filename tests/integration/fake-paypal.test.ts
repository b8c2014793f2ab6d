import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { MAX_DELIVERY_ATTEMPTS, startFakePayPal, type FakePayPal } from "../support/fake-paypal";
import { startWebhookReceiver, type WebhookReceiver } from "../support/webhook-receiver";

// The PayPal double's own behaviour that the provider's tests do not reach: its buyer's page, its
// idempotency keys, and how it delivers and retries notifications.

let fake: FakePayPal;
let receiver: WebhookReceiver;
let token = "";

// An answer's JSON, read loosely: what it must hold is said by each assertion.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Json = Record<string, any>;

async function api(method: string, path: string, body?: unknown, requestId?: string) {
  const response = await fetch(`${fake.url}${path}`, {
    method,
    headers: {
      Authorization: `Bearer ${token}`,
      "Content-Type": "application/json",
      Prefer: "return=representation",
      ...(requestId ? { "PayPal-Request-Id": requestId } : {}),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: response.status, body: (await response.json()) as Json };
}

async function order(value = "12.34") {
  const created = await api("POST", "/v2/checkout/orders", {
    intent: "CAPTURE",
    purchase_units: [{ custom_id: "TU-1", amount: { currency_code: "EUR", value } }],
    payment_source: {
      paypal: {
        experience_context: {
          return_url: "https://shop.example/return?payment=7",
          cancel_url: "https://shop.example/cancel",
          user_action: "PAY_NOW",
          locale: "fr-FR",
        },
      },
    },
  });
  return created.body.id as string;
}

beforeAll(async () => {
  fake = await startFakePayPal();
  receiver = await startWebhookReceiver();
  const answer = await fetch(`${fake.url}/v1/oauth2/token`, {
    method: "POST",
    headers: {
      Authorization: `Basic ${Buffer.from(`${fake.clientId}:${fake.secret}`).toString("base64")}`,
      "Content-Type": "application/x-www-form-urlencoded",
    },
    body: "grant_type=client_credentials",
  });
  token = ((await answer.json()) as { access_token: string }).access_token;
});

afterAll(async () => {
  await fake.close();
  await receiver.close();
});

beforeEach(async () => {
  // What the test before sent arrives first, not among this test's answers.
  await fake.settled();
  fake.webhookUrl = receiver.url;
  fake.deliveryMode = "normal";
  receiver.received.length = 0;
});

describe("the buyer's page", () => {
  it("shows the order with Pay and Cancel; Pay approves and sends the buyer back", async () => {
    const id = await order();
    const page = await fetch(`${fake.url}/checkoutnow?token=${id}`);
    const html = await page.text();
    expect(page.status).toBe(200);
    expect(html).toContain("12.34 EUR");
    expect(html).toContain('<button type="submit">Pay</button>');
    expect(html).toContain(`href="https://shop.example/cancel?token=${id}"`);
    const paid = await fetch(`${fake.url}/checkoutnow/approve`, {
      method: "POST",
      headers: { "Content-Type": "application/x-www-form-urlencoded" },
      body: `token=${id}`,
      redirect: "manual",
    });
    expect(paid.status).toBe(303);
    const back = new URL(paid.headers.get("location")!);
    expect(back.origin + back.pathname).toBe("https://shop.example/return");
    expect(back.searchParams.get("payment")).toBe("7");
    expect(back.searchParams.get("token")).toBe(id);
    expect(back.searchParams.get("PayerID")).toBe(fake.orders.get(id)!.payerId);
    expect(fake.orders.get(id)!.status).toBe("APPROVED");
    expect((await fetch(`${fake.url}/checkoutnow?token=${id}`)).status).toBe(409);
  });
});

describe("PayPal-Request-Id", () => {
  it("answers a capture asked again under the same id with the first result, and captures once", async () => {
    const id = await order();
    fake.approve(id);
    const first = await api("POST", `/v2/checkout/orders/${id}/capture`, {}, "capture-1");
    const again = await api("POST", `/v2/checkout/orders/${id}/capture`, {}, "capture-1");
    expect(first.status).toBe(201);
    expect(again).toEqual(first);
    expect(fake.orders.get(id)!.captureIds).toHaveLength(1);
    const other = await api("POST", `/v2/checkout/orders/${id}/capture`, {}, "capture-2");
    expect(other.status).toBe(422);
    expect(other.body).toMatchObject({
      name: "UNPROCESSABLE_ENTITY",
      details: [{ issue: "ORDER_ALREADY_CAPTURED" }],
      debug_id: expect.any(String),
    });
  });

  it("does not keep a 5xx: the same id is tried anew", async () => {
    const id = await order();
    fake.approve(id);
    fake.setNextCaptureFailure("5xx");
    expect((await api("POST", `/v2/checkout/orders/${id}/capture`, {}, "k")).status).toBe(500);
    expect((await api("POST", `/v2/checkout/orders/${id}/capture`, {}, "k")).status).toBe(201);
  });
});

describe("notifications", () => {
  it("keeps a delivery not answered 2xx and sends it again on redeliver, the same event", async () => {
    receiver.answer(500, 503);
    fake.approve(await order());
    await fake.settled();
    const delivery = fake.deliveries.at(-1)!;
    expect(delivery.state).toBe("failing");
    await fake.redeliver();
    expect(delivery.state).toBe("failing");
    await fake.redeliver();
    expect(delivery.state).toBe("delivered");
    expect(delivery.transmissions.map((each) => each.status)).toEqual([500, 503, 200]);
    const ids = receiver.received.map((each) => (JSON.parse(each.body) as { id: string }).id);
    expect(new Set(ids)).toEqual(new Set([delivery.event.id]));
    const transmissionIds = receiver.received.map((each) => each.headers["paypal-transmission-id"]);
    expect(new Set(transmissionIds).size).toBe(3);
    await fake.redeliver();
    expect(receiver.received).toHaveLength(3);
  });

  it(`gives up after ${MAX_DELIVERY_ATTEMPTS} attempts`, async () => {
    receiver.answer(...Array<number>(MAX_DELIVERY_ATTEMPTS).fill(500));
    fake.approve(await order());
    await fake.settled();
    const delivery = fake.deliveries.at(-1)!;
    for (let attempt = 1; attempt < MAX_DELIVERY_ATTEMPTS + 3; attempt++) await fake.redeliver();
    expect(delivery.transmissions).toHaveLength(MAX_DELIVERY_ATTEMPTS);
    expect(delivery.state).toBe("gaveUp");
  });

  it("sends twice, holds until released in any order, or drops, as told", async () => {
    fake.deliveryMode = "twice";
    fake.approve(await order());
    await fake.settled();
    expect(receiver.received).toHaveLength(2);
    expect(receiver.received[0]!.body).toBe(receiver.received[1]!.body);

    receiver.received.length = 0;
    fake.deliveryMode = "held";
    const first = await order();
    const second = await order();
    fake.approve(first);
    fake.approve(second);
    await fake.settled();
    expect(receiver.received).toHaveLength(0);
    const [heldFirst, heldSecond] = fake.deliveries.slice(-2);
    await fake.release(heldSecond!);
    await fake.release(heldFirst!.event.id);
    expect(
      receiver.received.map(
        (each) => (JSON.parse(each.body) as { resource: { id: string } }).resource.id,
      ),
    ).toEqual([second, first]);

    receiver.received.length = 0;
    fake.deliveryMode = "dropped";
    fake.approve(await order());
    await fake.settled();
    await fake.redeliver();
    expect(receiver.received).toHaveLength(0);
    expect(fake.deliveries.at(-1)!.state).toBe("dropped");
  });

  it("verifies only what it sent, with those exact headers, for its own webhook id", async () => {
    fake.approve(await order());
    await fake.settled();
    const { headers, body } = receiver.received[0]!;
    const verify = (overrides: Record<string, unknown>) =>
      api("POST", "/v1/notifications/verify-webhook-signature", {
        auth_algo: headers["paypal-auth-algo"],
        cert_url: headers["paypal-cert-url"],
        transmission_id: headers["paypal-transmission-id"],
        transmission_sig: headers["paypal-transmission-sig"],
        transmission_time: headers["paypal-transmission-time"],
        webhook_id: fake.webhookId,
        webhook_event: JSON.parse(body) as unknown,
        ...overrides,
      });
    expect((await verify({})).body).toEqual({ verification_status: "SUCCESS" });
    for (const wrong of [
      { webhook_id: "ANOTHERWEBHOOK" },
      { transmission_id: "69cd13f0-d67a-11e5-baa3-778b53f4ae55" },
      { transmission_time: "2026-12-02T10:00:00Z" },
      { transmission_sig: "c2lnbmF0dXJl" },
      { cert_url: "https://attacker.example/cert" },
      {
        webhook_event: { ...(JSON.parse(body) as object), event_type: "PAYMENT.CAPTURE.COMPLETED" },
      },
    ])
      expect((await verify(wrong)).body, JSON.stringify(wrong)).toEqual({
        verification_status: "FAILURE",
      });
    const missing = await verify({ webhook_event: undefined });
    expect(missing.status).toBe(400);
    expect(missing.body).toMatchObject({ name: "INVALID_REQUEST" });
  });
});
