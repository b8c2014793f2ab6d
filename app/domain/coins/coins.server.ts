import { sql, type QueryCreator } from "kysely";
import { record } from "~/domain/events/events.server";
import { isPostgres } from "~/db/dialect";
import type { Database } from "~/db/schema";
import { inTransaction, Refusal, storeOncePerKey, type Db, type Tx } from "~/db/transaction";
import type { FailureKind } from "~/lib/result";
import { MAX_BALANCE_CENTS, previewAdjustment, type LedgerKind } from "./coins";
import type { DocumentRef } from "~/domain/mail/mail-events";
import { englishLedgerReason, type LedgerReason } from "./ledger-reason";
import { requireCoinChangeAllowed, type CoinCapRefusal } from "~/domain/staff/staff-actor.server";

export interface LedgerEntryInput {
  userId: string;
  amountCents: number;
  kind: LedgerKind;
  /**
   * A message of the coins catalogue and its values (`ledgerReason`), shown in each reader's language and
   * written in English beside it; or text written by a person (an admin's reason), shown as typed.
   */
  reason?: string | LedgerReason;
  actorId?: string | null;
  orderId?: number | null;
  hostingServiceId?: number | null;
  /** The admin form's key (unique in the ledger): the entry is written once per key. */
  idempotencyKey?: string | null;
  /** When it is written (the clock the use-case was given); now by default. */
  now?: Date;
}

/**
 * A step: changes a user's cached balance and appends its ledger row in the caller's transaction. The
 * update is conditional, so a debit larger than the balance, or a credit that would take it past
 * MAX_BALANCE_CENTS, changes nothing and returns null (the database backs both up: a CHECK, and triggers
 * from migration 0019). Returns the balance after.
 */
export async function postLedgerEntry(trx: Tx, entry: LedgerEntryInput): Promise<number | null> {
  const posted = await writeLedgerEntry(trx, entry);
  return posted ? posted.balanceCents : null;
}

/** A ledger row written: the balance after it, and the row's id (which a document accounts for). */
export interface PostedEntry {
  balanceCents: number;
  entryId: number;
}

/**
 * The step under `postLedgerEntry`, giving the new row's id as well: an invoice, a receipt or a credit
 * note names the ledger row it accounts for (docs/invoices.md). Null as postLedgerEntry's.
 */
export async function writeLedgerEntry(
  trx: Tx,
  entry: LedgerEntryInput,
): Promise<PostedEntry | null> {
  if (
    !Number.isSafeInteger(entry.amountCents) ||
    entry.amountCents === 0 ||
    Math.abs(entry.amountCents) > MAX_BALANCE_CENTS
  ) {
    throw new Error(
      `A ledger entry needs a non-zero whole number of cents, at most ${MAX_BALANCE_CENTS} either way`,
    );
  }
  const keyed = typeof entry.reason === "object" ? entry.reason : null;
  const row = {
    user_id: entry.userId,
    amount_cents: entry.amountCents,
    kind: entry.kind,
    reason:
      typeof entry.reason === "string" ? entry.reason : keyed ? englishLedgerReason(keyed) : "",
    reason_key: keyed ? keyed.id : null,
    reason_params: keyed ? JSON.stringify(keyed.params) : null,
    actor_id: entry.actorId ?? null,
    order_id: entry.orderId ?? null,
    hosting_service_id: entry.hostingServiceId ?? null,
    idempotency_key: entry.idempotencyKey ?? null,
    created_at: (entry.now ?? new Date()).toISOString(),
  };
  const debit = (qb: QueryCreator<Database>) =>
    qb
      .updateTable("users")
      .set({ coin_balance_cents: sql`coin_balance_cents + ${entry.amountCents}` })
      .where("id", "=", entry.userId)
      .where(
        "coin_balance_cents",
        entry.amountCents < 0 ? ">=" : "<=",
        entry.amountCents < 0 ? -entry.amountCents : MAX_BALANCE_CENTS - entry.amountCents,
      )
      .returning("coin_balance_cents");
  if (isPostgres(trx)) {
    // One statement, one round trip to the server: the row is written only if the balance changed.
    const written = await trx
      .with("changed", debit)
      .insertInto("coin_ledger")
      .columns([...ledgerColumns, "balance_after_cents"])
      .expression((eb) =>
        eb.selectFrom("changed").select([
          // Typed for PostgreSQL, which cannot infer a parameter's type in a SELECT list.
          ...ledgerColumns.map((column) =>
            sql`cast(${row[column]} as ${sql.raw(POSTGRES_TYPES[column])})`.as(column),
          ),
          "changed.coin_balance_cents",
        ]),
      )
      .returning(["id", "balance_after_cents"])
      .executeTakeFirst();
    return written
      ? { balanceCents: written.balance_after_cents, entryId: Number(written.id) }
      : null;
  }
  const updated = await debit(trx).executeTakeFirst();
  if (!updated) return null;
  const written = await trx
    .insertInto("coin_ledger")
    .values({ ...row, balance_after_cents: updated.coin_balance_cents })
    .returning("id")
    .executeTakeFirstOrThrow();
  return { balanceCents: updated.coin_balance_cents, entryId: Number(written.id) };
}

/** The balance, as it is now, does not cover a payment: what is missing, and what it costs. */
export interface InsufficientCoins {
  ok: false;
  kind: "conflict";
  error: "orders.errors.insufficientCoins";
  missingCents: number;
  totalCents: number;
}

/**
 * A step: a customer pays `costCents` (more than zero) from their coins, through `writeLedgerEntry`.
 * Returns the balance after and the ledger row (its invoice names it); a balance that does not cover it
 * refuses the caller's transaction with `InsufficientCoins`, which an order and a renewal both answer with.
 */
export async function payFromCoins(
  trx: Tx,
  costCents: number,
  entry: Omit<LedgerEntryInput, "amountCents">,
): Promise<PostedEntry> {
  const posted = await writeLedgerEntry(trx, { ...entry, amountCents: -costCents });
  if (posted) return posted;
  const user = await trx
    .selectFrom("users")
    .select("coin_balance_cents")
    .where("id", "=", entry.userId)
    .executeTakeFirstOrThrow();
  throw new Refusal<InsufficientCoins>({
    ok: false,
    kind: "conflict",
    error: "orders.errors.insufficientCoins",
    missingCents: costCents - user.coin_balance_cents,
    totalCents: costCents,
  });
}

/** The ledger row's columns written from the entry, with their PostgreSQL types. */
const POSTGRES_TYPES = {
  user_id: "text",
  amount_cents: "integer",
  kind: "text",
  reason: "text",
  reason_key: "text",
  reason_params: "text",
  actor_id: "text",
  order_id: "integer",
  hosting_service_id: "integer",
  idempotency_key: "text",
  created_at: "timestamptz",
} as const;
const ledgerColumns = Object.keys(POSTGRES_TYPES) as (keyof typeof POSTGRES_TYPES)[];

export type AdjustCoinsRefusal =
  | "coins.errors.userNotFound"
  | "coins.errors.nothingToRemove"
  | "coins.errors.balanceTooHigh"
  | "coins.errors.formExpired";

/**
 * The kind each refusal is: the customer is not there (or no longer active); the balance, as it is now,
 * cannot take the change (past MAX_BALANCE_CENTS, or nothing left to remove); the form's key was made for
 * another customer or admin, a stale form to send again.
 */
const REFUSAL_KINDS = {
  "coins.errors.userNotFound": "notFound",
  "coins.errors.balanceTooHigh": "conflict",
  "coins.errors.nothingToRemove": "conflict",
  "coins.errors.formExpired": "invalid",
} as const satisfies Record<AdjustCoinsRefusal, FailureKind>;

export type AdjustCoinsFailure =
  | {
      [Key in AdjustCoinsRefusal]: { ok: false; kind: (typeof REFUSAL_KINDS)[Key]; error: Key };
    }[AdjustCoinsRefusal]
  /** The actor's role may not make this change (no `coins.adjust`, or past its caps). */
  | CoinCapRefusal;

export type AdjustCoinsResult =
  | {
      ok: true;
      balanceCents: number;
      appliedCents: number;
      clamped: boolean;
      /** A replayed key: nothing changed, this is what the first post did. */
      duplicate?: true;
      /** The payment receipt issued with the credit (`receipt` given). */
      receipt?: DocumentRef;
    }
  | AdjustCoinsFailure;

function failure(error: AdjustCoinsRefusal): AdjustCoinsFailure {
  return { ok: false, kind: REFUSAL_KINDS[error], error } as AdjustCoinsFailure;
}

function refuse(error: AdjustCoinsRefusal): never {
  throw new Refusal<AdjustCoinsResult>(failure(error));
}

/**
 * Admin adds or removes coins with a reason; removing more than the balance removes down to 0, adding
 * past MAX_BALANCE_CENTS is refused. The actor is a member of the staff whose role may change coins, and
 * the amount asked for within its bounds (requireCoinChangeAllowed: Billing's cap per change, Support's
 * goodwill credits up to a daily limit, read at `now` in the site's time zone), checked in the
 * transaction that writes the change. With the form's idempotency key, a post made again (a double click,
 * a retry, the browser resending it) returns what the first one did and changes nothing; the key is
 * looked up first (a replay after a removal down to 0 would otherwise be told there is nothing to
 * remove), and the ledger's unique index settles two posts racing with one key.
 */
export async function adjustCoins(
  db: Db,
  input: {
    userId: string;
    amountCents: number;
    /** The admin's words, or a catalogue message (a ticket's purchase). */
    reason: string | LedgerReason;
    actorId: string;
    link?: string;
    idempotencyKey?: string;
    /** Coins bought through a support ticket are a `coin_purchase`; any other change an adjustment. */
    kind?: Extract<LedgerKind, "admin_adjustment" | "coin_purchase">;
    /**
     * A credit that is a payment: a step issuing its payment receipt for the ledger row just written,
     * in the same transaction (the coins mail then links it). Not called for a removal.
     */
    receipt?: (trx: Tx, credit: { entryId: number; amountCents: number }) => Promise<DocumentRef>;
    /** The clock: the day a daily limit counts in, and the ledger row's time. */
    now?: Date;
  },
): Promise<AdjustCoinsResult> {
  const key = input.idempotencyKey;
  const now = input.now ?? new Date();
  const earlier = async (): Promise<AdjustCoinsResult | undefined> => {
    if (!key) return undefined;
    const row = await db
      .selectFrom("coin_ledger")
      .select(["user_id", "actor_id", "amount_cents", "balance_after_cents"])
      .where("idempotency_key", "=", key)
      .executeTakeFirst();
    if (!row) return undefined;
    // A key belongs to the form it was made for: used for another customer or by another admin, the
    // form is treated as stale, as an order's key is.
    if (row.user_id !== input.userId || row.actor_id !== input.actorId)
      return failure("coins.errors.formExpired");
    return {
      ok: true,
      balanceCents: row.balance_after_cents,
      appliedCents: row.amount_cents,
      clamped: row.amount_cents !== input.amountCents,
      duplicate: true,
    };
  };
  return storeOncePerKey(earlier, () =>
    inTransaction(db, async (trx): Promise<AdjustCoinsResult> => {
      await requireCoinChangeAllowed(trx, {
        actorId: input.actorId,
        amountCents: input.amountCents,
        now,
      });
      const user = await trx
        .selectFrom("users")
        .select(["coin_balance_cents"])
        .where("id", "=", input.userId)
        .where("status", "=", "active")
        .executeTakeFirst();
      if (!user) refuse("coins.errors.userNotFound");
      const preview = previewAdjustment(user.coin_balance_cents, input.amountCents);
      if (preview.overMaximum) refuse("coins.errors.balanceTooHigh");
      if (preview.appliedCents === 0) refuse("coins.errors.nothingToRemove");
      const posted = await writeLedgerEntry(trx, {
        userId: input.userId,
        amountCents: preview.appliedCents,
        kind: input.kind ?? "admin_adjustment",
        reason: input.reason,
        actorId: input.actorId,
        idempotencyKey: key,
        now,
      });
      // The balance moved between our read and the update: refuse rather than guess.
      if (posted === null)
        refuse(
          preview.appliedCents > 0 ? "coins.errors.balanceTooHigh" : "coins.errors.nothingToRemove",
        );
      const balance = posted.balanceCents;
      const receipt =
        input.receipt && preview.appliedCents > 0
          ? await input.receipt(trx, { entryId: posted.entryId, amountCents: preview.appliedCents })
          : undefined;
      await record(trx, {
        type: "coins.adjusted",
        actorId: input.actorId,
        userId: input.userId,
        key,
        requestedCents: input.amountCents,
        appliedCents: preview.appliedCents,
        balanceBeforeCents: user.coin_balance_cents,
        balanceCents: balance,
        reason: input.reason,
        link: input.link,
        receipt,
      });
      return {
        ok: true,
        balanceCents: balance,
        appliedCents: preview.appliedCents,
        clamped: preview.clamped,
        ...(receipt ? { receipt } : {}),
      };
    }),
  );
}

export interface LedgerDiscrepancy {
  userId: string;
  email: string;
  balanceCents: number;
  ledgerSumCents: number;
  lastBalanceAfterCents: number | null;
}

/**
 * Every user whose cached balance differs from the sum of their ledger, or from the balance recorded on
 * their latest ledger row. Empty means the books are right.
 */
export async function findLedgerDiscrepancies(db: Db): Promise<LedgerDiscrepancy[]> {
  const rows = await db
    .selectFrom("users")
    .leftJoin(
      (eb) =>
        eb
          .selectFrom("coin_ledger")
          .select([
            "user_id",
            sql<number>`sum(amount_cents)`.as("total"),
            sql<number>`max(id)`.as("last_id"),
          ])
          .groupBy("user_id")
          .as("l"),
      (join) => join.onRef("l.user_id", "=", "users.id"),
    )
    .leftJoin("coin_ledger as last", "last.id", "l.last_id")
    .select([
      "users.id",
      "users.email",
      "users.coin_balance_cents",
      "l.total",
      "last.balance_after_cents",
    ])
    .execute();
  return rows
    .map((row) => ({
      userId: row.id,
      email: row.email,
      balanceCents: row.coin_balance_cents,
      ledgerSumCents: Number(row.total ?? 0),
      lastBalanceAfterCents: row.balance_after_cents ?? null,
    }))
    .filter(
      (row) =>
        row.ledgerSumCents !== row.balanceCents ||
        (row.lastBalanceAfterCents !== null && row.lastBalanceAfterCents !== row.balanceCents),
    );
}
