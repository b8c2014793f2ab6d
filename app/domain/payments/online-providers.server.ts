import type { PaymentProvider, ProviderCode } from "./providers/provider";

// The provider clients the server and the worker use (docs/online-payments.md). Each is a plain HTTP
// client beside the contract (`providers/<code>.server.ts`); a provider whose client is not installed
// answers as unavailable (a start refused, a confirmation retried), never as paid.

/** A stand-in for a client that is not there: every call is "unavailable", every notification unread. */
export function unavailableProvider(code: ProviderCode): PaymentProvider {
  const failure = { ok: false as const, failure: "unavailable" as const, detail: "no client" };
  return {
    code,
    startCheckout: async () => failure,
    readNotification: () => ({ ok: false, refusal: "malformed" }),
    verifyNotification: async () => failure,
    lookUp: async () => failure,
    refund: async () => failure,
  };
}

/** The clients by provider. */
export function installedProviders(): Record<ProviderCode, PaymentProvider> {
  // TODO(merge): the PayPal and YouCan Pay clients (./providers/paypal.server, ./providers/youcanpay.server)
  // are written beside this branch; they replace these stand-ins when merged.
  return { paypal: unavailableProvider("paypal"), youcanpay: unavailableProvider("youcanpay") };
}
