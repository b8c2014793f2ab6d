import { createRoutesStub } from "react-router";
import { describe, expect, it } from "vitest";
import { renewalQuote } from "~/domain/hosting-services/hosting-services";
import { NO_VAT } from "~/domain/invoices/invoices";
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
    Partial<
      Pick<
        Props,
        | "coinWay"
        | "error"
        | "lifecycle"
        | "timeZone"
        | "locale"
        | "waitingOrders"
        | "approvalHours"
      >
    >,
  locale: "en" | "fr" | "ar" = "en",
) {
  const Stub = createRoutesStub([
    {
      path: "/dashboard/services",
      Component: () => (
        <ServicesPanel
          waitingOrders={[]}
          renewKey="k"
          locale="en"
          coinWay="off-site"
          lifecycle={LIFECYCLE_OFF}
          timeZone="UTC"
          approvalHours={24}
          {...props}
        />
      ),
    },
  ]);
  return renderHtml(<Stub initialEntries={["/dashboard/services?renew=7"]} />, locale);
}

/** The services tab with a renewal being confirmed. */
function render(now: string) {
  return renderPanel({
    services: [],
    renewal: { ok: true, quote: renewalQuote(service, 2000, new Date(now), NO_VAT) },
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

  it("says that renewing a service set to end at its term keeps it, and only then", async () => {
    const now = "2026-04-01T09:00:00.000Z";
    const keeps = "Renewing it keeps it: the cancellation is withdrawn";
    const ending = await renderPanel({
      services: [],
      renewal: { ok: true, quote: renewalQuote(service, 2000, new Date(now), NO_VAT, true) },
      now,
    });
    expect(ending).toContain(keeps);
    expect(await render(now)).not.toContain(keeps);
  });
});

describe("a renewal with prices excluding VAT", () => {
  const now = "2026-04-01T09:00:00.000Z";
  const vat = { rateBp: 2000, pricesIncludeVat: false };

  it("shows the price, the VAT added and the total, and posts the total it showed", async () => {
    const html = await renderPanel({
      services: [],
      renewal: { ok: true, quote: renewalQuote(service, 2000, new Date(now), vat) },
      now,
    });
    const lines = terms(html);
    expect(lines).toContain("Price: €13.50 · monthly");
    expect(lines).toContain("VAT (20%): €2.70");
    expect(lines).toContain("Total: €16.20");
    expect(lines).toContain("Balance after renewal: 3.80 coins");
    expect(html).toMatch(/<input type="hidden" name="shownPrice" value="1620"\/>/);
  });

  it("says in the list what renewing costs, the VAT in it", async () => {
    const html = await renderPanel({
      services: [{ ...row(1, "active", "2099-05-01T12:00:00.000Z"), renewalPriceCents: 1620 }],
      renewal: undefined,
      now,
    });
    expect(html).toContain("Renew for €16.20");
    expect(html).not.toContain("€13.50");
  });
});

describe("a renewal short of coins", () => {
  /** The confirmation of a 13.50 renewal with 10.00 coins: 3.50 missing. */
  const short = (coinWay: Props["coinWay"]) =>
    renderPanel({
      services: [],
      renewal: {
        ok: true,
        quote: renewalQuote(service, 1000, new Date("2026-04-01T09:00:00.000Z"), NO_VAT),
      },
      now: "2026-04-01T09:00:00.000Z",
      coinWay,
    });
  const addCoins = (html: string) =>
    /<a [^>]*href="([^"]*)"[^>]*>Add coins<\/a>/.exec(html)?.[1] ?? null;

  it("leads straight to the top-up form with the 3.50 missing while a method is open", async () => {
    const html = await short("top-up");
    expect(html).toContain("you need €3.50 more");
    // Marked as the form's outcome: brought into view and focused after a refused renewal (a phone).
    expect(html).toMatch(
      /<div role="alert" data-form-result="" tabindex="-1"[^>]*><p>[^<]*you need €3\.50 more/,
    );
    expect(addCoins(html)).toBe("/dashboard/top-up?coins=3.50");
  });

  it("leads to the coins page (the team's way) while none is, and nowhere while purchase is closed", async () => {
    expect(addCoins(await short("off-site"))).toBe("/coins");
    expect(addCoins(await short("closed"))).toBeNull();
  });

  it("carries the shortfall a refused renewal answered with too", async () => {
    const html = await renderPanel({
      services: [],
      renewal: undefined,
      now: "2026-04-01T09:00:00.000Z",
      coinWay: "top-up",
      error: { message: "orders.errors.insufficientCoins", missingCents: 1205, totalCents: 1350 },
    });
    expect(addCoins(html)).toBe("/dashboard/top-up?coins=12.05");
  });
});

/** A line of the services list: the sample service with an id, a status and an expiry. */
const row = (id: number, status: "active" | "suspended", expiresAt: string) => ({
  ...service,
  id,
  status,
  expiresAt,
  monthlyPriceCents: 1350,
  renewalPriceCents: 1350,
  autoRenew: false,
  suspensionReason: status === "suspended" ? ("expired" as const) : null,
  panel: null,
});

describe("the services list", () => {
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

describe("what a service's line says comes next", () => {
  const LIFECYCLE_ON = { ...LIFECYCLE_OFF, enabled: true };
  /** A service's line of the tab, as text; its expiry 9 March 2031 at 20:00 UTC (21:00 in Paris). */
  async function line(
    service: Partial<Props["services"][number]>,
    options: Partial<Pick<Props, "lifecycle" | "timeZone" | "now">> = {},
  ) {
    const html = await renderPanel({
      services: [
        {
          id: 7,
          name: "SAMP Premium",
          serverName: "Los Santos RP",
          billingCycle: "monthly",
          cyclePriceCents: 1350,
          monthlyPriceCents: 1350,
          renewalPriceCents: 1350,
          status: "active",
          expiresAt: "2031-03-09T20:00:00.000Z",
          autoRenew: false,
          suspensionReason: null,
          panel: null,
          ...service,
        },
      ],
      renewal: undefined,
      now: options.now ?? "2031-03-10T09:00:00.000Z",
      lifecycle: options.lifecycle ?? LIFECYCLE_ON,
      timeZone: options.timeZone ?? "Europe/Paris",
    });
    return html.replace(/<[^>]+>/g, " ").replace(/\s+/g, " ");
  }

  it("says when an expired service is suspended and terminated unless renewed, in the site's time zone", async () => {
    const text = await line({});
    expect(text).toContain("Expired 9 Mar 2031");
    expect(text).toContain(
      "Unless it is renewed, it will be suspended on 11 Mar 2031, 21:00 and terminated on 25 Mar 2031, 21:00.",
    );
    expect(text).toContain("Renew for €13.50");
    // The same moments in another zone.
    expect(await line({}, { timeZone: "UTC" })).toContain("suspended on 11 Mar 2031, 20:00");
  });

  it("says when a service suspended for expiry was suspended and when it is terminated", async () => {
    const text = await line({
      status: "suspended",
      suspensionReason: "expired",
      suspendedAt: "2031-03-11T20:05:00.000Z",
    });
    expect(text).toContain(
      "Suspended on 11 Mar 2031, 21:05 because it expired: renew it to reactivate it. Unless it is renewed, it will be terminated on 25 Mar 2031, 21:05.",
    );
  });

  it("promises nothing the lifecycle will not do", async () => {
    // Switched off: nothing happens by itself.
    const off = await line({}, { lifecycle: LIFECYCLE_OFF });
    expect(off).toContain("Expired 9 Mar 2031");
    expect(off).not.toContain("Unless it is renewed");
    const offSuspended = await line(
      { status: "suspended", suspensionReason: "expired", suspendedAt: "2031-03-11T20:05:00.000Z" },
      { lifecycle: LIFECYCLE_OFF },
    );
    expect(offSuspended).toContain("Suspended on 11 Mar 2031, 21:05 because it expired");
    expect(offSuspended).not.toContain("terminated");
    // Far from its expiry, or suspended by an admin: no dates.
    expect(await line({}, { now: "2031-02-01T09:00:00.000Z" })).not.toContain(
      "Unless it is renewed",
    );
    expect(
      await line({
        status: "suspended",
        suspensionReason: "admin",
        suspendedAt: "2031-03-11T20:05:00.000Z",
      }),
    ).not.toContain("terminated");
  });

  it("tells how to sign in to the game panel, where the RCON password is, and opens the panel in a new tab", async () => {
    const panel = {
      state: "ready",
      address: "203.0.113.20:22003",
      ports: { game: 22003, announce: 22126, http: 22004 },
      link: "https://panel.example.com/server/abcd1234",
    };
    const html = await renderPanel({
      services: [{ ...row(1, "active", "2099-05-01T12:00:00.000Z"), panel }],
      renewal: undefined,
      now: "2031-03-10T09:00:00.000Z",
    });
    expect(html).toMatch(
      /<a [^>]*href="https:\/\/panel.example.com\/server\/abcd1234"[^>]*target="_blank"[^>]*rel="noopener noreferrer"[^>]*>Open game panel<\/a>/,
    );
    const text = html.replace(/<[^>]+>/g, " ");
    expect(text).toContain("Game port 22003 · server list (ASE) 22126 · HTTP 22004");
    expect(text).toContain(
      "Sign in to the game panel with your account&#x27;s email address. The first time, choose your password with the link the panel emailed you",
    );
    expect(text).toContain(
      "the remote-admin (RCON) password among them where the game has one, are on its Startup page in the game panel.",
    );
  });
});

describe("a server's own page", () => {
  /** The services tab with one service whose server is in `state` on the panel. */
  const withPanel = (state: string) =>
    renderPanel({
      services: [
        {
          ...row(7, "active", "2099-05-01T12:00:00.000Z"),
          panel: {
            state,
            address: "203.0.113.20:7777",
            ports: null,
            link: "https://panel.example.com/server/abcd1234",
          },
        },
      ],
      renewal: undefined,
      now: "2031-03-10T09:00:00.000Z",
    });

  it("is linked from a ready server's line, named for the server", async () => {
    const link = /<a [^>]*href="\/dashboard\/services\/7"[^>]*>Manage server<\/a>/.exec(
      await withPanel("ready"),
    )?.[0];
    expect(link).toContain('aria-label="Manage server Los Santos RP"');
  });

  it("is not linked while the server is being made, nor once suspended or failed", async () => {
    for (const state of ["installing", "suspended", "failed"])
      expect(await withPanel(state), state).not.toContain('href="/dashboard/services/7"');
  });
});

describe("an order waiting for approval", () => {
  const waiting = {
    id: 41,
    productName: "VPS Entry",
    serverName: "Night Owls",
    billingCycle: "monthly" as const,
    totalCents: 700,
    status: "pending" as const,
    rejectReason: null,
    waitReason: null,
    createdAt: "2026-04-01T09:00:00.000Z",
    decidedAt: null,
  };

  it.each([
    ["en", "firstPurchase", "It waits for our team because this is your first purchase with us."],
    ["en", "unverified", "your email address is not verified yet"],
    ["en", "noRoom", "the servers of this location are full right now"],
    ["en", "planApproval", "This plan is set up once our team approves the order."],
    ["fr", "firstPurchase", "Elle attend notre équipe car c’est votre premier achat chez nous."],
    ["fr", "unverified", "votre adresse e-mail n’est pas encore vérifiée"],
    ["ar", "noRoom", "خوادم هذا الموقع ممتلئة حاليًا"],
    ["ar", "firstPurchase", "لأن هذا أول شراء لك لدينا"],
  ] as const)(
    "says in %s why an order waits (%s), then how long approval takes",
    async (locale, reason, text) => {
      const html = await renderPanel(
        {
          services: [],
          renewal: undefined,
          now: "2026-04-01T10:00:00.000Z",
          waitingOrders: [{ ...waiting, waitReason: reason }],
          approvalHours: 12,
          locale,
        },
        locale,
      );
      expect(html).toContain(text);
      expect(html).toContain(`data-wait-reason="${reason}"`);
      // The reason comes first, then the usual time.
      expect(html.indexOf("data-wait-reason")).toBeLessThan(html.indexOf("data-approval-time"));
    },
  );

  it("says no reason for an order placed before reasons were kept", async () => {
    const html = await renderPanel({
      services: [],
      renewal: undefined,
      now: "2026-04-01T10:00:00.000Z",
      waitingOrders: [waiting],
      approvalHours: 12,
      locale: "en",
    });
    expect(html).not.toContain("data-wait-reason");
    expect(html).toContain("data-approval-time");
  });

  it.each([
    ["en", 24, "Approval usually comes within 24 hours."],
    ["fr", 24, "La validation intervient en général sous 24 heures."],
    ["fr", 72, "La validation intervient en général sous 3 jours."],
    ["ar", 2, "تتم الموافقة عادةً في غضون ساعتين."],
    ["ar", 72, "تتم الموافقة عادةً في غضون 3 أيام."],
  ] as const)(
    "says in %s how long approving it usually takes (%i hours)",
    async (locale, hours, text) => {
      const html = await renderPanel(
        {
          services: [],
          renewal: undefined,
          now: "2026-04-01T10:00:00.000Z",
          waitingOrders: [waiting],
          approvalHours: hours,
          locale,
        },
        locale,
      );
      // Without the isolates an Arabic line puts around a number.
      expect(html.replace(/[\u2066-\u2069]/g, "")).toContain(text);
    },
  );
});
