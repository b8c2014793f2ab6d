import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { startFakePayPal, type FakePayPal } from "../../../../tests/support/fake-paypal";
import {
  startWebhookReceiver,
  type WebhookReceiver,
} from "../../../../tests/support/webhook-receiver";
import { fromPayPalValue, toPayPalValue } from "./paypal-amounts";
import { createPayPalProvider, paypalLocale, type PayPalProviderOptions } from "./paypal.server";
import type { CheckoutRequest, PaymentRef } from "./provider";

// The PayPal provider against the PayPal double over HTTP: each call as PayPal documents it, each
// failure as PayPal answers it.

let fake: FakePayPal;
let receiver: WebhookReceiver;
let clock = 0;
let nextPaymentId = 1;

beforeAll(async () => {
  fake = await startFakePayPal();
  receiver = await startWebhookReceiver();
});

afterAll(async () => {
  await fake.close();
  await receiver.close();
});

beforeEach(async () => {
  await fake.settled();
  fake.webhookUrl = null;
  fake.deliveryMode = "normal";
  receiver.received.length = 0;
});

function provider(options: PayPalProviderOptions = {}) {
  return createPayPalProvider({ now: () => clock, ...options });
}

function request(overrides: Partial<CheckoutRequest> = {}): CheckoutRequest {
  const paymentId = nextPaymentId++;
  return {
    paymentId,
    reference: `TU-${paymentId}K3Q9`,
    amount: 1234,
    currency: "EUR",
    returnUrl: `https://shop.example/dashboard/top-up/return/${paymentId}`,
    cancelUrl: `https://shop.example/dashboard/top-up/cancel/${paymentId}`,
    customerIp: "203.0.113.7",
    locale: "fr",
    ...overrides,
  };
}

/** A checkout started at the fake: the payment as the domain would hold it. */
async function started(paypal = provider(), overrides: Partial<CheckoutRequest> = {}) {
  const asked = request(overrides);
  const result = await paypal.startCheckout(fake.config(), asked);
  if (!result.ok) throw new Error(`start failed: ${result.failure} ${result.detail}`);
  const payment: PaymentRef = {
    paymentId: asked.paymentId,
    providerRef: result.providerRef,
    captureRef: null,
    reference: asked.reference,
    currency: asked.currency,
  };
  return { asked, result, payment };
}

function captureCalls(orderId: string) {
  return fake.requests.filter(
    (each) => each.method === "POST" && each.path === `/v2/checkout/orders/${orderId}/capture`,
  );
}

describe("PayPal amounts", () => {
  it("writes integer minor units as PayPal's decimal string", () => {
    expect(toPayPalValue(1234, "EUR")).toBe("12.34");
    expect(toPayPalValue(5, "EUR")).toBe("0.05");
    expect(toPayPalValue(0, "EUR")).toBe("0.00");
    expect(toPayPalValue(100, "MAD")).toBe("1.00");
    expect(toPayPalValue(1234, "JPY")).toBe("1234");
    for (const wrong of [-1, 1.5, Number.NaN, Infinity, 2 ** 53])
      expect(() => toPayPalValue(wrong, "EUR")).toThrow(RangeError);
  });

  it("reads PayPal's decimal strings exactly, and nothing else", () => {
    expect(fromPayPalValue("12.34", "EUR")).toBe(1234);
    expect(fromPayPalValue("12.3", "EUR")).toBe(1230);
    expect(fromPayPalValue("12", "EUR")).toBe(1200);
    expect(fromPayPalValue("0.05", "EUR")).toBe(5);
    expect(fromPayPalValue("1234", "JPY")).toBe(1234);
    for (const wrong of [
      "12.345",
      "-1.00",
      "1e3",
      " 12",
      "12.",
      ".5",
      "",
      "1,00",
      "0x10",
      "9007199254740993",
    ])
      expect(fromPayPalValue(wrong, "EUR"), wrong).toBeNull();
    expect(fromPayPalValue("12.3", "JPY")).toBeNull();
    expect(fromPayPalValue(12, "EUR")).toBeNull();
    for (const minor of [0, 1, 9, 10, 99, 100, 101, 123456789])
      expect(fromPayPalValue(toPayPalValue(minor, "EUR"), "EUR")).toBe(minor);
  });
});

describe("startCheckout", () => {
  it("creates an order to capture our reference's amount, and sends the customer to approve it", async () => {
    const { asked, result } = await started(provider(), { locale: "fr" });
    if (!result.ok) throw new Error("unreachable");
    const order = fake.orders.get(result.providerRef)!;
    expect(order).toMatchObject({
      status: "PAYER_ACTION_REQUIRED",
      currency: "EUR",
      value: "12.34",
      customId: asked.reference,
      invoiceId: asked.reference,
      returnUrl: asked.returnUrl,
      cancelUrl: asked.cancelUrl,
      locale: "fr-FR",
    });
    expect(result.redirectUrl).toBe(`${fake.url}/checkoutnow?token=${result.providerRef}`);
    expect(fake.requests.find((each) => each.path === "/v2/checkout/orders")).toBeDefined();
    expect(fake.requests.at(-1)).toMatchObject({ requestId: `create-${asked.paymentId}` });
  });

  it("asked again for the same payment (after a lost answer), gets the same order", async () => {
    const paypal = provider();
    const asked = request();
    const first = await paypal.startCheckout(fake.config(), asked);
    const count = fake.orders.size;
    const second = await paypal.startCheckout(fake.config(), asked);
    expect(second).toEqual(first);
    expect(fake.orders.size).toBe(count);
  });

  it("maps our languages to PayPal's locales", () => {
    expect(paypalLocale("fr")).toBe("fr-FR");
    expect(paypalLocale("ar")).toBe("ar-EG");
    expect(paypalLocale("en")).toBe("en-US");
    expect(paypalLocale("de")).toBe("en-US");
  });

  it("asks nothing of PayPal for an amount it cannot take", async () => {
    const before = fake.requests.length;
    expect(await provider().startCheckout(fake.config(), request({ amount: 0 }))).toMatchObject({
      ok: false,
      failure: "refused",
    });
    expect(fake.requests.length).toBe(before);
  });

  it("says unavailable on a 5xx and refused on PayPal's validation error", async () => {
    fake.failNext("POST /v2/checkout/orders", 500);
    expect(await provider().startCheckout(fake.config(), request())).toMatchObject({
      ok: false,
      failure: "unavailable",
      detail: "INTERNAL_SERVER_ERROR",
    });
    expect(
      await provider().startCheckout(fake.config(), request({ currency: "eur" as "EUR" })),
    ).toMatchObject({ ok: false, failure: "refused", detail: "INVALID_PARAMETER_VALUE" });
  });
});

describe("lookUp", () => {
  it("captures an approved order once; asked again, answers the same capture", async () => {
    const paypal = provider();
    const { payment, asked } = await started(paypal);
    fake.approve(payment.providerRef!);
    const first = await paypal.lookUp(fake.config(), payment);
    expect(first).toMatchObject({
      ok: true,
      state: "paid",
      reference: asked.reference,
      amount: 1234,
      currency: "EUR",
      refundedAmount: 0,
    });
    if (!first.ok) throw new Error("unreachable");
    expect(first.captureRef).toBe(fake.orders.get(payment.providerRef!)!.captureIds[0]);
    const second = await paypal.lookUp(fake.config(), { ...payment, captureRef: first.captureRef });
    expect(second).toEqual(first);
    expect(fake.orders.get(payment.providerRef!)!.captureIds).toHaveLength(1);
    expect(captureCalls(payment.providerRef!)).toEqual([
      expect.objectContaining({ requestId: `capture-${payment.paymentId}`, status: 201 }),
    ]);
  });

  /** A fetch that lets `before` change PayPal's side just before the capture call leaves. */
  function beforeCapture(before: (init: RequestInit) => Promise<void> | void): typeof fetch {
    return async (input, init) => {
      if (String(input).endsWith("/capture")) await before(init ?? {});
      return fetch(input, init);
    };
  }

  it("finds the capture another caller made between its read and its capture", async () => {
    const { payment } = await started();
    fake.approve(payment.providerRef!);
    const racing = provider({
      fetch: beforeCapture(async (init) => {
        const headers = {
          ...(init.headers as Record<string, string>),
          "PayPal-Request-Id": "other",
        };
        await fetch(`${fake.url}/v2/checkout/orders/${payment.providerRef}/capture`, {
          ...init,
          headers,
        });
      }),
    });
    expect(await racing.lookUp(fake.config(), payment)).toMatchObject({ ok: true, state: "paid" });
    expect(fake.orders.get(payment.providerRef!)!.captureIds).toHaveLength(1);
  });

  it("says pending when PayPal answers the capture ORDER_NOT_APPROVED", async () => {
    const { payment } = await started();
    fake.approve(payment.providerRef!);
    const unapproving = provider({
      fetch: beforeCapture(() => {
        fake.orders.get(payment.providerRef!)!.status = "PAYER_ACTION_REQUIRED";
      }),
    });
    expect(await unapproving.lookUp(fake.config(), payment)).toMatchObject({
      ok: true,
      state: "pending",
      detail: "ORDER_NOT_APPROVED",
    });
  });

  it("leaves an order the customer has not approved pending, and takes nothing", async () => {
    const paypal = provider();
    const { payment } = await started(paypal);
    expect(await paypal.lookUp(fake.config(), payment)).toMatchObject({
      ok: true,
      state: "pending",
      amount: 1234,
      captureRef: null,
    });
    expect(captureCalls(payment.providerRef!)).toHaveLength(0);
  });

  it("after a capture whose answer timed out, finds the capture that happened and makes no other", async () => {
    const { payment } = await started();
    fake.approve(payment.providerRef!);
    fake.setNextCaptureFailure("timeoutAfterCapture");
    const impatient = provider({ timeoutMs: 1_000 });
    expect(await impatient.lookUp(fake.config(), payment)).toMatchObject({
      ok: false,
      failure: "timeout",
    });
    expect(fake.orders.get(payment.providerRef!)!.captureIds).toHaveLength(1);
    const next = await provider().lookUp(fake.config(), payment);
    expect(next).toMatchObject({ ok: true, state: "paid", amount: 1234 });
    expect(fake.orders.get(payment.providerRef!)!.captureIds).toHaveLength(1);
    if (next.ok) expect(next.captureRef).toBe(fake.orders.get(payment.providerRef!)!.captureIds[0]);
    // The order read again is COMPLETED: the capture is found, not asked for a second time.
    expect(captureCalls(payment.providerRef!)).toEqual([
      expect.objectContaining({ requestId: `capture-${payment.paymentId}`, status: null }),
    ]);
  });

  it("says failed, with PayPal's reason, when the capture is declined", async () => {
    const paypal = provider();
    const { payment } = await started(paypal);
    fake.approve(payment.providerRef!);
    fake.setNextCaptureFailure("declined");
    expect(await paypal.lookUp(fake.config(), payment)).toMatchObject({
      ok: true,
      state: "failed",
      detail: "DECLINED",
    });
  });

  it("says failed on INSTRUMENT_DECLINED, with nothing captured", async () => {
    const paypal = provider();
    const { payment } = await started(paypal);
    fake.approve(payment.providerRef!);
    fake.setNextCaptureFailure("instrumentDeclined");
    expect(await paypal.lookUp(fake.config(), payment)).toMatchObject({
      ok: true,
      state: "failed",
      detail: "INSTRUMENT_DECLINED",
      captureRef: null,
      amount: 1234,
    });
    expect(fake.orders.get(payment.providerRef!)!.captureIds).toHaveLength(0);
  });

  it("says unavailable on a 5xx at capture, and the next look-up captures", async () => {
    const paypal = provider();
    const { payment } = await started(paypal);
    fake.approve(payment.providerRef!);
    fake.setNextCaptureFailure("5xx");
    expect(await paypal.lookUp(fake.config(), payment)).toMatchObject({
      ok: false,
      failure: "unavailable",
    });
    expect(await paypal.lookUp(fake.config(), payment)).toMatchObject({ ok: true, state: "paid" });
    expect(fake.orders.get(payment.providerRef!)!.captureIds).toHaveLength(1);
  });

  it("says pending for a pending capture, then paid once PayPal completes it", async () => {
    const paypal = provider();
    const { payment } = await started(paypal);
    fake.approve(payment.providerRef!);
    fake.setNextCaptureFailure("pending");
    const pending = await paypal.lookUp(fake.config(), payment);
    expect(pending).toMatchObject({ ok: true, state: "pending", detail: "PENDING_REVIEW" });
    if (!pending.ok) throw new Error("unreachable");
    expect(pending.captureRef).toEqual(expect.any(String));
    fake.completeCapture(pending.captureRef!);
    expect(await paypal.lookUp(fake.config(), payment)).toMatchObject({ state: "paid" });
  });

  it("reports the amount PayPal took, even when it differs from the one asked", async () => {
    const paypal = provider();
    const { payment } = await started(paypal);
    fake.approve(payment.providerRef!);
    fake.setNextCaptureAmount("9.99");
    expect(await paypal.lookUp(fake.config(), payment)).toMatchObject({
      state: "paid",
      amount: 999,
    });
  });

  it("says cancelled for a voided order, one PayPal no longer knows, and one never created", async () => {
    const paypal = provider();
    const voided = await started(paypal);
    fake.voidOrder(voided.payment.providerRef!);
    expect(await paypal.lookUp(fake.config(), voided.payment)).toMatchObject({
      state: "cancelled",
      detail: "VOIDED",
    });
    const forgotten = await started(paypal);
    fake.forgetOrder(forgotten.payment.providerRef!);
    expect(await paypal.lookUp(fake.config(), forgotten.payment)).toMatchObject({
      state: "cancelled",
      detail: "RESOURCE_NOT_FOUND",
    });
    expect(
      await paypal.lookUp(fake.config(), { ...forgotten.payment, providerRef: null }),
    ).toMatchObject({ state: "cancelled", detail: "NO_ORDER" });
  });

  it("answers each failure of PayPal's as the worker needs it", async () => {
    const paypal = provider();
    const { payment } = await started(paypal);
    const cases = [
      [503, "unavailable"],
      [429, "unavailable"],
      [403, "unauthorized"],
      [400, "refused"],
    ] as const;
    for (const [status, failure] of cases) {
      fake.failNext("GET /v2/checkout/orders/{id}", status);
      expect(await paypal.lookUp(fake.config(), payment), String(status)).toMatchObject({
        ok: false,
        failure,
      });
    }
  });

  it("says unavailable when PayPal cannot be reached", async () => {
    const result = await provider().lookUp(fake.config({ apiUrl: "http://127.0.0.1:9" }), {
      paymentId: 1,
      providerRef: "X",
      captureRef: null,
      reference: "TU-1",
      currency: "EUR",
    });
    expect(result).toMatchObject({ ok: false, failure: "unavailable" });
  });
});

describe("the access token", () => {
  it("is asked once, kept until shortly before it expires, then asked again", async () => {
    const paypal = provider();
    const before = fake.tokensIssued();
    const { payment } = await started(paypal);
    await paypal.lookUp(fake.config(), payment);
    expect(fake.tokensIssued()).toBe(before + 1);
    clock += (32_400 - 6 * 60) * 1000;
    await paypal.lookUp(fake.config(), payment);
    expect(fake.tokensIssued()).toBe(before + 1);
    clock += 2 * 60 * 1000;
    await paypal.lookUp(fake.config(), payment);
    expect(fake.tokensIssued()).toBe(before + 2);
  });

  it("refused with a 401, is dropped and asked again once", async () => {
    const paypal = provider();
    const { payment } = await started(paypal);
    const before = fake.tokensIssued();
    fake.revokeTokens();
    expect(await paypal.lookUp(fake.config(), payment)).toMatchObject({
      ok: true,
      state: "pending",
    });
    expect(fake.tokensIssued()).toBe(before + 1);
    const lookUps = fake.requests.filter(
      (each) => each.path === `/v2/checkout/orders/${payment.providerRef}`,
    );
    expect(lookUps.slice(-2).map((each) => each.status)).toEqual([401, 200]);
  });

  it("says unauthorized when the keys are wrong, or PayPal keeps refusing", async () => {
    // The same provider, its token earned with the right secret: the wrong one is still tried.
    const paypal = provider();
    const { payment } = await started(paypal);
    expect(await paypal.lookUp(fake.config({ secret: "wrong" }), payment)).toMatchObject({
      ok: false,
      failure: "unauthorized",
      detail: "invalid_client",
    });
    fake.failNext("GET /v2/checkout/orders/{id}", 401);
    fake.failNext("GET /v2/checkout/orders/{id}", 401);
    expect(await provider().lookUp(fake.config(), payment)).toMatchObject({
      ok: false,
      failure: "unauthorized",
    });
  });

  it("says unavailable, or timeout, when the token cannot be had", async () => {
    const { payment } = await started();
    fake.failNext("POST /v1/oauth2/token", 500);
    expect(await provider().lookUp(fake.config(), payment)).toMatchObject({
      ok: false,
      failure: "unavailable",
    });
    fake.failNext("POST /v1/oauth2/token", "timeout");
    expect(await provider({ timeoutMs: 200 }).lookUp(fake.config(), payment)).toMatchObject({
      ok: false,
      failure: "timeout",
    });
  });
});

describe("notifications", () => {
  /** The notifications PayPal posted for an approved and captured checkout. */
  async function paidWithNotifications() {
    fake.webhookUrl = receiver.url;
    const paypal = provider();
    const { payment } = await started(paypal);
    fake.approve(payment.providerRef!);
    const paid = await paypal.lookUp(fake.config(), payment);
    await fake.settled();
    return { paypal, payment, paid };
  }

  it("reads and verifies the events PayPal sends as it sends them", async () => {
    const { paypal, payment, paid } = await paidWithNotifications();
    if (!paid.ok) throw new Error("unreachable");
    expect(receiver.received).toHaveLength(2);
    const claims = [];
    for (const { headers, body } of receiver.received) {
      const read = paypal.readNotification(fake.config(), headers, body);
      if (!read.ok) throw new Error(read.refusal);
      claims.push(read.claim);
      expect(await paypal.verifyNotification(fake.config(), headers, body)).toEqual({
        ok: true,
        valid: true,
      });
    }
    expect(claims).toMatchObject([
      {
        eventType: "CHECKOUT.ORDER.APPROVED",
        kind: "payment",
        providerRef: payment.providerRef,
        captureRef: null,
      },
      {
        eventType: "PAYMENT.CAPTURE.COMPLETED",
        kind: "payment",
        providerRef: payment.providerRef,
        captureRef: paid.captureRef,
      },
    ]);
    expect(Object.keys(claims[0]!.headers).sort()).toEqual([
      "paypal-auth-algo",
      "paypal-cert-url",
      "paypal-transmission-id",
      "paypal-transmission-sig",
      "paypal-transmission-time",
    ]);
    expect(claims[0]!.eventId).toBe(fake.deliveries.at(-2)!.event.id);
  });

  it("finds forged, tampered and misaddressed notifications invalid", async () => {
    const { paypal } = await paidWithNotifications();
    const { headers, body } = receiver.received[1]!;
    const tampered = body.replace('"value":"12.34"', '"value":"99.99"');
    expect(tampered).not.toBe(body);
    expect(await paypal.verifyNotification(fake.config(), headers, tampered)).toEqual({
      ok: true,
      valid: false,
    });
    expect(
      await paypal.verifyNotification(fake.config({ webhookId: "OTHERWEBHOOK" }), headers, body),
    ).toEqual({ ok: true, valid: false });
    fake.deliveryMode = "forged";
    receiver.received.length = 0;
    const { payment } = await started(paypal);
    fake.approve(payment.providerRef!);
    await fake.settled();
    const forged = receiver.received[0]!;
    expect(paypal.readNotification(fake.config(), forged.headers, forged.body).ok).toBe(true);
    expect(await paypal.verifyNotification(fake.config(), forged.headers, forged.body)).toEqual({
      ok: true,
      valid: false,
    });
  });

  it("refuses one without its transmission headers, asking PayPal nothing", async () => {
    const { paypal } = await paidWithNotifications();
    const { headers, body } = receiver.received[0]!;
    const before = fake.requests.length;
    for (const name of Object.keys(headers).filter((each) => each.startsWith("paypal-"))) {
      const { [name]: _missing, ...rest } = headers;
      expect(paypal.readNotification(fake.config(), rest, body)).toEqual({
        ok: false,
        refusal: "badSignature",
      });
      expect(await paypal.verifyNotification(fake.config(), rest, body)).toEqual({
        ok: true,
        valid: false,
      });
    }
    expect(fake.requests.length).toBe(before);
  });

  it("says unavailable when PayPal cannot verify now", async () => {
    const { paypal } = await paidWithNotifications();
    const { headers, body } = receiver.received[0]!;
    fake.failNext("POST /v1/notifications/verify-webhook-signature", 503);
    expect(await paypal.verifyNotification(fake.config(), headers, body)).toMatchObject({
      ok: false,
      failure: "unavailable",
    });
  });

  const signed = {
    "paypal-auth-algo": "SHA256withRSA",
    "paypal-cert-url": "https://api.paypal.com/v1/notifications/certs/CERT",
    "paypal-transmission-id": "69cd13f0-d67a-11e5-baa3-778b53f4ae55",
    "paypal-transmission-sig": "c2lnbmF0dXJl",
    "paypal-transmission-time": "2026-12-01T10:00:00Z",
  };
  const event = (eventType: string, resource: Record<string, unknown>) =>
    JSON.stringify({ id: "WH-1", event_type: eventType, resource_type: "x", resource });
  const up = (collection: string, id: string) => ({
    rel: "up",
    method: "GET",
    href: `https://api.paypal.com/v2/${collection}/${id}`,
  });

  type Case = [string, Record<string, unknown>, string, string | null, string | null];
  it.each<Case>([
    ["CHECKOUT.ORDER.APPROVED", { id: "ORDER1" }, "payment", "ORDER1", null],
    ["CHECKOUT.PAYMENT-APPROVAL.REVERSED", { order_id: "ORDER1" }, "payment", "ORDER1", null],
    ...["COMPLETED", "PENDING", "DENIED", "DECLINED"].map((what): Case => [
      `PAYMENT.CAPTURE.${what}`,
      { id: "CAP1", supplementary_data: { related_ids: { order_id: "ORDER1" } } },
      "payment",
      "ORDER1",
      "CAP1",
    ]),
    [
      "PAYMENT.CAPTURE.REFUNDED",
      { id: "REF1", links: [up("payments/captures", "CAP1")] },
      "refund",
      null,
      "CAP1",
    ],
    [
      "PAYMENT.CAPTURE.REFUNDED",
      {
        id: "REF1",
        links: [up("payments/captures", "CAP1")],
        supplementary_data: { related_ids: { order_id: "ORDER1" } },
      },
      "refund",
      "ORDER1",
      "CAP1",
    ],
    [
      "PAYMENT.CAPTURE.REVERSED",
      {
        id: "CAP1",
        links: [up("checkout/orders", "ORDER1")],
        supplementary_data: { related_ids: { order_id: "ORDER1" } },
      },
      "reversal",
      "ORDER1",
      "CAP1",
    ],
    [
      "PAYMENT.CAPTURE.REVERSED",
      { id: "REV1", links: [up("payments/captures", "CAP1")] },
      "reversal",
      null,
      "CAP1",
    ],
    ["CUSTOMER.DISPUTE.CREATED", { dispute_id: "PP-D-1" }, "other", null, null],
  ])("reads %s as %s", (eventType, resource, kind, providerRef, captureRef) => {
    const read = provider().readNotification(fake.config(), signed, event(eventType, resource));
    expect(read).toEqual({
      ok: true,
      claim: { eventId: "WH-1", eventType, kind, providerRef, captureRef, headers: signed },
    });
  });

  it.each([
    ["not JSON", "{not json"],
    ["an array", "[]"],
    ["no id", JSON.stringify({ event_type: "CHECKOUT.ORDER.APPROVED", resource: {} })],
    ["no event type", JSON.stringify({ id: "WH-1", resource: {} })],
    ["no resource", JSON.stringify({ id: "WH-1", event_type: "CHECKOUT.ORDER.APPROVED" })],
    ["a resource not an object", JSON.stringify({ id: "WH-1", event_type: "X", resource: "x" })],
    ["an empty id", JSON.stringify({ id: "", event_type: "X", resource: {} })],
  ])("refuses %s as malformed", (_what, body) => {
    expect(provider().readNotification(fake.config(), signed, body)).toEqual({
      ok: false,
      refusal: "malformed",
    });
  });
});

describe("refund", () => {
  async function paid() {
    const paypal = provider();
    const { payment } = await started(paypal);
    fake.approve(payment.providerRef!);
    const looked = await paypal.lookUp(fake.config(), payment);
    if (!looked.ok) throw new Error("not paid");
    return { paypal, payment: { ...payment, captureRef: looked.captureRef } };
  }

  it("gives back part, then the rest, each once however often asked", async () => {
    const { paypal, payment } = await paid();
    const part = await paypal.refund(fake.config(), payment, 500, "refund-1");
    expect(part).toMatchObject({ ok: true, outcome: "refunded", refundRef: expect.any(String) });
    expect(await paypal.refund(fake.config(), payment, 500, "refund-1")).toEqual(part);
    expect(fake.captures.get(payment.captureRef!)!.refundIds).toHaveLength(1);
    expect(fake.refunds.get((part as { refundRef: string }).refundRef)).toMatchObject({
      value: "5.00",
    });
    expect(await paypal.lookUp(fake.config(), payment)).toMatchObject({
      state: "paid",
      refundedAmount: 500,
    });
    expect(await paypal.refund(fake.config(), payment, 734, "refund-2")).toMatchObject({
      outcome: "refunded",
    });
    expect(await paypal.lookUp(fake.config(), payment)).toMatchObject({
      state: "refunded",
      amount: 1234,
      refundedAmount: 1234,
    });
    expect(
      fake.requests.filter((each) => each.path.endsWith("/refund")).map((each) => each.requestId),
    ).toEqual(expect.arrayContaining(["refund-1", "refund-2"]));
  });

  it("says refused, with PayPal's issue, when PayPal will not refund", async () => {
    const { paypal, payment } = await paid();
    fake.refuseNextRefund();
    expect(await paypal.refund(fake.config(), payment, 1234, "refund-a")).toEqual({
      ok: false,
      failure: "refused",
      detail: "REFUND_TIME_LIMIT_EXCEEDED",
    });
    expect(await paypal.refund(fake.config(), payment, 2000, "refund-b")).toEqual({
      ok: false,
      failure: "refused",
      detail: "REFUND_AMOUNT_EXCEEDED",
    });
    expect(
      await paypal.refund(fake.config(), { ...payment, captureRef: null }, 100, "k"),
    ).toMatchObject({
      ok: false,
      failure: "refused",
    });
  });
});
