// @vitest-environment jsdom
import { act, cleanup, render, screen } from "@testing-library/react";
import { createRoutesStub, useLoaderData } from "react-router";
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import type { ServicePanel } from "~/domain/provisioning/panel-plan";
import { createI18n } from "~/i18n/i18n";
import { loadResources } from "~/i18n/resources";
import type { Translator } from "~/i18n/translator";
import { I18nProvider } from "~/i18n/translator-context";
import { SETTING_UP_REFRESH_MS, ServicesPanel, type ServiceRow } from "./services-panel";

// The services tab in the browser while a server is being made on the game panel: it loads again by
// itself until the panel gives the address, then stops.

let i18n: Translator;
beforeAll(async () => {
  i18n = await createI18n("en", await loadResources("en"));
});

beforeEach(() => {
  vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout"] });
});

afterEach(() => {
  cleanup();
  vi.useRealTimers();
});

const NOW = "2026-04-01T09:00:00.000Z";

function service(panel: ServicePanel | null): ServiceRow {
  return {
    id: 7,
    name: "SAMP Premium",
    serverName: "Los Santos RP",
    billingCycle: "monthly",
    cyclePriceCents: 450,
    monthlyPriceCents: 450,
    renewalPriceCents: 450,
    status: "active",
    expiresAt: "2026-05-01T09:00:00.000Z",
    autoRenew: true,
    suspensionReason: null,
    panel,
  };
}

const installing: ServicePanel = { state: "installing", address: null, ports: null, link: null };
const ready: ServicePanel = {
  state: "ready",
  address: "10.0.1.10:7777",
  ports: null,
  link: "https://panel.example/server/abc",
};

/** How long the tab's data takes to come back, as a request over the network does. */
const LOAD_MS = 50;

/** The tab with a loader that answers what `panels` holds now; returns how often it was asked. */
function renderTab(panels: { now: ServicePanel | null }) {
  const loader = vi.fn(async () => {
    await new Promise((resolve) => setTimeout(resolve, LOAD_MS));
    return { services: [service(panels.now)] };
  });
  function Tab() {
    const { services } = useLoaderData<typeof loader>();
    return (
      <I18nProvider i18n={i18n}>
        <ServicesPanel
          services={services}
          waitingOrders={[]}
          renewal={undefined}
          renewKey={null}
          coinWay="off-site"
          locale="en"
          now={NOW}
          lifecycle={{ enabled: false, graceDays: 2, terminationDays: 14 }}
          timeZone="UTC"
          approvalHours={24}
        />
      </I18nProvider>
    );
  }
  const Stub = createRoutesStub([
    { path: "/dashboard/services", Component: Tab, HydrateFallback: () => null, loader },
  ]);
  render(<Stub initialEntries={["/dashboard/services"]} />);
  return loader;
}

/** Lets `ms` pass, and what it set off (a render) finish. */
async function wait(ms: number) {
  await act(() => vi.advanceTimersByTimeAsync(ms));
}

/** One wait of the tab's, then its load. */
async function nextRefresh() {
  await wait(SETTING_UP_REFRESH_MS);
  await wait(LOAD_MS);
}

describe("the services tab while a server is being made", () => {
  it("loads again until the panel gives the address, then stops", async () => {
    const panels = { now: installing as ServicePanel | null };
    const loader = renderTab(panels);
    await wait(LOAD_MS);
    expect(screen.getByText(/Setting up your server/)).toBeTruthy();
    const first = loader.mock.calls.length;

    await nextRefresh();
    expect(loader.mock.calls.length).toBe(first + 1);
    await nextRefresh();
    expect(loader.mock.calls.length).toBe(first + 2);

    panels.now = ready;
    await nextRefresh();
    expect(screen.getByText("10.0.1.10:7777")).toBeTruthy();
    const done = loader.mock.calls.length;
    await wait(SETTING_UP_REFRESH_MS * 5);
    expect(loader.mock.calls.length).toBe(done);
  });

  it("does not load again for a ready server, a failed one, or one set up by hand", async () => {
    for (const panel of [ready, { ...installing, state: "failed" }, null]) {
      const loader = renderTab({ now: panel });
      await wait(LOAD_MS);
      expect(screen.getByText("Los Santos RP")).toBeTruthy();
      const first = loader.mock.calls.length;
      await wait(SETTING_UP_REFRESH_MS * 3);
      expect(loader.mock.calls.length).toBe(first);
      cleanup();
    }
  });
});
