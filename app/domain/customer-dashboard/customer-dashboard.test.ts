import { describe, expect, it } from "vitest";
import {
  DASHBOARD_TABS,
  dashboardTabOf,
  dashboardTabPath,
  tabQueryAddress,
} from "./customer-dashboard";

const address = (query: string) => tabQueryAddress(new URLSearchParams(query));

describe("the dashboard's tab addresses", () => {
  it("give each tab its own route, the overview /dashboard itself, and read it back", () => {
    expect(DASHBOARD_TABS.map(dashboardTabPath)).toEqual([
      "/dashboard",
      "/dashboard/services",
      "/dashboard/domains",
      "/dashboard/billing",
      "/dashboard/support",
      "/dashboard/account",
      "/dashboard/referrals",
    ]);
    for (const tab of DASHBOARD_TABS) expect(dashboardTabOf(dashboardTabPath(tab))).toBe(tab);
    expect(dashboardTabOf("/dashboard/billing/")).toBe("billing");
    expect(dashboardTabOf("/Dashboard/Support")).toBe("support");
    expect(dashboardTabOf("/dashboard/top-up")).toBe("overview");
  });

  it("send each ?tab= address to its tab's route with the rest of its query", () => {
    expect(address("tab=overview")).toBe("/dashboard");
    expect(address("tab=services")).toBe("/dashboard/services");
    expect(address("tab=services&renew=7")).toBe("/dashboard/services?renew=7");
    expect(address("tab=domains")).toBe("/dashboard/domains");
    expect(address("tab=billing&invoices=2&before=40&page=3")).toBe(
      "/dashboard/billing?invoices=2&before=40&page=3",
    );
    expect(address("page=2&tab=support")).toBe("/dashboard/support?page=2");
    expect(address("tab=account&lang=fr")).toBe("/dashboard/account?lang=fr");
    // A tab no longer known was the overview, and still is.
    expect(address("tab=notifications&page=2")).toBe("/dashboard?page=2");
    expect(address("tab=")).toBe("/dashboard");
    expect(address("page=2")).toBeNull();
    expect(address("")).toBeNull();
  });
});
