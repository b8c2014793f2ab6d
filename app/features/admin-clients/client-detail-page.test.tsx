import { createRoutesStub } from "react-router";
import { describe, expect, it } from "vitest";
import type { ClientDetail } from "~/domain/clients/clients";
import { badgeTexts, renderHtml } from "../../../tests/support/render-html";
import { hostingService } from "../../../tests/support/service-fixtures";
import { ClientDetailPage } from "./client-detail-page";

const none = { rows: [], hasMore: false };

/** The badges of the page's services section, for one service read at the loader's moment `now`. */
async function serviceBadges(expiresAt: string, now: string) {
  const client: ClientDetail = {
    profile: {
      id: "u1",
      name: "Karim",
      email: "karim@example.com",
      locale: null,
      role: "customer",
      status: "active",
      coinBalanceCents: 0,
      createdAt: "2020-01-01T12:00:00.000Z",
      deletionRequestedAt: null,
      adminNote: null,
      twoFactorEnabled: false,
    },
    counts: { activeServices: 1, orders: 0, pendingOrders: 0, openTickets: 0 },
    services: { rows: [hostingService({ expiresAt })], hasMore: false },
    orders: none,
    tickets: none,
    invoices: none,
    topUps: none,
    mail: none,
    ledger: none,
    audit: none,
  };
  const Stub = createRoutesStub([
    {
      path: "/",
      Component: () => <ClientDetailPage client={client} own={false} locale="en" now={now} />,
    },
  ]);
  const html = await renderHtml(<Stub initialEntries={["/"]} />);
  const section = html.slice(html.indexOf('id="services"'), html.indexOf('id="orders"'));
  return badgeTexts(section);
}

describe("the client page's services", () => {
  // An expiry on the other side of the loader's moment than of the real clock: a badge that read the
  // clock as it renders (and so could differ when the browser hydrates it) fails here.
  it("reads each expiry against the loader's moment, not the clock", async () => {
    expect(await serviceBadges("2099-05-01T12:00:00.000Z", "2099-05-02T12:00:00.000Z")).toEqual([
      "Expired",
    ]);
    expect(await serviceBadges("2020-03-01T12:00:00.000Z", "2020-02-01T12:00:00.000Z")).toEqual([
      "Active",
    ]);
  });
});
