import { beforeAll, expect, it } from "vitest";
import {
  listPaymentMethodsForAdmin,
  updatePaymentMethod,
} from "~/domain/payments/payment-methods.server";
import { signedInCookie } from "../support/account-fixtures";
import { appFetch, type AppFetch } from "../support/app-harness";
import {
  adminId,
  customerWithCoins,
  customerWithRunningService,
  productId,
} from "../support/money-fixtures";
import { enabledOrangeMoney } from "../support/top-up-fixtures";
import { describeEachDatabase } from "../support/test-database";

// One way to buy coins at a time (docs/payments.md, "Add coins"): the pages as the server renders them,
// from the shell's coin dialog to the renewal step, the order form and the top-up form an "Add coins"
// leads to with what is missing filled in. No method open: the team's way, off-site, and every "Add
// coins" to /coins. One open: the top-up form, straight, and no off-site steps anywhere.
describeEachDatabase("Add coins across the pages", (app) => {
  let fetchApp: AppFetch;
  let signIns = 0;
  beforeAll(() => {
    fetchApp = appFetch(app());
  });

  /** The session cookie of a customer made by the money fixtures (their password is theirs). */
  async function cookieOf(userId: string) {
    const { email } = await app()
      .db.selectFrom("users")
      .select("email")
      .where("id", "=", userId)
      .executeTakeFirstOrThrow();
    return signedInCookie(
      app(),
      { email, password: "Buyer-pw-8842" },
      { ip: `10.64.0.${++signIns}` },
    );
  }

  async function page(path: string, cookie: string, form?: Record<string, string>) {
    const response = await fetchApp(path, { cookie, form });
    return { status: response.status, html: await response.text() };
  }

  /** Where each visible "Add coins" of a page leads, in order. */
  const addCoinsLinks = (html: string) =>
    [...html.matchAll(/<a [^>]*href="([^"]*)"[^>]*>Add coins<\/a>/g)].map(([, href]) =>
      href!.replaceAll("&amp;", "&"),
    );
  /** The coins the top-up form starts on. */
  const startingCoins = (html: string) =>
    /value="([^"]*)"/.exec(/<input [^>]*name="coins"[^>]*>/.exec(html)?.[0] ?? "")?.[1];
  const OFF_SITE_STEP = "Open a support ticket.";

  /**
   * A customer short of coins twice over: their SA-MP Starter's renewal (2.50) finds 1.00 (1.50
   * missing), and an SA-MP Premium order (4.50) finds it too (3.50 missing).
   */
  async function shortCustomer() {
    const { user, serviceId } = await customerWithRunningService(app(), 250 + 100);
    return {
      cookie: await cookieOf(user),
      serviceId,
      premium: await productId(app(), "samp-premium"),
    };
  }

  it("with no payment method open: the off-site steps, and every Add coins to the coins page", async () => {
    const { cookie, serviceId, premium } = await shortCustomer();

    const renewal = await page(`/dashboard/services?renew=${serviceId}`, cookie);
    expect(renewal.status).toBe(200);
    expect(renewal.html).toContain("you need €1.50 more");
    // The header's dialog says how to reach the team, and offers no form no method can pay through.
    expect(renewal.html).toContain(OFF_SITE_STEP);
    expect(addCoinsLinks(renewal.html)).toEqual(["/coins"]);

    const order = await page(`/order?product=${premium}`, cookie);
    expect(order.html).toContain("this order needs 3.50 coins more");
    expect(addCoinsLinks(order.html)).toEqual(["/coins"]);

    const coins = await page("/coins", cookie);
    expect(coins.html).toContain(OFF_SITE_STEP);
    expect(addCoinsLinks(coins.html)).toEqual([]);
  });

  it("with a method open: the dialog, the renewal and the order form lead straight to the top-up form with the shortfall", async () => {
    await enabledOrangeMoney(app());
    const { cookie, serviceId, premium } = await shortCustomer();

    const renewal = await page(`/dashboard/services?renew=${serviceId}`, cookie);
    expect(renewal.html).not.toContain(OFF_SITE_STEP);
    // The dialog's, then the renewal step's.
    expect(addCoinsLinks(renewal.html)).toEqual([
      "/dashboard/top-up",
      "/dashboard/top-up?coins=1.50",
    ]);
    const billing = await page("/dashboard/billing", cookie);
    expect(addCoinsLinks(billing.html)).toEqual(["/dashboard/top-up", "/dashboard/top-up"]);

    const order = await page(`/order?product=${premium}`, cookie);
    expect(order.html).not.toContain(OFF_SITE_STEP);
    expect(addCoinsLinks(order.html)).toEqual([
      "/dashboard/top-up",
      "/dashboard/top-up?coins=3.50",
    ]);
    // The order refused for want of coins says the same by the button.
    const refused = await page(`/order?product=${premium}`, cookie, {
      productId: String(premium),
      serverName: "Short RP",
      idempotencyKey: `short-${serviceId}-${"k".repeat(16)}`,
    });
    expect(refused.html).toContain("Not enough coins");
    expect(addCoinsLinks(refused.html)).toEqual([
      "/dashboard/top-up",
      "/dashboard/top-up?coins=3.50",
    ]);

    const coins = await page("/coins", cookie);
    expect(coins.html).not.toContain(OFF_SITE_STEP);
    expect(addCoinsLinks(coins.html)).toEqual(["/dashboard/top-up", "/dashboard/top-up"]);

    // Orange Money (enabledOrangeMoney) takes 5 to 200 coins: 1.50 missing starts at its minimum.
    const topUp = await page("/dashboard/top-up?coins=1.50", cookie);
    expect(topUp.status).toBe(200);
    expect(startingCoins(topUp.html)).toBe("5");
    expect(topUp.html).toContain("Filled in with the coins you are missing");
  });

  it("starts the top-up form on the shortfall rounded up, the first method's minimum if larger, its maximum at most", async () => {
    const orange = await enabledOrangeMoney(app());
    const cookie = await cookieOf(await customerWithCoins(app(), 0));
    const startsAt = async (query: string) => {
      const topUp = await page(`/dashboard/top-up${query}`, cookie);
      expect(topUp.status, query).toBe(200);
      return startingCoins(topUp.html);
    };
    expect(await startsAt("?coins=3.50")).toBe("5");
    expect(await startsAt("?coins=7.01")).toBe("8");
    expect(await startsAt("?coins=250")).toBe("200");

    const actorId = await adminId(app());
    const withMinimum = (minCoins: number) =>
      updatePaymentMethod(app().db, {
        actorId,
        id: orange.id,
        method: { ...orange, minCoins, maxCoins: 200 },
      });
    expect((await withMinimum(1)).ok).toBe(true);
    expect(await startsAt("?coins=3.50")).toBe("4");
    expect(await startsAt("?coins=3")).toBe("3");
    expect(await startsAt("?coins=0.01")).toBe("1");

    // Anything but an amount of coins is ignored: the usual 10, no word of a shortfall, never a 500.
    for (const garbage of [
      "",
      "?coins=",
      "?coins=abc",
      "?coins=-3.50",
      "?coins=0",
      "?coins=3,50",
      "?coins=1e3",
      "?coins=Infinity",
      "?coins=10000.01",
      "?coins=99999999999999999999",
      "?coins=%FF%FE",
      "?coins=3.50%00",
      "?coins=3.50&coins=x",
      `?coins=${"9".repeat(5000)}`,
    ]) {
      expect(await startsAt(garbage), garbage).toBe("10");
      const html = (await page(`/dashboard/top-up${garbage}`, cookie)).html;
      expect(html, garbage).not.toContain("Filled in with the coins you are missing");
    }
    expect((await withMinimum(5)).ok).toBe(true);
  });

  it("starts on the first method in the customers' order, not any open one", async () => {
    const methods = await listPaymentMethodsForAdmin(app().db);
    const orange = await enabledOrangeMoney(app());
    const bank = methods.find((method) => method.code === "bank-transfer")!;
    const actorId = await adminId(app());
    // The bank transfer, first in the list, takes 12 coins at least; Orange Money, second, 5.
    const saved = await updatePaymentMethod(app().db, {
      actorId,
      id: bank.id,
      method: {
        ...bank,
        enabled: true,
        instructions: { en: "IBAN FR76 0000", fr: "", ar: "" },
        minCoins: 12,
        maxCoins: 500,
        sortOrder: 0,
      },
    });
    expect(saved.ok).toBe(true);
    const cookie = await cookieOf(await customerWithCoins(app(), 0));
    const html = (await page("/dashboard/top-up?coins=3.50", cookie)).html;
    expect(startingCoins(html)).toBe("12");
    expect(html.indexOf("Bank transfer")).toBeLessThan(html.indexOf(orange.names.en));
  });
});
