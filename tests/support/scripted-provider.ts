import { createHmac, timingSafeEqual } from "node:crypto";
import type {
  CheckoutRequest,
  LookUpResult,
  NotificationRead,
  PaymentProvider,
  PaymentRef,
  ProviderCode,
  ProviderConfig,
  ProviderFailure,
  RefundResult,
  StartResult,
  VerifyResult,
} from "~/domain/payments/providers/provider";
import { encryptProviderSecret } from "~/domain/payments/providers/provider-config.server";
import { panelBaseUrl } from "~/domain/provisioning/panel-address";
import type { Db } from "~/db/transaction";

// A payment provider whose answers a test writes (online payments' tests): the start, each lookUp in
// order, each refund, each verification, recording every call. It fails the ways the real clients do
// (a timeout, an outage, keys refused), answering with the contract's failures rather than throwing.
//
// Its notifications are JSON `{id, type, kind, providerRef, captureRef}`; "signed" means the header
// `x-scripted-signature` holds the HMAC-SHA256 of the body under the configured secret (checked in
// `readNotification`, as YouCan Pay's is), unless `verifyByCall` is set: then `verifyNotification`
// answers as scripted (PayPal's way: a call to the provider).

type Failure = { ok: false; failure: ProviderFailure; detail?: string };

/** A lookUp's answer as a test writes it: a state with what was taken, or a failure. */
export type ScriptedLookUp =
  | {
      state: "pending" | "paid" | "failed" | "cancelled" | "refunded";
      amount?: number;
      currency?: string;
      reference?: string | null;
      captureRef?: string | null;
      refundedAmount?: number;
      detail?: string;
    }
  | { fail: ProviderFailure; detail?: string };

export interface ScriptedCall {
  method: "startCheckout" | "readNotification" | "verifyNotification" | "lookUp" | "refund";
  args: unknown[];
}

export interface ScriptedProvider extends PaymentProvider {
  calls: ScriptedCall[];
  /** The next start's answer (default: ok with ref `ref-<paymentId>`); `throws` makes it throw. */
  start: StartResult | "throws" | null;
  /** lookUp's answers in order; the last is repeated once the others are used. */
  lookUps: ScriptedLookUp[];
  /** refund's answers in order; the last repeated. */
  refunds: (RefundResult | Failure)[];
  /** verifyNotification's answers when it checks by a call (PayPal's way). */
  verifyByCall: boolean;
  verifications: VerifyResult[];
  /** What a lookUp is told, for the test to read: the refs it was asked about. */
  lookedUp: PaymentRef[];
  started: CheckoutRequest[];
}

const SIGNATURE_HEADER = "x-scripted-signature";

export function signBody(body: string, secret: string): string {
  return createHmac("sha256", secret).update(body).digest("hex");
}

/** A notification body and its headers, signed with `secret` (or forged when `secret` is wrong). */
export function scriptedNotification(
  secret: string,
  claim: {
    id: string;
    type?: string;
    kind?: "payment" | "refund" | "reversal" | "other";
    providerRef?: string | null;
    captureRef?: string | null;
  },
): { headers: Record<string, string>; rawBody: string } {
  const rawBody = JSON.stringify({
    id: claim.id,
    type: claim.type ?? "payment.completed",
    kind: claim.kind ?? "payment",
    providerRef: claim.providerRef ?? null,
    captureRef: claim.captureRef ?? null,
  });
  return {
    headers: { "content-type": "application/json", [SIGNATURE_HEADER]: signBody(rawBody, secret) },
    rawBody,
  };
}

export function scriptedProvider(code: ProviderCode): ScriptedProvider {
  const provider: ScriptedProvider = {
    code,
    calls: [],
    start: null,
    lookUps: [{ state: "pending" }],
    refunds: [{ ok: true, outcome: "refunded", refundRef: "refund-1" }],
    verifyByCall: false,
    verifications: [{ ok: true, valid: true }],
    lookedUp: [],
    started: [],

    async startCheckout(config: ProviderConfig, request: CheckoutRequest): Promise<StartResult> {
      provider.calls.push({ method: "startCheckout", args: [config, request] });
      provider.started.push(request);
      if (provider.start === "throws") throw new Error("the scripted client broke");
      return (
        provider.start ?? {
          ok: true,
          providerRef: `ref-${request.paymentId}`,
          redirectUrl: `https://pay.example/checkout/ref-${request.paymentId}`,
        }
      );
    },

    readNotification(config, headers, rawBody): NotificationRead {
      provider.calls.push({ method: "readNotification", args: [headers, rawBody] });
      let parsed: Record<string, unknown>;
      try {
        parsed = JSON.parse(rawBody) as Record<string, unknown>;
      } catch {
        return { ok: false, refusal: "malformed" };
      }
      if (typeof parsed.id !== "string" || typeof parsed.type !== "string")
        return { ok: false, refusal: "malformed" };
      if (!provider.verifyByCall) {
        const given = Buffer.from(headers[SIGNATURE_HEADER] ?? "", "hex");
        const wanted = Buffer.from(signBody(rawBody, config.secret), "hex");
        if (given.length !== wanted.length || !timingSafeEqual(given, wanted))
          return { ok: false, refusal: "badSignature" };
      }
      const text = (value: unknown) => (typeof value === "string" ? value : null);
      const kind = parsed.kind;
      return {
        ok: true,
        claim: {
          eventId: parsed.id,
          eventType: parsed.type,
          kind: kind === "payment" || kind === "refund" || kind === "reversal" ? kind : "other",
          providerRef: text(parsed.providerRef),
          captureRef: text(parsed.captureRef),
          headers: headers[SIGNATURE_HEADER]
            ? { [SIGNATURE_HEADER]: headers[SIGNATURE_HEADER] }
            : {},
        },
      };
    },

    async verifyNotification(config, headers, rawBody): Promise<VerifyResult> {
      provider.calls.push({ method: "verifyNotification", args: [headers, rawBody] });
      if (!provider.verifyByCall) return { ok: true, valid: true };
      return provider.verifications.length > 1
        ? provider.verifications.shift()!
        : provider.verifications[0]!;
    },

    async lookUp(config, payment): Promise<LookUpResult> {
      provider.calls.push({ method: "lookUp", args: [payment] });
      provider.lookedUp.push(payment);
      const next = provider.lookUps.length > 1 ? provider.lookUps.shift()! : provider.lookUps[0]!;
      if ("fail" in next) return { ok: false, failure: next.fail, detail: next.detail };
      return {
        ok: true,
        state: next.state,
        reference: next.reference === undefined ? payment.reference : next.reference,
        amount: next.amount ?? 0,
        currency: next.currency ?? payment.currency,
        captureRef:
          next.captureRef === undefined
            ? next.state === "pending"
              ? null
              : "capture-1"
            : next.captureRef,
        refundedAmount: next.refundedAmount ?? 0,
        ...(next.detail ? { detail: next.detail } : {}),
      };
    },

    async refund(config, payment, amount, key): Promise<RefundResult> {
      provider.calls.push({ method: "refund", args: [payment, amount, key] });
      return provider.refunds.length > 1 ? provider.refunds.shift()! : provider.refunds[0]!;
    },
  };
  return provider;
}

/** Both providers scripted, as the server's map of clients. */
export function scriptedProviders(): Record<ProviderCode, ScriptedProvider> {
  return { paypal: scriptedProvider("paypal"), youcanpay: scriptedProvider("youcanpay") };
}

/** A provider's connection saved (the secret encrypted with `authSecret`, bound to its address). */
export async function configureProvider(
  db: Db,
  provider: ProviderCode,
  options: { authSecret: string; secret?: string; apiUrl?: string },
): Promise<string> {
  const apiUrl = panelBaseUrl(options.apiUrl ?? "http://127.0.0.1:9")!;
  const secret = options.secret ?? `${provider}-secret-key`;
  const values = {
    provider,
    mode: "sandbox",
    api_url: apiUrl,
    public_id: `${provider}-public`,
    secret_encrypted: await encryptProviderSecret(apiUrl, secret, options.authSecret),
    secret_last4: secret.slice(-4),
    webhook_id: provider === "paypal" ? "WH-1" : "",
    updated_at: new Date().toISOString(),
  };
  await db
    .insertInto("payment_providers")
    .values(values)
    .onConflict((oc) => oc.column("provider").doUpdateSet(values))
    .execute();
  return secret;
}
