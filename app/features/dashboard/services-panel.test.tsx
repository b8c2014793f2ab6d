import { createRoutesStub } from "react-router";
import { describe, expect, it } from "vitest";
import { renewalQuote } from "~/domain/hosting-services/hosting-services";
import { renderHtml } from "../../../tests/support/render-html";
import { ServicesPanel } from "./services-panel";

const service = {
  id: 7,
  name: "SAMP Premium",
  serverName: "Los Santos RP",
  billingCycle: "monthly" as const,
  cyclePriceCents: 1350,
  expiresAt: "2026-04-10T12:00:00.000Z",
};

/** The services tab with a renewal being confirmed, as the server sends it. */
function render(now: string) {
  const quote = renewalQuote(service, 2000, new Date(now));
  const Stub = createRoutesStub([
    {
      path: "/dashboard",
      Component: () => (
        <ServicesPanel
          services={[]}
          waitingOrders={[]}
          renewal={{ ok: true, quote }}
          renewKey="k"
          locale="en"
        />
      ),
    },
  ]);
  return renderHtml(<Stub initialEntries={["/dashboard?tab=services&renew=7"]} />);
}

/** The confirmation's terms and their values, in order. */
function terms(html: string) {
  return [...html.matchAll(/<dt[^>]*>([^<]*)<\/dt><dd[^>]*>(.*?)<\/dd>/g)].map(
    ([, term, value]) => `${term}: ${(value ?? "").replace(/<[^>]+>/g, "")}`,
  );
}

describe("the renewal confirmation", () => {
  it("names a coming expiry the current one", async () => {
    const lines = terms(await render("2026-04-01T09:00:00.000Z"));
    expect(lines).toContain("Current expiry: 10 April 2026");
    expect(lines).toContain("New expiry: 10 May 2026");
  });

  it("says when an expired service expired, and the term it renews from today", async () => {
    const lines = terms(await render("2026-04-20T09:00:00.000Z"));
    expect(lines).toContain("Expired on: 10 April 2026");
    expect(lines).not.toContain("Current expiry: 10 April 2026");
    expect(lines).toContain("New expiry: 20 May 2026");
  });
});
