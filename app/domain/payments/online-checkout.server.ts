import type { UnverifiedEmailRefusal } from "~/domain/accounts/email-verification.server";
import { enqueueJob } from "~/domain/jobs/jobs.server";
import { inTransaction, type Db } from "~/db/transaction";
import type { FailureKind } from "~/lib/result";
import { logger } from "~/lib/logger.server";
import {
  CONFIRM_JOB,
  confirmKey,
  isPlausibleHint,
  MAX_CHECKOUTS_PER_HOUR,
  onlinePaymentPath,
  type OnlinePaymentState,
  type PaymentProblem,
} from "./online-payments";
import { cancelRequestOf, findOnlinePayment, movePayment } from "./online-payment-rows.server";
import type { PaymentProvider, ProviderCode } from "./providers/provider";
import { isProviderCode, readProviderConfig } from "./providers/provider-config.server";
import { requestTopUp, type GateOptions } from "./top-up-requests.server";
import { namesOf, type Refused } from "./top-up-rows.server";
import { textIn, type PaymentCurrency } from "./payment-methods";
import { OPEN_TOP_UP_STATES } from "./top-ups";

// The customer's side of an online payment (docs/online-payments.md#where-each-step-runs): starting a
// checkout (the one place a request calls a provider), and the return page's reading and asking. What
// the provider's word does is online-payment-confirm.server.ts's.

/** How the server reaches the providers: the clients by code, and the auth secret their keys need. */
export interface ProviderWiring {
  providers: Record<ProviderCode, PaymentProvider>;
  secret: string;
}

export type OnlineRefusal =
  | "payments.errors.onlinePaymentUnavailable"
  | "payments.errors.tooManyCheckouts"
  | "payments.errors.checkoutFailed"
  | "payments.errors.paymentNotFound";

export type OnlineRefused = { ok: false; kind: FailureKind; error: OnlineRefusal };

export type StartOnlineResult =
  | { ok: true; paymentId: number; redirectUrl: string }
  | Refused
  | UnverifiedEmailRefusal
  | OnlineRefused;

const unavailable: OnlineRefused = {
  ok: false,
  kind: "conflict",
  error: "payments.errors.onlinePaymentUnavailable",
};

/**
 * The customer's open request, when it waits on a checkout they left (a pending online payment): it is
 * closed as superseded, so that starting again is not refused for an open request. A provider that
 * later says the old one was paid still wins: it is credited and staff told.
 */
async function supersedeOpenCheckout(db: Db, userId: string, now: Date): Promise<void> {
  await inTransaction(db, async (trx) => {
    const open = await trx
      .selectFrom("top_up_requests")
      .innerJoin("online_payments", "online_payments.top_up_request_id", "top_up_requests.id")
      .select(["online_payments.id as paymentId", "top_up_requests.id as requestId"])
      .where("top_up_requests.user_id", "=", userId)
      .where("top_up_requests.state", "in", OPEN_TOP_UP_STATES)
      .where("online_payments.state", "=", "pending")
      .executeTakeFirst();
    if (!open) return;
    const moved = await movePayment(trx, Number(open.paymentId), ["pending"], "cancelled", {
      problem: "superseded",
      now,
    });
    if (moved) await cancelRequestOf(trx, Number(open.requestId), now);
  });
}

/**
 * A customer pays `coins` online with the method `methodId` (a provider's: PayPal, YouCan Pay). Refused:
 * a method that is not enabled or not a provider's, coins outside its bounds, an unverified address
 * when that is required, more than MAX_CHECKOUTS_PER_HOUR checkouts in an hour, the provider not
 * configured. The top-up request (its reference and frozen quote) and the `pending` payment are
 * committed first; then the provider is called, outside any transaction, and its reference saved.
 * A provider that fails leaves the payment pending without a reference (the reconciliation closes it)
 * and the customer is told to try again: never a server error.
 */
export async function startOnlinePayment(
  db: Db,
  input: {
    userId: string;
    methodId: number;
    coins: number;
    /** The site's own address (scheme and host), where the provider sends the customer back. */
    origin: string;
    customerIp: string;
    locale: string;
    now?: Date;
  },
  wiring: ProviderWiring & GateOptions,
): Promise<StartOnlineResult> {
  const now = input.now ?? new Date();
  const method = await db
    .selectFrom("payment_methods")
    .select(["kind", "enabled"])
    .where("id", "=", input.methodId)
    .executeTakeFirst();
  if (!method?.enabled || !isProviderCode(method.kind))
    return { ok: false, kind: "invalid", error: "payments.errors.methodUnavailable" };
  const code = method.kind;
  const config = await readProviderConfig(db, code, { secret: wiring.secret });
  const provider = wiring.providers[code];
  if (!config.ok || !provider) return unavailable;
  const started = await db
    .selectFrom("online_payments")
    .select((eb) => eb.fn.countAll<number>().as("count"))
    .where("user_id", "=", input.userId)
    .where("created_at", ">", new Date(now.getTime() - 60 * 60 * 1000).toISOString())
    .executeTakeFirstOrThrow();
  if (Number(started.count) >= MAX_CHECKOUTS_PER_HOUR)
    return { ok: false, kind: "limited", error: "payments.errors.tooManyCheckouts" };
  await supersedeOpenCheckout(db, input.userId, now);

  let paymentId = 0;
  const asked = await requestTopUp(
    db,
    { userId: input.userId, methodId: input.methodId, coins: input.coins, locale: input.locale },
    {
      requireVerifiedEmail: wiring.requireVerifiedEmail,
      online: {
        then: async (trx, request) => {
          const at = now.toISOString();
          const row = await trx
            .insertInto("online_payments")
            .values({
              top_up_request_id: request.id,
              user_id: input.userId,
              provider: code,
              amount: request.total,
              currency: request.currency,
              state: "pending",
              created_at: at,
              updated_at: at,
            })
            .returning("id")
            .executeTakeFirstOrThrow();
          paymentId = Number(row.id);
        },
      },
    },
  );
  if (!asked.ok) return asked;

  const returnUrl = `${input.origin}${onlinePaymentPath(paymentId)}`;
  let answer: Awaited<ReturnType<PaymentProvider["startCheckout"]>>;
  try {
    answer = await provider.startCheckout(config.config, {
      paymentId,
      reference: asked.request.reference,
      amount: asked.request.total,
      currency: asked.request.currency,
      returnUrl,
      cancelUrl: `${returnUrl}?cancelled=1`,
      customerIp: input.customerIp,
      locale: input.locale,
    });
  } catch (error) {
    // A client's own fault is a provider that cannot be used now, as a network error is.
    logger.error({ err: error, paymentId }, "a provider's checkout threw");
    answer = { ok: false, failure: "unavailable" };
  }
  if (!answer.ok) {
    logger.warn({ paymentId, failure: answer.failure, detail: answer.detail }, "checkout failed");
    return { ok: false, kind: "conflict", error: "payments.errors.checkoutFailed" };
  }
  await db
    .updateTable("online_payments")
    .set({ provider_ref: answer.providerRef, updated_at: new Date().toISOString() })
    .where("id", "=", paymentId)
    .execute();
  return { ok: true, paymentId, redirectUrl: answer.redirectUrl };
}

/** An online payment as its return page shows it to its owner. */
export interface OnlinePaymentView {
  id: number;
  reference: string;
  provider: ProviderCode;
  /** The method's name in the reader's language. */
  methodName: string;
  state: OnlinePaymentState;
  /** Minor units of `currency`, as asked. */
  amount: number;
  currency: PaymentCurrency;
  coins: number;
  /** Once paid: the coins credited, the balance after, the payment receipt's number. */
  creditedCoins: number | null;
  balanceCents: number | null;
  receiptNumber: string | null;
  problem: PaymentProblem | null;
}

/** The owner's payment `paymentId`; not found for anyone else's (never confirmed to exist). */
export async function readOnlinePayment(
  db: Db,
  input: { userId: string; paymentId: number; locale?: string },
): Promise<{ ok: true; payment: OnlinePaymentView } | OnlineRefused> {
  const row = await findOnlinePayment(db, input.paymentId);
  if (!row || row.user_id !== input.userId)
    return { ok: false, kind: "notFound", error: "payments.errors.paymentNotFound" };
  const request = await db
    .selectFrom("top_up_requests")
    .innerJoin("payment_methods", "payment_methods.id", "top_up_requests.payment_method_id")
    .select([
      "top_up_requests.coins",
      "top_up_requests.credited_coins",
      "top_up_requests.state",
      "payment_methods.names",
    ])
    .where("top_up_requests.id", "=", row.top_up_request_id)
    .executeTakeFirstOrThrow();
  const credited =
    request.state === "approved"
      ? await db
          .selectFrom("coin_ledger")
          .leftJoin("invoices", "invoices.ledger_entry_id", "coin_ledger.id")
          .select(["coin_ledger.amount_cents", "invoices.number"])
          .where("coin_ledger.idempotency_key", "=", `top-up:${row.top_up_request_id}`)
          .executeTakeFirst()
      : undefined;
  const balance = credited
    ? await db
        .selectFrom("users")
        .select("coin_balance_cents")
        .where("id", "=", input.userId)
        .executeTakeFirst()
    : undefined;
  return {
    ok: true,
    payment: {
      id: Number(row.id),
      reference: row.reference,
      provider: row.provider as ProviderCode,
      methodName: textIn(namesOf(request.names), input.locale ?? "en", "en"),
      state: row.state as OnlinePaymentState,
      amount: row.amount,
      currency: row.currency as PaymentCurrency,
      coins: request.coins,
      creditedCoins: credited ? credited.amount_cents / 100 : null,
      balanceCents: balance?.coin_balance_cents ?? null,
      receiptNumber: credited?.number ?? null,
      problem: row.problem as PaymentProblem | null,
    },
  };
}

/**
 * The return page's loader: asks for the payment's confirmation (one `payments.confirm` job waiting at
 * a time) while it is pending. It never calls the provider. `captureHint` (YouCan Pay's transaction id
 * from the return's query) is passed on as a hint the provider's answer must confirm; `cancelled`: the
 * customer came back through the cancel address (a payment the provider still calls pending is closed).
 */
export async function askConfirmation(
  db: Db,
  input: {
    userId: string;
    paymentId: number;
    captureHint?: string | null;
    cancelled?: boolean;
    now?: Date;
  },
): Promise<{ ok: true; queued: boolean } | OnlineRefused> {
  const row = await findOnlinePayment(db, input.paymentId);
  if (!row || row.user_id !== input.userId)
    return { ok: false, kind: "notFound", error: "payments.errors.paymentNotFound" };
  if (row.state !== "pending") return { ok: true, queued: false };
  const hint = input.captureHint && isPlausibleHint(input.captureHint) ? input.captureHint : null;
  const id = await inTransaction(db, (trx) =>
    enqueueJob(trx, {
      type: CONFIRM_JOB,
      payload: {
        paymentId: input.paymentId,
        captureHint: hint,
        ...(input.cancelled ? { cancelled: true } : {}),
      },
      uniqueKey: confirmKey(input.paymentId),
      now: input.now,
    }),
  );
  return { ok: true, queued: id !== null };
}

/** What a provider's return address may carry: the markers that say the customer just came back. */
export interface ProviderReturn {
  /** YouCan Pay's `transaction_id` (a hint the provider's answer must confirm). */
  captureHint: string | null;
  /** The customer came back through the cancel address. */
  cancelled: boolean;
}

/**
 * The customer's arrival from the provider: the payment's confirmation is asked for once (the worker
 * asks the provider), and the page's own address is given back, without the provider's markers, so
 * that the page's later looks read and never ask again.
 */
export async function returnFromProvider(
  db: Db,
  input: { userId: string; paymentId: number; back: ProviderReturn; now?: Date },
): Promise<{ ok: true; location: string } | OnlineRefused> {
  const asked = await askConfirmation(db, {
    userId: input.userId,
    paymentId: input.paymentId,
    captureHint: input.back.captureHint,
    cancelled: input.back.cancelled,
    now: input.now,
  });
  if (!asked.ok) return asked;
  const path = onlinePaymentPath(input.paymentId);
  return { ok: true, location: input.back.cancelled ? `${path}?left=1` : path };
}
