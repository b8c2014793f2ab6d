import { MemoryRouter } from "react-router";
import { describe, expect, it } from "vitest";
import { renderHtml } from "../../../tests/support/render-html";
import { DASHBOARD_TABS } from "~/domain/customer-dashboard/customer-dashboard";
import { DashboardShell } from "./dashboard-view";

const cards = { activeServices: 2, domains: 0, openTickets: 1, accountCreditCents: 450 };

/** The shell as the server sends it, on the page the router is at. */
function render(url: string, tab: string) {
  return renderHtml(
    <MemoryRouter initialEntries={[url]}>
      <DashboardShell name="Ann" tab={tab} cards={cards} locale="en">
        <p>content</p>
      </DashboardShell>
    </MemoryRouter>,
  );
}

describe("DashboardShell's tabs", () => {
  it("link each tab to its own route and call only the open one the current page", async () => {
    for (const [url, tab] of [
      ["/dashboard/billing", "billing"],
      ["/dashboard/services?page=2", "services"],
      ["/dashboard", "overview"],
    ] as const) {
      const html = await render(url, tab);
      const links = [...html.matchAll(/<a [^>]*href="\/dashboard(?:\/(\w+))?"[^>]*>/g)];
      expect(links.map((link) => link[1] ?? "overview")).toEqual([...DASHBOARD_TABS]);
      const current = links.filter((link) => link[0].includes('aria-current="page"'));
      expect(
        current.map((link) => link[1] ?? "overview"),
        url,
      ).toEqual([tab]);
    }
  });
});
