import { expect, it } from "vitest";
import { signIn } from "~/domain/accounts/accounts.server";
import { VOUCHER_CHECKS_PER_MINUTE } from "~/domain/orders/voucher-check";
import { appFetch } from "../support/app-harness";
import { customerWithCoins, productId } from "../support/money-fixtures";
import { cookieHeader } from "../support/request-context";
import { describeEachDatabase } from "../support/test-database";

describeEachDatabase("the order form's voucher check (GET /order/voucher)", (app) => {
  async function customerCookie() {
    const user = await customerWithCoins(app(), 0);
    const { email } = await app()
      .db.selectFrom("users")
      .select("email")
      .where("id", "=", user)
      .executeTakeFirstOrThrow();
    const signed = await signIn(app(), { email, password: "Buyer-pw-8842" }, { ip: "10.21.0.1" });
    if (!signed.ok) throw new Error("sign in failed");
    return cookieHeader(signed.setCookies);
  }

  it("answers a signed-in customer in JSON, never cached, and a visitor with the login page", async () => {
    const fetchApp = appFetch(app());
    const cookie = await customerCookie();
    const product = await productId(app(), "vps-business");
    const ok = await fetchApp(`/order/voucher?code=welcome10&product=${product}`, { cookie });
    expect(ok.status).toBe(200);
    expect(ok.headers.get("content-type")).toContain("application/json");
    expect(ok.headers.get("cache-control")).toContain("no-store");
    expect(await ok.json()).toEqual({
      ok: true,
      code: "WELCOME10",
      discountCents: 120,
      totalCents: 1080,
    });

    const unknown = await fetchApp(`/order/voucher?code=NOPE&product=${product}`, { cookie });
    expect(unknown.status).toBe(400);
    expect(await unknown.json()).toMatchObject({ error: "orders.errors.voucherNotFound" });
    // Bad input is a message, never an error page.
    for (const query of [
      "",
      "?code=",
      `?code=${"x".repeat(500)}&product=1`,
      "?code=A&product=-4",
    ]) {
      const bad = await fetchApp(`/order/voucher${query}`, { cookie });
      expect(bad.status, query).toBe(400);
      expect(await bad.json(), query).toMatchObject({ ok: false });
    }

    const visitor = await fetchApp(`/order/voucher?code=WELCOME10&product=${product}`);
    expect(visitor.status).toBe(302);
    expect(visitor.headers.get("location")).toMatch(/^\/login\?redirectTo=/);
  });

  it("refuses a customer's checks past the minute's allowance, and not another customer's", async () => {
    const fetchApp = appFetch(app());
    const cookie = await customerCookie();
    const url = `/order/voucher?code=GUESS&product=${await productId(app(), "samp-premium")}`;
    // The malformed checks above were another customer's; these all count for this one.
    for (let i = 0; i < VOUCHER_CHECKS_PER_MINUTE; i++)
      expect((await fetchApp(url, { cookie })).status).toBe(400);
    const limited = await fetchApp(url, { cookie });
    expect(limited.status).toBe(429);
    expect(await limited.json()).toEqual({
      ok: false,
      kind: "limited",
      error: "orders.errors.voucherCheckLimited",
    });
    expect((await fetchApp(url, { cookie: await customerCookie() })).status).toBe(400);
  });
});
