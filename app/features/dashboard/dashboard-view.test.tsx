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
  it("call only the open tab the current page, though every tab is /dashboard", async () => {
    for (const [url, tab] of [
      ["/dashboard?tab=billing", "billing"],
      ["/dashboard", "overview"],
    ] as const) {
      const html = await render(url, tab);
      const links = [...html.matchAll(/<a [^>]*href="\/dashboard\?tab=(\w+)"[^>]*>/g)];
      expect(links.map((link) => link[1])).toEqual([...DASHBOARD_TABS]);
      const current = links.filter((link) => link[0].includes('aria-current="page"'));
      expect(
        current.map((link) => link[1]),
        url,
      ).toEqual([tab]);
    }
  });
});
