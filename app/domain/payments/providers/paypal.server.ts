import { createHash } from "node:crypto";
import { fromPayPalValue, toPayPalValue } from "./paypal-amounts";
import {
  PROVIDER_TIMEOUT_MS,
  type CheckoutRequest,
  type LookUpResult,
  type NotificationClaim,
  type NotificationRead,
  type PaymentProvider,
  type PaymentRef,
  type ProviderConfig,
  type ProviderError,
  type RefundResult,
  type StartResult,
  type VerifyResult,
} from "./provider";

// PayPal Checkout (Orders v2) as a PaymentProvider: plain REST calls with an OAuth client-credentials
// token, each with a timeout, no SDK. Money is taken only in `lookUp`, which captures an approved order
// under the idempotency key `capture-<payment id>`: PayPal answers a key it has seen with the first
// result, so a capture whose answer was lost to a timeout is found, not made twice. Nothing here writes
// to the database; docs/online-payments.md says what the domain does with each answer.

/** The headers PayPal signs a notification with; `verify-webhook-signature` needs all five. */
export const PAYPAL_TRANSMISSION_HEADERS = [
  "paypal-auth-algo",
  "paypal-cert-url",
  "paypal-transmission-id",
  "paypal-transmission-sig",
  "paypal-transmission-time",
] as const;

/** A token is renewed this long before PayPal says it expires (at most half its life). */
const TOKEN_MARGIN_MS = 5 * 60_000;

/**
 * Capture refusals (422) that mean this order will not be paid as it stands: the payment is failed
 * with PayPal's issue as the reason. INSTRUMENT_DECLINED is one: PayPal lets a buyer pick another
 * funding source only by being sent back to its page, which a server-side capture after the return
 * cannot do, so the customer starts a new checkout instead.
 */
const DECLINING_ISSUES = new Set([
  "INSTRUMENT_DECLINED",
  "TRANSACTION_REFUSED",
  "PAYER_CANNOT_PAY",
  "PAYEE_BLOCKED_TRANSACTION",
  "MAX_NUMBER_OF_PAYMENT_ATTEMPTS_EXCEEDED",
  "REDIRECT_PAYER_FOR_ALTERNATE_FUNDING",
  "COMPLIANCE_VIOLATION",
  "PAYER_ACCOUNT_LOCKED_OR_CLOSED",
  "PAYER_ACCOUNT_RESTRICTED",
]);

/** Our languages as PayPal's checkout locales (its locale codes' reference; en-US its default). */
const PAYPAL_LOCALES: Record<string, string> = { en: "en-US", fr: "fr-FR", ar: "ar-EG" };

export function paypalLocale(locale: string): string {
  return PAYPAL_LOCALES[locale.slice(0, 2).toLowerCase()] ?? "en-US";
}

export interface PayPalProviderOptions {
  /** Instead of the global fetch (tests, or a transport that checks addresses). */
  fetch?: typeof fetch;
  /** Per call, until the whole answer is read (default PROVIDER_TIMEOUT_MS). */
  timeoutMs?: number;
  /** Milliseconds, read only to know when a cached token expires (default Date.now). */
  now?: () => number;
}

export interface PayPalProvider extends PaymentProvider {
  /** Drops every cached token (a changed secret takes effect at once). */
  forgetTokens(): void;
}

interface CachedToken {
  token: string;
  expiresAt: number;
}

type Json = Record<string, unknown>;

type Answer = { ok: true; status: number; body: Json };

/** A 4xx or 5xx from PayPal, read from its error body (`name`, `details[0].issue`). */
type Refusal = {
  ok: false;
  failure: ProviderError["failure"];
  detail: string;
  issue: string | null;
  /** The HTTP status, null when no answer came. */
  status: number | null;
};

/** An answer as read: its status and whole body. */
interface Reply {
  status: number;
  text: string;
}

interface CallOptions {
  body?: string;
  requestId?: string;
}

export function createPayPalProvider(options: PayPalProviderOptions = {}): PayPalProvider {
  const doFetch = options.fetch ?? ((input, init) => fetch(input, init));
  const timeoutMs = options.timeoutMs ?? PROVIDER_TIMEOUT_MS;
  const now = options.now ?? Date.now;
  const tokens = new Map<string, CachedToken>();
  const inFlight = new Map<string, Promise<{ ok: true; token: string } | ProviderError>>();

  // The secret is part of the key: a secret changed (or mistyped) by the admin is tried at once, not
  // hidden for hours behind a token the old one earned.
  const tokenKey = (config: ProviderConfig) =>
    `${config.apiUrl}\n${config.publicId}\n${createHash("sha256").update(config.secret).digest("hex")}`;

  async function send(url: string, init: RequestInit): Promise<Reply | ProviderError> {
    try {
      const response = await doFetch(url, { ...init, signal: AbortSignal.timeout(timeoutMs) });
      // The body is read under the same signal: an answer that stops half-way is a timeout too.
      return { status: response.status, text: await response.text() };
    } catch (error) {
      const name = (error as { name?: string } | null)?.name;
      if (name === "TimeoutError" || name === "AbortError")
        return { ok: false, failure: "timeout", detail: `no answer within ${timeoutMs} ms` };
      return { ok: false, failure: "unavailable", detail: describe(error) };
    }
  }

  async function fetchToken(config: ProviderConfig) {
    const basic = Buffer.from(`${config.publicId}:${config.secret}`).toString("base64");
    const response = await send(`${config.apiUrl}/v1/oauth2/token`, {
      method: "POST",
      headers: {
        Authorization: `Basic ${basic}`,
        "Content-Type": "application/x-www-form-urlencoded",
        Accept: "application/json",
      },
      body: "grant_type=client_credentials",
    });
    if (!("status" in response)) return response;
    const body = readJson(response.text);
    if (response.status >= 300) return withoutIssue(refusal(response.status, body));
    const token = body?.access_token;
    const lifetime = Number(body?.expires_in);
    if (typeof token !== "string" || !token || !Number.isFinite(lifetime) || lifetime <= 0)
      return { ok: false as const, failure: "unavailable" as const, detail: "unreadable token" };
    const margin = Math.min(TOKEN_MARGIN_MS, (lifetime * 1000) / 2);
    tokens.set(tokenKey(config), { token, expiresAt: now() + lifetime * 1000 - margin });
    return { ok: true as const, token };
  }

  function token(config: ProviderConfig) {
    const key = tokenKey(config);
    const cached = tokens.get(key);
    if (cached && now() < cached.expiresAt)
      return Promise.resolve({ ok: true as const, token: cached.token });
    // Calls that start together share one token request.
    let pending = inFlight.get(key);
    if (!pending) {
      pending = fetchToken(config).finally(() => inFlight.delete(key));
      inFlight.set(key, pending);
    }
    return pending;
  }

  /** One REST call with a bearer token; a 401 drops the token and the call is made once more. */
  async function call(
    config: ProviderConfig,
    method: "GET" | "POST",
    path: string,
    { body, requestId }: CallOptions = {},
  ): Promise<Answer | Refusal> {
    for (let attempt = 0; ; attempt++) {
      const bearer = await token(config);
      if (!bearer.ok) return { ...bearer, detail: bearer.detail ?? "", issue: null, status: null };
      const headers: Record<string, string> = {
        Authorization: `Bearer ${bearer.token}`,
        Accept: "application/json",
      };
      if (body !== undefined) headers["Content-Type"] = "application/json";
      if (method === "POST") headers.Prefer = "return=representation";
      if (requestId) headers["PayPal-Request-Id"] = requestId;
      const response = await send(`${config.apiUrl}${path}`, { method, headers, body });
      if (!("status" in response))
        return { ...response, detail: response.detail ?? "", issue: null, status: null };
      if (response.status === 401 && attempt === 0) {
        tokens.delete(tokenKey(config));
        continue;
      }
      const json = readJson(response.text);
      if (response.status >= 300) return refusal(response.status, json);
      if (!json)
        return {
          ok: false,
          failure: "unavailable",
          detail: "unreadable answer",
          issue: null,
          status: response.status,
        };
      return { ok: true, status: response.status, body: json };
    }
  }

  async function startCheckout(
    config: ProviderConfig,
    request: CheckoutRequest,
  ): Promise<StartResult> {
    if (!Number.isSafeInteger(request.amount) || request.amount <= 0)
      return { ok: false, failure: "refused", detail: `invalid amount ${request.amount}` };
    const order = {
      intent: "CAPTURE",
      purchase_units: [
        {
          custom_id: request.reference,
          invoice_id: request.reference,
          amount: {
            currency_code: request.currency,
            value: toPayPalValue(request.amount, request.currency),
          },
        },
      ],
      payment_source: {
        paypal: {
          experience_context: {
            return_url: request.returnUrl,
            cancel_url: request.cancelUrl,
            user_action: "PAY_NOW",
            // Coins are delivered online: PayPal asks for no address.
            shipping_preference: "NO_SHIPPING",
            locale: paypalLocale(request.locale),
          },
        },
      },
    };
    const answer = await call(config, "POST", "/v2/checkout/orders", {
      body: JSON.stringify(order),
      requestId: `create-${request.paymentId}`,
    });
    if (!answer.ok) return withoutIssue(answer);
    const id = answer.body.id;
    const link = findLink(answer.body, "payer-action") ?? findLink(answer.body, "approve");
    if (typeof id !== "string" || !id || !link)
      return { ok: false, failure: "unavailable", detail: "no order id or approval link" };
    return { ok: true, providerRef: id, redirectUrl: link };
  }

  function readNotification(
    _config: ProviderConfig,
    headers: Record<string, string>,
    rawBody: string,
  ): NotificationRead {
    const kept: Record<string, string> = {};
    for (const name of PAYPAL_TRANSMISSION_HEADERS) {
      const value = headers[name];
      if (!value) return { ok: false, refusal: "badSignature" };
      kept[name] = value;
    }
    const event = readJson(rawBody);
    const resource = event?.resource;
    if (
      !event ||
      typeof event.id !== "string" ||
      !event.id ||
      typeof event.event_type !== "string" ||
      !event.event_type ||
      !isObject(resource)
    )
      return { ok: false, refusal: "malformed" };
    return {
      ok: true,
      claim: { eventId: event.id, ...claimOf(event.event_type, resource), headers: kept },
    };
  }

  async function verifyNotification(
    config: ProviderConfig,
    headers: Record<string, string>,
    rawBody: string,
  ): Promise<VerifyResult> {
    if (PAYPAL_TRANSMISSION_HEADERS.some((name) => !headers[name]) || !readJson(rawBody))
      return { ok: true, valid: false };
    if (!config.webhookId)
      return { ok: false, failure: "refused", detail: "no webhook id configured" };
    // The event goes to PayPal exactly as it came: parsed and written again, a number or an escape
    // could change and the signature no longer match.
    const fields = JSON.stringify({
      auth_algo: headers["paypal-auth-algo"],
      cert_url: headers["paypal-cert-url"],
      transmission_id: headers["paypal-transmission-id"],
      transmission_sig: headers["paypal-transmission-sig"],
      transmission_time: headers["paypal-transmission-time"],
      webhook_id: config.webhookId,
    });
    const body = `${fields.slice(0, -1)},"webhook_event":${rawBody.trim()}}`;
    const answer = await call(config, "POST", "/v1/notifications/verify-webhook-signature", {
      body,
    });
    if (!answer.ok) return withoutIssue(answer);
    return { ok: true, valid: answer.body.verification_status === "SUCCESS" };
  }

  async function lookUp(config: ProviderConfig, payment: PaymentRef): Promise<LookUpResult> {
    if (!payment.providerRef) {
      // The start failed before PayPal named an order; only our capture takes money, so none was.
      return nothingTaken(payment, "cancelled", "NO_ORDER");
    }
    const orderPath = `/v2/checkout/orders/${encodeURIComponent(payment.providerRef)}`;
    const read = await call(config, "GET", orderPath);
    if (!read.ok) {
      if (read.status === 404) {
        if (payment.captureRef) return lookUpCapture(config, payment, payment.captureRef);
        // PayPal forgets an order left unpaid; nothing was captured, so the checkout is abandoned.
        return nothingTaken(payment, "cancelled", "RESOURCE_NOT_FOUND");
      }
      return withoutIssue(read);
    }
    if (read.body.status !== "APPROVED") return fromOrder(read.body, payment);
    const captured = await call(config, "POST", `${orderPath}/capture`, {
      body: "{}",
      requestId: `capture-${payment.paymentId}`,
    });
    if (captured.ok) return fromOrder(captured.body, payment);
    if (captured.issue === "ORDER_ALREADY_CAPTURED") {
      const again = await call(config, "GET", orderPath);
      return again.ok ? fromOrder(again.body, payment) : withoutIssue(again);
    }
    if (captured.issue === "ORDER_NOT_APPROVED")
      return { ...fromOrderAmount(read.body, payment), state: "pending", detail: captured.issue };
    if (captured.issue && DECLINING_ISSUES.has(captured.issue))
      return { ...fromOrderAmount(read.body, payment), state: "failed", detail: captured.issue };
    return withoutIssue(captured);
  }

  async function lookUpCapture(
    config: ProviderConfig,
    payment: PaymentRef,
    captureRef: string,
  ): Promise<LookUpResult> {
    const read = await call(
      config,
      "GET",
      `/v2/payments/captures/${encodeURIComponent(captureRef)}`,
    );
    if (!read.ok) return withoutIssue(read);
    return fromCapture(read.body, [], null, payment);
  }

  async function refund(
    config: ProviderConfig,
    payment: PaymentRef,
    amount: number,
    key: string,
  ): Promise<RefundResult> {
    if (!payment.captureRef)
      return { ok: false, failure: "refused", detail: "nothing was captured" };
    if (!Number.isSafeInteger(amount) || amount <= 0)
      return { ok: false, failure: "refused", detail: `invalid amount ${amount}` };
    const answer = await call(
      config,
      "POST",
      `/v2/payments/captures/${encodeURIComponent(payment.captureRef)}/refund`,
      {
        body: JSON.stringify({
          amount: {
            value: toPayPalValue(amount, payment.currency),
            currency_code: payment.currency,
          },
        }),
        requestId: key,
      },
    );
    if (!answer.ok) return withoutIssue(answer);
    const id = typeof answer.body.id === "string" ? answer.body.id : "";
    if (answer.body.status === "COMPLETED") return { ok: true, outcome: "refunded", refundRef: id };
    if (answer.body.status === "PENDING") return { ok: true, outcome: "pending", refundRef: id };
    return { ok: false, failure: "refused", detail: `refund ${String(answer.body.status)}` };
  }

  return {
    code: "paypal",
    startCheckout,
    readNotification,
    verifyNotification,
    lookUp,
    refund,
    forgetTokens: () => tokens.clear(),
  };
}

/** The provider the server uses: the global fetch, PROVIDER_TIMEOUT_MS, one token cache. */
export const paypalProvider = createPayPalProvider();

// ---- Reading PayPal's answers ----

function describe(error: unknown): string {
  const cause = (error as { cause?: { code?: string; message?: string } } | null)?.cause;
  return cause?.code ?? cause?.message ?? (error instanceof Error ? error.message : String(error));
}

function isObject(value: unknown): value is Json {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function readJson(text: string): Json | null {
  try {
    const parsed: unknown = JSON.parse(text);
    return isObject(parsed) ? parsed : null;
  } catch {
    return null;
  }
}

function objects(value: unknown): Json[] {
  return Array.isArray(value) ? value.filter(isObject) : [];
}

function text(value: unknown): string | null {
  return typeof value === "string" && value ? value : null;
}

function findLink(resource: Json, rel: string): string | null {
  return text(objects(resource.links).find((link) => link.rel === rel)?.href);
}

/** The id at the end of a HATEOAS link's path, when the link points at `collection`. */
function linkedId(resource: Json, rel: string, collection: string): string | null {
  const href = findLink(resource, rel);
  const match = href ? new RegExp(`/${collection}/([^/?#]+)`).exec(href) : null;
  return match?.[1] ? decodeURIComponent(match[1]) : null;
}

/**
 * PayPal's error body as a failure. 401/403: the keys; 429 and 5xx: worth another try later; any other
 * 4xx: refused, with `details[0].issue` (or the OAuth `error`, or `name`) as what went wrong.
 */
function refusal(status: number, body: Json | null): Refusal {
  const issue =
    text(objects(body?.details)[0]?.issue) ?? text(body?.error) ?? text(body?.name) ?? null;
  const detail = issue ?? `HTTP ${status}`;
  const failure =
    status === 401 || status === 403
      ? "unauthorized"
      : status === 429 || status >= 500
        ? "unavailable"
        : "refused";
  return { ok: false, failure, detail, issue, status };
}

function withoutIssue(failure: Refusal | ProviderError): ProviderError {
  return { ok: false, failure: failure.failure, detail: failure.detail };
}

function nothingTaken(
  payment: PaymentRef,
  state: "cancelled" | "pending",
  detail: string,
): LookUpResult {
  return {
    ok: true,
    state,
    reference: null,
    amount: 0,
    currency: payment.currency,
    captureRef: null,
    refundedAmount: 0,
    detail,
  };
}

function firstUnit(order: Json): Json {
  return objects(order.purchase_units)[0] ?? {};
}

/** What an order asks, before anything is captured. */
function fromOrderAmount(order: Json, payment: PaymentRef) {
  const unit = firstUnit(order);
  const amount = isObject(unit.amount) ? unit.amount : {};
  const currency = text(amount.currency_code) ?? payment.currency;
  return {
    ok: true as const,
    reference: text(unit.custom_id) ?? text(unit.invoice_id),
    amount: fromPayPalValue(amount.value, currency) ?? 0,
    currency,
    captureRef: null,
    refundedAmount: 0,
  };
}

function fromOrder(order: Json, payment: PaymentRef): LookUpResult {
  const status = text(order.status) ?? "";
  if (status === "VOIDED")
    return { ...fromOrderAmount(order, payment), state: "cancelled", detail: status };
  if (status !== "COMPLETED")
    return { ...fromOrderAmount(order, payment), state: "pending", detail: status };
  const unit = firstUnit(order);
  const payments = isObject(unit.payments) ? unit.payments : {};
  const capture = objects(payments.captures)[0];
  if (!capture)
    return { ...fromOrderAmount(order, payment), state: "pending", detail: "NO_CAPTURE" };
  return fromCapture(capture, objects(payments.refunds), unit, payment);
}

/**
 * A capture in the provider's word. COMPLETED is paid; PENDING waits (an eCheck, a review); DECLINED
 * and FAILED are failed; PARTIALLY_REFUNDED is still paid, less the refunds; REFUNDED is refunded.
 */
function fromCapture(
  capture: Json,
  refunds: Json[],
  unit: Json | null,
  payment: PaymentRef,
): LookUpResult {
  const money = isObject(capture.amount) ? capture.amount : {};
  const currency = text(money.currency_code) ?? payment.currency;
  const amount = fromPayPalValue(money.value, currency);
  if (amount === null)
    return { ok: false, failure: "refused", detail: "unreadable capture amount" };
  const captureRef = text(capture.id);
  const status = text(capture.status) ?? "";
  const reason = isObject(capture.status_details) ? text(capture.status_details.reason) : null;
  const reference =
    text(capture.custom_id) ??
    text(unit?.custom_id) ??
    text(capture.invoice_id) ??
    text(unit?.invoice_id);
  const refunded = refunds
    .filter((refund) => refund.status === "COMPLETED")
    .filter((refund) => {
      const up = linkedId(refund, "up", "captures");
      return up === null || up === captureRef;
    })
    .reduce((sum, refund) => {
      const value = isObject(refund.amount) ? fromPayPalValue(refund.amount.value, currency) : null;
      return sum + (value ?? 0);
    }, 0);
  const base = { ok: true as const, reference, amount, currency, captureRef, refundedAmount: 0 };
  switch (status) {
    case "COMPLETED":
      return { ...base, state: "paid" };
    case "PARTIALLY_REFUNDED":
      return { ...base, state: "paid", refundedAmount: Math.min(refunded, amount) };
    case "REFUNDED":
      return { ...base, state: "refunded", refundedAmount: amount };
    case "DECLINED":
    case "FAILED":
      return { ...base, state: "failed", detail: reason ?? status };
    default:
      return { ...base, state: "pending", detail: reason ?? status };
  }
}

/** What a notification is about, read from its event type and resource (never trusted). */
function claimOf(
  eventType: string,
  resource: Json,
): Pick<NotificationClaim, "eventType" | "kind" | "providerRef" | "captureRef"> {
  const related = isObject(resource.supplementary_data)
    ? isObject(resource.supplementary_data.related_ids)
      ? resource.supplementary_data.related_ids
      : {}
    : {};
  const orderId = text(related.order_id) ?? linkedId(resource, "up", "orders");
  switch (eventType) {
    case "CHECKOUT.ORDER.APPROVED":
      return { eventType, kind: "payment", providerRef: text(resource.id), captureRef: null };
    case "CHECKOUT.PAYMENT-APPROVAL.REVERSED":
      return { eventType, kind: "payment", providerRef: text(resource.order_id), captureRef: null };
    case "PAYMENT.CAPTURE.COMPLETED":
    case "PAYMENT.CAPTURE.PENDING":
    case "PAYMENT.CAPTURE.DENIED":
    case "PAYMENT.CAPTURE.DECLINED":
      return { eventType, kind: "payment", providerRef: orderId, captureRef: text(resource.id) };
    case "PAYMENT.CAPTURE.REFUNDED":
      // The resource is the refund; its `up` link is the capture it gives back.
      return {
        eventType,
        kind: "refund",
        providerRef: text(related.order_id),
        captureRef: linkedId(resource, "up", "captures") ?? text(related.capture_id),
      };
    case "PAYMENT.CAPTURE.REVERSED":
      // The capture itself, or (as some deliveries have it) the reversal pointing `up` at it.
      return {
        eventType,
        kind: "reversal",
        providerRef: text(related.order_id),
        captureRef: linkedId(resource, "up", "captures") ?? text(resource.id),
      };
    default:
      return { eventType, kind: "other", providerRef: null, captureRef: null };
  }
}
