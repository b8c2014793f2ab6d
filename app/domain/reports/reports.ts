import { PRODUCT_TYPES } from "~/domain/catalogue/catalogue";
import type { LedgerKind } from "~/domain/coins/coins";
import type { OrderStatus } from "~/domain/orders/orders";
import type { PaymentCurrency } from "~/domain/payments/payment-methods";
import { csvDate, csvEuros, toCsv, type CsvCell } from "~/lib/csv";
import { labelKeys } from "~/lib/label-keys";

// The monthly report (/admin/reports). What counts is defined here once, and in docs/admin.md.

/** The report covers this many months, the current one included. */
export const REPORT_MONTHS = 12;

/**
 * Orders that count: pending and approved ones. Both were paid from coins when placed; a rejected order
 * was refunded, so it is no sale.
 */
export const COUNTED_ORDER_STATUSES = [
  "pending",
  "approved",
] as const satisfies readonly OrderStatus[];

/**
 * Ledger rows that make up coins spent: payments for orders, renewals and changes of plan, minus refunds
 * of rejected orders and what a change to a cheaper plan gave back. Coins bought (coin purchases) or
 * corrected (admin adjustments) are not spending.
 */
export const SPENDING_LEDGER_KINDS = [
  "order_payment",
  "order_refund",
  "renewal",
  "plan_change",
] as const satisfies readonly LedgerKind[];

/**
 * Ledger rows that are money received: coins bought, that is top-ups an admin approved and coins sold
 * through a support ticket (each with its payment receipt). Not money: what an admin adds or removes
 * (the first admin's opening coins among them), balances imported from the old storefront, refunds.
 */
export const MONEY_IN_LEDGER_KINDS = ["coin_purchase"] as const satisfies readonly LedgerKind[];

/** Money received in one month by one payment method, in the method's currency (approved top-ups). */
export interface CashReceived {
  month: string;
  methodId: number;
  methodName: string;
  currency: PaymentCurrency;
  /** Minor units of `currency`: what the approved requests asked to be sent (fees included). */
  totalMinor: number;
  requests: number;
  /** The coins those approvals credited. */
  coins: number;
}

/** What came in over the report's months: coins bought, and cash per method and month. */
export interface MoneyReceived {
  /** Coins credited for money received (MONEY_IN_LEDGER_KINDS), in cents. */
  coinsBoughtCents: number;
  /** Newest month first, then by method's name; only months and methods where something came in. */
  cash: CashReceived[];
  /** Each method's and currency's total over the months, by method's name. */
  cashTotals: Omit<CashReceived, "month">[];
}

/** Orders the database's groups (newest month first) and adds up each method's over the months. */
export function buildMoneyReceived(coinsBoughtCents: number, cash: CashReceived[]): MoneyReceived {
  const byName = (a: { methodName: string; currency: string }, b: typeof a) =>
    a.methodName.localeCompare(b.methodName) || a.currency.localeCompare(b.currency);
  const sorted = [...cash].sort((a, b) => b.month.localeCompare(a.month) || byName(a, b));
  const totals = new Map<string, Omit<CashReceived, "month">>();
  for (const { month: _month, ...row } of sorted) {
    const key = `${row.methodId}:${row.currency}`;
    const total = totals.get(key);
    if (!total) totals.set(key, { ...row });
    else {
      total.totalMinor += row.totalMinor;
      total.requests += row.requests;
      total.coins += row.coins;
    }
  }
  return {
    coinsBoughtCents,
    cash: sorted,
    cashTotals: [...totals.values()].sort(byName),
  };
}

/**
 * The catalogue's product types, plus "other" for money that cannot be tied to one: the renewal of a
 * service an admin added without a product, or of a service deleted since.
 */
export const REPORT_TYPES = [...PRODUCT_TYPES, "other"] as const;
export type ReportType = (typeof REPORT_TYPES)[number];

/** Catalogue keys (admin-reports namespace), one family (docs/i18n.md, ADR 26). */
export const REPORT_TYPE_LABELS = labelKeys("admin-reports", "types", REPORT_TYPES);

export function reportType(type: string | null): ReportType {
  return (PRODUCT_TYPES as readonly string[]).includes(type ?? "") ? (type as ReportType) : "other";
}

/** The UTC month of an instant: "2026-11". */
export function monthKey(date: Date): string {
  return date.toISOString().slice(0, 7);
}

function monthStart(year: number, monthIndex: number): Date {
  return new Date(Date.UTC(year, monthIndex, 1));
}

/**
 * The months of the report, oldest first, ending with the month of `now` (UTC), and the instants that
 * bound them: from the first moment of the first month (included) to the first moment after the last
 * (excluded), as ISO strings that compare right against stored timestamps on both dialects.
 */
export function reportWindow(now: Date, count = REPORT_MONTHS) {
  const year = now.getUTCFullYear();
  const month = now.getUTCMonth();
  const months = Array.from({ length: count }, (_, i) =>
    monthKey(monthStart(year, month - (count - 1) + i)),
  );
  return {
    months,
    from: monthStart(year, month - (count - 1)).toISOString(),
    to: monthStart(year, month + 1).toISOString(),
  };
}
export type ReportWindow = ReturnType<typeof reportWindow>;

/** One group of the database's answer: a month, a product type (as stored) and its figures. */
export interface MonthlyFigure {
  month: string;
  type: string | null;
  orders: number;
  coinsCents: number;
}

export interface ReportCell {
  orders: number;
  coinsCents: number;
}

export interface MonthlyReport {
  months: string[];
  /** The types shown: the catalogue's four always, "other" only when something fell into it. */
  types: ReportType[];
  /** One row per month, oldest first; `byType` follows `types`. Empty months are zeros. */
  rows: { month: string; byType: ReportCell[]; total: ReportCell }[];
  totals: { byType: ReportCell[]; total: ReportCell };
  from: string;
  to: string;
}

const zero = (): ReportCell => ({ orders: 0, coinsCents: 0 });

function add(into: ReportCell, figure: ReportCell) {
  into.orders += figure.orders;
  into.coinsCents += figure.coinsCents;
}

/** Lays the database's groups out on the full grid of months and types, zeros where nothing happened. */
export function buildMonthlyReport(window: ReportWindow, figures: MonthlyFigure[]): MonthlyReport {
  const grid = new Map<string, Map<ReportType, ReportCell>>(
    window.months.map((month) => [month, new Map(REPORT_TYPES.map((type) => [type, zero()]))]),
  );
  for (const figure of figures) {
    const cell = grid.get(figure.month)?.get(reportType(figure.type));
    if (cell) add(cell, figure);
  }
  const usedOther = [...grid.values()].some((byType) => {
    const other = byType.get("other")!;
    return other.orders !== 0 || other.coinsCents !== 0;
  });
  const types = REPORT_TYPES.filter((type) => type !== "other" || usedOther);
  const totals = { byType: types.map(zero), total: zero() };
  const rows = window.months.map((month) => {
    const byType = types.map((type) => ({ ...grid.get(month)!.get(type)! }));
    const total = zero();
    byType.forEach((cell, i) => {
      add(total, cell);
      add(totals.byType[i]!, cell);
    });
    add(totals.total, total);
    return { month, byType, total };
  });
  return { months: window.months, types, rows, totals, from: window.from, to: window.to };
}

export const REPORT_CSV_HEADER = ["month", "product_type", "orders", "coins_spent_eur"];

/** The report as a CSV: one line per month and type (oldest month first), zeros included. */
export function monthlyReportCsv(report: MonthlyReport, now: Date) {
  const rows: CsvCell[][] = report.rows.flatMap((row) =>
    report.types.map((type, i) => [
      row.month,
      type,
      row.byType[i]!.orders,
      csvEuros(row.byType[i]!.coinsCents),
    ]),
  );
  return {
    filename: `hostfront-report-${csvDate(now)}.csv`,
    body: toCsv(REPORT_CSV_HEADER, rows),
  };
}
