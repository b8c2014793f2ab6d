import { paypalProvider } from "./providers/paypal.server";
import type { PaymentProvider, ProviderCode } from "./providers/provider";
import { youCanPayProvider } from "./providers/youcanpay.server";

// The provider clients the server and the worker use (docs/online-payments.md): each a plain HTTP
// client beside the contract (`providers/<code>.server.ts`). Tests give their own (the doubles' or a
// scripted one) through the same seams: `AppServices.paymentProviders` and `JobWiring.payments`.

/** The clients by provider. */
export function installedProviders(): Record<ProviderCode, PaymentProvider> {
  return { paypal: paypalProvider, youcanpay: youCanPayProvider };
}
