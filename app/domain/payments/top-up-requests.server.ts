import type { Updateable } from "kysely";
import { unverifiedEmailRefusal } from "~/domain/accounts/email-verification.server";
import { record } from "~/domain/events/events.server";
import { getSettings } from "~/domain/settings/settings.server";
import type { Database } from "~/db/schema";
import { isCustomersRow } from "~/db/customer-rows";
import { inTransaction, isUniqueViolation, refuse, type Db, type Tx } from "~/db/transaction";
import { quoteTopUp } from "./payment-methods";
import { findEnabledPaymentMethod } from "./payment-methods.server";
import { countProofPost } from "./proof-post-limit.server";
import { MAX_PROOFS_PER_TOP_UP } from "./top-up-proofs";
import {
  attachProofs,
  countProofsOf,
  prepareProofs,
  type ProofUpload,
} from "./top-up-proofs.server";
import { findRequest, topUpRef, type Refused, type TopUpResult } from "./top-up-rows.server";
import {
  isOpenTopUp,
  makeReference,
  OPEN_TOP_UP_STATES,
  paidOnProblem,
  type TopUpRequest,
  type TopUpState,
} from "./top-ups";

// The customer's side of a top-up request (docs/payments.md#the-rules): asking, "I have paid" with the
// proof files, and cancelling. What an admin decides is top-up-decisions.server.ts's.

async function openRequestOf(db: Db | Tx, userId: string) {
  return db
    .selectFrom("top_up_requests")
    .select("id")
    .where("user_id", "=", userId)
    .where("state", "in", OPEN_TOP_UP_STATES)
    .executeTakeFirst();
}

/** A method's kind: `manual`, or the provider that takes its payments (migration 0047). */
export async function methodKindOf(db: Db | Tx, methodId: number): Promise<string> {
  const row = await db
    .selectFrom("payment_methods")
    .select("kind")
    .where("id", "=", methodId)
    .executeTakeFirst();
  return row?.kind ?? "manual";
}

/** The gate of asking for coins and saying they are paid, as of ordering and opening a ticket. */
export interface GateOptions {
  /** An unverified address is refused (verifiedEmailRequired: the setting, with SMTP). */
  requireVerifiedEmail?: boolean;
}

/**
 * A request paid online (online-checkout.server.ts): its method must be a provider's, and `then` writes
 * the checkout's row in the request's own transaction. Without it the method must be a manual one.
 */
export interface OnlineRequest {
  then: (trx: Tx, request: TopUpRequest, kind: string) => Promise<void>;
}

/**
 * A customer asks to buy `coins` with an enabled method: the quote (quoteTopUp) is frozen in the request
 * with a new reference. Refused: coin purchase switched off in the settings, a method missing or disabled, coins outside its bounds (the message
 * takes the bounds), an open request already (one at a time: the customer cancels it first).
 */
export async function requestTopUp(
  db: Db,
  input: { userId: string; methodId: number; coins: number; locale?: string },
  options: GateOptions & { online?: OnlineRequest } = {},
): Promise<TopUpResult> {
  const unverified = await unverifiedEmailRefusal(db, input.userId, options.requireVerifiedEmail);
  if (unverified) return unverified;
  // A reference taken already (28.6 million codes) is retried with another; the other unique index,
  // the open request's, is a second request racing this one, and is refused as such.
  for (let attempt = 1; ; attempt++) {
    try {
      return await inTransaction(db, async (trx): Promise<TopUpResult> => {
        if (!(await getSettings(trx)).features.coinPurchase)
          refuse<TopUpResult>("forbidden", "payments.errors.purchaseClosed");
        const method = await findEnabledPaymentMethod(trx, input.methodId, input.locale ?? "en");
        if (!method) refuse<TopUpResult>("invalid", "payments.errors.methodUnavailable");
        // A provider's method is paid on its page, never with a proof; a manual one has no checkout.
        const kind = await methodKindOf(trx, method.id);
        if ((kind === "manual") === Boolean(options.online))
          refuse<TopUpResult>("invalid", "payments.errors.methodUnavailable");
        const quoted = quoteTopUp(method, input.coins);
        if (!quoted.ok)
          return {
            ok: false,
            kind: quoted.kind,
            error: quoted.error,
            field: "coins",
            params: { min: method.minCoins, max: method.maxCoins },
          };
        if (await openRequestOf(trx, input.userId))
          refuse<TopUpResult>("conflict", "payments.errors.openTopUpExists");
        const { quote } = quoted;
        const now = new Date().toISOString();
        const row = await trx
          .insertInto("top_up_requests")
          .values({
            reference: makeReference(),
            user_id: input.userId,
            payment_method_id: method.id,
            coins: quote.coins,
            currency: quote.currency,
            amount: quote.amount,
            fee: quote.fee,
            total: quote.total,
            credit_cents: quote.creditCents,
            state: "waiting_payment",
            created_at: now,
            updated_at: now,
          })
          .returning("id")
          .executeTakeFirstOrThrow();
        const request = (await findRequest(trx, Number(row.id), input.locale))!;
        await options.online?.then(trx, request, kind);
        return { ok: true, request };
      });
    } catch (error) {
      if (!isUniqueViolation(error)) throw error;
      if (await openRequestOf(db, input.userId))
        return { ok: false, kind: "conflict", error: "payments.errors.openTopUpExists" };
      if (attempt >= 5) throw error;
    }
  }
}

/**
 * The owner's open request `requestId`, moved by `change` when it still is open; refused as not found
 * when it is not theirs (another's request is never confirmed to exist), as not open when decided.
 */
async function changeOwnOpen(
  trx: Tx,
  input: { userId: string; requestId: number },
  change: Updateable<Database["top_up_requests"]> & { state: TopUpState },
): Promise<TopUpRequest> {
  const updated = await trx
    .updateTable("top_up_requests")
    .set({ ...change, updated_at: new Date().toISOString() } as never)
    .where("id", "=", input.requestId)
    .where("user_id", "=", input.userId)
    .where("state", "in", OPEN_TOP_UP_STATES)
    .returning("id")
    .executeTakeFirst();
  if (updated) return (await findRequest(trx, input.requestId))!;
  if (!(await isCustomersRow(trx, "top_up_requests", input.requestId, input.userId)))
    refuse<TopUpResult>("notFound", "payments.errors.topUpNotFound");
  refuse<TopUpResult>("conflict", "payments.errors.topUpNotOpen");
}

/**
 * Why a post of `files` proof files to the request is refused before any of them is read: another's
 * request (never confirmed to exist), one already decided, or one without room for them
 * (MAX_PROOFS_PER_TOP_UP, all posts together); null when it may go on. The transaction checks it all
 * again (`changeOwnOpen`, `attachProofs`): two posts may race.
 */
async function proofPostRefusal(
  db: Db,
  input: { userId: string; requestId: number },
  files: number,
): Promise<Refused | null> {
  const request = await db
    .selectFrom("top_up_requests")
    .select("state")
    .where("id", "=", input.requestId)
    .where("user_id", "=", input.userId)
    .executeTakeFirst();
  if (!request) return { ok: false, kind: "notFound", error: "payments.errors.topUpNotFound" };
  if (!isOpenTopUp(request.state as TopUpState))
    return { ok: false, kind: "conflict", error: "payments.errors.topUpNotOpen" };
  // More than a request may hold in one post: prepareProofs refuses it by its count, reading nothing.
  if (files === 0 || files > MAX_PROOFS_PER_TOP_UP) return null;
  const held = await countProofsOf(db, input.requestId);
  if (held + files > MAX_PROOFS_PER_TOP_UP)
    return {
      ok: false,
      kind: "conflict",
      error: "payments.errors.proofTooMany",
      field: "proofs",
      params: { max: MAX_PROOFS_PER_TOP_UP, held },
    };
  return null;
}

/**
 * The customer says "I have paid": the payer's phone or account, the day paid and the proof files
 * (docs/payments.md#proof-files: read by their content before the transaction; a request marked paid
 * holds one file at least, three at most). The request waits for an admin (proof_sent), and each admin
 * is told once. Said again while it waits, it corrects the details and may add files.
 */
export async function markTopUpPaid(
  db: Db,
  input: {
    userId: string;
    requestId: number;
    payerAccount: string;
    paidOn: string;
    proofs?: readonly ProofUpload[];
    now?: Date;
  },
  options: GateOptions = {},
): Promise<TopUpResult> {
  const unverified = await unverifiedEmailRefusal(db, input.userId, options.requireVerifiedEmail);
  if (unverified) return unverified;
  const today = (input.now ?? new Date()).toISOString().slice(0, 10);
  const problem = paidOnProblem(input.paidOn, today);
  if (problem) return { ok: false, kind: "invalid", error: problem, field: "paidOn" };
  // A post with files counts against the account's hourly limit before anything else is read.
  if (input.proofs?.length) {
    const limited = await countProofPost(db, input.userId, input.now ?? new Date());
    if (limited) return limited;
  }
  // Nothing of the files is read before the request is known to take them: decoding an image costs
  // seconds and tens of megabytes, which a post bound to be refused must not cost.
  const early = await proofPostRefusal(db, input, input.proofs?.length ?? 0);
  if (early) return early;
  // Images are decoded and written again here, outside the transaction: no write lock waits on it.
  const prepared = await prepareProofs(input.proofs ?? []);
  if (!prepared.ok) return prepared;
  return inTransaction(db, async (trx) => {
    const request = await changeOwnOpen(trx, input, {
      state: "proof_sent",
      payer_account: input.payerAccount,
      paid_on: input.paidOn,
    });
    await attachProofs(trx, request, prepared.proofs, input.now);
    // Each admin's notification, and the staff's Discord when set: once per request (staff-posts).
    await record(trx, { type: "topUp.paid", request: topUpRef(request) });
    return { ok: true as const, request };
  });
}

/** The owner cancels their request while it is open (before an admin decides it). */
export async function cancelTopUp(
  db: Db,
  input: { userId: string; requestId: number },
): Promise<TopUpResult> {
  return inTransaction(db, async (trx) => ({
    ok: true as const,
    request: await changeOwnOpen(trx, input, { state: "cancelled" }),
  }));
}
