import { sql, type QueryCreator } from "kysely";
import { recordAudit } from "~/domain/audit/audit.server";
import { notify } from "~/domain/notifications/notifications.server";
import { isPostgres } from "~/db/dialect";
import type { Database } from "~/db/schema";
import { inTransaction, Refusal, type Db, type Tx } from "~/db/transaction";
import { previewAdjustment, type LedgerKind } from "./coins";

export interface LedgerEntryInput {
  userId: string;
  amountCents: number;
  kind: LedgerKind;
  reason?: string;
  actorId?: string | null;
  orderId?: number | null;
  hostingServiceId?: number | null;
}

/**
 * A step: changes a user's cached balance and appends its ledger row in the caller's transaction. The
 * update is conditional, so a debit larger than the balance changes nothing and returns null (the CHECK
 * constraint backs it up). Returns the balance after.
 */
export async function postLedgerEntry(trx: Tx, entry: LedgerEntryInput): Promise<number | null> {
  if (!Number.isSafeInteger(entry.amountCents) || entry.amountCents === 0) {
    throw new Error("A ledger entry needs a non-zero whole number of cents");
  }
  const row = {
    user_id: entry.userId,
    amount_cents: entry.amountCents,
    kind: entry.kind,
    reason: entry.reason ?? "",
    actor_id: entry.actorId ?? null,
    order_id: entry.orderId ?? null,
    hosting_service_id: entry.hostingServiceId ?? null,
    created_at: new Date().toISOString(),
  };
  const debit = (qb: QueryCreator<Database>) =>
    qb
      .updateTable("users")
      .set({ coin_balance_cents: sql`coin_balance_cents + ${entry.amountCents}` })
      .where("id", "=", entry.userId)
      .where("coin_balance_cents", ">=", -entry.amountCents)
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
      .returning("balance_after_cents")
      .executeTakeFirst();
    return written ? written.balance_after_cents : null;
  }
  const updated = await debit(trx).executeTakeFirst();
  if (!updated) return null;
  await trx
    .insertInto("coin_ledger")
    .values({ ...row, balance_after_cents: updated.coin_balance_cents })
    .execute();
  return updated.coin_balance_cents;
}

/** The ledger row's columns written from the entry, with their PostgreSQL types. */
const POSTGRES_TYPES = {
  user_id: "text",
  amount_cents: "integer",
  kind: "text",
  reason: "text",
  actor_id: "text",
  order_id: "integer",
  hosting_service_id: "integer",
  created_at: "timestamptz",
} as const;
const ledgerColumns = Object.keys(POSTGRES_TYPES) as (keyof typeof POSTGRES_TYPES)[];

export type AdjustCoinsResult =
  | { ok: true; balanceCents: number; appliedCents: number; clamped: boolean }
  | { ok: false; error: "coins.errors.userNotFound" | "coins.errors.nothingToRemove" };

/** Admin adds or removes coins with a reason; removing more than the balance removes down to 0. */
export async function adjustCoins(
  db: Db,
  input: { userId: string; amountCents: number; reason: string; actorId: string; link?: string },
): Promise<AdjustCoinsResult> {
  return inTransaction(db, async (trx) => {
    const user = await trx
      .selectFrom("users")
      .select(["coin_balance_cents"])
      .where("id", "=", input.userId)
      .where("status", "=", "active")
      .executeTakeFirst();
    if (!user)
      throw new Refusal<AdjustCoinsResult>({ ok: false, error: "coins.errors.userNotFound" });
    const preview = previewAdjustment(user.coin_balance_cents, input.amountCents);
    if (preview.appliedCents === 0) {
      throw new Refusal<AdjustCoinsResult>({ ok: false, error: "coins.errors.nothingToRemove" });
    }
    const balance = await postLedgerEntry(trx, {
      userId: input.userId,
      amountCents: preview.appliedCents,
      kind: "admin_adjustment",
      reason: input.reason,
      actorId: input.actorId,
    });
    // The balance moved between our read and the update: refuse rather than guess.
    if (balance === null)
      throw new Refusal<AdjustCoinsResult>({ ok: false, error: "coins.errors.nothingToRemove" });
    await recordAudit(trx, {
      actorId: input.actorId,
      action: "coins.adjust",
      targetType: "user",
      targetId: input.userId,
      before: { balanceCents: user.coin_balance_cents },
      after: {
        balanceCents: balance,
        requestedCents: input.amountCents,
        appliedCents: preview.appliedCents,
      },
      reason: input.reason,
    });
    await notify(trx, {
      userId: input.userId,
      kind: preview.appliedCents > 0 ? "coins_added" : "coins_removed",
      params: { amountCents: Math.abs(preview.appliedCents), balanceCents: balance },
      link: input.link ?? "/dashboard?tab=billing",
    });
    return {
      ok: true,
      balanceCents: balance,
      appliedCents: preview.appliedCents,
      clamped: preview.clamped,
    };
  });
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
