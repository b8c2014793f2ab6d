import type { AppServices } from "~/context.server";
import {
  confirmOnlinePayment,
  type ConfirmPayload,
} from "~/domain/payments/online-payment-confirm.server";
import { startOnlinePayment } from "~/domain/payments/online-checkout.server";
import { CONFIRM_JOB } from "~/domain/payments/online-payments";
import type { ProviderCode } from "~/domain/payments/providers/provider";
import {
  listPaymentMethodsForAdmin,
  updatePaymentMethod,
} from "~/domain/payments/payment-methods.server";
import { adminId, customerWithCoins } from "./money-fixtures";
import { configureProvider, scriptedProviders, type ScriptedProvider } from "./scripted-provider";

// An online payment's world for a test: the provider's seeded method (YouCan Pay at 11.00 MAD a coin,
// PayPal Checkout at 1.00 EUR; 5 to 200 coins, no fee), its provider configured, the method enabled
// through the admin's use-case (which refuses an online method whose provider has no keys).

export interface OnlineWorld {
  providers: Record<ProviderCode, ScriptedProvider>;
  provider: ScriptedProvider;
  wiring: { providers: Record<ProviderCode, ScriptedProvider>; secret: string };
  methodId: number;
  /** The provider's own secret (the key its notifications are signed with). */
  providerSecret: string;
}

const SEEDED_METHOD: Record<ProviderCode, { code: string; rate: number }> = {
  youcanpay: { code: "youcanpay", rate: 1100 },
  paypal: { code: "paypal-checkout", rate: 100 },
};

export async function onlineWorld(
  app: AppServices,
  code: ProviderCode = "youcanpay",
): Promise<OnlineWorld> {
  const providerSecret = await configureProvider(app.db, code, {
    authSecret: app.env.AUTH_SECRET,
  });
  const seeded = SEEDED_METHOD[code];
  const method = (await listPaymentMethodsForAdmin(app.db)).find((m) => m.code === seeded.code)!;
  const updated = await updatePaymentMethod(app.db, {
    actorId: await adminId(app),
    id: method.id,
    method: {
      ...method,
      enabled: true,
      rate: seeded.rate,
      minCoins: 5,
      maxCoins: 200,
      feeFixed: 0,
      feePercentBp: 0,
    },
  });
  if (!updated.ok) throw new Error(updated.error);
  const providers = scriptedProviders();
  return {
    providers,
    provider: providers[code],
    wiring: { providers, secret: app.env.AUTH_SECRET },
    methodId: method.id,
    providerSecret,
  };
}

/** A customer's started checkout of `coins` (55.00 MAD for 5): its payment id and the customer. */
export async function startedPayment(
  app: AppServices,
  world: OnlineWorld,
  options: { coins?: number; userId?: string; now?: Date } = {},
) {
  const userId = options.userId ?? (await customerWithCoins(app, 0));
  const started = await startOnlinePayment(
    app.db,
    {
      userId,
      methodId: world.methodId,
      coins: options.coins ?? 5,
      origin: "https://shop.example",
      customerIp: "203.0.113.9",
      locale: "en",
      now: options.now,
    },
    world.wiring,
  );
  if (!started.ok) throw new Error(started.error);
  const row = await app.db
    .selectFrom("online_payments")
    .innerJoin("top_up_requests", "top_up_requests.id", "online_payments.top_up_request_id")
    .select([
      "online_payments.amount",
      "online_payments.provider_ref",
      "top_up_requests.reference",
      "top_up_requests.id as requestId",
    ])
    .where("online_payments.id", "=", started.paymentId)
    .executeTakeFirstOrThrow();
  return { ...started, ...row, requestId: Number(row.requestId), userId };
}

/** The confirmations waiting, run as the worker would (each once), in the order queued. */
export async function runQueuedConfirmations(
  app: AppServices,
  world: OnlineWorld,
  now = new Date(),
) {
  const jobs = await app.db
    .selectFrom("jobs")
    .select(["id", "payload"])
    .where("type", "=", CONFIRM_JOB)
    .where("state", "=", "queued")
    .orderBy("id")
    .execute();
  const outcomes = [];
  for (const job of jobs) {
    const payload = JSON.parse(job.payload) as ConfirmPayload;
    outcomes.push(await confirmOnlinePayment(app.db, payload, { ...world.wiring, now }));
    await app.db.updateTable("jobs").set({ state: "succeeded" }).where("id", "=", job.id).execute();
  }
  return outcomes;
}

/** The ledger's credits of a request (its key `top-up:<id>`). */
export async function creditsOf(app: AppServices, requestId: number) {
  return app.db
    .selectFrom("coin_ledger")
    .select(["id", "amount_cents", "actor_id"])
    .where("idempotency_key", "=", `top-up:${requestId}`)
    .execute();
}

/** Every admin's notices of `kind`. */
export async function staffNotices(app: AppServices, kind: string) {
  return app.db
    .selectFrom("notifications")
    .selectAll()
    .where("kind", "=", kind as never)
    .execute();
}
