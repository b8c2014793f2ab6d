import { alertHour } from "~/domain/payments/online-payments";
import { topUpQueuePath } from "~/domain/payments/top-ups";
import type { ReactionTable } from "./reaction.server";

/** Where staff look after the providers and the refused notifications. */
const GATEWAYS_PAGE = "/admin/gateways";

/**
 * What an online payment's provider said that staff must see: a notification refused (a bad signature,
 * a payment we do not know), a payment refused (paid, but not what was asked), the provider's own
 * refusal of our call (the keys wrong or revoked, a refund refused), a payment whose request an admin
 * had decided by hand meanwhile, or a refund to make by hand.
 */
export type OnlinePaymentProblemKind =
  | "badSignature"
  | "unknownPayment"
  | "mismatch"
  | "providerError"
  | "requestClosed"
  | "refundManual"
  | "refundRefused";

export type OnlinePaymentEvent =
  | {
      type: "onlinePayment.refused";
      problem: OnlinePaymentProblemKind;
      provider: string;
      /** The top-up's reference, when the refusal is about one of ours. */
      reference: string | null;
      paymentId: number | null;
      /** The provider's words or ours (an amount that differs, a status code), for the admin. */
      detail: string;
      /** When it happened: a storm of refusals of one kind tells staff once an hour. */
      at: Date;
    }
  /** A payment we had closed (cancelled, failed) that the provider says is paid: credited, staff told. */
  | {
      type: "onlinePayment.lateCredit";
      provider: string;
      reference: string;
      paymentId: number;
      coins: number;
    };

const STAFF_KINDS = {
  badSignature: "online_payment_bad_signature",
  unknownPayment: "online_payment_unknown",
  mismatch: "online_payment_mismatch",
  providerError: "online_payment_provider_error",
  requestClosed: "online_payment_request_closed",
  refundManual: "online_refund_manual",
  refundRefused: "online_refund_refused",
} as const satisfies Record<OnlinePaymentProblemKind, string>;

/** The kinds whose alert is one an hour whatever the storm (anyone can post to the webhook). */
const HOURLY: ReadonlySet<OnlinePaymentProblemKind> = new Set([
  "badSignature",
  "unknownPayment",
  "providerError",
]);

/** What follows an online payment's troubles. */
export const onlinePaymentReactions: ReactionTable<OnlinePaymentEvent> = {
  "onlinePayment.refused": {
    staffNotice: ({ problem, provider, reference, paymentId, detail, at }) => ({
      kind: STAFF_KINDS[problem],
      params: { provider, reference: reference ?? "", detail: detail.slice(0, 300) },
      link: reference && !HOURLY.has(problem) ? topUpQueuePath(reference) : GATEWAYS_PAGE,
      dedupeKey: HOURLY.has(problem)
        ? `online-payment:${problem}:${provider}:${alertHour(at)}`
        : `online-payment:${problem}:${paymentId ?? "none"}:${detail.slice(0, 100)}`,
    }),
  },
  "onlinePayment.lateCredit": {
    staffNotice: ({ provider, reference, paymentId, coins }) => ({
      kind: "online_payment_late_credit",
      params: { provider, reference, amountCents: coins * 100 },
      link: topUpQueuePath(reference),
      dedupeKey: `online-payment:late:${paymentId}`,
    }),
  },
};
