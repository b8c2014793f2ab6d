import { describe, expect, it } from "vitest";
import {
  buildMonthlyReport,
  monthKey,
  monthlyReportCsv,
  reportType,
  reportWindow,
} from "./reports";

describe("monthly report", () => {
  it("covers the 12 months up to the current one, in UTC", () => {
    const window = reportWindow(new Date("2026-03-15T10:00:00.000Z"));
    expect(window.months).toEqual([
      "2025-04",
      "2025-05",
      "2025-06",
      "2025-07",
      "2025-08",
      "2025-09",
      "2025-10",
      "2025-11",
      "2025-12",
      "2026-01",
      "2026-02",
      "2026-03",
    ]);
    expect(window.from).toBe("2025-04-01T00:00:00.000Z");
    expect(window.to).toBe("2026-04-01T00:00:00.000Z");
  });

  it("takes the month from UTC, whatever the clock's zone says", () => {
    // 23:59:59.999 UTC on 31 January is already February in Casablanca's summer and in Paris.
    expect(monthKey(new Date("2026-01-31T23:59:59.999Z"))).toBe("2026-01");
    expect(monthKey(new Date("2026-02-01T00:00:00.000Z"))).toBe("2026-02");
    expect(reportWindow(new Date("2026-12-31T23:59:59.999Z")).to).toBe("2027-01-01T00:00:00.000Z");
    expect(reportWindow(new Date("2027-01-01T00:00:00.000Z")).months.at(-1)).toBe("2027-01");
  });

  it("maps unknown and missing types to other", () => {
    expect(reportType("vps")).toBe("vps");
    expect(reportType(null)).toBe("other");
    expect(reportType("minecraft")).toBe("other");
  });

  it("fills the grid with zeros and adds up months and types", () => {
    const window = reportWindow(new Date("2026-03-15T10:00:00.000Z"));
    const report = buildMonthlyReport(window, [
      { month: "2026-01", type: "samp", orders: 2, coinsCents: 0 },
      { month: "2026-01", type: "samp", orders: 0, coinsCents: 500 },
      { month: "2026-03", type: "mta", orders: 0, coinsCents: -300 },
      { month: "2024-01", type: "vps", orders: 9, coinsCents: 9 },
    ]);
    expect(report.types).toEqual(["samp", "mta", "vps", "game"]);
    expect(report.rows).toHaveLength(12);
    expect(report.rows[0]).toEqual({
      month: "2025-04",
      byType: [0, 0, 0, 0].map(() => ({ orders: 0, coinsCents: 0 })),
      total: { orders: 0, coinsCents: 0 },
    });
    expect(report.rows[9]!.byType[0]).toEqual({ orders: 2, coinsCents: 500 });
    expect(report.rows[11]!.total).toEqual({ orders: 0, coinsCents: -300 });
    expect(report.totals.total).toEqual({ orders: 2, coinsCents: 200 });
    expect(report.totals.byType[1]).toEqual({ orders: 0, coinsCents: -300 });
  });

  it("shows other only when something fell into it", () => {
    const window = reportWindow(new Date("2026-03-15T10:00:00.000Z"));
    const report = buildMonthlyReport(window, [
      { month: "2026-02", type: null, orders: 0, coinsCents: 250 },
    ]);
    expect(report.types).toEqual(["samp", "mta", "vps", "game", "other"]);
    expect(report.rows[10]!.byType[4]).toEqual({ orders: 0, coinsCents: 250 });
  });

  it("writes a CSV line per month and type, euros with a dot", () => {
    const now = new Date("2026-03-15T10:00:00.000Z");
    const report = buildMonthlyReport(reportWindow(now), [
      { month: "2026-03", type: "vps", orders: 1, coinsCents: 1499 },
      { month: "2026-03", type: "mta", orders: 0, coinsCents: -300 },
    ]);
    const csv = monthlyReportCsv(report, now);
    expect(csv.filename).toBe("hostfront-report-2026-03-15.csv");
    const lines = csv.body.replace(/^\uFEFF/, "").split("\r\n");
    expect(lines[0]).toBe("month,product_type,orders,coins_spent_eur");
    expect(lines).toHaveLength(1 + 12 * 4 + 1);
    expect(lines[1]).toBe("2025-04,samp,0,0.00");
    expect(lines.slice(-5, -1)).toEqual([
      "2026-03,samp,0,0.00",
      "2026-03,mta,0,-3.00",
      "2026-03,vps,1,14.99",
      "2026-03,game,0,0.00",
    ]);
    expect(lines.at(-1)).toBe("");
  });
});
