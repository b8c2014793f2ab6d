import { sql, type RawBuilder } from "kysely";
import { withOwner } from "~/db/customer-rows";
import { isPostgres } from "~/db/dialect";
import type { Db } from "~/db/transaction";
import { containsAny } from "~/db/like-pattern";
import { fetchPage, pageWindow, type PageRequest } from "~/db/paging";
import { accountLike, fewAccountsContaining, oneOf } from "~/domain/accounts/user-directory.server";
import type { LedgerKind } from "./coins";
import { storedLedgerReason } from "./ledger-reason";
import {
  LEDGER_PAGE_SIZE_ADMIN,
  LEDGER_TOTALS_LIMIT,
  type LedgerReportRow,
  type LedgerTotals,
} from "./ledger-report";

export interface LedgerReportFilter extends PageRequest {
  /** Part of the customer's email. */
  customer?: string;
  kind?: LedgerKind;
  /** Days (YYYY-MM-DD, UTC), both included. */
  from?: string;
  to?: string;
}

/** The ISO instant a YYYY-MM-DD day (UTC) starts. */
function dayStart(day: string): string {
  return `${day}T00:00:00.000Z`;
}

function addDays(day: string, days: number): string {
  const date = new Date(dayStart(day));
  date.setUTCDate(date.getUTCDate() + days);
  return date.toISOString().slice(0, 10);
}

/** The day after a YYYY-MM-DD date, as the ISO instant it starts (UTC). */
function dayAfter(day: string): string {
  return dayStart(addDays(day, 1));
}

/**
 * The filter as SQL: conditions on coin_ledger, and the accounts whose email holds the customer text
 * (a condition on users, joined).
 */
async function conditions(db: Db, filter: Omit<LedgerReportFilter, keyof PageRequest>) {
  const onLedger: RawBuilder<boolean>[] = [];
  if (filter.kind) onLedger.push(sql`coin_ledger.kind = ${filter.kind}`);
  if (filter.from) onLedger.push(sql`coin_ledger.created_at >= ${dayStart(filter.from)}`);
  if (filter.to) onLedger.push(sql`coin_ledger.created_at < ${dayAfter(filter.to)}`);
  const customer = filter.customer?.trim().toLowerCase() ?? "";
  // The few accounts a customer text matches (their rows come by the ledger's (user_id, id) index), or
  // null when it matches many (or is too short to look up).
  const few = customer ? await fewAccountsContaining(db, customer, "email") : null;
  return { onLedger, customer, few };
}

interface Sums {
  entries: number;
  credits: number;
  debits: number;
}

const NO_SUMS: Sums = { entries: 0, credits: 0, debits: 0 };

function addSums(a: Sums, b: Sums): Sums {
  return {
    entries: a.entries + b.entries,
    credits: a.credits + b.credits,
    debits: a.debits + b.debits,
  };
}

function sumColumns(amount: RawBuilder<number>) {
  return [
    sql<number>`count(*)`.as("entries"),
    sql<number>`coalesce(sum(case when ${amount} > 0 then ${amount} else 0 end), 0)`.as("credits"),
    sql<number>`coalesce(sum(case when ${amount} < 0 then ${amount} else 0 end), 0)`.as("debits"),
  ] as const;
}

function toSums(row: { entries: unknown; credits: unknown; debits: unknown } | undefined): Sums {
  if (!row) return NO_SUMS;
  return { entries: Number(row.entries), credits: Number(row.credits), debits: Number(row.debits) };
}

/** An entry's day (YYYY-MM-DD, UTC) in SQL; created_at is ISO text on SQLite, timestamptz on PostgreSQL. */
function entryDay(db: Db) {
  return isPostgres(db)
    ? sql<string>`to_char(coin_ledger.created_at at time zone 'UTC', 'YYYY-MM-DD')`
    : sql<string>`substr(coin_ledger.created_at, 1, 10)`;
}

/** Sums the days first..last (both closed) that ledger_days does not list yet, and lists them. */
async function sumMissingDays(db: Db, first: string, last: string, now: Date) {
  const summed = new Set(
    (
      await db
        .selectFrom("ledger_days")
        .select("day")
        .where("day", ">=", first)
        .where("day", "<=", last)
        .execute()
    ).map((row) => row.day),
  );
  const spans: [string, string][] = [];
  for (let day = first; day <= last; day = addDays(day, 1)) {
    if (summed.has(day)) continue;
    const span = spans.at(-1);
    if (span && addDays(span[1], 1) === day) span[1] = day;
    else spans.push([day, day]);
  }
  for (const [from, to] of spans) {
    await db.transaction().execute(async (trx) => {
      const rows = await trx
        .selectFrom("coin_ledger")
        .select([entryDay(trx).as("day"), "coin_ledger.kind", ...sumColumns(sql`amount_cents`)])
        .where("coin_ledger.created_at", ">=", dayStart(from))
        .where("coin_ledger.created_at", "<", dayAfter(to))
        .groupBy([entryDay(trx), "coin_ledger.kind"])
        .execute();
      const totals = rows.map((row) => ({
        day: row.day,
        kind: row.kind,
        entries: Number(row.entries),
        credits_cents: Number(row.credits),
        debits_cents: Number(row.debits),
      }));
      const days: { day: string; summed_at: string }[] = [];
      for (let day = from; day <= to; day = addDays(day, 1))
        days.push({ day, summed_at: now.toISOString() });
      // Two admins may sum the same day at once; both get the same figures, so the second adds nothing.
      for (let i = 0; i < totals.length; i += 500)
        await trx
          .insertInto("ledger_day_totals")
          .values(totals.slice(i, i + 500))
          .onConflict((oc) => oc.columns(["day", "kind"]).doNothing())
          .execute();
      for (let i = 0; i < days.length; i += 500)
        await trx
          .insertInto("ledger_days")
          .values(days.slice(i, i + 500))
          .onConflict((oc) => oc.column("day").doNothing())
          .execute();
    });
  }
}

/**
 * Totals of the whole ledger by kind and dates, exact and cheap at any size: closed days (before
 * yesterday, UTC) come from their per-day sums, summed once (ledger_day_totals), and the open days from
 * the ledger itself by its created_at index. Yesterday stays open so that an entry written across
 * midnight is never missed.
 */
async function ledgerTotalsByDay(
  db: Db,
  filter: Pick<LedgerReportFilter, "kind" | "from" | "to">,
  now: Date,
): Promise<Sums> {
  const firstOpen = addDays(now.toISOString().slice(0, 10), -1);
  const earliest = await db
    .selectFrom("coin_ledger")
    .select((eb) => eb.fn.min("created_at").as("at"))
    .executeTakeFirst();
  if (!earliest?.at) return NO_SUMS;
  const earliestDay = new Date(earliest.at).toISOString().slice(0, 10);
  const first = filter.from && filter.from > earliestDay ? filter.from : earliestDay;
  const lastClosed = addDays(firstOpen, -1);
  const last = filter.to && filter.to < lastClosed ? filter.to : lastClosed;

  let closed = NO_SUMS;
  if (first <= last) {
    await sumMissingDays(db, first, last, now);
    let query = db
      .selectFrom("ledger_day_totals")
      .select([
        sql<number>`coalesce(sum(entries), 0)`.as("entries"),
        sql<number>`coalesce(sum(credits_cents), 0)`.as("credits"),
        sql<number>`coalesce(sum(debits_cents), 0)`.as("debits"),
      ])
      .where("day", ">=", first)
      .where("day", "<=", last);
    if (filter.kind) query = query.where("kind", "=", filter.kind);
    closed = toSums(await query.executeTakeFirst());
  }

  let open = NO_SUMS;
  const openFrom = filter.from && filter.from > firstOpen ? filter.from : firstOpen;
  if (!filter.to || filter.to >= openFrom) {
    let query = db
      .selectFrom("coin_ledger")
      .select(sumColumns(sql`amount_cents`))
      .where("created_at", ">=", dayStart(openFrom));
    if (filter.to) query = query.where("created_at", "<", dayAfter(filter.to));
    if (filter.kind) query = query.where("kind", "=", filter.kind);
    open = toSums(await query.executeTakeFirst());
  }
  return addSums(closed, open);
}

/**
 * The totals of what the filter matches. Without a customer, or with one that names a few accounts
 * (their entries come by the ledger's (user_id, id) index), they are exact at any size. A customer text
 * that many accounts share is summed over at most LEDGER_TOTALS_LIMIT entries: such a text is a search,
 * not a report, and adding up a million joined rows on every view is what this avoids.
 */
async function ledgerTotals(
  db: Db,
  filter: Pick<LedgerReportFilter, "kind" | "from" | "to">,
  { onLedger, customer, few }: Awaited<ReturnType<typeof conditions>>,
  now: Date,
): Promise<LedgerTotals> {
  let sums: Sums;
  if (!customer) sums = await ledgerTotalsByDay(db, filter, now);
  else {
    let matched = few
      ? db.selectFrom("coin_ledger").where(oneOf("coin_ledger.user_id", few))
      : withOwner(db, "coin_ledger").where(accountLike(customer, "email"));
    for (const condition of onLedger) matched = matched.where(condition);
    const rows = few
      ? matched.select("coin_ledger.amount_cents")
      : matched.select("coin_ledger.amount_cents").limit(LEDGER_TOTALS_LIMIT + 1);
    sums = toSums(
      await db
        .selectFrom(rows.as("m"))
        .select(sumColumns(sql`m.amount_cents`))
        .executeTakeFirst(),
    );
    if (!few && sums.entries > LEDGER_TOTALS_LIMIT)
      return { capped: true, entries: LEDGER_TOTALS_LIMIT };
  }
  return {
    capped: false,
    entries: sums.entries,
    netCents: sums.credits + sums.debits,
    creditsCents: sums.credits,
    debitsCents: sums.debits,
  };
}

/**
 * Every customer's coin ledger for admins (/admin/transactions), newest first, filtered and paged on the
 * server, with the totals of everything the filter matches (not only the page shown) up to
 * LEDGER_TOTALS_LIMIT entries.
 */
export async function listLedgerForAdmin(
  db: Db,
  filter: LedgerReportFilter,
  now: Date = new Date(),
) {
  const filters = await conditions(db, filter);
  const { onLedger, customer, few } = filters;
  let query = withOwner(db, "coin_ledger").leftJoin(
    "users as actor",
    "actor.id",
    "coin_ledger.actor_id",
  );
  for (const condition of onLedger) query = query.where(condition);
  if (few) query = query.where(oneOf("coin_ledger.user_id", few));
  else if (customer && isPostgres(db)) query = query.where(accountLike(customer, "email"));
  else if (customer)
    // A text many accounts share, on SQLite: each ledger row, read newest first, has its account's email
    // checked, which fills a page within a few hundred rows. As a join condition, SQLite would first read
    // every account to build a filter (30 ms at 100,000 accounts). PostgreSQL plans the join well itself.
    query = query.where(
      containsAny(["(select u.email from users as u where u.id = coin_ledger.user_id)"], customer),
    );

  const [{ rows, hasMore }, totals] = await Promise.all([
    fetchPage(
      query
        .select([
          "coin_ledger.id",
          "coin_ledger.created_at",
          "coin_ledger.user_id",
          "coin_ledger.amount_cents",
          "coin_ledger.balance_after_cents",
          "coin_ledger.kind",
          "coin_ledger.reason",
          "coin_ledger.reason_key",
          "coin_ledger.reason_params",
          "coin_ledger.order_id",
          "coin_ledger.hosting_service_id",
          "users.name as user_name",
          "users.email as user_email",
          "actor.email as actor_email",
        ])
        .orderBy("coin_ledger.id", "desc"),
      pageWindow(filter, LEDGER_PAGE_SIZE_ADMIN),
    ),
    ledgerTotals(db, filter, filters, now),
  ]);
  return {
    entries: rows.map((row): LedgerReportRow => ({
      id: Number(row.id),
      at: row.created_at,
      userId: row.user_id,
      userName: row.user_name,
      userEmail: row.user_email,
      amountCents: row.amount_cents,
      balanceAfterCents: row.balance_after_cents,
      kind: row.kind,
      ...storedLedgerReason(row),
      orderId: row.order_id,
      hostingServiceId: row.hosting_service_id,
      actorEmail: row.actor_email,
    })),
    hasMore,
    totals,
  };
}
