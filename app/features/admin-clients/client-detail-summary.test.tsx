import { createRoutesStub } from "react-router";
import { describe, expect, it } from "vitest";
import type { HostingService } from "~/domain/hosting-services/hosting-services";
import { renderHtml } from "../../../tests/support/render-html";
import { ClientSummaryPanel } from "./client-detail-summary";

const service = (id: number, status: HostingService["status"], expiresAt: string) =>
  ({
    id,
    userId: "u1",
    productId: 1,
    name: "SAMP Starter",
    serverName: "Karim RP",
    type: "samp",
    billingCycle: "monthly",
    monthlyPriceCents: 250,
    cyclePriceCents: 250,
    status,
    expiresAt,
    createdAt: "2020-01-01T12:00:00.000Z",
    autoRenew: false,
    suspensionReason: status === "suspended" ? "expired" : null,
    panel: null,
  }) satisfies HostingService;

describe("the admin's sidebar about a ticket's customer", () => {
  it("says a past expiry expired and a coming one expires", async () => {
    const Stub = createRoutesStub([
      {
        path: "/",
        Component: () => (
          <ClientSummaryPanel
            userId="u1"
            locale="en"
            client={{
              counts: { activeServices: 1, orders: 0, pendingOrders: 0, openTickets: 0 },
              services: {
                rows: [
                  service(1, "suspended", "2020-03-01T12:00:00.000Z"),
                  service(2, "active", "2099-05-01T12:00:00.000Z"),
                ],
                hasMore: false,
              },
              orders: { rows: [], hasMore: false },
              ledger: { rows: [], hasMore: false },
            }}
          />
        ),
      },
    ]);
    const text = (await renderHtml(<Stub initialEntries={["/"]} />)).replace(/<[^>]+>/g, "");
    expect(text).toContain("Expired 1 Mar 2020");
    expect(text).toContain("Expires 1 May 2099");
    expect(text).not.toContain("Expires 1 Mar 2020");
  });
});
