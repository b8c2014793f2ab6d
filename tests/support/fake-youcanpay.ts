import { createHmac, randomUUID } from "node:crypto";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import type { ProviderConfig } from "~/domain/payments/providers/provider";

/*
 * A double of YouCan Pay on 127.0.0.1, speaking the API as its sources write it. Where no source says,
 * the choice is marked "ours".
 *
 * Sources: the official PHP SDK, github.com/youcan-shop/youcan-payment-php-sdk (src/API/Endpoints/
 * TokenEndpoint.php and TransactionEndpoint.php, src/API/HTTPAdapter/HTTPAdapter.php and
 * CurlHTTPAdapter.php, src/Models/Token.php and Transaction.php, src/YouCanPay.php
 * `verifyWebhookSignature`, tests/API/Endpoints/*Test.php, tests/Webhook/WebhookTest.php); the official
 * WooCommerce plugin, github.com/NextmediaMa/youcan-pay-for-woocommerce (includes/class-wc-youcanpay-
 * api.php, includes/class-wc-youcanpay-webhook-handler.php, includes/models/class-wc-youcanpay-
 * transaction-model.php, assets/js/youcan-pay.js); the unofficial TypeScript SDK,
 * github.com/skuidma/ycp-sdk-ts (src/lib/youcanpay.ts, api-client.ts, types.ts); the documentation,
 * developer.youcan.shop/youcan-pay/sdk/webhooks (the event object) and /youcan-pay/webhooks/object
 * (the events).
 *
 * Addresses. Live under https://youcanpay.com, sandbox under https://youcanpay.com/sandbox: the API at
 * `{base}/api/…`, the payment form at `{base}/payment-form/{token}?lang=en|fr|ar` (the SDK's
 * getPaymentURL). This double answers under both `/` and `/sandbox`; `apiUrl` is the sandbox one.
 * Every call is JSON (`content-type` and `accept: application/json`, as the SDK's adapter sends).
 *
 * POST /api/tokenize — body {pri_key, order_id, amount (minor units, integer or digits: the PHP SDK sends
 *   "2000", the TS SDK 2000), currency, customer_ip, success_url, error_url, customer?, metadata?}.
 *   200 {token: {id}} (the SDK reads only `token.id`). A wrong or missing private key: 401
 *   {success: false, message} (ours: no source shows the answer to a bad key). Invalid input: 422
 *   {success: false, message, code?}, e.g. "the amount is less than minimum transaction amount", or
 *   "The amount may not be greater than 999999999." with code "013" (the SDK's tests). 5xx: a server error.
 * GET /api/transactions/{id}?pri_key=… — 200 {id, order_id, status, amount, currency, base_amount,
 *   base_currency, created_at}; amount in minor units as a string of digits (the TS SDK parses it so);
 *   base_* null when no conversion. 404 {success: false, message} for an unknown id. status: 1 paid,
 *   0 pending, -1 cancelled, -2 refunded, -3 failed (the WooCommerce plugin's transaction model).
 * GET /api/transactions?pri_key=… — every transaction of the account, an array of the same (the SDK's
 *   `list()`). No lookup by token or by order is documented; this list is the only way to find an
 *   order's transaction without its id.
 * No refund call, idempotency header or retry schedule is documented: refunds are made in the dashboard
 *   (here: `refund()`), and an undelivered notification is sent again only when the test says
 *   (`redeliver()`), on no clock of the double's own.
 *
 * The payment form. The real one is a page with YouCan Pay's card form (and 3-D Secure); this one has
 *   three buttons posting to `/payment-form/{token}/pay|decline|cancel` (ours). Pay makes a transaction
 *   with status 1 and sends the customer to `success_url?transaction_id=…`; Decline makes one with status
 *   -3 and sends them to `error_url?transaction_id=…&message=…` (the WooCommerce plugin reads both
 *   parameters on its return); Cancel sends them to `error_url` with neither (ours). One token may see
 *   declined attempts then a payment; a token already paid is refused (409, ours).
 *
 * Notifications. POST to the webhook address, body {id, event_name, sandbox, payload: {token: {id},
 *   transaction, payment_method, customer, metadata}} (the documented event object; the WooCommerce
 *   handler reads payload.token, .transaction and .payment_method), header `X-Youcanpay-Signature`: the
 *   hex HMAC-SHA256 of the body with the private key (SDK `verifyWebhookSignature`). Events:
 *   transaction.paid, transaction.failed, transaction.refunded. A notification is sent, and awaited,
 *   before the customer is redirected (so it arrives before the return unless held). Each is delivered
 *   as `deliverNext` says: normal, twice (the same event twice), held (until `releaseHeld`, possibly in
 *   reverse order), dropped (lost, never sent), forged (signed with another key).
 */

export type DeliveryMode = "normal" | "twice" | "held" | "dropped" | "forged";

export const TRANSACTION_STATUS = {
  paid: 1,
  pending: 0,
  cancelled: -1,
  refunded: -2,
  failed: -3,
} as const;

export interface FakeToken {
  id: string;
  orderId: string;
  amount: number;
  currency: string;
  customerIp: string;
  successUrl: string;
  errorUrl: string;
  metadata: unknown;
  sandbox: boolean;
  /** Every attempt made on it, oldest first. */
  transactionIds: string[];
}

export interface FakeTransaction {
  id: string;
  tokenId: string;
  orderId: string;
  status: number;
  amount: number;
  currency: string;
  createdAt: string;
  /** Minor units given back by `refund` (the API shows only the status). */
  refundedAmount: number;
}

export interface Delivery {
  eventId: string;
  eventName: string;
  body: string;
  signature: string;
  mode: DeliveryMode;
  /** The webhook's answer; null when none came (no webhook address, network error). */
  status: number | null;
}

export interface FakeYouCanPayOptions {
  privateKey?: string;
  publicKey?: string;
  /** For `created_at` (default: one fixed moment: the double reads no clock). */
  now?: () => Date;
  /** Below it, tokenize answers 422 (default 100 minor units; YouCan Pay's own minimum is not documented). */
  minimumAmount?: number;
}

export interface FakeYouCanPay {
  /** http://127.0.0.1:<port> */
  origin: string;
  /** The sandbox base, as an admin would save it: `{origin}/sandbox`. */
  apiUrl: string;
  privateKey: string;
  publicKey: string;
  /** A provider connection pointing here, with the right keys. */
  config(overrides?: Partial<ProviderConfig>): ProviderConfig;
  /** Where notifications go; null: nowhere (each is then undelivered until `redeliver`). */
  webhookUrl: string | null;
  /** Every API request (method, path with query, parsed JSON body or null), the form's excluded. */
  requests: { method: string; path: string; body: unknown }[];
  tokens: Map<string, FakeToken>;
  transactions: Map<string, FakeTransaction>;
  /** Every delivery attempt, in order. */
  deliveries: Delivery[];
  /** Pays on the form as the customer's Pay button does: the transaction and where the customer goes. */
  pay(tokenId: string): Promise<{ transaction: FakeTransaction; returnUrl: string }>;
  /** Declines on the form as the Decline button does. */
  decline(tokenId: string): Promise<{ transaction: FakeTransaction; returnUrl: string }>;
  /** The next payment takes this amount instead of the token's (a tampered or converted amount). */
  nextPaidAmount(amount: number): void;
  /**
   * The next call to this API path answers `status`, nothing done: `/api/tokenize`, `/api/transactions`
   * (the list), `/api/transactions/*` (one transaction).
   */
  failNext(path: string, status: number, body?: unknown): void;
  /** The next call to this path (as `failNext`) is done, but its answer held until `releaseAnswers`. */
  holdNext(path: string): void;
  /** How many answers are held. */
  heldAnswers(): number;
  releaseAnswers(): void;
  /** How the next notifications are delivered, one mode each (then normal). */
  deliverNext(...modes: DeliveryMode[]): void;
  /** Sends the held notifications, in order or reversed. */
  releaseHeld(options?: { reverse?: boolean }): Promise<void>;
  /** Sends again every notification whose last delivery got no 2xx (dropped ones stay lost). */
  redeliver(): Promise<void>;
  /** A refund made in YouCan Pay's dashboard: the transaction refunded, `transaction.refunded` sent. */
  refund(transactionId: string, amount?: number): Promise<FakeTransaction>;
  /** A signed event body as YouCan Pay would send it for this transaction, without sending it. */
  eventFor(transactionId: string, eventName: string): { body: string; signature: string };
  /** The hex HMAC of `body` with the private key (or another key). */
  sign(body: string, key?: string): string;
  close(): Promise<void>;
}

/** A scripted path: exact (`/api/transactions`, the list), or a prefix ending in `/*` (`/api/transactions/*`). */
function matches(pattern: string, route: string): boolean {
  return pattern.endsWith("/*") ? route.startsWith(pattern.slice(0, -1)) : route === pattern;
}

const MAX_AMOUNT = 999_999_999;
const FIXED_MOMENT = new Date("2026-01-01T10:00:00Z");

export async function startFakeYouCanPay(
  options: FakeYouCanPayOptions = {},
): Promise<FakeYouCanPay> {
  const privateKey = options.privateKey ?? "pri_sandbox_fake_youcanpay_key";
  const publicKey = options.publicKey ?? "pub_sandbox_fake_youcanpay_key";
  const now = options.now ?? (() => FIXED_MOMENT);
  const minimumAmount = options.minimumAmount ?? 100;

  const tokens = new Map<string, FakeToken>();
  const transactions = new Map<string, FakeTransaction>();
  const requests: FakeYouCanPay["requests"] = [];
  const deliveries: Delivery[] = [];
  const failures: { path: string; status: number; body?: unknown }[] = [];
  const holds: string[] = [];
  const heldAnswers: (() => void)[] = [];
  const modes: DeliveryMode[] = [];
  const heldEvents: { eventId: string; eventName: string; body: string }[] = [];
  /** Events whose last delivery got no 2xx, by id. */
  const undelivered = new Map<string, { eventName: string; body: string }>();
  let paidAmount: number | null = null;

  const sign = (body: string, key = privateKey) =>
    createHmac("sha256", key).update(body, "utf8").digest("hex");

  function wireTransaction(t: FakeTransaction) {
    return {
      id: t.id,
      order_id: t.orderId,
      status: t.status,
      amount: String(t.amount),
      currency: t.currency,
      base_amount: null,
      base_currency: null,
      created_at: t.createdAt,
    };
  }

  function eventBody(t: FakeTransaction, eventName: string): { eventId: string; body: string } {
    const token = tokens.get(t.tokenId)!;
    const eventId = randomUUID();
    const body = JSON.stringify({
      id: eventId,
      event_name: eventName,
      sandbox: token.sandbox,
      payload: {
        token: { id: token.id },
        transaction: wireTransaction(t),
        payment_method: {
          id: 1,
          name: "credit_card",
          card: { id: randomUUID(), country_code: "MA", brand: "visa", last_digits: 4242 },
        },
        customer: { id: randomUUID(), name: null, email: null, phone: null, country_code: "MA" },
        metadata: token.metadata,
      },
    });
    return { eventId, body };
  }

  async function deliver(eventId: string, eventName: string, body: string, mode: DeliveryMode) {
    const forged = mode === "forged";
    const signature = sign(body, forged ? `${privateKey}-not` : privateKey);
    let status: number | null = null;
    if (fake.webhookUrl) {
      try {
        const response = await fetch(fake.webhookUrl, {
          method: "POST",
          headers: { "content-type": "application/json", "x-youcanpay-signature": signature },
          body,
          signal: AbortSignal.timeout(10_000),
        });
        await response.arrayBuffer();
        status = response.status;
      } catch {
        status = null;
      }
    }
    deliveries.push({ eventId, eventName, body, signature, mode, status });
    if (forged) return;
    if (status !== null && status >= 200 && status < 300) undelivered.delete(eventId);
    else undelivered.set(eventId, { eventName, body });
  }

  async function notify(t: FakeTransaction, eventName: string) {
    const { eventId, body } = eventBody(t, eventName);
    const mode = modes.shift() ?? "normal";
    if (mode === "dropped") {
      deliveries.push({ eventId, eventName, body, signature: sign(body), mode, status: null });
      return;
    }
    if (mode === "held") {
      heldEvents.push({ eventId, eventName, body });
      return;
    }
    await deliver(eventId, eventName, body, mode);
    if (mode === "twice") await deliver(eventId, eventName, body, mode);
  }

  function attempt(tokenId: string, status: number): FakeTransaction {
    const token = tokens.get(tokenId);
    if (!token) throw new Error(`no token ${tokenId}`);
    if (isPaid(token)) throw new Error(`token ${tokenId} is already paid`);
    const amount =
      status === TRANSACTION_STATUS.paid && paidAmount !== null ? paidAmount : token.amount;
    if (status === TRANSACTION_STATUS.paid) paidAmount = null;
    const transaction: FakeTransaction = {
      id: randomUUID(),
      tokenId,
      orderId: token.orderId,
      status,
      amount,
      currency: token.currency,
      createdAt: now().toISOString().replace("T", " ").slice(0, 19),
      refundedAmount: 0,
    };
    transactions.set(transaction.id, transaction);
    token.transactionIds.push(transaction.id);
    return transaction;
  }

  function isPaid(token: FakeToken) {
    return token.transactionIds.some((id) => {
      const status = transactions.get(id)?.status;
      return status === TRANSACTION_STATUS.paid || status === TRANSACTION_STATUS.refunded;
    });
  }

  async function payToken(tokenId: string) {
    const transaction = attempt(tokenId, TRANSACTION_STATUS.paid);
    await notify(transaction, "transaction.paid");
    const url = new URL(tokens.get(tokenId)!.successUrl);
    url.searchParams.set("transaction_id", transaction.id);
    return { transaction, returnUrl: url.toString() };
  }

  async function declineToken(tokenId: string) {
    const transaction = attempt(tokenId, TRANSACTION_STATUS.failed);
    await notify(transaction, "transaction.failed");
    const url = new URL(tokens.get(tokenId)!.errorUrl);
    url.searchParams.set("transaction_id", transaction.id);
    url.searchParams.set("message", "The card was declined.");
    return { transaction, returnUrl: url.toString() };
  }

  function json(res: ServerResponse, status: number, body: unknown) {
    res.writeHead(status, { "content-type": "application/json" });
    res.end(JSON.stringify(body));
  }

  function html(res: ServerResponse, status: number, body: string) {
    res.writeHead(status, { "content-type": "text/html; charset=utf-8" });
    res.end(
      `<!doctype html><html><head><meta charset="utf-8"><title>YouCan Pay</title></head><body>${body}</body></html>`,
    );
  }

  function redirect(res: ServerResponse, location: string) {
    res.writeHead(302, { location });
    res.end();
  }

  /** The API's answer, unless the test scripted a failure or a hold for this path. */
  function answerApi(
    res: ServerResponse,
    route: string,
    work: () => { status: number; body: unknown },
  ) {
    const failure = failures.findIndex((f) => matches(f.path, route));
    if (failure >= 0) {
      const [{ status, body }] = failures.splice(failure, 1) as [(typeof failures)[number]];
      json(
        res,
        status,
        body ?? { success: false, message: status >= 500 ? "Server Error" : "Error" },
      );
      return;
    }
    const result = work();
    const hold = holds.findIndex((path) => matches(path, route));
    if (hold >= 0) {
      holds.splice(hold, 1);
      heldAnswers.push(() => {
        if (!res.destroyed) json(res, result.status, result.body);
      });
      return;
    }
    json(res, result.status, result.body);
  }

  function tokenize(body: unknown, sandbox: boolean): { status: number; body: unknown } {
    const b = (typeof body === "object" && body !== null ? body : {}) as Record<string, unknown>;
    if (b.pri_key !== privateKey)
      return { status: 401, body: { success: false, message: "Unauthenticated." } };
    const invalid = (message: string, code?: string) => ({
      status: 422,
      body: { success: false, message, ...(code ? { code } : {}) },
    });
    const orderId = typeof b.order_id === "number" ? String(b.order_id) : b.order_id;
    if (typeof orderId !== "string" || orderId.trim() === "")
      return invalid("The order id field is required.");
    const amount =
      typeof b.amount === "number"
        ? b.amount
        : typeof b.amount === "string" && /^\d+$/.test(b.amount)
          ? Number(b.amount)
          : NaN;
    if (!Number.isInteger(amount)) return invalid("The amount must be an integer.");
    if (amount < minimumAmount)
      return invalid("the amount is less than minimum transaction amount");
    if (amount > MAX_AMOUNT) return invalid("The amount may not be greater than 999999999.", "013");
    if (typeof b.currency !== "string" || !["MAD", "EUR", "USD"].includes(b.currency))
      return invalid("The selected currency is invalid.");
    if (typeof b.customer_ip !== "string" || b.customer_ip === "")
      return invalid("The customer ip field is required.");
    for (const field of ["success_url", "error_url"] as const) {
      const value = b[field];
      if (typeof value !== "string" || !URL.canParse(value))
        return invalid(`The ${field.replace("_", " ")} format is invalid.`);
    }
    const token: FakeToken = {
      id: randomUUID(),
      orderId,
      amount,
      currency: b.currency,
      customerIp: b.customer_ip,
      successUrl: b.success_url as string,
      errorUrl: b.error_url as string,
      metadata: b.metadata ?? {},
      sandbox,
      transactionIds: [],
    };
    tokens.set(token.id, token);
    return { status: 200, body: { token: { id: token.id } } };
  }

  async function handle(req: IncomingMessage, res: ServerResponse, rawBody: string) {
    const url = new URL(req.url ?? "/", "http://fake");
    const sandbox = url.pathname.startsWith("/sandbox/");
    const route = sandbox ? url.pathname.slice("/sandbox".length) : url.pathname;
    const method = req.method ?? "GET";

    const form = /^\/payment-form\/([^/]+)(?:\/(pay|decline|cancel))?$/.exec(route);
    if (form) {
      const token = tokens.get(decodeURIComponent(form[1]!));
      if (!token) return html(res, 404, "<p>This payment link is not valid.</p>");
      const action = form[2];
      if (!action && method === "GET") {
        const lang = url.searchParams.get("lang") ?? "en";
        const base = `${sandbox ? "/sandbox" : ""}/payment-form/${encodeURIComponent(token.id)}`;
        const button = (name: string, label: string) =>
          `<form method="post" action="${base}/${name}"><button type="submit">${label}</button></form>`;
        return html(
          res,
          200,
          `<main lang="${lang.replace(/[^a-z]/g, "")}"><h1>${token.amount} ${token.currency}</h1>` +
            `<p>Order ${token.orderId.replace(/[<>&"]/g, "")}</p>` +
            button("pay", "Pay") +
            button("decline", "Decline") +
            button("cancel", "Cancel") +
            "</main>",
        );
      }
      if (action && method === "POST") {
        if (isPaid(token)) return html(res, 409, "<p>This order has already been paid.</p>");
        if (action === "cancel") return redirect(res, token.errorUrl);
        const done = action === "pay" ? await payToken(token.id) : await declineToken(token.id);
        return redirect(res, done.returnUrl);
      }
      return html(res, 405, "<p>Method not allowed.</p>");
    }

    let body: unknown = null;
    if (rawBody !== "") {
      try {
        body = JSON.parse(rawBody);
      } catch {
        body = null;
      }
    }
    requests.push({ method, path: `${route}${url.search}`, body });
    const keyOk = url.searchParams.get("pri_key") === privateKey;
    const unauthenticated = { status: 401, body: { success: false, message: "Unauthenticated." } };

    if (method === "POST" && route === "/api/tokenize")
      return answerApi(res, route, () => tokenize(body, sandbox));
    if (method === "GET" && route === "/api/transactions")
      return answerApi(res, route, () =>
        keyOk
          ? { status: 200, body: [...transactions.values()].map(wireTransaction) }
          : unauthenticated,
      );
    const one = /^\/api\/transactions\/([^/]+)$/.exec(route);
    if (method === "GET" && one)
      return answerApi(res, route, () => {
        if (!keyOk) return unauthenticated;
        const transaction = transactions.get(decodeURIComponent(one[1]!));
        return transaction
          ? { status: 200, body: wireTransaction(transaction) }
          : { status: 404, body: { success: false, message: "Transaction not found." } };
      });
    json(res, 404, { success: false, message: "Not Found" });
  }

  const server: Server = createServer((req, res) => {
    let raw = "";
    req.on("data", (chunk: Buffer) => (raw += chunk.toString("utf8")));
    req.on("end", () => {
      handle(req, res, raw).catch((error: unknown) => {
        if (!res.headersSent) json(res, 500, { success: false, message: String(error) });
      });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  const origin = `http://127.0.0.1:${port}`;

  const fake: FakeYouCanPay = {
    origin,
    apiUrl: `${origin}/sandbox`,
    privateKey,
    publicKey,
    config: (overrides = {}) => ({
      provider: "youcanpay",
      mode: "sandbox",
      apiUrl: `${origin}/sandbox`,
      publicId: publicKey,
      secret: privateKey,
      webhookId: "",
      ...overrides,
    }),
    webhookUrl: null,
    requests,
    tokens,
    transactions,
    deliveries,
    pay: payToken,
    decline: declineToken,
    nextPaidAmount: (amount) => void (paidAmount = amount),
    failNext: (path, status, body) => void failures.push({ path, status, body }),
    holdNext: (path) => void holds.push(path),
    heldAnswers: () => heldAnswers.length,
    releaseAnswers: () => {
      for (const send of heldAnswers.splice(0)) send();
    },
    deliverNext: (...next) => void modes.push(...next),
    async releaseHeld({ reverse = false } = {}) {
      const events = heldEvents.splice(0);
      if (reverse) events.reverse();
      for (const e of events) await deliver(e.eventId, e.eventName, e.body, "normal");
    },
    async redeliver() {
      for (const [eventId, e] of [...undelivered])
        await deliver(eventId, e.eventName, e.body, "normal");
    },
    async refund(transactionId, amount) {
      const transaction = transactions.get(transactionId);
      if (!transaction || transaction.status !== TRANSACTION_STATUS.paid)
        throw new Error(`transaction ${transactionId} is not paid`);
      transaction.status = TRANSACTION_STATUS.refunded;
      transaction.refundedAmount = amount ?? transaction.amount;
      await notify(transaction, "transaction.refunded");
      return transaction;
    },
    eventFor(transactionId, eventName) {
      const transaction = transactions.get(transactionId);
      if (!transaction) throw new Error(`no transaction ${transactionId}`);
      const { body } = eventBody(transaction, eventName);
      return { body, signature: sign(body) };
    },
    sign,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
  return fake;
}
