import { createHmac, timingSafeEqual } from "node:crypto";
import {
  PROVIDER_TIMEOUT_MS,
  type LookUpResult,
  type NotificationClaim,
  type NotificationRead,
  type PaymentProvider,
  type PaymentRef,
  type ProviderConfig,
  type ProviderError,
  type ProviderPaymentState,
} from "./provider";

// YouCan Pay's client (ADR 55): a plain HTTP client with a timeout, no SDK. What each call follows is
// written at the top of tests/support/fake-youcanpay.ts, the double that speaks the same API, with its
// sources. In short: `POST {api}/api/tokenize` makes the checkout (a token) and the customer pays on
// `{api}/payment-form/{token}`; `GET {api}/api/transactions/{id}` is the provider's word on a payment;
// a notification is signed with the private key (HMAC-SHA256, hex, in `X-Youcanpay-Signature`) and is
// checked here, with no call. No refund call is documented: refunds are done in YouCan Pay's dashboard.

const SIGNATURE_HEADER = "x-youcanpay-signature";

/** The payment form's languages (the official SDK's `getPaymentURL($lang)`: AR, EN and FR). */
const FORM_LANGUAGES = new Set(["en", "fr", "ar"]);

/** A transaction's `status`, as the official WooCommerce plugin names them (its transaction model). */
const TRANSACTION_STATES: Record<number, ProviderPaymentState> = {
  1: "paid",
  0: "pending",
  [-1]: "cancelled",
  [-2]: "refunded",
  [-3]: "failed",
};

export interface YouCanPayOptions {
  /** Instead of the global fetch (tests count or break the calls with it). */
  fetch?: typeof fetch;
  /** Per call, until the whole answer is read (default PROVIDER_TIMEOUT_MS). */
  timeoutMs?: number;
}

/** A transaction as `GET /api/transactions/{id}` (and a notification's `payload.transaction`) gives it. */
interface Transaction {
  id: string;
  orderId: string;
  status: number;
  /** Minor units, or null when the answer's amount cannot be read as money. */
  amount: number | null;
  currency: string;
}

export function createYouCanPayProvider(options: YouCanPayOptions = {}): PaymentProvider {
  const doFetch = options.fetch ?? fetch;
  const timeoutMs = options.timeoutMs ?? PROVIDER_TIMEOUT_MS;

  /** One call: the JSON answer of a 2xx, or the failure it amounts to. */
  async function call(
    method: "GET" | "POST",
    url: string,
    body?: unknown,
  ): Promise<{ ok: true; json: unknown } | ProviderError> {
    let status: number;
    let text: string;
    try {
      const response = await doFetch(url, {
        method,
        headers: {
          accept: "application/json",
          ...(body === undefined ? {} : { "content-type": "application/json" }),
        },
        body: body === undefined ? undefined : JSON.stringify(body),
        // The timeout covers reading the body: an answer whose headers came but not the rest is none.
        signal: AbortSignal.timeout(timeoutMs),
        // Never followed: the private key travels in the body and the query string, and goes nowhere
        // but the address it was saved for.
        redirect: "manual",
      });
      status = response.status;
      text = await response.text();
    } catch (error) {
      const timedOut =
        error instanceof Error && (error.name === "TimeoutError" || error.name === "AbortError");
      return timedOut
        ? { ok: false, failure: "timeout", detail: `no answer within ${timeoutMs} ms` }
        : { ok: false, failure: "unavailable", detail: "YouCan Pay could not be reached" };
    }
    const json = parseJson(text);
    if (status >= 200 && status < 300) {
      if (json === undefined)
        return { ok: false, failure: "unavailable", detail: "the answer is not JSON" };
      return { ok: true, json };
    }
    const message = errorMessage(json) ?? `HTTP ${status}`;
    if (status === 401 || status === 403)
      return { ok: false, failure: "unauthorized", detail: message };
    // 404 and 422 are the documented refusals (`{success: false, message}`); another 4xx is one too.
    if (status >= 400 && status < 500) return { ok: false, failure: "refused", detail: message };
    return { ok: false, failure: "unavailable", detail: message };
  }

  return {
    code: "youcanpay",

    async startCheckout(config, request) {
      // The official SDK's body (TokenEndpoint::create): the amount in minor units as a string of
      // digits, our reference as `order_id`. YouCan Pay has one address back for success and one for
      // failure, and no cancel address: both are our return page, which shows where the payment stands.
      const answer = await call("POST", `${config.apiUrl}/api/tokenize`, {
        pri_key: config.secret,
        order_id: request.reference,
        amount: String(request.amount),
        currency: request.currency,
        customer_ip: request.customerIp,
        success_url: request.returnUrl,
        error_url: request.returnUrl,
        metadata: { payment_id: request.paymentId },
      });
      if (!answer.ok) return answer;
      const token = isObject(answer.json) && isObject(answer.json.token) ? answer.json.token : null;
      const tokenId = token ? idString(token.id) : null;
      if (!tokenId) return { ok: false, failure: "unavailable", detail: "no token in the answer" };
      const lang = FORM_LANGUAGES.has(request.locale) ? request.locale : "en";
      return {
        ok: true,
        providerRef: tokenId,
        redirectUrl: `${config.apiUrl}/payment-form/${encodeURIComponent(tokenId)}?lang=${lang}`,
      };
    },

    readNotification(config, headers, rawBody) {
      if (!signatureMatches(config, headers, rawBody))
        return { ok: false, refusal: "badSignature" };
      return readEvent(headers, rawBody);
    },

    async verifyNotification(config, headers, rawBody) {
      // readNotification has checked it already; checked again so that this answer never depends on
      // which of the two the caller ran.
      return { ok: true, valid: signatureMatches(config, headers, rawBody) };
    },

    async lookUp(config, payment) {
      const key = `pri_key=${encodeURIComponent(config.secret)}`;
      if (payment.captureRef === null) return lookUpByReference(config, payment, key);
      const answer = await call(
        "GET",
        `${config.apiUrl}/api/transactions/${encodeURIComponent(payment.captureRef)}?${key}`,
      );
      if (!answer.ok) return answer;
      const transaction = readTransaction(answer.json);
      if (!transaction)
        return { ok: false, failure: "unavailable", detail: "the transaction's answer is not one" };
      // The transaction id came from the customer's return address or a notification: it may name
      // someone else's payment.
      if (transaction.orderId !== payment.reference)
        return { ok: false, failure: "refused", detail: "reference mismatch" };
      const direct = answerFor(transaction);
      // A declined attempt is not the order's last word: the customer may have tried again on the
      // same form and paid. The order's other attempts are asked for; when that fails, this one stands.
      if (direct.ok && (direct.state === "failed" || direct.state === "cancelled")) {
        const best = await lookUpByReference(config, payment, key);
        if (best.ok && best.captureRef !== null) return best;
      }
      return direct;
    },

    async refund() {
      // No refund call is documented (neither the API reference nor either SDK has one): the admin
      // refunds in YouCan Pay's dashboard, and its `transaction.refunded` notification records it.
      return { ok: true, outcome: "manual" };
    },
  };

  /**
   * No transaction id known yet (the customer has not come back, no notification came). YouCan Pay
   * documents no lookup by token or by order; the official PHP SDK's `transaction->list()` reads
   * `GET /api/transactions`, every transaction of the account, and the one naming our reference is
   * picked from it (the most advanced: paid over refunded over pending over failed). Nothing there is
   * pending, as far as the provider has told us. Whether the real list is paginated is not documented
   * (the SDK reads a bare array): an answer `{data: [...]}` is read as well.
   */
  async function lookUpByReference(
    config: ProviderConfig,
    payment: PaymentRef,
    key: string,
  ): Promise<LookUpResult> {
    const answer = await call("GET", `${config.apiUrl}/api/transactions?${key}`);
    if (!answer.ok) return answer;
    const list = Array.isArray(answer.json)
      ? answer.json
      : isObject(answer.json) && Array.isArray(answer.json.data)
        ? answer.json.data
        : null;
    if (!list) return { ok: false, failure: "unavailable", detail: "the list's answer is not one" };
    const ours = list
      .map(readTransaction)
      .filter((t): t is Transaction => t !== null && t.orderId === payment.reference)
      .sort((a, b) => rank(b.status) - rank(a.status));
    const best = ours[0];
    if (!best)
      return {
        ok: true,
        state: "pending",
        reference: null,
        amount: 0,
        currency: payment.currency,
        captureRef: null,
        refundedAmount: 0,
        detail: "no transaction for this order yet",
      };
    return answerFor(best);
  }
}

/** The provider used by the app. */
export const youCanPayProvider = createYouCanPayProvider();

function answerFor(transaction: Transaction): LookUpResult {
  const state = TRANSACTION_STATES[transaction.status] ?? "pending";
  if (transaction.amount === null)
    return { ok: false, failure: "unavailable", detail: "the transaction's amount is not money" };
  return {
    ok: true,
    state,
    reference: transaction.orderId,
    // `amount`/`currency` are what the order asked and the customer paid; `base_amount` and
    // `base_currency` (null when no conversion happened) are the account's own currency, which is not
    // what our request is compared with.
    amount: transaction.amount,
    currency: transaction.currency,
    captureRef: transaction.id,
    // A refund shows only as the status; no refunded amount is documented, so it is the whole.
    refundedAmount: state === "refunded" ? transaction.amount : 0,
    // A status no source names is read as pending: never credited, and looked at again later.
    ...(TRANSACTION_STATES[transaction.status] === undefined
      ? { detail: `unknown status ${transaction.status}` }
      : state === "failed" || state === "cancelled"
        ? { detail: `status ${transaction.status}` }
        : {}),
  };
}

/** Which of several attempts at one order speaks for it. */
function rank(status: number): number {
  return status === 1 ? 4 : status === -2 ? 3 : status === 0 ? 2 : 1;
}

function signatureMatches(
  config: ProviderConfig,
  headers: Record<string, string>,
  rawBody: string,
): boolean {
  const given = headers[SIGNATURE_HEADER]?.trim().toLowerCase();
  if (!given || !/^[0-9a-f]{64}$/.test(given) || !config.secret) return false;
  const expected = createHmac("sha256", config.secret).update(rawBody, "utf8").digest();
  return timingSafeEqual(expected, Buffer.from(given, "hex"));
}

const EVENT_KINDS: Record<string, NotificationClaim["kind"]> = {
  "transaction.paid": "payment",
  "transaction.failed": "payment",
  "transaction.refunded": "refund",
};

/** A signed notification's content: `{id, event_name, sandbox, payload: {transaction, token, …}}`. */
function readEvent(headers: Record<string, string>, rawBody: string): NotificationRead {
  const event = parseJson(rawBody);
  if (!isObject(event)) return { ok: false, refusal: "malformed" };
  // The documented event object names its id `id`; the official SDK's webhook test uses `event_id`.
  const eventId = idString(event.id) ?? idString(event.event_id);
  const eventType = typeof event.event_name === "string" ? event.event_name.trim() : "";
  if (!eventId || !eventType || !isObject(event.payload))
    return { ok: false, refusal: "malformed" };
  const kind = EVENT_KINDS[eventType] ?? "other";
  const payload = event.payload;
  const transaction = isObject(payload.transaction) ? payload.transaction : null;
  const captureRef = transaction ? idString(transaction.id) : null;
  const reference = transaction ? idString(transaction.order_id) : null;
  // A transaction event that names no transaction or no order is about nothing we can look up.
  if (kind !== "other" && (!captureRef || !reference)) return { ok: false, refusal: "malformed" };
  const token = isObject(payload.token) ? payload.token : null;
  return {
    ok: true,
    claim: {
      eventId,
      eventType,
      kind,
      providerRef: token ? idString(token.id) : null,
      captureRef,
      reference,
      headers: { [SIGNATURE_HEADER]: headers[SIGNATURE_HEADER] ?? "" },
    },
  };
}

function readTransaction(value: unknown): Transaction | null {
  if (!isObject(value)) return null;
  const id = idString(value.id);
  const orderId = idString(value.order_id);
  const status = typeof value.status === "string" ? Number(value.status) : value.status;
  if (!id || !orderId || typeof status !== "number" || !Number.isInteger(status)) return null;
  if (typeof value.currency !== "string" || !value.currency) return null;
  return { id, orderId, status, amount: minorUnits(value.amount), currency: value.currency };
}

/**
 * A transaction's amount in minor units. The unofficial TypeScript SDK documents it as minor units in a
 * string ("2000" for 20 MAD) and the WooCommerce plugin's notification model as an integer; the
 * official PHP SDK's test fixture has a decimal ("20.00"), read here as major units. Whichever way a
 * real answer is written, an amount read wrongly can only differ from the one asked, which is refused
 * and shown to the admin, never credited.
 */
function minorUnits(value: unknown): number | null {
  if (typeof value === "number") return Number.isSafeInteger(value) && value >= 0 ? value : null;
  if (typeof value !== "string") return null;
  const text = value.trim();
  if (/^\d+$/.test(text)) return Number.isSafeInteger(Number(text)) ? Number(text) : null;
  const decimal = /^(\d+)\.(\d{1,2})$/.exec(text);
  if (!decimal) return null;
  const minor = Number(decimal[1]) * 100 + Number(decimal[2]!.padEnd(2, "0"));
  return Number.isSafeInteger(minor) ? minor : null;
}

/** An id as YouCan Pay writes them: a non-empty string (uuid), or a number the PHP side sent as one. */
function idString(value: unknown): string | null {
  if (typeof value === "string") return value.trim() === "" ? null : value;
  if (typeof value === "number" && Number.isSafeInteger(value)) return String(value);
  return null;
}

function errorMessage(json: unknown): string | null {
  return isObject(json) && typeof json.message === "string" && json.message.trim() !== ""
    ? json.message
    : null;
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
