import type { ExpressionBuilder, Updateable } from "kysely";
import {
  unverifiedEmailRefusal,
  type UnverifiedEmailRefusal,
} from "~/domain/accounts/email-verification.server";
import { writeLedgerEntry } from "~/domain/coins/coins.server";
import { issuePaymentReceipt } from "~/domain/invoices/issuing.server";
import { ledgerReason } from "~/domain/coins/ledger-reason";
import { record } from "~/domain/events/events.server";
import { getSettings } from "~/domain/settings/settings.server";
import type { Database } from "~/db/schema";
import { isCustomersRow } from "~/db/customer-rows";
import { containsAny } from "~/db/like-pattern";
import { fetchPage, pageWindow } from "~/db/paging";
import { inTransaction, isUniqueViolation, refuse, type Db, type Tx } from "~/db/transaction";
import type { FailureKind } from "~/lib/result";
import {
  quoteTopUp,
  textIn,
  type PaymentCurrency,
  type TopUpQuoteRefusal,
} from "./payment-methods";
import {
  findEnabledPaymentMethod,
  findPaymentMethod,
  listEnabledPaymentMethods,
  listPaymentMethodsForAdmin,
} from "./payment-methods.server";
import {
  attachProofs,
  countProofsOf,
  listProofsForQueue,
  listProofsOf,
  prepareProofs,
  type ProofRefusal,
  type ProofUpload,
} from "./top-up-proofs.server";
import { countProofPost } from "./proof-post-limit.server";
import { MAX_PROOFS_PER_TOP_UP } from "./top-up-proofs";
import type {
  TopUpAction,
  TopUpDecision,
  TopUpPageQuery,
  TopUpQueueQuery,
} from "./top-ups.schemas";
import {
  isOpenTopUp,
  makeReference,
  OPEN_TOP_UP_STATES,
  paidOnProblem,
  PAST_TOP_UPS_SHOWN,
  TOP_UPS_PAGE_SIZE,
  type TopUpRequest,
  type TopUpState,
} from "./top-ups";

// Top-up requests (docs/payments.md): the customer's request, "I have paid", cancel; the
// admin's approve (the ledger credit, exactly once) and reject; the customer's list and the admin's queue.

export type TopUpRefusal =
  | TopUpQuoteRefusal
  | ProofRefusal
  | "payments.errors.purchaseClosed"
  | "payments.errors.methodUnavailable"
  | "payments.errors.openTopUpExists"
  | "payments.errors.topUpNotFound"
  | "payments.errors.topUpNotOpen"
  | "payments.errors.paidOnFuture"
  | "payments.errors.paidOnTooOld"
  | "payments.errors.adminOnly"
  | "payments.errors.balanceTooHigh"
  | "payments.errors.tooManyProofPosts";

/**
 * A refusal names the form field it belongs to when it is one field's (the coins, the date paid, the
 * files), and the values its message takes (a method's bounds, a refused file's name).
 */
type Refused = {
  ok: false;
  kind: FailureKind;
  error: TopUpRefusal;
  field?: string;
  params?: Record<string, string | number>;
};
export type TopUpResult = { ok: true; request: TopUpRequest } | Refused | UnverifiedEmailRefusal;

/** Where a customer's request is shown, and where their notifications lead. */
export const TOP_UP_PAGE = "/dashboard/top-up";
/** The key of the one ledger credit an approved request gets (unique in the ledger). */
export function topUpLedgerKey(requestId: number): string {
  return `top-up:${requestId}`;
}

function requests(db: Db | Tx) {
  return db
    .selectFrom("top_up_requests")
    .innerJoin("payment_methods", "payment_methods.id", "top_up_requests.payment_method_id")
    .select([
      "top_up_requests.id",
      "top_up_requests.reference",
      "top_up_requests.user_id",
      "top_up_requests.payment_method_id",
      "payment_methods.names",
      "top_up_requests.coins",
      "top_up_requests.currency",
      "top_up_requests.amount",
      "top_up_requests.fee",
      "top_up_requests.total",
      "top_up_requests.credit_cents",
      "top_up_requests.payer_account",
      "top_up_requests.paid_on",
      "top_up_requests.state",
      "top_up_requests.credited_coins",
      "top_up_requests.reject_reason",
      "top_up_requests.decided_at",
      "top_up_requests.created_at",
      "top_up_requests.updated_at",
    ]);
}

type RequestRow = Awaited<ReturnType<ReturnType<typeof requests>["executeTakeFirstOrThrow"]>>;

function namesOf(json: string) {
  try {
    const value = JSON.parse(json) as Record<string, unknown>;
    const text = (locale: string) =>
      typeof value[locale] === "string" ? (value[locale] as string) : "";
    return { en: text("en"), fr: text("fr"), ar: text("ar") };
  } catch {
    return { en: "", fr: "", ar: "" };
  }
}

function toRequest(row: RequestRow, locale: string): TopUpRequest {
  return {
    id: Number(row.id),
    reference: row.reference,
    userId: row.user_id,
    methodId: Number(row.payment_method_id),
    // The method's name as the reader's language writes it (English, then any, as a fallback).
    methodName: textIn(namesOf(row.names), locale, "en"),
    coins: row.coins,
    currency: row.currency as PaymentCurrency,
    amount: row.amount,
    fee: row.fee,
    total: row.total,
    creditCents: row.credit_cents,
    payerAccount: row.payer_account,
    paidOn: row.paid_on,
    state: row.state as TopUpState,
    creditedCoins: row.credited_coins,
    rejectReason: row.reject_reason,
    decidedAt: row.decided_at,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
}

async function findRequest(db: Db | Tx, id: number, locale = "en") {
  const row = await requests(db).where("top_up_requests.id", "=", id).executeTakeFirst();
  return row ? toRequest(row, locale) : undefined;
}

/** What the audit log keeps of a request. */
function auditView(request: TopUpRequest) {
  const { methodName: _n, createdAt: _c, updatedAt: _u, ...fields } = request;
  return fields;
}

/** A request as its events name it. */
function topUpRef(request: TopUpRequest) {
  const { id, userId, reference, methodName, coins, creditCents } = request;
  return { id, userId, reference, methodName, coins, creditCents };
}

async function openRequestOf(db: Db | Tx, userId: string) {
  return db
    .selectFrom("top_up_requests")
    .select("id")
    .where("user_id", "=", userId)
    .where("state", "in", OPEN_TOP_UP_STATES)
    .executeTakeFirst();
}

/**
 * A customer asks to buy `coins` with an enabled method: the quote (quoteTopUp) is frozen in the request
 * with a new reference. Refused: coin purchase switched off in the settings, a method missing or disabled, coins outside its bounds (the message
 * takes the bounds), an open request already (one at a time: the customer cancels it first).
 */
export async function requestTopUp(
  db: Db,
  input: { userId: string; methodId: number; coins: number; locale?: string },
  options: GateOptions = {},
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
        return { ok: true, request: (await findRequest(trx, Number(row.id), input.locale))! };
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

/** The gate of asking for coins and saying they are paid, as of ordering and opening a ticket. */
interface GateOptions {
  /** An unverified address is refused (verifiedEmailRequired: the setting, with SMTP). */
  requireVerifiedEmail?: boolean;
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

/** A decision's actor must be an admin, whatever route called: the domain checks it as well. */
async function requireAdminActor(trx: Tx, adminId: string) {
  const actor = await trx
    .selectFrom("users")
    .select("role")
    .where("id", "=", adminId)
    .executeTakeFirst();
  if (actor?.role !== "admin") refuse<TopUpResult>("forbidden", "payments.errors.adminOnly");
}

/**
 * Closes an open request as `state` in one conditional statement: of two admins deciding at once (or a
 * post replayed), one moves it and the other finds it decided. On PostgreSQL the second waits for the
 * first's row lock and reads the row again; on SQLite writers take turns.
 */
async function decide(
  trx: Tx,
  requestId: number,
  change: Updateable<Database["top_up_requests"]> & { state: TopUpState; decided_by: string },
) {
  const before = await findRequest(trx, requestId);
  if (!before) refuse<TopUpResult>("notFound", "payments.errors.topUpNotFound");
  const now = new Date().toISOString();
  const moved = await trx
    .updateTable("top_up_requests")
    .set({ ...change, decided_at: now, updated_at: now } as never)
    .where("id", "=", requestId)
    .where("state", "in", OPEN_TOP_UP_STATES)
    .returning("id")
    .executeTakeFirst();
  if (!moved) refuse<TopUpResult>("conflict", "payments.errors.topUpNotOpen");
  return { before, after: (await findRequest(trx, requestId))! };
}

/**
 * An admin approves a request (the money arrived), optionally for another number of coins (another
 * amount was received): the coins are credited through the ledger exactly once. Three guards make it
 * once: the conditional move out of an open state (`decide`), in the same transaction as the ledger
 * entry, whose idempotency key `top-up:<id>` is unique in the ledger. Audited; the customer is told (a
 * notification and the coins mail).
 */
export async function approveTopUp(
  db: Db,
  input: { adminId: string; requestId: number; coins?: number },
): Promise<TopUpResult> {
  return inTransaction(db, async (trx) => {
    await requireAdminActor(trx, input.adminId);
    const { before, after } = await decide(trx, input.requestId, {
      state: "approved",
      decided_by: input.adminId,
      credited_coins: input.coins ?? null,
    });
    const coins = input.coins ?? before.coins;
    const reason = ledgerReason("topUp", {
      reference: before.reference,
      method: before.methodName,
    });
    const posted = await writeLedgerEntry(trx, {
      userId: before.userId,
      amountCents: coins * 100,
      kind: "coin_purchase",
      reason,
      actorId: input.adminId,
      idempotencyKey: topUpLedgerKey(before.id),
    });
    if (posted === null) refuse<TopUpResult>("conflict", "payments.errors.balanceTooHigh");
    const balance = posted.balanceCents;
    // The payment receipt (its own series, no VAT: ADR 36), in the transaction that credits the coins:
    // a request has its receipt if and only if it has its credit.
    const receipt = await issuePaymentReceipt(trx, {
      userId: before.userId,
      amountCents: coins * 100,
      ledgerEntryId: posted.entryId,
      reference: before.reference,
      method: before.methodName,
      // The money as the customer sent it, beside the coins (docs/invoices.md).
      paid: {
        currency: before.currency,
        sent: before.total,
        asked: before.coins,
        payer: before.payerAccount ?? undefined,
        paidOn: before.paidOn ?? undefined,
      },
      actorId: input.adminId,
    });
    await record(trx, {
      type: "topUp.approved",
      actorId: input.adminId,
      request: topUpRef(before),
      change: { before: auditView(before), after: auditView(after) },
      coins,
      balanceCents: balance,
      ledgerKey: topUpLedgerKey(before.id),
      reason,
      receipt,
    });
    return { ok: true as const, request: after };
  });
}

/**
 * An admin rejects a request, with the reason the customer reads. Audited; the customer is told (a
 * notification and the `topUpRejected` mail, which always goes out: docs/mail.md#documents-and-top-ups).
 */
export async function rejectTopUp(
  db: Db,
  input: { adminId: string; requestId: number; reason: string },
): Promise<TopUpResult> {
  return inTransaction(db, async (trx) => {
    await requireAdminActor(trx, input.adminId);
    const { before, after } = await decide(trx, input.requestId, {
      state: "rejected",
      decided_by: input.adminId,
      reject_reason: input.reason,
    });
    await record(trx, {
      type: "topUp.rejected",
      actorId: input.adminId,
      request: topUpRef(before),
      change: { before: auditView(before), after: auditView(after) },
      reason: input.reason,
    });
    return { ok: true as const, request: after };
  });
}

/**
 * The customer's page: their open request (if any) with its method's instructions in their language,
 * their past requests (newest first) and the enabled methods to ask with.
 */
export async function loadCustomerTopUps(db: Db, userId: string, locale: string) {
  const rows = await requests(db)
    .where("top_up_requests.user_id", "=", userId)
    .orderBy("top_up_requests.id", "desc")
    .limit(PAST_TOP_UPS_SHOWN + 1)
    .execute();
  const all = rows.map((row) => toRequest(row, locale));
  const current = all.find((request) => isOpenTopUp(request.state)) ?? null;
  const past = all.filter((request) => request !== current).slice(0, PAST_TOP_UPS_SHOWN);
  let instructions = "";
  if (current) {
    const method = await findPaymentMethod(db, current.methodId);
    const defaultLocale = (await getSettings(db)).general.defaultLocale;
    if (method) instructions = textIn(method.instructions, locale, defaultLocale);
  }
  return { current, instructions, past };
}

/** A request of the admin's queue, with who asked. */
export interface QueuedTopUp extends TopUpRequest {
  customerName: string;
  customerEmail: string;
}

function queueFilter(query: TopUpQueueQuery) {
  const search = query.q?.trim().toLowerCase();
  return (eb: ExpressionBuilder<Database, "top_up_requests" | "users">) =>
    eb.and([
      ...(query.state ? [eb("top_up_requests.state", "=", query.state)] : []),
      ...(query.method ? [eb("top_up_requests.payment_method_id", "=", Number(query.method))] : []),
      ...(search
        ? [
            containsAny(
              ["lower(top_up_requests.reference)", "lower(users.email)", "lower(users.name)"],
              search,
            ),
          ]
        : []),
    ]);
}

/**
 * /admin/top-ups: a page of requests, filtered by state and method and searched by reference or by the
 * customer's email or name. Those waiting for a decision come first, the oldest proof first (the one
 * waiting longest); then the rest, newest first. Each shows the customer's other top-ups (history: how
 * many approved, rejected, and their latest).
 */
export async function listTopUpQueue(db: Db, query: TopUpQueueQuery, locale: string) {
  const page = await fetchPage(
    requests(db)
      .innerJoin("users", "users.id", "top_up_requests.user_id")
      .select(["users.name as customer_name", "users.email as customer_email"])
      .where(queueFilter(query))
      .orderBy(
        (eb) =>
          eb
            .case()
            .when("top_up_requests.state", "=", "proof_sent")
            .then(0)
            .when("top_up_requests.state", "=", "waiting_payment")
            .then(1)
            .else(2)
            .end(),
        "asc",
      )
      // Open ones by how long they have waited (the last change: marked paid); decided ones newest first.
      .orderBy((eb) =>
        eb
          .case()
          .when("top_up_requests.state", "in", OPEN_TOP_UP_STATES)
          .then(eb.ref("top_up_requests.updated_at"))
          .else(null)
          .end(),
      )
      .orderBy("top_up_requests.id", "desc"),
    pageWindow(query, TOP_UPS_PAGE_SIZE),
  );
  const items: QueuedTopUp[] = page.rows.map((row) => ({
    ...toRequest(row, locale),
    customerName: row.customer_name,
    customerEmail: row.customer_email,
  }));
  const userIds = [...new Set(items.map((item) => item.userId))];
  const history =
    userIds.length === 0
      ? []
      : await db
          .selectFrom("top_up_requests")
          .select(["user_id", "state", (eb) => eb.fn.countAll<number>().as("n")])
          .where("user_id", "in", userIds)
          .groupBy(["user_id", "state"])
          .execute();
  const histories: Record<string, Partial<Record<TopUpState, number>>> = {};
  for (const row of history)
    (histories[row.user_id] ??= {})[row.state as TopUpState] = Number(row.n);
  return { items, hasMore: page.hasMore, histories };
}

/**
 * A customer's newest `size` top-ups for the admin's client page, and whether older ones exist: one
 * query by the requests' (user_id, created_at) index, the method's names joined.
 */
export async function latestTopUpsOf(db: Db, userId: string, size: number, locale: string) {
  const { rows, hasMore } = await fetchPage(
    requests(db)
      .where("top_up_requests.user_id", "=", userId)
      .orderBy("top_up_requests.created_at", "desc")
      .orderBy("top_up_requests.id", "desc"),
    { limit: size, offset: 0 },
  );
  return { rows: rows.map((row) => toRequest(row, locale)), hasMore };
}

// What each of the customer's and the admin's posts says when it worked (payments keys, written out).
const ACTION_MESSAGES = {
  request: "payments.topUps.requested",
  paid: "payments.topUps.markedPaid",
  cancel: "payments.topUps.cancelled",
  approve: "payments.topUps.admin.approved",
  reject: "payments.topUps.admin.rejected",
} as const satisfies Record<TopUpAction["intent"] | TopUpDecision["intent"], string>;

/** What a post to the top-up pages did: what to say (with the request's reference), or why not. */
export type TopUpOutcome =
  | {
      ok: true;
      message: (typeof ACTION_MESSAGES)[keyof typeof ACTION_MESSAGES];
      params: { reference: string };
    }
  | Refused
  | UnverifiedEmailRefusal;

function outcome(result: TopUpResult, intent: keyof typeof ACTION_MESSAGES): TopUpOutcome {
  return result.ok
    ? {
        ok: true,
        message: ACTION_MESSAGES[intent],
        params: { reference: result.request.reference },
      }
    : result;
}

/** The customer's page's one action: ask for a top-up, say it is paid, or cancel it. */
export async function runTopUpAction(
  db: Db,
  input: {
    userId: string;
    locale: string;
    action: TopUpAction;
    /** The files sent with "I have paid". */
    proofs?: readonly ProofUpload[];
    /** An unverified address may neither ask for coins nor say they are paid. */
    requireVerifiedEmail?: boolean;
  },
): Promise<TopUpOutcome> {
  const { action, userId } = input;
  const gate = { requireVerifiedEmail: input.requireVerifiedEmail };
  const result =
    action.intent === "request"
      ? await requestTopUp(
          db,
          { userId, methodId: action.methodId, coins: action.coins, locale: input.locale },
          gate,
        )
      : action.intent === "paid"
        ? await markTopUpPaid(
            db,
            {
              userId,
              requestId: action.requestId,
              payerAccount: action.payerAccount,
              paidOn: action.paidOn,
              proofs: input.proofs,
            },
            gate,
          )
        : await cancelTopUp(db, { userId, requestId: action.requestId });
  return outcome(result, action.intent);
}

/** /admin/top-ups' one action: approve or reject a request. */
export async function runTopUpDecision(
  db: Db,
  input: { adminId: string; decision: TopUpDecision },
): Promise<TopUpOutcome> {
  const { decision, adminId } = input;
  const result =
    decision.intent === "approve"
      ? await approveTopUp(db, { adminId, requestId: decision.requestId, coins: decision.coins })
      : await rejectTopUp(db, { adminId, requestId: decision.requestId, reason: decision.reason });
  return outcome(result, decision.intent);
}

/**
 * The customer's page: their requests, the files of the open one, the methods on offer (none while
 * coin purchase is switched off: an open request can still be paid, marked paid or cancelled) and the
 * coins its query asked the form to start on.
 */
export async function loadTopUpPage(
  db: Db,
  userId: string,
  locale: string,
  options: { query?: TopUpPageQuery; now?: Date } = {},
) {
  const { query = {}, now = new Date() } = options;
  const [requestsOf, methods, settings] = await Promise.all([
    loadCustomerTopUps(db, userId, locale),
    listEnabledPaymentMethods(db, locale),
    getSettings(db),
  ]);
  const open = settings.features.coinPurchase;
  const proofs = requestsOf.current ? await listProofsOf(db, requestsOf.current.id) : [];
  return {
    ...requestsOf,
    proofs,
    methods: open ? methods : [],
    purchaseOpen: open,
    // What an "Add coins" link said was missing, in whole coins: the form starts on it (at least the
    // method's minimum, at most its maximum: startingTopUpCoins).
    wantedCoins: query.coins ?? null,
    // "I have paid"'s day is the server's (its default and latest), so the form hydrates as written.
    today: now.toISOString().slice(0, 10),
  };
}

/** /admin/top-ups: the queue's page with each request's files, and every method (the filter's choices). */
export async function loadTopUpQueuePage(db: Db, query: TopUpQueueQuery, locale: string) {
  const [queue, methods] = await Promise.all([
    listTopUpQueue(db, query, locale),
    listPaymentMethodsForAdmin(db),
  ]);
  const proofs = await listProofsForQueue(
    db,
    queue.items.map((item) => item.id),
  );
  return {
    ...queue,
    proofs,
    methods: methods.map((method) => ({ id: method.id, name: textIn(method.names, locale, "en") })),
  };
}
