import { CompiledQuery, sql } from "kysely";
import { beforeAll, expect, it } from "vitest";
import { adminAddService, deleteService } from "~/domain/hosting-services/admin-changes.server";
import { approveOrder, rejectOrder } from "~/domain/orders/orders.server";
import { recordRefund } from "~/domain/invoices/credit-notes.server";
import {
  adminId,
  customerWithCoins,
  customerWithRunningService,
  expectLedgerIntact,
  placedOrder,
  productId,
  renewWithNewKey,
} from "../../../tests/support/money-fixtures";
import { describeEachDatabase } from "../../../tests/support/test-database";
import {
  REPORT_TYPES,
  reportWindow,
  SPENDING_LEDGER_KINDS,
  type MonthlyReport,
  type ReportType,
} from "./reports";
import {
  coinsPerMonthQuery,
  exportMonthlyReportCsv,
  loadMonthlyReport,
  ordersPerMonthQuery,
} from "./reports.server";

type Db = Parameters<typeof ordersPerMonthQuery>[0];

const NOW = new Date("2026-03-15T10:00:00.000Z");

function cell(report: MonthlyReport, month: string, type: ReportType | "total") {
  const row = report.rows.find((r) => r.month === month);
  if (!row) throw new Error(`no month ${month}`);
  if (type === "total") return row.total;
  const index = report.types.indexOf(type);
  if (index < 0) throw new Error(`type ${type} not shown`);
  return row.byType[index]!;
}

// A known history, placed through the real use-cases and then moved to the dates it is about (the
// ledger's amounts and balances stay as the use-cases wrote them; only the clocks move).
describeEachDatabase("monthly report", (app, dialect) => {
  let customer: string;

  async function order(slug: string, at: string) {
    const { id } = await placedOrder(app(), customer, { productId: await productId(app(), slug) });
    await app().db.updateTable("orders").set({ created_at: at }).where("id", "=", id).execute();
    await app()
      .db.updateTable("coin_ledger")
      .set({ created_at: at })
      .where("order_id", "=", id)
      .where("kind", "=", "order_payment")
      .execute();
    return id;
  }

  async function renew(serviceId: number, at: string) {
    const result = await renewWithNewKey(app(), customer, serviceId);
    if (!result.ok) throw new Error(result.error);
    const latest = await app()
      .db.selectFrom("coin_ledger")
      .select((eb) => eb.fn.max("id").as("id"))
      .where("hosting_service_id", "=", serviceId)
      .where("kind", "=", "renewal")
      .executeTakeFirstOrThrow();
    await app()
      .db.updateTable("coin_ledger")
      .set({ created_at: at })
      .where("id", "=", Number(latest.id))
      .execute();
  }

  beforeAll(async () => {
    const admin = await adminId(app());
    customer = await customerWithCoins(app(), 100_000);

    // January's last millisecond (UTC): SA-MP Starter, €2.50, approved.
    const samp = await order("samp-starter", "2026-01-31T23:59:59.999Z");
    const approved = await approveOrder(app().db, { orderId: samp, actorId: admin });
    if (!approved.ok) throw new Error(approved.error);
    // February's first millisecond: VPS Entry, €7.00, approved later.
    const vps = await order("vps-entry", "2026-02-01T00:00:00.000Z");
    const vpsApproved = await approveOrder(app().db, { orderId: vps, actorId: admin });
    if (!vpsApproved.ok) throw new Error(vpsApproved.error);
    // MTA Starter, €3.00, placed in February, rejected and refunded in March.
    const mta = await order("mta-starter", "2026-02-10T12:00:00.000Z");
    const rejected = await rejectOrder(app().db, { orderId: mta, actorId: admin, reason: "No" });
    if (!rejected.ok) throw new Error(rejected.error);
    await app()
      .db.updateTable("coin_ledger")
      .set({ created_at: "2026-03-02T08:00:00.000Z" })
      .where("order_id", "=", mta)
      .where("kind", "=", "order_refund")
      .execute();
    // Game Basic, €3.99: one just before the window, one at its first instant, one after it.
    await order("game-basic", "2025-03-31T23:59:59.999Z");
    await order("game-basic", "2025-04-01T00:00:00.000Z");
    await order("game-basic", "2026-04-01T00:00:00.000Z");

    // Renewals: the SA-MP service in March (€2.50); a service added by hand without a plan (€5.00,
    // February); the VPS (€7.00, March), whose service is deleted afterwards.
    await renew(approved.order.hostingServiceId!, "2026-03-01T00:00:00.000Z");
    const manual = await adminAddService(app().db, {
      actorId: admin,
      userId: customer,
      name: "Custom box",
      priceCents: 500,
      billingCycle: "monthly",
    });
    if (!manual.ok) throw new Error(manual.error);
    await renew(manual.service.id, "2026-02-20T00:00:00.000Z");
    await renew(vpsApproved.order.hostingServiceId!, "2026-03-05T00:00:00.000Z");
    await deleteService(app().db, {
      actorId: admin,
      serviceId: vpsApproved.order.hostingServiceId!,
    });
    await expectLedgerIntact(app());
  });

  it("counts pending and approved orders by the UTC month they were placed, refunds where they happened", async () => {
    const report = await loadMonthlyReport(app().db, { now: NOW });
    expect(report.months).toHaveLength(12);
    expect(report.months[0]).toBe("2025-04");
    expect(report.months[11]).toBe("2026-03");
    expect(report.types).toEqual(REPORT_TYPES);

    // The window's first instant counts; the instant before it and the month after it do not.
    expect(cell(report, "2025-04", "game")).toEqual({ orders: 1, coinsCents: 399 });
    // The last millisecond of January is January; the next one is February.
    expect(cell(report, "2026-01", "samp")).toEqual({ orders: 1, coinsCents: 250 });
    expect(cell(report, "2026-01", "total")).toEqual({ orders: 1, coinsCents: 250 });
    expect(cell(report, "2026-02", "vps")).toEqual({ orders: 1, coinsCents: 700 });
    // Rejected: no order; paid in February, refunded in March.
    expect(cell(report, "2026-02", "mta")).toEqual({ orders: 0, coinsCents: 300 });
    expect(cell(report, "2026-03", "mta")).toEqual({ orders: 0, coinsCents: -300 });
    // Renewals: the service's type; a service without one, or deleted since, is "other".
    expect(cell(report, "2026-03", "samp")).toEqual({ orders: 0, coinsCents: 250 });
    expect(cell(report, "2026-02", "other")).toEqual({ orders: 0, coinsCents: 500 });
    expect(cell(report, "2026-03", "other")).toEqual({ orders: 0, coinsCents: 700 });
    expect(cell(report, "2026-03", "vps")).toEqual({ orders: 0, coinsCents: 0 });
    expect(cell(report, "2026-02", "total")).toEqual({ orders: 1, coinsCents: 1500 });
    expect(cell(report, "2026-03", "total")).toEqual({ orders: 0, coinsCents: 650 });

    // Months with nothing are zeros.
    for (const month of report.months.slice(1, 9))
      expect(cell(report, month, "total"), month).toEqual({ orders: 0, coinsCents: 0 });

    expect(report.totals.total).toEqual({ orders: 3, coinsCents: 2799 });
    expect(report.totals.byType).toEqual([
      { orders: 1, coinsCents: 500 },
      { orders: 0, coinsCents: 0 },
      { orders: 1, coinsCents: 700 },
      { orders: 1, coinsCents: 399 },
      { orders: 0, coinsCents: 1200 },
    ]);
  });

  it("agrees with the ledger: the coins spent are what its rows of those kinds add up to", async () => {
    const report = await loadMonthlyReport(app().db, { now: NOW });
    const ledger = await app()
      .db.selectFrom("coin_ledger")
      .select(sql<number>`coalesce(sum(amount_cents), 0)`.as("sum"))
      .where("kind", "in", SPENDING_LEDGER_KINDS)
      .where("created_at", ">=", report.from)
      .where("created_at", "<", report.to)
      .executeTakeFirstOrThrow();
    expect(report.totals.total.coinsCents).toBe(-Number(ledger.sum));
  });

  it("counts a refunded renewal's coins against its service's type, not as another type's", async () => {
    // Today, outside the fixed window above: an SA-MP order, its renewal, and the renewal refunded.
    const { user, serviceId } = await customerWithRunningService(app(), 100_000);
    await renewWithNewKey(app(), user, serviceId);
    const renewal = await app()
      .db.selectFrom("invoices")
      .select("number")
      .where("hosting_service_id", "=", serviceId)
      .where("kind", "=", "invoice")
      .executeTakeFirstOrThrow();
    const refunded = await recordRefund(app().db, {
      number: renewal.number,
      method: "coins",
      reason: "Renewed by mistake",
      actorId: await adminId(app()),
    });
    if (!refunded.ok) throw new Error(refunded.error);
    const now = new Date();
    const report = await loadMonthlyReport(app().db, { now });
    const month = now.toISOString().slice(0, 7);
    // The order's 2.50 stays spent; the renewal's 2.50 came back.
    expect(cell(report, month, "samp")).toEqual({ orders: 1, coinsCents: 250 });
    expect(cell(report, month, "other")).toEqual({ orders: 0, coinsCents: 0 });
  });

  it("moves on with the clock: a month later, April's order is in and April 2025 is out", async () => {
    const report = await loadMonthlyReport(app().db, { now: new Date("2026-04-01T00:00:00.000Z") });
    expect(report.months[0]).toBe("2025-05");
    expect(cell(report, "2026-04", "game")).toEqual({ orders: 1, coinsCents: 399 });
    expect(report.totals.total.orders).toBe(3);
  });

  it("writes the CSV from the same figures", async () => {
    const csv = await exportMonthlyReportCsv(app().db, { now: NOW });
    expect(csv.filename).toBe("hostfront-report-2026-03-15.csv");
    expect(csv.body.startsWith("\uFEFFmonth,product_type,orders,coins_spent_eur\r\n")).toBe(true);
    const lines = csv.body.slice(1).trimEnd().split("\r\n");
    expect(lines).toHaveLength(1 + 12 * 5);
    expect(lines).toContain("2026-01,samp,1,2.50");
    expect(lines).toContain("2026-02,mta,0,3.00");
    expect(lines).toContain("2026-03,mta,0,-3.00");
    expect(lines).toContain("2026-03,other,0,7.00");
    expect(lines).toContain("2025-09,vps,0,0.00");
  });

  it("uses indexes for the date ranges", async () => {
    const { from, to } = reportWindow(NOW);
    // The database's own plan for the queries the report runs.
    const plan = async (query: (db: Db) => { compile(): CompiledQuery }) => {
      if (dialect === "sqlite") {
        const compiled = query(app().db).compile();
        const result = await app().db.executeQuery<{ detail: string }>(
          CompiledQuery.raw(`explain query plan ${compiled.sql}`, [...compiled.parameters]),
        );
        return result.rows.map((row) => row.detail).join("\n");
      }
      // The few rows of this suite are read faster whole, so PostgreSQL would rightly scan them all;
      // with sequential scans priced out for this transaction only, the plan shows whether an index
      // serves the query's conditions at all.
      return app()
        .db.transaction()
        .execute(async (trx) => {
          await sql`set local enable_seqscan = off`.execute(trx);
          const compiled = query(trx).compile();
          const result = await trx.executeQuery<{ "QUERY PLAN": string }>(
            CompiledQuery.raw(`explain ${compiled.sql}`, [...compiled.parameters]),
          );
          return result.rows.map((row) => row["QUERY PLAN"]).join("\n");
        });
    };
    const orders = await plan((db) => ordersPerMonthQuery(db, from, to));
    const coins = await plan((db) => coinsPerMonthQuery(db, from, to));
    if (dialect === "sqlite") {
      expect(orders).toMatch(
        /orders USING INDEX orders_status_created_idx \(status=\? AND created_at>\? AND created_at<\?\)/,
      );
      expect(coins).toMatch(
        /coin_ledger USING INDEX coin_ledger_kind_created_idx \(kind=\? AND created_at>\? AND created_at<\?\)/,
      );
      return;
    }
    const range =
      /\(created_at >= '[^']+'::timestamp with time zone\) AND \(created_at < '[^']+'::timestamp with time zone\)/;
    expect(orders).not.toMatch(/Seq Scan/);
    expect(orders).toMatch(
      new RegExp(
        `Index Scan using orders_status_created_idx on orders .*\\n\\s+Index Cond: \\(\\(status = ANY .*\\) AND ${range.source}\\)`,
      ),
    );
    // At this size PostgreSQL reads the ledger through its created_at index (coin_ledger_created_idx) or
    // the (kind, created_at) one: either way the date range is an index condition, not a filter.
    expect(coins).not.toMatch(/Seq Scan/);
    expect(coins).toMatch(
      new RegExp(
        `Index Scan (using|on) coin_ledger_(kind_)?created_idx.*\\n\\s+Index Cond: \\(.*${range.source}`,
      ),
    );
  });

  if (dialect === "postgres") {
    it("keeps months in UTC when the session's time zone is elsewhere", async () => {
      const report = await app()
        .db.transaction()
        .execute(async (trx) => {
          // UTC+14: January's last millisecond is already the afternoon of 1 February there.
          await sql`set local time zone 'Pacific/Kiritimati'`.execute(trx);
          return loadMonthlyReport(trx, { now: NOW });
        });
      expect(cell(report, "2026-01", "samp")).toEqual({ orders: 1, coinsCents: 250 });
      expect(cell(report, "2026-02", "total")).toEqual({ orders: 1, coinsCents: 1500 });
    });
  }
});
