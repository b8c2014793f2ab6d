import { randomUUID } from "node:crypto";
import { beforeAll, expect, it } from "vitest";
import { DASHBOARD_TABS } from "~/domain/customer-dashboard/customer-dashboard";
import { signedInCookie } from "../support/account-fixtures";
import { appFetch, dataUrl, type AppFetch } from "../support/app-harness";
import { balanceOf, customerWithRunningService } from "../support/money-fixtures";
import { describeEachDatabase } from "../support/test-database";

// The dashboard's tabs are routes of their own (/dashboard, /dashboard/services, ...), each answering only
// its own forms. The `?tab=` addresses they had, which stored notifications, sent mails and bookmarks
// still hold, lead to the same page with the rest of their query.
describeEachDatabase("the dashboard's tab routes", (app) => {
  let fetchApp: AppFetch;
  let signIns = 0;
  beforeAll(() => {
    fetchApp = appFetch(app());
  });

  /** A customer with a running service and 50.00 coins, signed in. */
  async function customer() {
    const { user, serviceId } = await customerWithRunningService(app(), 5000);
    const { email } = await app()
      .db.selectFrom("users")
      .select("email")
      .where("id", "=", user)
      .executeTakeFirstOrThrow();
    const cookie = await signedInCookie(
      app(),
      { email, password: "Buyer-pw-8842" },
      { ip: `10.66.0.${++signIns}` },
    );
    return { user, serviceId, cookie };
  }

  const expiryOf = async (serviceId: number) =>
    (
      await app()
        .db.selectFrom("hosting_services")
        .select("expires_at")
        .where("id", "=", serviceId)
        .executeTakeFirstOrThrow()
    ).expires_at;

  it("sends each ?tab= address to its tab's route, keeping the rest of the query", async () => {
    const { cookie } = await customer();
    const moves: [string, string][] = [
      ["/dashboard?tab=overview", "/dashboard"],
      ["/dashboard?tab=services", "/dashboard/services"],
      ["/dashboard?tab=services&renew=12", "/dashboard/services?renew=12"],
      ["/dashboard?tab=domains", "/dashboard/domains"],
      ["/dashboard?tab=billing&invoices=2&before=40", "/dashboard/billing?invoices=2&before=40"],
      ["/dashboard?page=3&tab=billing", "/dashboard/billing?page=3"],
      ["/dashboard?tab=support&page=2", "/dashboard/support?page=2"],
      ["/dashboard?tab=account&lang=fr", "/dashboard/account?lang=fr"],
      // A tab that never was (or no longer is) showed the overview, and still does.
      ["/dashboard?tab=notifications&page=2", "/dashboard?page=2"],
    ];
    for (const [from, to] of moves) {
      const response = await fetchApp(from, { cookie });
      expect(`${response.status} ${response.headers.get("location")}`, from).toBe(`301 ${to}`);
      // The browser's data request when a link of a hydrated page leads there: the same move.
      const [path, search] = from.split("?");
      const data = await fetchApp(`${dataUrl(path!)}?${search}`, { cookie });
      expect(await data.text(), `${from} as data`).toContain(to);
    }
    // Every tab's own address is the page itself.
    for (const tab of DASHBOARD_TABS) {
      const path = tab === "overview" ? "/dashboard" : `/dashboard/${tab}`;
      const response = await fetchApp(path, { cookie });
      expect(response.status, path).toBe(200);
      expect(await response.text(), path).toMatch(/aria-current="page"/);
    }
    // Signed out, the way back to the old address passes through the sign-in page first.
    const anonymous = await fetchApp("/dashboard?tab=billing");
    expect(anonymous.headers.get("location")).toBe(
      `/login?redirectTo=${encodeURIComponent("/dashboard?tab=billing")}`,
    );
  });

  it("sends a form posted to a ?tab= address on, as posted, to the tab that answers it", async () => {
    const { cookie } = await customer();
    const moved = await fetchApp("/dashboard?tab=account", {
      cookie,
      form: { intent: "profile", name: "Moved" },
    });
    // 307: the browser posts the same form again to the new address.
    expect(moved.status).toBe(307);
    expect(moved.headers.get("location")).toBe("/dashboard/account");
  });

  it("refuses, with 400 and a message, an intent a tab's action does not know, changing nothing", async () => {
    const { user, serviceId, cookie } = await customer();
    const before = { balance: await balanceOf(app(), user), expiry: await expiryOf(serviceId) };
    const renewal = { serviceId: String(serviceId), idempotencyKey: randomUUID() };
    const posts: [string, Record<string, string>][] = [
      ["/dashboard", { intent: "renew", ...renewal }],
      ["/dashboard/services", { intent: "profile", name: "Not here" }],
      // A renewal's fields without its intent: once the dispatcher's fall-through, which renewed.
      ["/dashboard/services", renewal],
      ["/dashboard/services", { intent: "", ...renewal }],
      ["/dashboard/account", { intent: "renew", ...renewal }],
      ["/dashboard/account", { intent: "matrix-probe" }],
      ["/dashboard/account", {}],
    ];
    for (const [path, form] of posts) {
      const what = `${path} ${JSON.stringify(form)}`;
      const response = await fetchApp(path, { cookie, form });
      expect(response.status, what).toBe(400);
      expect(await response.text(), what).toContain(
        "This page does not know that form: nothing was changed. Reload the page and try again.",
      );
    }
    expect({ balance: await balanceOf(app(), user), expiry: await expiryOf(serviceId) }).toEqual(
      before,
    );
    // The same renewal with its intent renews: the refusals above were the intent's alone.
    const renewed = await fetchApp("/dashboard/services", {
      cookie,
      form: { intent: "renew", ...renewal },
    });
    expect(renewed.status).toBe(302);
    expect(renewed.headers.get("location")).toBe("/dashboard/services");
    expect(Date.parse(await expiryOf(serviceId))).toBeGreaterThan(Date.parse(before.expiry));
  });

  it("answers a post to a tab without forms with 405", async () => {
    const { cookie } = await customer();
    for (const tab of ["domains", "billing", "support"]) {
      const response = await fetchApp(`/dashboard/${tab}`, { cookie, form: { intent: "renew" } });
      expect(response.status, tab).toBe(405);
    }
  });
});
