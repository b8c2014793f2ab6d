// The contract every online payment provider meets (ADR 55, docs/online-payments.md). Pure types and
// constants, safe in the browser: the modules that speak to a provider are `<provider>.server.ts`
// beside this one, each a plain HTTP client with a timeout (no SDK), and none of them writes to the
// database: the use-cases in `online-payments*.server.ts` decide what an answer changes.

export const PAYMENT_PROVIDERS = ["paypal", "youcanpay"] as const;
export type ProviderCode = (typeof PAYMENT_PROVIDERS)[number];

export const PROVIDER_MODES = ["sandbox", "live"] as const;
export type ProviderMode = (typeof PROVIDER_MODES)[number];

/** The documented API address of each provider in each mode; the admin may point it elsewhere. */
export const PROVIDER_API_URLS: Record<ProviderCode, Record<ProviderMode, string>> = {
  paypal: { sandbox: "https://api-m.sandbox.paypal.com", live: "https://api-m.paypal.com" },
  youcanpay: { sandbox: "https://youcanpay.com/sandbox", live: "https://youcanpay.com" },
};

/** The most a notification's body may weigh (64 KiB): past it the webhook answers 413. */
export const MAX_NOTIFICATION_BYTES = 64 * 1024;

/** How long one call to a provider may take before it counts as a timeout. */
export const PROVIDER_TIMEOUT_MS = 8_000;

/** A provider's connection as the server uses it: the secret decrypted, never sent to a browser. */
export interface ProviderConfig {
  provider: ProviderCode;
  mode: ProviderMode;
  /** Without a trailing slash. */
  apiUrl: string;
  /** PayPal's client id, YouCan Pay's public key. */
  publicId: string;
  /** PayPal's client secret, YouCan Pay's private key. */
  secret: string;
  /** PayPal's webhook id ("" for YouCan Pay). */
  webhookId: string;
}

/** What a checkout is for: one top-up request's frozen total. */
export interface CheckoutRequest {
  /** Our online payment's id: the idempotency keys are made of it (`create-<id>`, `capture-<id>`). */
  paymentId: number;
  /** The top-up's reference ("TU-7K3Q9"): PayPal's `custom_id`/`invoice_id`, YouCan Pay's `order_id`. */
  reference: string;
  /** Minor units of `currency`. */
  amount: number;
  currency: "EUR" | "MAD";
  /** Where the provider sends the customer back, paid or not (absolute). */
  returnUrl: string;
  /** Where it sends them when they give up (absolute). */
  cancelUrl: string;
  /** The customer's address as our server saw it (YouCan Pay asks for it). */
  customerIp: string;
  /** The customer's language ("en", "fr", "ar"). */
  locale: string;
}

/** Why a call to a provider did not give an answer we can use; each is retried by the worker but the last. */
export type ProviderFailure =
  /** No answer within PROVIDER_TIMEOUT_MS: the call may or may not have happened. */
  | "timeout"
  /** A network error or a 5xx. */
  | "unavailable"
  /** 401/403: the keys are wrong or revoked (the admin must act; retrying does not help). */
  | "unauthorized"
  /** Another 4xx: the provider refused what we asked (its message in `detail`). */
  | "refused";

export type ProviderError = { ok: false; failure: ProviderFailure; detail?: string };

export type StartResult = { ok: true; providerRef: string; redirectUrl: string } | ProviderError;

/** Where a payment stands in the provider's own word. */
export type ProviderPaymentState = "pending" | "paid" | "failed" | "cancelled" | "refunded";

export type LookUpResult =
  | {
      ok: true;
      state: ProviderPaymentState;
      /** Our reference as the provider has it (to check it names our top-up), null when it has none. */
      reference: string | null;
      /** What was taken (or asked, while pending), in minor units of `currency`. */
      amount: number;
      currency: string;
      /** PayPal's capture id, YouCan Pay's transaction id; null while nothing was taken. */
      captureRef: string | null;
      /** Minor units refunded so far (0 when none). */
      refundedAmount: number;
      /** The provider's reason for a failure (INSTRUMENT_DECLINED…), for the admin. */
      detail?: string;
    }
  | ProviderError;

/** What a notification says, read without trusting it: the confirming job asks the provider. */
export interface NotificationClaim {
  /** Unique per provider: the inbox's key. */
  eventId: string;
  /** The provider's name for it (`PAYMENT.CAPTURE.COMPLETED`, `transaction.paid`). */
  eventType: string;
  /** What it is about, as far as we act on it. */
  kind: "payment" | "refund" | "reversal" | "other";
  /** The checkout it names (PayPal's order id, YouCan Pay's token id), when it names one. */
  providerRef: string | null;
  /** The capture or transaction it names, when it names one. */
  captureRef: string | null;
  /**
   * Our reference ("TU-7K3Q9") as the notification carries it, when it does (YouCan Pay's
   * `transaction.order_id`): a YouCan Pay notification need not name the token, so this is how the
   * inbox finds the checkout it is about. A claim like the rest, checked by `lookUp`.
   */
  reference?: string | null;
  /** The headers a later verification needs (PayPal's transmission headers), lower-case names. */
  headers: Record<string, string>;
}

export type NotificationRead =
  { ok: true; claim: NotificationClaim } | { ok: false; refusal: "badSignature" | "malformed" };

export type VerifyResult = { ok: true; valid: boolean } | ProviderError;

export type RefundResult =
  | { ok: true; outcome: "refunded" | "pending"; refundRef: string }
  /** No refund call is documented: the admin refunds in the provider's dashboard. */
  | { ok: true; outcome: "manual" }
  | ProviderError;

/** The reference of a payment to look up or refund. */
export interface PaymentRef {
  paymentId: number;
  providerRef: string | null;
  captureRef: string | null;
  reference: string;
  currency: string;
}

export interface PaymentProvider {
  code: ProviderCode;
  /** Creates the checkout and says where to send the customer. Never takes money by itself. */
  startCheckout(config: ProviderConfig, request: CheckoutRequest): Promise<StartResult>;
  /**
   * Reads a notification as it came (headers with lower-case names, the raw body). A provider whose
   * signature can be checked here (YouCan Pay's HMAC) checks it; one that needs a call (PayPal) leaves
   * that to `verifyNotification`. Changes nothing.
   */
  readNotification(
    config: ProviderConfig,
    headers: Record<string, string>,
    rawBody: string,
  ): NotificationRead;
  /** Asks the provider whether the notification is its own (true at once when read already checked it). */
  verifyNotification(
    config: ProviderConfig,
    headers: Record<string, string>,
    rawBody: string,
  ): Promise<VerifyResult>;
  /**
   * The provider's word on a payment. PayPal's captures an order the customer approved (with the
   * idempotency key `capture-<paymentId>`, so a retry after a timeout returns the capture that happened):
   * this is the one place money is taken.
   */
  lookUp(config: ProviderConfig, payment: PaymentRef): Promise<LookUpResult>;
  /**
   * Gives back `amount` minor units of a paid payment. `key` is the refund's idempotency key (the same
   * refund asked again, after a timeout, is the same refund at the provider).
   */
  refund(
    config: ProviderConfig,
    payment: PaymentRef,
    amount: number,
    key: string,
  ): Promise<RefundResult>;
}
