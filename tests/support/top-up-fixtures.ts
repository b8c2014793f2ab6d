import type { AppServices } from "~/context.server";
import {
  listPaymentMethodsForAdmin,
  updatePaymentMethod,
} from "~/domain/payments/payment-methods.server";
import { markTopUpPaid, requestTopUp } from "~/domain/payments/top-up-requests.server";
import type { TopUpRequest } from "~/domain/payments/top-ups";
import { adminId } from "./money-fixtures";
import { pngProof } from "./proof-files";

/** Orange Money enabled at 11.00 MAD a coin, 5 to 200 coins, no fee: a method to ask top-ups with. */
export async function enabledOrangeMoney(app: AppServices) {
  const db = app.db;
  const method = (await listPaymentMethodsForAdmin(db)).find((m) => m.code === "orange-money")!;
  const updated = await updatePaymentMethod(db, {
    actorId: await adminId(app),
    id: method.id,
    method: {
      ...method,
      instructions: { en: "Send to 0611 111 111", fr: "", ar: "" },
      enabled: true,
      rate: 1100,
      minCoins: 5,
      maxCoins: 200,
      feeFixed: 0,
      feePercentBp: 0,
    },
  });
  if (!updated.ok) throw new Error(updated.error);
  return updated.method;
}

/** A customer's open top-up request of `coins` by Orange Money, marked paid when `paid` says so. */
export async function openTopUp(
  app: AppServices,
  userId: string,
  coins: number,
  options: { paid?: boolean } = {},
): Promise<TopUpRequest> {
  const method = await enabledOrangeMoney(app);
  const asked = await requestTopUp(app.db, { userId, methodId: method.id, coins });
  if (!asked.ok) throw new Error(asked.error);
  if (!options.paid) return asked.request;
  const paid = await markTopUpPaid(app.db, {
    userId,
    requestId: asked.request.id,
    payerAccount: "0622 222 222",
    paidOn: new Date().toISOString().slice(0, 10),
    // Its own file, so no two requests of a suite share one (a shared file is flagged to the admin).
    proofs: [
      await pngProof(`proof-${asked.request.reference}.png`, {
        width: 16 + (asked.request.id % 1000),
      }),
    ],
  });
  if (!paid.ok) throw new Error(paid.error);
  return paid.request;
}
