import { describe, expect, it } from "vitest";
import type { LifecyclePreview, LifecycleService } from "~/domain/lifecycle/lifecycle";
import { renderHtml } from "../../../tests/support/render-html";
import { LifecyclePreviewList } from "./lifecycle-group";

const service = (serviceId: number, expiresAt: string): LifecycleService => ({
  serviceId,
  userId: "u1",
  userEmail: "karim@example.com",
  name: "SAMP Starter",
  serverName: "Karim RP",
  expiresAt,
  priceCents: 250,
  billingCycle: "monthly",
  suspendedAt: null,
});

/** The preview's text, with `renew` and `suspend` as its services, previewed at `now`. */
async function previewText(
  services: Pick<LifecyclePreview["services"], "renew" | "suspend">,
  now: string,
) {
  const html = await renderHtml(
    <LifecyclePreviewList
      locale="en"
      preview={{
        enabled: true,
        now,
        counts: {
          reminded: 0,
          renewed: services.renew.length,
          renewalShort: 0,
          suspended: services.suspend.length,
          warned: 0,
          terminated: 0,
          ordersExpired: 0,
        },
        services: { remind: [], short: [], warn: [], terminate: [], ...services },
        orders: [],
      }}
    />,
  );
  return html.replace(/<[^>]+>/g, "");
}

describe("the lifecycle's preview", () => {
  it("says a past expiry expired and a coming one expires", async () => {
    const text = await previewText(
      {
        renew: [service(2, "2099-05-01T12:00:00.000Z")],
        suspend: [service(1, "2020-03-01T12:00:00.000Z")],
      },
      "2026-01-01T12:00:00.000Z",
    );
    expect(text).toContain("expired 1 Mar 2020");
    expect(text).toContain("expires 1 May 2099");
    expect(text).not.toContain("expires 1 Mar 2020");
  });

  // An expiry on the other side of the previewed moment than of the real clock: a list that read the
  // clock as it renders (and so could say otherwise when the browser hydrates it) fails here.
  it("reads each expiry against the previewed moment, not the clock", async () => {
    const passed = await previewText(
      { renew: [], suspend: [service(1, "2099-05-01T12:00:00.000Z")] },
      "2099-05-02T12:00:00.000Z",
    );
    expect(passed).toContain("expired 1 May 2099");
    expect(passed).not.toContain("expires");
    const coming = await previewText(
      { renew: [service(1, "2020-03-01T12:00:00.000Z")], suspend: [] },
      "2020-02-01T12:00:00.000Z",
    );
    expect(coming).toContain("expires 1 Mar 2020");
    expect(coming).not.toContain("expired");
  });
});
