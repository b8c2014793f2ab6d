import { randomBytes } from "node:crypto";
import { sql } from "kysely";
import { loginAddress } from "~/domain/accounts/login-throttle.server";
import { writeLedgerEntry } from "~/domain/coins/coins.server";
import { record } from "~/domain/events/events.server";
import { requireStaffPermission, type StaffForbidden } from "~/domain/staff/staff-actor.server";
import { fetchPage, type PageRequest } from "~/db/paging";
import { inTransaction, isUniqueViolation, Refusal, type Db, type Tx } from "~/db/transaction";
import { storedReferralSettingsSchema } from "./referrals.schemas";
import {
  DEFAULT_REFERRAL_SETTINGS,
  isReferralState,
  maskEmail,
  maskName,
  monthOf,
  normalizeReferralCode,
  pastRefundWindow,
  readFlags,
  referralCodeFrom,
  rewardCents,
  splitByCap,
  type AdminReferralRow,
  type ReferralFlag,
  type ReferralRow,
  type ReferralSettings,
  type ReferralState,
  type ReferrerRow,
} from "./referrals";

// Referrals (docs/referrals.md): a customer's code, the referral a registration records, the worker's
// reward once the referred customer's first order is past its refund window, and the admin's decisions.

const SETTINGS_KEY = "referrals";

/** The referral settings (the `referrals` row of the settings table); defaults for anything missing. */
export async function readReferralSettings(db: Db | Tx): Promise<ReferralSettings> {
  const row = await db
    .selectFrom("settings")
    .select("value")
    .where("key", "=", SETTINGS_KEY)
    .executeTakeFirst();
  if (!row) return { ...DEFAULT_REFERRAL_SETTINGS };
  try {
    return storedReferralSettingsSchema.parse(JSON.parse(row.value));
  } catch {
    return { ...DEFAULT_REFERRAL_SETTINGS };
  }
}

export type SaveReferralSettingsResult = { ok: true; changed: boolean } | StaffForbidden;

/** An admin with `affiliates.manage` saves the settings; audited when anything changed. */
export async function saveReferralSettings(
  db: Db,
  input: { actorId: string; settings: ReferralSettings; now?: Date },
): Promise<SaveReferralSettingsResult> {
  const now = input.now ?? new Date();
  return inTransaction(db, async (trx): Promise<SaveReferralSettingsResult> => {
    await requireStaffPermission(trx, input.actorId, "affiliates.manage");
    const before = await readReferralSettings(trx);
    const after = storedReferralSettingsSchema.parse(input.settings);
    if (JSON.stringify(before) === JSON.stringify(after)) return { ok: true, changed: false };
    await trx
      .insertInto("settings")
      .values({ key: SETTINGS_KEY, value: JSON.stringify(after), updated_at: now.toISOString() })
      .onConflict((oc) =>
        oc
          .column("key")
          .doUpdateSet({ value: JSON.stringify(after), updated_at: now.toISOString() }),
      )
      .execute();
    await record(
      trx,
      { type: "referral.settingsSaved", actorId: input.actorId, before, after },
      now,
    );
    return { ok: true, changed: true };
  });
}

/** Whether `code` is a customer's (a link's code is checked before its cookie is set). */
export async function referralCodeExists(db: Db, code: string): Promise<boolean> {
  const row = await db
    .selectFrom("referral_codes")
    .select("user_id")
    .where("code", "=", code)
    .executeTakeFirst();
  return Boolean(row);
}

/**
 * A customer's code, made the first time it is asked for: random, unique (a clash with another's code
 * draws again), and once made never changed, so a link shared stays good.
 */
export async function referralCodeOf(
  db: Db,
  userId: string,
  options: { now?: Date; random?: (size: number) => Uint8Array } = {},
): Promise<string> {
  const random = options.random ?? randomBytes;
  for (let attempt = 0; attempt < 8; attempt++) {
    const existing = await db
      .selectFrom("referral_codes")
      .select("code")
      .where("user_id", "=", userId)
      .executeTakeFirst();
    if (existing) return existing.code;
    try {
      await db
        .insertInto("referral_codes")
        .values({
          user_id: userId,
          code: referralCodeFrom(random(8)),
          created_at: (options.now ?? new Date()).toISOString(),
        })
        .onConflict((oc) => oc.column("user_id").doNothing())
        .execute();
    } catch (error) {
      // Another customer holds that code: draw again.
      if (!isUniqueViolation(error)) throw error;
    }
  }
  throw new Error("No free referral code after 8 draws");
}

export type RecordReferralResult =
  | { ok: true; referralId: number; flags: ReferralFlag[] }
  | { ok: false; kind: "invalid"; error: "referrals.errors.unknownCode" | "referrals.errors.self" }
  | { ok: false; kind: "forbidden"; error: "referrals.errors.off" }
  | { ok: false; kind: "conflict"; error: "referrals.errors.alreadyReferred" };

/**
 * Records that `referredId` came through `code` (the cookie a link set), right after the account was
 * made. A code of one's own is refused; a registration from an address the referrer used is recorded
 * flagged, for an admin to decide. Nothing here stops the registration: the route ignores a refusal.
 */
export async function recordReferral(
  db: Db,
  input: { referredId: string; code: string; address?: string | null; now?: Date },
): Promise<RecordReferralResult> {
  const now = (input.now ?? new Date()).toISOString();
  const code = normalizeReferralCode(input.code);
  return inTransaction(db, async (trx): Promise<RecordReferralResult> => {
    if (!(await readReferralSettings(trx)).enabled)
      return { ok: false, kind: "forbidden", error: "referrals.errors.off" };
    const owner = code
      ? await trx
          .selectFrom("referral_codes")
          .select("user_id")
          .where("code", "=", code)
          .executeTakeFirst()
      : undefined;
    if (!owner || !code)
      return { ok: false, kind: "invalid", error: "referrals.errors.unknownCode" };
    if (owner.user_id === input.referredId)
      return { ok: false, kind: "invalid", error: "referrals.errors.self" };
    const address = input.address ? loginAddress(input.address) : null;
    const flags: ReferralFlag[] =
      address && (await referrerUsedAddress(trx, owner.user_id, address)) ? ["sameAddress"] : [];
    const row = await trx
      .insertInto("referrals")
      .values({
        referrer_id: owner.user_id,
        referred_id: input.referredId,
        code,
        registered_ip: address,
        state: flags.length > 0 ? "flagged" : "waiting",
        flags: JSON.stringify(flags),
        created_at: now,
        updated_at: now,
      })
      .onConflict((oc) => oc.column("referred_id").doNothing())
      .returning("id")
      .executeTakeFirst();
    if (!row) return { ok: false, kind: "conflict", error: "referrals.errors.alreadyReferred" };
    return { ok: true, referralId: Number(row.id), flags };
  });
}

/**
 * Whether the referrer was seen at `address`: a session of theirs, a sign-in that succeeded, or their
 * own registration through someone's link. Addresses compared in loginAddress's short form.
 */
async function referrerUsedAddress(trx: Tx, referrerId: string, address: string) {
  const session = await trx
    .selectFrom("sessions")
    .select("id")
    .where("user_id", "=", referrerId)
    .where("ip_address", "is not", null)
    .select("ip_address")
    .execute();
  if (session.some((s) => s.ip_address && loginAddress(s.ip_address) === address)) return true;
  const signIn = await trx
    .selectFrom("login_attempts")
    .innerJoin("users", "users.email", "login_attempts.email")
    .select("login_attempts.id")
    .where("users.id", "=", referrerId)
    .where("login_attempts.succeeded", "=", 1)
    .where("login_attempts.ip_address", "=", address)
    .executeTakeFirst();
  if (signIn) return true;
  const registered = await trx
    .selectFrom("referrals")
    .select("id")
    .where("referred_id", "=", referrerId)
    .where("registered_ip", "=", address)
    .executeTakeFirst();
  return Boolean(registered);
}

/** Whether the two customers uploaded a top-up proof with the same bytes (its SHA-256). */
async function sharedProof(trx: Tx, referrerId: string, referredId: string) {
  const row = await trx
    .selectFrom("top_up_proofs as mine")
    .innerJoin("top_up_proofs as theirs", "theirs.sha256", "mine.sha256")
    .select("mine.id")
    .where("mine.user_id", "=", referrerId)
    .where("theirs.user_id", "=", referredId)
    .executeTakeFirst();
  return Boolean(row);
}

/** What one run of the reward job did, in counts (the job run's log). */
export interface RewardRunCounts {
  paid: number;
  overCap: number;
  flagged: number;
  refunded: number;
  waiting: number;
}

/** How many waiting referrals one run looks at; the next run takes the rest. */
const RUN_BATCH = 500;

/**
 * The worker's job: every waiting referral whose referred customer's first order is past its refund
 * window (at `now`, the job's clock) is paid its reward once, up to the referrer's monthly cap; one whose
 * first order was rejected or refunded gets nothing; one that shares a proof file or an address is
 * flagged instead. Switched off, it pays nothing (the referrals wait).
 */
export async function runReferralRewards(db: Db, { now }: { now: Date }): Promise<RewardRunCounts> {
  const counts: RewardRunCounts = { paid: 0, overCap: 0, flagged: 0, refunded: 0, waiting: 0 };
  const settings = await readReferralSettings(db);
  if (!settings.enabled) return counts;
  const waiting = await db
    .selectFrom("referrals")
    .select("id")
    .where("state", "=", "waiting")
    .orderBy("id")
    .limit(RUN_BATCH)
    .execute();
  for (const { id } of waiting) {
    const outcome = await settleReferral(db, Number(id), now, settings);
    if (outcome === "paid") counts.paid++;
    else if (outcome === "over_cap") counts.overCap++;
    else if (outcome === "flagged") counts.flagged++;
    else if (outcome === "refunded") counts.refunded++;
    else if (outcome === "waiting") counts.waiting++;
  }
  return counts;
}

type Outcome = "paid" | "over_cap" | "flagged" | "refunded" | "waiting" | "settled";

/**
 * One referral, in its own transaction. Exactly once whatever retries and races: the referrer's code row
 * is locked first (two rewards of one referrer count against the cap one after the other), the
 * referral's state is read again under it and changed only from `waiting`, and the reward's row is keyed
 * by the referral and the ledger row by `referral-reward:<id>`, both unique in the database.
 */
export async function settleReferral(
  db: Db,
  id: number,
  now: Date,
  settings: ReferralSettings,
): Promise<Outcome> {
  try {
    return await inTransaction(db, (trx) => settleIn(trx, id, now, settings));
  } catch (error) {
    // Another worker paid it between our look and our write: its row stands, ours rolled back.
    if (isUniqueViolation(error)) return "settled";
    throw error;
  }
}

async function settleIn(
  trx: Tx,
  id: number,
  now: Date,
  settings: ReferralSettings,
): Promise<Outcome> {
  const at = now.toISOString();
  const first = await trx
    .selectFrom("referrals")
    .select(["referrer_id"])
    .where("id", "=", id)
    .executeTakeFirst();
  if (!first) return "settled";
  // The lock: a write to the referrer's code row, held to the end of the transaction.
  await trx
    .updateTable("referral_codes")
    .set({ code: sql`code` })
    .where("user_id", "=", first.referrer_id)
    .execute();
  const referral = await trx
    .selectFrom("referrals")
    .innerJoin("users", "users.id", "referrals.referred_id")
    .select([
      "referrals.id",
      "referrals.referrer_id",
      "referrals.referred_id",
      "referrals.state",
      "referrals.flags",
      "referrals.flag_cleared",
      "users.name",
    ])
    .where("referrals.id", "=", id)
    .executeTakeFirst();
  if (!referral || referral.state !== "waiting") return "settled";
  const order = await trx
    .selectFrom("orders")
    .select(["id", "status", "total_cents", "created_at", "hosting_service_id"])
    .where("user_id", "=", referral.referred_id)
    .orderBy("created_at")
    .orderBy("id")
    .executeTakeFirst();
  if (!order || order.status === "pending") return "waiting";
  const setState = (state: ReferralState, extra: { flags?: string } = {}) =>
    trx
      .updateTable("referrals")
      .set({ state, order_id: Number(order.id), updated_at: at, ...extra })
      .where("id", "=", id)
      .where("state", "=", "waiting")
      .executeTakeFirst();
  if (order.status === "rejected" || (await orderRefunded(trx, order))) {
    await setState("refunded");
    return "refunded";
  }
  if (!pastRefundWindow(String(order.created_at), now) || (await refundAsked(trx, order)))
    return "waiting";
  if (!Number(referral.flag_cleared)) {
    const flags = new Set(readFlags(referral.flags));
    if (await sharedProof(trx, referral.referrer_id, referral.referred_id)) flags.add("sameProof");
    if (flags.size > 0) {
      await setState("flagged", { flags: JSON.stringify([...flags]) });
      return "flagged";
    }
  }
  const reward = rewardCents(Number(order.total_cents), settings.percentBasisPoints);
  const month = monthOf(now);
  const paidThisMonth = await trx
    .selectFrom("referral_rewards")
    .select((eb) => eb.fn.sum<number>("paid_cents").as("paid"))
    .where("referrer_id", "=", referral.referrer_id)
    .where("month", "=", month)
    .executeTakeFirst();
  const split = splitByCap(reward, Number(paidThisMonth?.paid ?? 0), settings.monthlyCapCents);
  const state: ReferralState = split.unpaidCents > 0 ? "over_cap" : "paid";
  const claimed = await setState(state);
  if (Number(claimed.numUpdatedRows) !== 1) return "settled";
  let ledgerEntryId: number | null = null;
  if (split.paidCents > 0) {
    const posted = await writeLedgerEntry(trx, {
      userId: referral.referrer_id,
      amountCents: split.paidCents,
      kind: "referral_reward",
      reason: { id: "referralReward", params: { name: maskName(referral.name) } },
      idempotencyKey: `referral-reward:${id}`,
      now,
    });
    // The referrer's balance is at its ceiling: nothing is written, the referral waits for a later run.
    if (!posted) throw new Refusal<Outcome>("waiting");
    ledgerEntryId = posted.entryId;
  }
  await trx
    .insertInto("referral_rewards")
    .values({
      referral_id: id,
      referrer_id: referral.referrer_id,
      month,
      order_id: Number(order.id),
      order_total_cents: Number(order.total_cents),
      reward_cents: reward,
      paid_cents: split.paidCents,
      unpaid_cents: split.unpaidCents,
      ledger_entry_id: ledgerEntryId,
      created_at: at,
    })
    .execute();
  if (split.paidCents > 0)
    await record(
      trx,
      {
        type: "referral.rewardPaid",
        referrerId: referral.referrer_id,
        referralId: id,
        paidCents: split.paidCents,
        unpaidCents: split.unpaidCents,
      },
      now,
    );
  return state;
}

interface FirstOrder {
  id: number | bigint;
  hosting_service_id: number | null;
}

/** The first order's coins came back: a refund approved in its window, or a refund to the balance. */
async function orderRefunded(trx: Tx, order: FirstOrder): Promise<boolean> {
  const ledger = await trx
    .selectFrom("coin_ledger")
    .select("id")
    .where("order_id", "=", Number(order.id))
    .where("kind", "=", "order_refund")
    .executeTakeFirst();
  if (ledger) return true;
  if (order.hosting_service_id === null) return false;
  const refund = await trx
    .selectFrom("service_cancellations")
    .select("id")
    .where("hosting_service_id", "=", order.hosting_service_id)
    .where("kind", "=", "refund")
    .where("state", "=", "approved")
    .executeTakeFirst();
  return Boolean(refund);
}

/** A refund asked in the window and not decided yet: the referral waits for the decision. */
async function refundAsked(trx: Tx, order: FirstOrder): Promise<boolean> {
  if (order.hosting_service_id === null) return false;
  const open = await trx
    .selectFrom("service_cancellations")
    .select("id")
    .where("hosting_service_id", "=", order.hosting_service_id)
    .where("kind", "=", "refund")
    .where("state", "=", "requested")
    .executeTakeFirst();
  return Boolean(open);
}

export type DecideReferralResult =
  | { ok: true; state: ReferralState }
  | StaffForbidden
  | { ok: false; kind: "notFound"; error: "referrals.errors.referralNotFound" }
  | { ok: false; kind: "conflict"; error: "referrals.errors.notFlagged" };

/**
 * An admin decides a flagged referral: `pay` lets it through (the job pays it once its first order is
 * past the window, flags or not), `reject` ends it unpaid. Audited; once only (the state is the claim).
 */
export async function decideReferral(
  db: Db,
  input: { actorId: string; id: number; decision: "pay" | "reject"; now?: Date },
): Promise<DecideReferralResult> {
  const at = (input.now ?? new Date()).toISOString();
  return inTransaction(db, async (trx): Promise<DecideReferralResult> => {
    await requireStaffPermission(trx, input.actorId, "affiliates.manage");
    const referral = await trx
      .selectFrom("referrals")
      .select(["id", "state", "flags"])
      .where("id", "=", input.id)
      .executeTakeFirst();
    if (!referral)
      return { ok: false, kind: "notFound", error: "referrals.errors.referralNotFound" };
    const state: ReferralState = input.decision === "pay" ? "waiting" : "rejected";
    const changed = await trx
      .updateTable("referrals")
      .set({
        state,
        flag_cleared: input.decision === "pay" ? 1 : 0,
        decided_by: input.actorId,
        decided_at: at,
        updated_at: at,
      })
      .where("id", "=", input.id)
      .where("state", "=", "flagged")
      .executeTakeFirst();
    if (Number(changed.numUpdatedRows) !== 1)
      return { ok: false, kind: "conflict", error: "referrals.errors.notFlagged" };
    await record(
      trx,
      {
        type: "referral.decided",
        actorId: input.actorId,
        referralId: input.id,
        decision: input.decision,
        flags: readFlags(referral.flags),
      },
      input.now,
    );
    return { ok: true, state };
  });
}

/** The customer's page: their code and link, the settings they are told, their referrals and totals. */
export async function loadReferralsPage(
  db: Db,
  userId: string,
): Promise<{
  /** Null until the customer asks for their link (a page's GET writes nothing). */
  code: string | null;
  settings: ReferralSettings;
  referrals: ReferralRow[];
  paidCents: number;
  unpaidCents: number;
}> {
  const code =
    (
      await db
        .selectFrom("referral_codes")
        .select("code")
        .where("user_id", "=", userId)
        .executeTakeFirst()
    )?.code ?? null;
  const settings = await readReferralSettings(db);
  const rows = await db
    .selectFrom("referrals")
    .innerJoin("users", "users.id", "referrals.referred_id")
    .leftJoin("referral_rewards", "referral_rewards.referral_id", "referrals.id")
    .select([
      "referrals.id",
      "users.name",
      "users.email",
      "referrals.state",
      "referrals.created_at",
      "referral_rewards.paid_cents",
      "referral_rewards.unpaid_cents",
    ])
    .where("referrals.referrer_id", "=", userId)
    .orderBy("referrals.id", "desc")
    .limit(200)
    .execute();
  const referrals = rows.map((row): ReferralRow => ({
    id: Number(row.id),
    name: maskName(row.name),
    email: maskEmail(row.email),
    // What the referrer is told: a flag is the admins' business, it only waits longer.
    state: row.state === "flagged" ? "waiting" : isReferralState(row.state) ? row.state : "waiting",
    createdAt: String(row.created_at),
    paidCents: Number(row.paid_cents ?? 0),
    unpaidCents: Number(row.unpaid_cents ?? 0),
  }));
  const totals = await db
    .selectFrom("referral_rewards")
    .select((eb) => [
      eb.fn.coalesce(eb.fn.sum<number>("paid_cents"), sql<number>`0`).as("paid"),
      eb.fn.coalesce(eb.fn.sum<number>("unpaid_cents"), sql<number>`0`).as("unpaid"),
    ])
    .where("referrer_id", "=", userId)
    .executeTakeFirst();
  return {
    code,
    settings,
    referrals,
    paidCents: Number(totals?.paid ?? 0),
    unpaidCents: Number(totals?.unpaid ?? 0),
  };
}

/** How many referrals a page of /admin/affiliates holds. */
export const AFFILIATES_PAGE_SIZE = 50;

/** /admin/affiliates: the settings, the referrals (a state's or all), the top referrers, the counts. */
export async function loadAffiliatesAdmin(
  db: Db,
  query: { state?: ReferralState } & PageRequest,
): Promise<{
  settings: ReferralSettings;
  referrals: AdminReferralRow[];
  hasMore: boolean;
  referrers: ReferrerRow[];
  counts: Partial<Record<ReferralState, number>>;
}> {
  const settings = await readReferralSettings(db);
  let list = db
    .selectFrom("referrals")
    .innerJoin("users as referrer", "referrer.id", "referrals.referrer_id")
    .innerJoin("users as referred", "referred.id", "referrals.referred_id")
    .leftJoin("referral_rewards", "referral_rewards.referral_id", "referrals.id")
    .select([
      "referrals.id",
      "referrals.referrer_id",
      "referrer.name as referrer_name",
      "referrer.email as referrer_email",
      "referred.name as referred_name",
      "referred.email as referred_email",
      "referrals.state",
      "referrals.flags",
      "referrals.flag_cleared",
      "referrals.order_id",
      "referrals.created_at",
      "referral_rewards.reward_cents",
      "referral_rewards.paid_cents",
      "referral_rewards.unpaid_cents",
    ])
    .orderBy("referrals.id", "desc");
  if (query.state) list = list.where("referrals.state", "=", query.state);
  const size = query.pageSize ?? AFFILIATES_PAGE_SIZE;
  const page = await fetchPage(list, { limit: size, offset: (query.page - 1) * size });
  const referrals = page.rows.map((row): AdminReferralRow => ({
    id: Number(row.id),
    referrerId: row.referrer_id,
    referrerName: row.referrer_name,
    referrerEmail: row.referrer_email,
    referredName: row.referred_name,
    referredEmail: row.referred_email,
    state: isReferralState(row.state) ? row.state : "waiting",
    flags: readFlags(row.flags),
    flagCleared: Boolean(Number(row.flag_cleared)),
    orderId: row.order_id === null ? null : Number(row.order_id),
    rewardCents: row.reward_cents === null ? null : Number(row.reward_cents),
    paidCents: row.paid_cents === null ? null : Number(row.paid_cents),
    unpaidCents: row.unpaid_cents === null ? null : Number(row.unpaid_cents),
    createdAt: String(row.created_at),
  }));
  const referrerRows = await db
    .selectFrom("referral_codes")
    .innerJoin("users", "users.id", "referral_codes.user_id")
    .innerJoin("referrals", "referrals.referrer_id", "referral_codes.user_id")
    .leftJoin("referral_rewards", "referral_rewards.referral_id", "referrals.id")
    .select((eb) => [
      "referral_codes.user_id",
      "referral_codes.code",
      "users.name",
      "users.email",
      eb.fn.count<number>("referrals.id").as("referrals"),
      eb.fn.coalesce(eb.fn.sum<number>("referral_rewards.paid_cents"), sql<number>`0`).as("paid"),
      eb.fn
        .coalesce(eb.fn.sum<number>("referral_rewards.unpaid_cents"), sql<number>`0`)
        .as("unpaid"),
    ])
    .groupBy(["referral_codes.user_id", "referral_codes.code", "users.name", "users.email"])
    .orderBy("referrals", "desc")
    .limit(50)
    .execute();
  const countRows = await db
    .selectFrom("referrals")
    .select((eb) => ["state", eb.fn.countAll<number>().as("n")])
    .groupBy("state")
    .execute();
  const counts: Partial<Record<ReferralState, number>> = {};
  for (const row of countRows) if (isReferralState(row.state)) counts[row.state] = Number(row.n);
  return {
    settings,
    referrals,
    hasMore: page.hasMore,
    referrers: referrerRows.map((row) => ({
      userId: row.user_id,
      name: row.name,
      email: row.email,
      code: row.code,
      referrals: Number(row.referrals),
      paidCents: Number(row.paid),
      unpaidCents: Number(row.unpaid),
    })),
    counts,
  };
}
