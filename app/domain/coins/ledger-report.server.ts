import { sql, type RawBuilder } from "kysely";
import { isPostgres } from "~/db/dialect";
import type { Db } from "~/db/transaction";
import {
  accountLike,
  containsPattern,
  fewAccountsContaining,
  oneOf,
} from "~/domain/accounts/user-directory.server";
import type { LedgerKind } from "./coins";
import { LEDGER_TOTALS_LIMIT, type LedgerTotals } from "./ledger-report";

export interface LedgerReportRow {
  id: number;
  at: string;
  userId: string;
  userName: string;
  userEmail: string;
  amountCents: number;
  balanceAfterCents: number;
  kind: string;
  reason: string;
  orderId: number | null;
  hostingServiceId: number | null;
  actorEmail: string | null;
}

export interface LedgerReportFilter {
  /** Part of the customer's email. */
  customer?: string;
  kind?: LedgerKind;
  /** Days (YYYY-MM-DD, UTC), both included. */
  from?: string;
  to?: string;
  limit: number;
  offset: number;
}

/** The day after a YYYY-MM-DD date, as the ISO instant it starts (UTC). */
function dayAfter(day: string): string {
  const date = new Date(`${day}T00:00:00.000Z`);
  date.setUTCDate(date.getUTCDate() + 1);
  return date.toISOString();
}

/**
 * The filter as SQL: conditions on coin_ledger, and the accounts whose email holds the customer text
 * (a condition on users, joined).
 */
async function conditions(db: Db, filter: Omit<LedgerReportFilter, "limit" | "offset">) {
  const onLedger: RawBuilder<boolean>[] = [];
  if (filter.kind) onLedger.push(sql`coin_ledger.kind = ${filter.kind}`);
  if (filter.from)
    onLedger.push(
      sql`coin_ledger.created_at >= ${new Date(`${filter.from}T00:00:00.000Z`).toISOString()}`,
    );
  if (filter.to) onLedger.push(sql`coin_ledger.created_at < ${dayAfter(filter.to)}`);
  const customer = filter.customer?.trim().toLowerCase() ?? "";
  // The few accounts a customer text matches (their rows come by the ledger's (user_id, id) index), or
  // null when it matches many (or is too short to look up).
  const few = customer ? await fewAccountsContaining(db, customer, "email") : null;
  return { onLedger, customer, few };
}

/**
 * The totals of what the filter matches, over at most LEDGER_TOTALS_LIMIT entries. Only what the filter
 * needs is read (no actor join, users only for the customer filter) and in no particular order, so the
 * database takes the cheapest way to the rows; summing a million rows on every view is what this avoids.
 */
async function ledgerTotals(
  db: Db,
  { onLedger, customer, few }: Awaited<ReturnType<typeof conditions>>,
): Promise<LedgerTotals> {
  let matched =
    customer && !few
      ? db
          .selectFrom("coin_ledger")
          .innerJoin("users", "users.id", "coin_ledger.user_id")
          .where(accountLike(customer, "email"))
      : db.selectFrom("coin_ledger");
  if (few) matched = matched.where(oneOf("coin_ledger.user_id", few));
  for (const condition of onLedger) matched = matched.where(condition);
  const totals = await db
    .selectFrom(
      matched
        .select("coin_ledger.amount_cents")
        .limit(LEDGER_TOTALS_LIMIT + 1)
        .as("m"),
    )
    .select([
      sql<number>`count(*)`.as("entries"),
      sql<number>`coalesce(sum(m.amount_cents), 0)`.as("net"),
      sql<number>`coalesce(sum(case when m.amount_cents > 0 then m.amount_cents else 0 end), 0)`.as(
        "credits",
      ),
      sql<number>`coalesce(sum(case when m.amount_cents < 0 then m.amount_cents else 0 end), 0)`.as(
        "debits",
      ),
    ])
    .executeTakeFirstOrThrow();
  if (Number(totals.entries) > LEDGER_TOTALS_LIMIT)
    return { capped: true, entries: LEDGER_TOTALS_LIMIT };
  return {
    capped: false,
    entries: Number(totals.entries),
    netCents: Number(totals.net),
    creditsCents: Number(totals.credits),
    debitsCents: Number(totals.debits),
  };
}

/**
 * Every customer's coin ledger for admins (/admin/transactions), newest first, filtered and paged on the
 * server, with the totals of everything the filter matches (not only the page shown) up to
 * LEDGER_TOTALS_LIMIT entries.
 */
export async function listLedgerForAdmin(db: Db, filter: LedgerReportFilter) {
  const filters = await conditions(db, filter);
  const { onLedger, customer, few } = filters;
  let query = db
    .selectFrom("coin_ledger")
    .innerJoin("users", "users.id", "coin_ledger.user_id")
    .leftJoin("users as actor", "actor.id", "coin_ledger.actor_id");
  for (const condition of onLedger) query = query.where(condition);
  if (few) query = query.where(oneOf("coin_ledger.user_id", few));
  else if (customer && isPostgres(db)) query = query.where(accountLike(customer, "email"));
  else if (customer)
    // A text many accounts share, on SQLite: each ledger row, read newest first, has its account's email
    // checked, which fills a page within a few hundred rows. As a join condition, SQLite would first read
    // every account to build a filter (30 ms at 100,000 accounts). PostgreSQL plans the join well itself.
    query = query.where(
      sql<boolean>`(select u.email from users as u where u.id = coin_ledger.user_id) like ${containsPattern(customer)} escape '\\'`,
    );

  const [rows, totals] = await Promise.all([
    query
      .select([
        "coin_ledger.id",
        "coin_ledger.created_at",
        "coin_ledger.user_id",
        "coin_ledger.amount_cents",
        "coin_ledger.balance_after_cents",
        "coin_ledger.kind",
        "coin_ledger.reason",
        "coin_ledger.order_id",
        "coin_ledger.hosting_service_id",
        "users.name as user_name",
        "users.email as user_email",
        "actor.email as actor_email",
      ])
      .orderBy("coin_ledger.id", "desc")
      .limit(filter.limit + 1)
      .offset(filter.offset)
      .execute(),
    ledgerTotals(db, filters),
  ]);
  return {
    entries: rows.slice(0, filter.limit).map((row): LedgerReportRow => ({
      id: Number(row.id),
      at: row.created_at,
      userId: row.user_id,
      userName: row.user_name,
      userEmail: row.user_email,
      amountCents: row.amount_cents,
      balanceAfterCents: row.balance_after_cents,
      kind: row.kind,
      reason: row.reason,
      orderId: row.order_id,
      hostingServiceId: row.hosting_service_id,
      actorEmail: row.actor_email,
    })),
    hasMore: rows.length > filter.limit,
    totals,
  };
}
