import { describe, expect, it } from "vitest";
import type { LifecycleService } from "~/domain/lifecycle/lifecycle";
import { renderHtml } from "../../../tests/support/render-html";
import { LifecyclePreviewList } from "./settings-page";

const service = (serviceId: number, expiresAt: string): LifecycleService => ({
  serviceId,
  userId: "u1",
  userEmail: "karim@example.com",
  name: "SAMP Starter",
  serverName: "Karim RP",
  expiresAt,
  priceCents: 250,
  suspendedAt: null,
});

describe("the lifecycle's preview", () => {
  it("says a past expiry expired and a coming one expires", async () => {
    const html = await renderHtml(
      <LifecyclePreviewList
        locale="en"
        preview={{
          enabled: true,
          counts: {
            reminded: 0,
            renewed: 1,
            renewalShort: 0,
            suspended: 1,
            warned: 0,
            terminated: 0,
            ordersExpired: 0,
          },
          services: {
            remind: [],
            renew: [service(2, "2099-05-01T12:00:00.000Z")],
            short: [],
            suspend: [service(1, "2020-03-01T12:00:00.000Z")],
            warn: [],
            terminate: [],
          },
          orders: [],
        }}
      />,
    );
    const text = html.replace(/<[^>]+>/g, "");
    expect(text).toContain("expired 1 Mar 2020");
    expect(text).toContain("expires 1 May 2099");
    expect(text).not.toContain("expires 1 Mar 2020");
  });
});
