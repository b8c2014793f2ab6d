import { record } from "~/domain/events/events.server";
import type { OnlinePaymentProblemKind } from "~/domain/events/online-payment-events.server";
import { inTransaction, type Db, type Tx } from "~/db/transaction";
import type { ProviderError } from "./providers/provider";

// What staff are told of an online payment's troubles, and how a provider's failure is handled: retried
// by the worker when another attempt may cure it, told to staff when it will not.

/** A provider's failure another attempt may cure: thrown, so the worker retries it (ADR 27). */
export class ProviderUnavailable extends Error {
  constructor(provider: string, failure: string, detail?: string) {
    super(`${provider} ${failure}${detail ? `: ${detail}` : ""}`);
    this.name = "ProviderUnavailable";
  }
}

/** Tells staff of a problem with a payment or a provider, in its own transaction. */
export async function tellStaff(
  db: Db | Tx,
  problem: OnlinePaymentProblemKind,
  facts: { provider: string; reference?: string | null; paymentId?: number | null; detail: string },
  now: Date,
): Promise<void> {
  const write = (trx: Tx) =>
    record(
      trx,
      {
        type: "onlinePayment.refused",
        problem,
        provider: facts.provider,
        reference: facts.reference ?? null,
        paymentId: facts.paymentId ?? null,
        detail: facts.detail,
        at: now,
      },
      now,
    );
  if ("isTransaction" in db && db.isTransaction) await write(db as Tx);
  else await inTransaction(db as Db, write);
}

/**
 * A provider's failure: a timeout or an outage is thrown to be retried; a refusal (keys revoked, a call
 * refused) is told to staff once an hour and not retried, which would not cure it.
 */
export async function failedCall(
  db: Db,
  payment: { provider: string; reference: string; id: number },
  error: ProviderError,
  now: Date,
): Promise<"providerError"> {
  if (error.failure === "timeout" || error.failure === "unavailable")
    throw new ProviderUnavailable(payment.provider, error.failure, error.detail);
  await tellStaff(
    db,
    "providerError",
    {
      provider: payment.provider,
      reference: payment.reference,
      paymentId: Number(payment.id),
      detail: `${error.failure}${error.detail ? `: ${error.detail}` : ""}`,
    },
    now,
  );
  return "providerError";
}
