import { randomBytes } from "node:crypto";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { fromPayPalValue, toPayPalValue } from "~/domain/payments/providers/paypal-amounts";
import type { ProviderConfig } from "~/domain/payments/providers/provider";
import { buyerPage, closedPage } from "./fake-paypal/pages";
import {
  captureJson as renderCapture,
  errorBody,
  isObject,
  link,
  orderJson as renderOrder,
  PayPalHttpError,
  paypalId,
  refundJson as renderRefund,
  TIME,
  type FakeCapture,
  type FakeOrder,
  type FakeRefund,
  type FakeStore,
  type Json,
  type Reply,
} from "./fake-paypal/representations";
import {
  WebhookSender,
  type DeliveryMode,
  type FakeDelivery,
  type FakeWebhookEvent,
  type VerifyRequest,
} from "./fake-paypal/webhooks";

export { MAX_DELIVERY_ATTEMPTS } from "./fake-paypal/webhooks";
export type { DeliveryMode, FakeDelivery, FakeWebhookEvent } from "./fake-paypal/webhooks";
export type {
  FakeCapture,
  FakeOrder,
  FakeRefund,
  OrderStatus,
} from "./fake-paypal/representations";

/*
 * A stand-in for PayPal's REST API (Orders v2, Payments v2, OAuth, webhook verification) and its
 * buyer's page, on 127.0.0.1, written from PayPal's documentation:
 *
 * - POST /v1/oauth2/token: Basic client id:secret and grant_type=client_credentials, else 401
 *   `{error: "invalid_client"}` (400 `unsupported_grant_type`). Tokens live until `revokeTokens()`.
 * - Every other call wants `Authorization: Bearer <token>`: none is 401 AUTHENTICATION_FAILURE, an
 *   unknown one 401 `{error: "invalid_token"}`.
 * - POST /v2/checkout/orders (201; PAYER_ACTION_REQUIRED with a `payer-action` link when
 *   payment_source.paypal.experience_context is given, else CREATED with an `approve` link);
 *   GET /v2/checkout/orders/{id} (404 RESOURCE_NOT_FOUND); POST …/{id}/capture (201 with the order;
 *   422 ORDER_NOT_APPROVED before approval, ORDER_ALREADY_CAPTURED after); GET
 *   /v2/payments/captures/{id}; POST /v2/payments/captures/{id}/refund (201; 422
 *   CAPTURE_FULLY_REFUNDED, REFUND_AMOUNT_EXCEEDED); POST /v1/notifications/verify-webhook-signature.
 * - Errors are PayPal's body: `{name, message, debug_id, details: [{issue, description}], links}`.
 * - `PayPal-Request-Id` on a POST: the same id on the same path answers the first result again (even
 *   one the client never read because it timed out); a 5xx is not kept, so a retry is done anew.
 * - The buyer's page: the approval link is `<fake>/checkoutnow?token=<order id>`, an HTML page with a
 *   "Pay" button (approves, then 303 to return_url?token=<id>&PayerID=<payer>) and a "Cancel" link
 *   (cancel_url?token=<id>, the order left as it is, as PayPal does).
 * - Notifications (fake-paypal/webhooks.ts): set `webhookUrl`; approving sends CHECKOUT.ORDER.APPROVED,
 *   a capture PAYMENT.CAPTURE.COMPLETED / .PENDING / .DENIED, a refund PAYMENT.CAPTURE.REFUNDED,
 *   `reverse()` PAYMENT.CAPTURE.REVERSED; `deliveryMode` says how they travel.
 *
 * Controls: approve, voidOrder, forgetOrder, setNextCaptureFailure, setNextCaptureAmount,
 * completeCapture, failNext, refuseNextRefund, refundFromDashboard, reverse, revokeTokens, and for
 * notifications release, redeliver, settled, sendEvent. Everything it keeps is open to read.
 */

export type CaptureFailure =
  /** The capture is made DECLINED (201, order COMPLETED) and PAYMENT.CAPTURE.DENIED sent. */
  | "declined"
  /** The capture is made PENDING (an eCheck, a review) until `completeCapture`. */
  | "pending"
  /** 422 INSTRUMENT_DECLINED with a `redirect` link; nothing captured, the order stays APPROVED. */
  | "instrumentDeclined"
  /** 500 INTERNAL_SERVER_ERROR before anything is done. */
  | "5xx"
  /** The capture is done and kept under its PayPal-Request-Id, and the answer never sent. */
  | "timeoutAfterCapture";

/** A route as failNext names it: "POST /v2/checkout/orders/{id}/capture", "POST /v1/oauth2/token"… */
export type FakeRoute =
  | "POST /v1/oauth2/token"
  | "POST /v2/checkout/orders"
  | "GET /v2/checkout/orders/{id}"
  | "POST /v2/checkout/orders/{id}/capture"
  | "GET /v2/payments/captures/{id}"
  | "POST /v2/payments/captures/{id}/refund"
  | "POST /v1/notifications/verify-webhook-signature";

export interface FakeRequest {
  method: string;
  path: string;
  requestId: string | null;
  /** The HTTP status answered, null while held or never answered. */
  status: number | null;
}

export interface FakePayPalOptions {
  clientId?: string;
  secret?: string;
  webhookId?: string;
  /** `expires_in` of the tokens it gives (default 32,400 s, as PayPal). */
  tokenLifetimeSeconds?: number;
}

export interface FakePayPal {
  /** The API address (no trailing slash): the provider's `apiUrl`. */
  url: string;
  clientId: string;
  secret: string;
  webhookId: string;
  /** A provider connection pointing at the fake, with the right keys (override any field). */
  config(overrides?: Partial<ProviderConfig>): ProviderConfig;
  orders: Map<string, FakeOrder>;
  captures: Map<string, FakeCapture>;
  refunds: Map<string, FakeRefund>;
  /** Every request received, in order. */
  requests: FakeRequest[];
  /** The buyer approves on PayPal's page (CHECKOUT.ORDER.APPROVED is sent). */
  approve(orderId: string): void;
  /** PayPal voids the order (the buyer never paid, or it expired). */
  voidOrder(orderId: string): void;
  /** PayPal no longer knows the order: GET answers 404 RESOURCE_NOT_FOUND. */
  forgetOrder(orderId: string): void;
  setNextCaptureFailure(failure: CaptureFailure): void;
  /** The next capture takes this PayPal value ("9.99") instead of the order's. */
  setNextCaptureAmount(value: string): void;
  /** A PENDING capture completes (PAYMENT.CAPTURE.COMPLETED is sent). */
  completeCapture(captureId: string): void;
  /** The next request to `route` gets this status (PayPal's error body), or no answer at all. */
  failNext(route: FakeRoute, status: number | "timeout"): void;
  /** The next refund is answered 422 with this issue (default REFUND_TIME_LIMIT_EXCEEDED). */
  refuseNextRefund(issue?: string): void;
  /** The merchant refunds in PayPal's dashboard (PAYMENT.CAPTURE.REFUNDED is sent). */
  refundFromDashboard(captureId: string, value?: string): FakeRefund;
  /** A chargeback: PAYMENT.CAPTURE.REVERSED is sent and the capture counts as refunded. */
  reverse(captureId: string): void;
  /** Every token given so far stops working (the next call is answered 401 invalid_token). */
  revokeTokens(): void;
  /** How many tokens were given. */
  tokensIssued(): number;
  /** Where notifications are posted (null: none sent). */
  webhookUrl: string | null;
  /** How the next notifications travel, or a function deciding it for each event. */
  deliveryMode: DeliveryMode | ((event: FakeWebhookEvent) => DeliveryMode);
  deliveries: FakeDelivery[];
  /** Posts held notifications: the one given (or its event id), else every held one in order. */
  release(which?: FakeDelivery | string): Promise<void>;
  /** Posts again every notification not yet answered 2xx (PayPal's retry, on the test's clock). */
  redeliver(): Promise<void>;
  /** Resolves once every notification under way has been answered. */
  settled(): Promise<void>;
  /** Sends any event (an unknown type, a hand-made resource). */
  sendEvent(eventType: string, resource: Record<string, unknown>): FakeDelivery | null;
  close(): Promise<void>;
}

export async function startFakePayPal(options: FakePayPalOptions = {}): Promise<FakePayPal> {
  const clientId = options.clientId ?? `AfakeClient${paypalId(12)}`;
  const secret = options.secret ?? `EfakeSecret${randomBytes(16).toString("hex")}`;
  const webhookId = options.webhookId ?? paypalId(17);
  const lifetime = options.tokenLifetimeSeconds ?? 32_400;
  const orders = new Map<string, FakeOrder>();
  const captures = new Map<string, FakeCapture>();
  const refunds = new Map<string, FakeRefund>();
  const requests: FakeRequest[] = [];
  const tokens = new Set<string>();
  let issued = 0;
  const idempotent = new Map<string, Reply>();
  const failures = new Map<string, (number | "timeout")[]>();
  const captureFailures: CaptureFailure[] = [];
  const captureAmounts: string[] = [];
  const refundRefusals: string[] = [];
  const heldSockets = new Set<ServerResponse>();
  let base = "";
  const webhooks = new WebhookSender(
    () => base,
    () => webhookId,
  );

  const store: FakeStore = {
    get base() {
      return base;
    },
    orders,
    captures,
    refunds,
  };
  const orderJson = (order: FakeOrder) => renderOrder(store, order);
  const captureJson = (capture: FakeCapture) => renderCapture(store, capture);
  const refundJson = (refund: FakeRefund) => renderRefund(store, refund);

  // ---- State changes (shared by the API and the controls) ----

  function orderOf(id: string): FakeOrder {
    const order = orders.get(id);
    if (!order) throw new PayPalHttpError(404, "INVALID_RESOURCE_ID");
    return order;
  }

  function captureOf(id: string): FakeCapture {
    const capture = captures.get(id);
    if (!capture) throw new PayPalHttpError(404, "INVALID_RESOURCE_ID");
    return capture;
  }

  function approve(orderId: string) {
    const order = orders.get(orderId);
    if (!order) throw new Error(`No order ${orderId}`);
    if (order.status !== "CREATED" && order.status !== "PAYER_ACTION_REQUIRED")
      throw new Error(`Order ${orderId} is ${order.status}, not awaiting approval`);
    order.status = "APPROVED";
    order.payerId = paypalId(13);
    webhooks.emit(
      "CHECKOUT.ORDER.APPROVED",
      "checkout-order",
      "An order has been approved by buyer",
      orderJson(order),
    );
  }

  function captureEvent(capture: FakeCapture) {
    const [type, summary] =
      capture.status === "DECLINED"
        ? ["PAYMENT.CAPTURE.DENIED", "A payment capture was denied"]
        : capture.status === "PENDING"
          ? ["PAYMENT.CAPTURE.PENDING", "Payment pending"]
          : [
              "PAYMENT.CAPTURE.COMPLETED",
              `Payment completed for ${capture.value} ${capture.currency}`,
            ];
    webhooks.emit(type, "capture", summary, captureJson(capture));
  }

  function capture(order: FakeOrder, failure: CaptureFailure | undefined): FakeCapture {
    const value = captureAmounts.shift() ?? order.value;
    const made: FakeCapture = {
      id: paypalId(17),
      orderId: order.id,
      status: failure === "declined" ? "DECLINED" : failure === "pending" ? "PENDING" : "COMPLETED",
      currency: order.currency,
      value,
      reason: failure === "pending" ? "PENDING_REVIEW" : null,
      refundIds: [],
    };
    captures.set(made.id, made);
    order.captureIds.push(made.id);
    order.status = "COMPLETED";
    captureEvent(made);
    return made;
  }

  function makeRefund(
    captured: FakeCapture,
    value: string | undefined,
    currency: string | undefined,
  ) {
    if (currency !== undefined && currency !== captured.currency)
      throw new PayPalHttpError(422, "CURRENCY_MISMATCH");
    const capturedMinor = fromPayPalValue(captured.value, captured.currency) ?? 0;
    const already = captured.refundIds
      .map((id) => fromPayPalValue(refunds.get(id)!.value, captured.currency) ?? 0)
      .reduce((sum, each) => sum + each, 0);
    if (captured.status === "REFUNDED" || already >= capturedMinor)
      throw new PayPalHttpError(422, "CAPTURE_FULLY_REFUNDED");
    const minor =
      value === undefined ? capturedMinor - already : fromPayPalValue(value, captured.currency);
    if (minor === null || minor <= 0) throw new PayPalHttpError(400, "INVALID_PARAMETER_VALUE");
    if (already + minor > capturedMinor) throw new PayPalHttpError(422, "REFUND_AMOUNT_EXCEEDED");
    const refund: FakeRefund = {
      id: paypalId(17),
      captureId: captured.id,
      status: "COMPLETED",
      currency: captured.currency,
      value: toPayPalValue(minor, captured.currency),
    };
    refunds.set(refund.id, refund);
    captured.refundIds.push(refund.id);
    captured.status = already + minor === capturedMinor ? "REFUNDED" : "PARTIALLY_REFUNDED";
    webhooks.emit(
      "PAYMENT.CAPTURE.REFUNDED",
      "refund",
      `A ${refund.value} ${refund.currency} capture payment was refunded`,
      refundJson(refund),
    );
    return refund;
  }

  // ---- The API ----

  function authorize(req: IncomingMessage) {
    const header = req.headers.authorization ?? "";
    if (!header.startsWith("Bearer ")) throw new PayPalHttpError(401);
    if (!tokens.has(header.slice("Bearer ".length)))
      throw new PayPalHttpError(
        401,
        null,
        {},
        {
          error: "invalid_token",
          error_description: "Token signature verification failed",
        },
      );
  }

  function issueToken(req: IncomingMessage, body: string): Reply {
    const header = req.headers.authorization ?? "";
    const given = header.startsWith("Basic ")
      ? Buffer.from(header.slice("Basic ".length), "base64").toString()
      : "";
    if (given !== `${clientId}:${secret}`)
      return {
        status: 401,
        body: { error: "invalid_client", error_description: "Client Authentication failed" },
      };
    if (new URLSearchParams(body).get("grant_type") !== "client_credentials")
      return {
        status: 400,
        body: { error: "unsupported_grant_type", error_description: "Grant Type is NULL" },
      };
    issued += 1;
    const token = `A21AA${randomBytes(24).toString("base64url")}`;
    tokens.add(token);
    return {
      status: 200,
      body: {
        scope:
          "https://uri.paypal.com/services/payments/payment https://uri.paypal.com/services/payments/refund",
        access_token: token,
        token_type: "Bearer",
        app_id: "APP-80W284485P519543T",
        expires_in: lifetime,
        nonce: `${TIME}${randomBytes(8).toString("hex")}`,
      },
    };
  }

  function createOrder(body: Json): Reply {
    const unit =
      Array.isArray(body.purchase_units) && isObject(body.purchase_units[0])
        ? body.purchase_units[0]
        : null;
    if (body.intent !== "CAPTURE" && body.intent !== "AUTHORIZE")
      throw new PayPalHttpError(400, "MISSING_REQUIRED_PARAMETER");
    if (!unit || !isObject(unit.amount))
      throw new PayPalHttpError(400, "MISSING_REQUIRED_PARAMETER");
    const currency = unit.amount.currency_code;
    const value = unit.amount.value;
    if (typeof currency !== "string" || !/^[A-Z]{3}$/.test(currency) || typeof value !== "string")
      throw new PayPalHttpError(400, "INVALID_PARAMETER_VALUE");
    const minor = fromPayPalValue(value, currency);
    if (minor === null) throw new PayPalHttpError(422, "DECIMAL_PRECISION");
    if (minor <= 0) throw new PayPalHttpError(422, "INVALID_PARAMETER_VALUE");
    const source =
      isObject(body.payment_source) && isObject(body.payment_source.paypal)
        ? body.payment_source.paypal
        : null;
    const context =
      source && isObject(source.experience_context) ? source.experience_context : null;
    const order: FakeOrder = {
      id: paypalId(17),
      status: context ? "PAYER_ACTION_REQUIRED" : "CREATED",
      currency,
      value,
      customId: typeof unit.custom_id === "string" ? unit.custom_id : null,
      invoiceId: typeof unit.invoice_id === "string" ? unit.invoice_id : null,
      returnUrl: typeof context?.return_url === "string" ? context.return_url : null,
      cancelUrl: typeof context?.cancel_url === "string" ? context.cancel_url : null,
      locale: typeof context?.locale === "string" ? context.locale : null,
      payerId: null,
      captureIds: [],
    };
    orders.set(order.id, order);
    return { status: 201, body: orderJson(order) };
  }

  function captureOrder(orderId: string): Reply {
    const order = orderOf(orderId);
    if (order.status === "COMPLETED") throw new PayPalHttpError(422, "ORDER_ALREADY_CAPTURED");
    if (order.status !== "APPROVED") throw new PayPalHttpError(422, "ORDER_NOT_APPROVED");
    const failure = captureFailures.shift();
    if (failure === "5xx") throw new PayPalHttpError(500);
    if (failure === "instrumentDeclined")
      throw new PayPalHttpError(422, "INSTRUMENT_DECLINED", {
        links: [link(`${base}/checkoutnow?token=${order.id}`, "redirect", "GET")],
      });
    capture(order, failure);
    return { status: 201, body: orderJson(order), thenHold: failure === "timeoutAfterCapture" };
  }

  function route(req: IncomingMessage, path: string, body: string): Reply {
    const method = req.method ?? "GET";
    const json = body ? parseJson(body) : {};
    let match: RegExpExecArray | null;
    if (method === "POST" && path === "/v2/checkout/orders") return createOrder(json);
    if (method === "GET" && (match = /^\/v2\/checkout\/orders\/([^/]+)$/.exec(path)))
      return { status: 200, body: orderJson(orderOf(decodeURIComponent(match[1]!))) };
    if (method === "POST" && (match = /^\/v2\/checkout\/orders\/([^/]+)\/capture$/.exec(path)))
      return captureOrder(decodeURIComponent(match[1]!));
    if (method === "GET" && (match = /^\/v2\/payments\/captures\/([^/]+)$/.exec(path)))
      return { status: 200, body: captureJson(captureOf(decodeURIComponent(match[1]!))) };
    if (method === "POST" && (match = /^\/v2\/payments\/captures\/([^/]+)\/refund$/.exec(path))) {
      const captured = captureOf(decodeURIComponent(match[1]!));
      const refusal = refundRefusals.shift();
      if (refusal) throw new PayPalHttpError(422, refusal);
      const amount = isObject(json.amount) ? json.amount : null;
      const refund = makeRefund(
        captured,
        amount ? String(amount.value) : undefined,
        amount ? String(amount.currency_code) : undefined,
      );
      return { status: 201, body: refundJson(refund) };
    }
    if (method === "POST" && path === "/v1/notifications/verify-webhook-signature") {
      const request = json as VerifyRequest;
      for (const field of [
        "auth_algo",
        "cert_url",
        "transmission_id",
        "transmission_sig",
        "transmission_time",
        "webhook_id",
        "webhook_event",
      ] as const)
        if (request[field] === undefined)
          throw new PayPalHttpError(400, "MISSING_REQUIRED_PARAMETER");
      return { status: 200, body: { verification_status: webhooks.verify(request, webhookId) } };
    }
    throw new PayPalHttpError(404, "INVALID_RESOURCE_ID");
  }

  function parseJson(body: string): Json {
    try {
      const parsed: unknown = JSON.parse(body);
      if (isObject(parsed)) return parsed;
    } catch {
      // answered below
    }
    throw new PayPalHttpError(400, "MALFORMED_REQUEST_JSON");
  }

  function routeName(method: string, path: string): string {
    return `${method} ${path
      .replace(/^\/v2\/checkout\/orders\/[^/]+/, "/v2/checkout/orders/{id}")
      .replace(/^\/v2\/payments\/captures\/[^/]+/, "/v2/payments/captures/{id}")}`;
  }

  // ---- The buyer's page ----

  function buyer(req: IncomingMessage, res: ServerResponse, url: URL, body: string) {
    const token =
      req.method === "POST"
        ? new URLSearchParams(body).get("token")
        : url.searchParams.get("token");
    const order = token ? orders.get(token) : undefined;
    const html = (status: number, page: string) => {
      res.writeHead(status, { "Content-Type": "text/html; charset=utf-8" });
      res.end(page);
    };
    if (!order) return html(404, closedPage("This checkout does not exist."));
    if (req.method === "POST") {
      if (order.status === "CREATED" || order.status === "PAYER_ACTION_REQUIRED") approve(order.id);
      if (order.status !== "APPROVED" || !order.returnUrl)
        return html(409, closedPage("This checkout can no longer be paid."));
      const back = new URL(order.returnUrl);
      back.searchParams.set("token", order.id);
      back.searchParams.set("PayerID", order.payerId ?? "");
      res.writeHead(303, { Location: back.toString() });
      return res.end();
    }
    if (order.status !== "CREATED" && order.status !== "PAYER_ACTION_REQUIRED")
      return html(409, closedPage("This checkout can no longer be paid."));
    let cancel: string | null = null;
    if (order.cancelUrl) {
      const url = new URL(order.cancelUrl);
      url.searchParams.set("token", order.id);
      cancel = url.toString();
    }
    return html(200, buyerPage({ order, cancelUrl: cancel }));
  }

  // ---- The server ----

  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", () => {
      const body = Buffer.concat(chunks).toString();
      const url = new URL(req.url ?? "/", base);
      const method = req.method ?? "GET";
      const requestId =
        typeof req.headers["paypal-request-id"] === "string"
          ? req.headers["paypal-request-id"]
          : null;
      const logged: FakeRequest = { method, path: url.pathname, requestId, status: null };
      requests.push(logged);
      if (url.pathname.startsWith("/checkoutnow")) return buyer(req, res, url, body);
      const answer = (reply: Reply) => {
        logged.status = reply.status;
        res.writeHead(reply.status, {
          "Content-Type": "application/json",
          "Paypal-Debug-Id": randomBytes(6).toString("hex"),
        });
        res.end(JSON.stringify(reply.body));
      };
      const hold = () => {
        heldSockets.add(res);
        res.on("close", () => heldSockets.delete(res));
      };
      const scripted = failures.get(routeName(method, url.pathname))?.shift();
      if (scripted === "timeout") return hold();
      if (scripted !== undefined)
        return answer({ status: scripted, body: errorBody(scripted, null) });
      let reply: Reply;
      const key = requestId && method === "POST" ? `${url.pathname}\n${requestId}` : null;
      try {
        if (method === "POST" && url.pathname === "/v1/oauth2/token")
          return answer(issueToken(req, body));
        authorize(req);
        const kept = key ? idempotent.get(key) : undefined;
        if (kept) return answer({ status: kept.status, body: kept.body });
        reply = route(req, url.pathname, body);
      } catch (error) {
        if (!(error instanceof PayPalHttpError)) {
          // A mistake in the fake itself: said plainly rather than left hanging.
          return answer({ status: 500, body: { name: "FAKE_PAYPAL_BUG", message: String(error) } });
        }
        reply = {
          status: error.status,
          body: error.raw ?? errorBody(error.status, error.issue, error.extra),
        };
        if (error.status === 401) return answer(reply);
      }
      // A 5xx leaves nothing done, so the same key is tried anew; any other answer is the key's.
      if (key && reply.status < 500) idempotent.set(key, reply);
      if (reply.thenHold) return hold();
      answer(reply);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  const fake: FakePayPal = {
    url: base,
    clientId,
    secret,
    webhookId,
    config: (overrides = {}) => ({
      provider: "paypal",
      mode: "sandbox",
      apiUrl: base,
      publicId: clientId,
      secret,
      webhookId,
      ...overrides,
    }),
    orders,
    captures,
    refunds,
    requests,
    approve,
    voidOrder(orderId) {
      const order = orders.get(orderId);
      if (!order) throw new Error(`No order ${orderId}`);
      order.status = "VOIDED";
    },
    forgetOrder(orderId) {
      orders.delete(orderId);
    },
    setNextCaptureFailure: (failure) => void captureFailures.push(failure),
    setNextCaptureAmount: (value) => void captureAmounts.push(value),
    completeCapture(captureId) {
      const captured = captures.get(captureId);
      if (captured?.status !== "PENDING") throw new Error(`No pending capture ${captureId}`);
      captured.status = "COMPLETED";
      captured.reason = null;
      captureEvent(captured);
    },
    failNext(name, status) {
      failures.set(name, [...(failures.get(name) ?? []), status]);
    },
    refuseNextRefund: (issue = "REFUND_TIME_LIMIT_EXCEEDED") => void refundRefusals.push(issue),
    refundFromDashboard(captureId, value) {
      const captured = captures.get(captureId);
      if (!captured) throw new Error(`No capture ${captureId}`);
      return makeRefund(captured, value, undefined);
    },
    reverse(captureId) {
      const captured = captures.get(captureId);
      if (!captured) throw new Error(`No capture ${captureId}`);
      // PayPal's capture statuses have no "reversed": the money gone back counts as refunded here.
      captured.status = "REFUNDED";
      webhooks.emit(
        "PAYMENT.CAPTURE.REVERSED",
        "capture",
        `A ${captured.value} ${captured.currency} capture payment was reversed`,
        captureJson(captured),
      );
    },
    revokeTokens: () => tokens.clear(),
    tokensIssued: () => issued,
    get webhookUrl() {
      return webhooks.url;
    },
    set webhookUrl(url) {
      webhooks.url = url;
    },
    get deliveryMode() {
      return webhooks.mode;
    },
    set deliveryMode(mode) {
      webhooks.mode = mode;
    },
    deliveries: webhooks.deliveries,
    release: (which) => webhooks.release(which),
    redeliver: () => webhooks.redeliver(),
    settled: () => webhooks.settled(),
    sendEvent: (eventType, resource) =>
      webhooks.emit(eventType, "checkout-order", eventType, resource),
    async close() {
      for (const res of heldSockets) res.destroy();
      await webhooks.settled();
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      });
    },
  };
  return fake;
}
