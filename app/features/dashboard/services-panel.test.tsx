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

type Props = Parameters<typeof ServicesPanel>[0];

/** The lifecycle's default days, switched off unless a test turns it on. */
const LIFECYCLE_OFF = { enabled: false, graceDays: 2, terminationDays: 14 };

/** The services tab as the server sends it; `now` is the loader's moment. */
function renderPanel(
  props: Pick<Props, "services" | "renewal" | "now"> &
    Partial<Pick<Props, "lifecycle" | "timeZone" | "locale">>,
) {
  const Stub = createRoutesStub([
    {
      path: "/dashboard",
      Component: () => (
        <ServicesPanel
          waitingOrders={[]}
          renewKey="k"
          locale="en"
          lifecycle={LIFECYCLE_OFF}
          timeZone="UTC"
          {...props}
        />
      ),
    },
  ]);
  return renderHtml(<Stub initialEntries={["/dashboard?tab=services&renew=7"]} />);
}

/** The services tab with a renewal being confirmed. */
function render(now: string) {
  return renderPanel({
    services: [],
    renewal: { ok: true, quote: renewalQuote(service, 2000, new Date(now)) },
    now,
  });
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

describe("the services list", () => {
  const row = (id: number, status: "active" | "suspended", expiresAt: string) => ({
    ...service,
    id,
    status,
    expiresAt,
    monthlyPriceCents: 1350,
    autoRenew: false,
    suspensionReason: status === "suspended" ? ("expired" as const) : null,
    panel: null,
  });

  it("says a past expiry expired and a coming one expires, whatever the status", async () => {
    const html = await renderPanel({
      services: [
        row(1, "active", "2020-03-01T12:00:00.000Z"),
        row(2, "suspended", "2020-04-01T12:00:00.000Z"),
        row(3, "active", "2099-05-01T12:00:00.000Z"),
      ],
      renewal: undefined,
      now: "2026-01-01T12:00:00.000Z",
    });
    const text = html.replace(/<[^>]+>/g, "");
    expect(text).toContain("Expired 1 Mar 2020");
    expect(text).toContain("Expired 1 Apr 2020");
    expect(text).toContain("Expires 1 May 2099");
    expect(text).not.toMatch(/Expires 1 (Mar|Apr) 2020/);
  });

  // An expiry on the other side of the loader's moment than of the real clock: a list that read the
  // clock as it renders (and so could say otherwise when the browser hydrates it) fails here.
  it("reads each expiry against the loader's moment, not the clock", async () => {
    const text = async (expiresAt: string, now: string) =>
      (
        await renderPanel({ services: [row(1, "active", expiresAt)], renewal: undefined, now })
      ).replace(/<[^>]+>/g, " ");
    const passed = await text("2099-05-01T12:00:00.000Z", "2099-05-02T12:00:00.000Z");
    expect(passed).toContain("Expired 1 May 2099");
    expect(passed).not.toContain("Expires");
    expect(passed).not.toContain("Active");
    const coming = await text("2020-03-01T12:00:00.000Z", "2020-02-01T12:00:00.000Z");
    expect(coming).toContain("Expires 1 Mar 2020");
    expect(coming).toContain(" Active ");
    expect(coming).not.toContain("Expired");
  });
});
