import { PostgresAdapter, sql, type RawBuilder } from "kysely";
import type { Db } from "~/db/transaction";
import type { CancellationReasonCount } from "~/domain/hosting-services/cancellation";
import { loadCancellationReasons } from "./cancellation-reasons.server";
import { textsOf } from "~/domain/payments/payment-methods.server";
import { textIn, type PaymentCurrency } from "~/domain/payments/payment-methods";
import {
  buildMoneyReceived,
  buildMonthlyReport,
  COUNTED_ORDER_STATUSES,
  MONEY_IN_LEDGER_KINDS,
  monthlyReportCsv,
  reportWindow,
  SPENDING_LEDGER_KINDS,
  type MoneyReceived,
  type MonthlyFigure,
  type MonthlyReport,
} from "./reports";

/**
 * The UTC month ("2026-11") of a timestamp column, on either dialect. SQLite stores ISO-8601 text, which
 * strftime reads (the trailing Z included). PostgreSQL stores timestamptz, which to_char would format in
 * the session's time zone: `at time zone 'UTC'` pins it, so a server set to another zone still puts
 * 23:59:59 UTC on the last day of a month into that month. The format strings are literals, not
 * parameters, so the same expression in SELECT and GROUP BY is the same text to PostgreSQL.
 */
export function utcMonth(db: Db, column: string): RawBuilder<string> {
  return db.getExecutor().adapter instanceof PostgresAdapter
    ? sql<string>`to_char(${sql.ref(column)} at time zone 'UTC', 'YYYY-MM')`
    : sql<string>`strftime('%Y-%m', ${sql.ref(column)})`;
}

/**
 * Orders placed per month and product type (orders.product_type is the type as it was bought), in
 * [from, to). Exported with the next one so a test can ask the database how it runs them.
 */
export function ordersPerMonthQuery(db: Db, from: string, to: string) {
  const month = utcMonth(db, "orders.created_at");
  return db
    .selectFrom("orders")
    .select([month.as("month"), "orders.product_type as type", sql<number>`count(*)`.as("n")])
    .where("orders.status", "in", COUNTED_ORDER_STATUSES)
    .where("orders.created_at", ">=", from)
    .where("orders.created_at", "<", to)
    .groupBy([month, "orders.product_type"]);
}

async function ordersPerMonth(db: Db, from: string, to: string): Promise<MonthlyFigure[]> {
  const rows = await ordersPerMonthQuery(db, from, to).execute();
  return rows.map((row) => ({
    month: row.month,
    type: row.type,
    orders: Number(row.n),
    coinsCents: 0,
  }));
}

/**
 * Coins spent per month and product type, straight from the ledger: payments (negative) and refunds
 * (positive) of orders take the order's product type; renewals and changes of plan take their
 * service's type, and so does the refund of a renewal's invoice (an order_refund naming the service and
 * no order). The sign is
 * turned so spending is positive. A row whose order or service cannot be found (a deleted service) or
 * has no type (a service added by hand) comes back with a null type and is reported as "other", so the
 * report's total always equals the ledger's.
 */
export function coinsPerMonthQuery(db: Db, from: string, to: string) {
  const month = utcMonth(db, "coin_ledger.created_at");
  const type = sql<string | null>`coalesce(orders.product_type, hosting_services.type)`;
  return db
    .selectFrom("coin_ledger")
    .leftJoin("orders", (join) =>
      join
        .onRef("orders.id", "=", "coin_ledger.order_id")
        .on("coin_ledger.kind", "in", ["order_payment", "order_refund"]),
    )
    .leftJoin("hosting_services", (join) =>
      join
        .onRef("hosting_services.id", "=", "coin_ledger.hosting_service_id")
        .on("coin_ledger.kind", "in", ["renewal", "order_refund", "plan_change"]),
    )
    .select([
      month.as("month"),
      type.as("type"),
      sql<number>`0 - sum(coin_ledger.amount_cents)`.as("cents"),
    ])
    .where("coin_ledger.kind", "in", SPENDING_LEDGER_KINDS)
    .where("coin_ledger.created_at", ">=", from)
    .where("coin_ledger.created_at", "<", to)
    .groupBy([month, type]);
}

async function coinsPerMonth(db: Db, from: string, to: string): Promise<MonthlyFigure[]> {
  const rows = await coinsPerMonthQuery(db, from, to).execute();
  return rows.map((row) => ({
    month: row.month,
    type: row.type,
    orders: 0,
    coinsCents: Number(row.cents),
  }));
}

/**
 * Orders and coins spent per month (UTC) and product type for the last 12 months, the month of `now`
 * included. Both are aggregated by the database (grouped by month and type, over an indexed date range);
 * only the groups come back.
 */
export async function loadMonthlyReport(
  db: Db,
  { now = new Date() }: { now?: Date } = {},
): Promise<MonthlyReport> {
  const window = reportWindow(now);
  const [orders, coins] = await Promise.all([
    ordersPerMonth(db, window.from, window.to),
    coinsPerMonth(db, window.from, window.to),
  ]);
  return buildMonthlyReport(window, [...orders, ...coins]);
}

/** Coins bought (MONEY_IN_LEDGER_KINDS) in [from, to): the ledger's credits for money received. */
export function coinsBoughtQuery(db: Db, from: string, to: string) {
  return db
    .selectFrom("coin_ledger")
    .select(sql<number>`coalesce(sum(coin_ledger.amount_cents), 0)`.as("cents"))
    .where("coin_ledger.kind", "in", MONEY_IN_LEDGER_KINDS)
    .where("coin_ledger.created_at", ">=", from)
    .where("coin_ledger.created_at", "<", to);
}

/**
 * Cash received per month (of the approval, UTC), payment method and currency, in [from, to): the
 * approved top-ups' totals as the requests froze them in the method's currency, how many, and the
 * coins they credited.
 */
export function cashPerMonthQuery(db: Db, from: string, to: string) {
  const month = utcMonth(db, "top_up_requests.decided_at");
  return db
    .selectFrom("top_up_requests")
    .innerJoin("payment_methods", "payment_methods.id", "top_up_requests.payment_method_id")
    .select([
      month.as("month"),
      "top_up_requests.payment_method_id as method_id",
      "payment_methods.names",
      "top_up_requests.currency",
      sql<number>`sum(top_up_requests.total)`.as("total"),
      sql<number>`count(*)`.as("n"),
      sql<number>`sum(coalesce(top_up_requests.credited_coins, top_up_requests.coins))`.as("coins"),
    ])
    .where("top_up_requests.state", "=", "approved")
    .where("top_up_requests.decided_at", ">=", from)
    .where("top_up_requests.decided_at", "<", to)
    .groupBy([
      month,
      "top_up_requests.payment_method_id",
      "payment_methods.names",
      "top_up_requests.currency",
    ]);
}

/**
 * Money received over the report's 12 months: coins bought, and the cash of approved top-ups
 * per month and method in the method's own currency, its name in `locale`. Aggregated by the database.
 */
export async function loadMoneyReceived(
  db: Db,
  { now = new Date(), locale = "en" }: { now?: Date; locale?: string } = {},
): Promise<MoneyReceived> {
  const window = reportWindow(now);
  const [coins, cash] = await Promise.all([
    coinsBoughtQuery(db, window.from, window.to).executeTakeFirstOrThrow(),
    cashPerMonthQuery(db, window.from, window.to).execute(),
  ]);
  return buildMoneyReceived(
    Number(coins.cents),
    cash.map((row) => ({
      month: row.month,
      methodId: Number(row.method_id),
      methodName: textIn(textsOf(row.names), locale, "en"),
      currency: row.currency as PaymentCurrency,
      totalMinor: Number(row.total),
      requests: Number(row.n),
      coins: Number(row.coins),
    })),
  );
}

/** /admin/reports: the monthly report, the money received and the cancellations' reasons, over the same months. */
export async function loadReportsPage(
  db: Db,
  { now = new Date(), locale = "en" }: { now?: Date; locale?: string } = {},
): Promise<{ report: MonthlyReport; money: MoneyReceived; reasons: CancellationReasonCount[] }> {
  const [report, money, reasons] = await Promise.all([
    loadMonthlyReport(db, { now }),
    loadMoneyReceived(db, { now, locale }),
    loadCancellationReasons(db, reportWindow(now)),
  ]);
  return { report, money, reasons };
}

/** The same report as a CSV file (name and body). */
export async function exportMonthlyReportCsv(db: Db, { now = new Date() }: { now?: Date } = {}) {
  return monthlyReportCsv(await loadMonthlyReport(db, { now }), now);
}
