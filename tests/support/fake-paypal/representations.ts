import { randomBytes } from "node:crypto";
import { fromPayPalValue, toPayPalValue } from "~/domain/payments/providers/paypal-amounts";

// The fake PayPal's resources as PayPal writes them (orders, captures, refunds with their HATEOAS
// links) and its error body, `{name, message, debug_id, details: [{issue, description}], links}`.

export type OrderStatus = "CREATED" | "PAYER_ACTION_REQUIRED" | "APPROVED" | "COMPLETED" | "VOIDED";

export interface FakeOrder {
  id: string;
  status: OrderStatus;
  currency: string;
  /** PayPal's decimal string, as asked. */
  value: string;
  customId: string | null;
  invoiceId: string | null;
  returnUrl: string | null;
  cancelUrl: string | null;
  locale: string | null;
  payerId: string | null;
  captureIds: string[];
}

export interface FakeCapture {
  id: string;
  orderId: string;
  status: "COMPLETED" | "PENDING" | "DECLINED" | "PARTIALLY_REFUNDED" | "REFUNDED";
  currency: string;
  value: string;
  reason: string | null;
  refundIds: string[];
}

export interface FakeRefund {
  id: string;
  captureId: string;
  status: "COMPLETED";
  currency: string;
  value: string;
}

/** What the representations read: the fake's address and what it keeps. */
export interface FakeStore {
  readonly base: string;
  orders: Map<string, FakeOrder>;
  captures: Map<string, FakeCapture>;
  refunds: Map<string, FakeRefund>;
}

const ERROR_MESSAGES: Record<number, [string, string]> = {
  400: [
    "INVALID_REQUEST",
    "Request is not well-formed, syntactically incorrect, or violates schema.",
  ],
  401: [
    "AUTHENTICATION_FAILURE",
    "Authentication failed due to invalid authentication credentials or a missing Authorization header.",
  ],
  403: ["NOT_AUTHORIZED", "Authorization failed due to insufficient permissions."],
  404: ["RESOURCE_NOT_FOUND", "The specified resource does not exist."],
  422: [
    "UNPROCESSABLE_ENTITY",
    "The requested action could not be performed, semantically incorrect, or failed business validation.",
  ],
  429: ["RATE_LIMIT_REACHED", "Too many requests. Blocked due to rate limiting."],
  500: ["INTERNAL_SERVER_ERROR", "An internal server error has occurred."],
  503: ["SERVICE_UNAVAILABLE", "Service Unavailable."],
};

const ISSUES: Record<string, string> = {
  INVALID_RESOURCE_ID:
    "Specified resource ID does not exist. Please check the resource ID and try again.",
  ORDER_NOT_APPROVED:
    "Payer has not yet approved the Order for payment. Please redirect the payer to the 'rel':'approve' url returned as part of the HATEOAS links within the Create Order call or provide a valid payment_source in the request.",
  ORDER_ALREADY_CAPTURED:
    "Order already captured.If 'intent=CAPTURE' only one capture per order is allowed.",
  INSTRUMENT_DECLINED:
    "The instrument presented  was either declined by the processor or bank, or it can't be used for this payment.",
  CAPTURE_FULLY_REFUNDED: "The capture has already been fully refunded",
  REFUND_AMOUNT_EXCEEDED:
    "The refund amount must be less than or equal to the capture amount that has not yet been refunded.",
  REFUND_TIME_LIMIT_EXCEEDED: "You are over the time limit to perform a refund on this capture.",
  MISSING_REQUIRED_PARAMETER: "A required field / parameter is missing.",
  INVALID_PARAMETER_VALUE: "The value of a field is invalid.",
  DECIMAL_PRECISION:
    "If the currency supports decimals, only two decimal place precision is supported.",
  CURRENCY_MISMATCH: "Currency of capture must be the same as currency of authorization.",
};

/** A fixed moment for create_time and update_time: the fake reads no clock. */
export const TIME = "2026-12-01T10:00:00Z";

export type Json = Record<string, unknown>;

export interface Reply {
  status: number;
  body: unknown;
  /** Kept under the PayPal-Request-Id, then no answer sent (the capture that timed out). */
  thenHold?: boolean;
}

export class PayPalHttpError extends Error {
  constructor(
    readonly status: number,
    readonly issue: string | null = null,
    readonly extra: Json = {},
    /** A body other than PayPal's usual error (the OAuth errors). */
    readonly raw: Json | null = null,
  ) {
    super(`PayPal ${status} ${issue ?? ""}`);
  }
}

export function paypalId(length = 17): string {
  const alphabet = "0123456789ABCDEFGHJKLMNPRSTUVWXY";
  return [...randomBytes(length)].map((byte) => alphabet[byte % alphabet.length]).join("");
}

export function errorBody(status: number, issue: string | null, extra: Json = {}): Json {
  const [name, message] = ERROR_MESSAGES[status] ?? ERROR_MESSAGES[500]!;
  return {
    name,
    message,
    debug_id: randomBytes(7).toString("hex").slice(0, 13),
    ...(issue ? { details: [{ issue, description: ISSUES[issue] ?? issue }] } : {}),
    links: [
      {
        href: `https://developer.paypal.com/api/rest/reference/orders/v2/errors/#${issue ?? name}`,
        rel: "information_link",
        method: "GET",
      },
    ],
    ...extra,
  };
}

export function isObject(value: unknown): value is Json {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

export const link = (href: string, rel: string, method: string) => ({ href, rel, method });

export function captureJson(store: FakeStore, capture: FakeCapture): Json {
  const order = store.orders.get(capture.orderId);
  const fee = Math.round((fromPayPalValue(capture.value, capture.currency) ?? 0) * 0.034) + 35;
  const gross = fromPayPalValue(capture.value, capture.currency) ?? 0;
  return {
    id: capture.id,
    status: capture.status,
    ...(capture.reason ? { status_details: { reason: capture.reason } } : {}),
    amount: { currency_code: capture.currency, value: capture.value },
    final_capture: true,
    seller_protection: {
      status: "ELIGIBLE",
      dispute_categories: ["ITEM_NOT_RECEIVED", "UNAUTHORIZED_TRANSACTION"],
    },
    ...(capture.status === "DECLINED"
      ? {}
      : {
          seller_receivable_breakdown: {
            gross_amount: { currency_code: capture.currency, value: capture.value },
            paypal_fee: {
              currency_code: capture.currency,
              value: toPayPalValue(Math.min(fee, gross), capture.currency),
            },
            net_amount: {
              currency_code: capture.currency,
              value: toPayPalValue(Math.max(gross - fee, 0), capture.currency),
            },
          },
        }),
    ...(order?.customId ? { custom_id: order.customId } : {}),
    ...(order?.invoiceId ? { invoice_id: order.invoiceId } : {}),
    supplementary_data: { related_ids: { order_id: capture.orderId } },
    create_time: TIME,
    update_time: TIME,
    links: [
      link(`${store.base}/v2/payments/captures/${capture.id}`, "self", "GET"),
      link(`${store.base}/v2/payments/captures/${capture.id}/refund`, "refund", "POST"),
      link(`${store.base}/v2/checkout/orders/${capture.orderId}`, "up", "GET"),
    ],
  };
}

export function refundJson(store: FakeStore, refund: FakeRefund): Json {
  const capture = store.captures.get(refund.captureId)!;
  const order = store.orders.get(capture.orderId);
  const total = capture.refundIds
    .map((id) => fromPayPalValue(store.refunds.get(id)!.value, refund.currency) ?? 0)
    .reduce((sum, value) => sum + value, 0);
  return {
    id: refund.id,
    status: refund.status,
    amount: { currency_code: refund.currency, value: refund.value },
    ...(order?.invoiceId ? { invoice_id: order.invoiceId } : {}),
    ...(order?.customId ? { custom_id: order.customId } : {}),
    seller_payable_breakdown: {
      gross_amount: { currency_code: refund.currency, value: refund.value },
      paypal_fee: { currency_code: refund.currency, value: "0.00" },
      net_amount: { currency_code: refund.currency, value: refund.value },
      total_refunded_amount: {
        currency_code: refund.currency,
        value: toPayPalValue(total, refund.currency),
      },
    },
    create_time: TIME,
    update_time: TIME,
    links: [
      link(`${store.base}/v2/payments/refunds/${refund.id}`, "self", "GET"),
      link(`${store.base}/v2/payments/captures/${refund.captureId}`, "up", "GET"),
    ],
  };
}

export function orderJson(store: FakeStore, order: FakeOrder): Json {
  const orderCaptures = order.captureIds.map((id) => store.captures.get(id)!);
  const orderRefunds = orderCaptures.flatMap((capture) =>
    capture.refundIds.map((id) => store.refunds.get(id)!),
  );
  const links = [link(`${store.base}/v2/checkout/orders/${order.id}`, "self", "GET")];
  if (order.status === "PAYER_ACTION_REQUIRED")
    links.push(link(`${store.base}/checkoutnow?token=${order.id}`, "payer-action", "GET"));
  if (order.status === "CREATED")
    links.push(link(`${store.base}/checkoutnow?token=${order.id}`, "approve", "GET"));
  if (order.status === "APPROVED")
    links.push(link(`${store.base}/v2/checkout/orders/${order.id}/capture`, "capture", "POST"));
  const payer = order.payerId
    ? {
        email_address: `buyer-${order.payerId.toLowerCase()}@example.com`,
        account_id: order.payerId,
        name: { given_name: "Test", surname: "Buyer" },
        address: { country_code: "FR" },
      }
    : {};
  return {
    id: order.id,
    intent: "CAPTURE",
    status: order.status,
    payment_source: { paypal: payer },
    purchase_units: [
      {
        reference_id: "default",
        amount: { currency_code: order.currency, value: order.value },
        payee: { email_address: "merchant@example.com", merchant_id: "FAKEMERCHANT01" },
        ...(order.customId ? { custom_id: order.customId } : {}),
        ...(order.invoiceId ? { invoice_id: order.invoiceId } : {}),
        ...(orderCaptures.length
          ? {
              payments: {
                captures: orderCaptures.map((each) => captureJson(store, each)),
                ...(orderRefunds.length
                  ? { refunds: orderRefunds.map((each) => refundJson(store, each)) }
                  : {}),
              },
            }
          : {}),
      },
    ],
    ...(order.payerId
      ? { payer: { name: { given_name: "Test", surname: "Buyer" }, payer_id: order.payerId } }
      : {}),
    create_time: TIME,
    update_time: TIME,
    links,
  };
}
