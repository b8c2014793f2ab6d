import { createRoutesStub } from "react-router";
import { describe, expect, it } from "vitest";
import type { HostingService } from "~/domain/hosting-services/hosting-services";
import { renderHtml } from "../../../tests/support/render-html";
import { hostingService } from "../../../tests/support/service-fixtures";
import { ClientSummaryPanel } from "./client-detail-summary";

const service = (id: number, status: HostingService["status"], expiresAt: string) =>
  hostingService({ id, status, expiresAt });

/** The sidebar's text as the server sends it, for `services` read at the loader's moment `now`. */
async function sidebarText(services: HostingService[], now: string) {
  const Stub = createRoutesStub([
    {
      path: "/",
      Component: () => (
        <ClientSummaryPanel
          userId="u1"
          locale="en"
          now={now}
          client={{
            counts: { activeServices: 1, orders: 0, pendingOrders: 0, openTickets: 0 },
            services: { rows: services, hasMore: false },
            orders: { rows: [], hasMore: false },
            ledger: { rows: [], hasMore: false },
          }}
        />
      ),
    },
  ]);
  return (await renderHtml(<Stub initialEntries={["/"]} />)).replace(/<[^>]+>/g, " ");
}

describe("the admin's sidebar about a ticket's customer", () => {
  it("says a past expiry expired and a coming one expires", async () => {
    const text = await sidebarText(
      [
        service(1, "suspended", "2020-03-01T12:00:00.000Z"),
        service(2, "active", "2099-05-01T12:00:00.000Z"),
      ],
      "2026-01-01T12:00:00.000Z",
    );
    expect(text).toContain("Expired 1 Mar 2020");
    expect(text).toContain("Expires 1 May 2099");
    expect(text).not.toContain("Expires 1 Mar 2020");
  });

  // An expiry on the other side of the loader's moment than of the real clock: a sidebar that read the
  // clock as it renders (and so could say otherwise when the browser hydrates it) fails here.
  it("reads each expiry against the loader's moment, not the clock", async () => {
    const passed = await sidebarText(
      [service(1, "active", "2099-05-01T12:00:00.000Z")],
      "2099-05-02T12:00:00.000Z",
    );
    expect(passed).toContain("Expired 1 May 2099");
    expect(passed).not.toContain("Expires");
    expect(passed).not.toContain(" Active ");
    const coming = await sidebarText(
      [service(1, "active", "2020-03-01T12:00:00.000Z")],
      "2020-02-01T12:00:00.000Z",
    );
    expect(coming).toContain("Expires 1 Mar 2020");
    expect(coming).toContain(" Active ");
    expect(coming).not.toContain("Expired");
  });
});
