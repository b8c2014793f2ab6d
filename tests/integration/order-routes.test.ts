import { expect, it } from "vitest";
import { signIn } from "~/domain/accounts/accounts.server";
import * as adminClients from "~/routes/admin/clients";
import * as adminOrders from "~/routes/admin/orders";
import * as adminServices from "~/routes/admin/services";
import * as services from "~/routes/dashboard/services";
import * as order from "~/routes/order";
import { randomUUID } from "node:crypto";
import { verifiedFlag } from "~/domain/accounts/email-verification.server";
import {
  approvedOrder,
  balanceOf,
  customerWithCoins,
  expectLedgerIntact,
  productId,
} from "../support/money-fixtures";
import { appFetch } from "../support/app-harness";
import {
  contextFor,
  cookieHeader,
  formRequest,
  routeArgs,
  settle,
} from "../support/request-context";
import { describeEachDatabase, TEST_ADMIN } from "../support/test-database";
import { saveBillingDetails } from "~/domain/invoices/billing-details.server";
import { orderSummary } from "~/domain/orders/order-summary";
import { defaultSettings } from "~/domain/settings/settings";
import { updateSettingsSection } from "~/domain/settings/settings.server";

type Result = { data: Record<string, unknown>; init: { status: number } | null };

describeEachDatabase("order and admin money routes", (app) => {
  async function cookieFor(email: string, password: string) {
    const result = await signIn(app(), { email, password }, { ip: "10.20.0.1" });
    if (!result.ok) throw new Error("sign in failed");
    return cookieHeader(result.setCookies);
  }

  async function run(
    module: { action: (args: never) => unknown },
    path: string,
    fields: Record<string, string>,
    cookie?: string,
  ) {
    return settle(async () =>
      module.action(
        routeArgs({
          request: formRequest(path, fields, cookie),
          context: await contextFor(app(), { cookie }),
          params: {},
        }),
      ),
    );
  }

  it("asks a visitor to log in or register and comes back to the form", async () => {
    const result = (await run(order, "/order", { productId: "3", serverName: "x" })) as Result;
    expect(result.init?.status).toBe(401);
    expect(result.data).toEqual({
      formError: "orders.errors.loginRequired",
      loginUrl: "/login?redirectTo=%2Forder%3Fproduct%3D3%26serverName%3Dx",
      registerUrl: "/register?redirectTo=%2Forder%3Fproduct%3D3%26serverName%3Dx",
      values: { productId: "3", serverName: "x" },
    });
    // Every choice made goes along; what cannot be read (a tampered cycle) does not.
    const chosen = (await run(order, "/order", {
      productId: "3",
      billingCycle: "quarterly",
      location: "Frankfurt",
      ddosProtection: "no",
      playerSlots: "100",
      backup: "weekly-tape",
      serverName: "Rachid RP",
      voucherCode: "WELCOME10",
      idempotencyKey: "k".repeat(24),
    })) as Result;
    const back = new URL(
      decodeURIComponent(String(chosen.data.loginUrl).split("redirectTo=")[1]!),
      "http://x",
    );
    expect(back.pathname).toBe("/order");
    expect(Object.fromEntries(back.searchParams)).toEqual({
      product: "3",
      billingCycle: "quarterly",
      location: "Frankfurt",
      ddosProtection: "no",
      playerSlots: "100",
      serverName: "Rachid RP",
      voucherCode: "WELCOME10",
    });
  });

  it("answers bad order input with messages, never an error page, and changes nothing", async () => {
    const user = await customerWithCoins(app(), 5000);
    const email = (
      await app()
        .db.selectFrom("users")
        .select("email")
        .where("id", "=", user)
        .executeTakeFirstOrThrow()
    ).email;
    const cookie = await cookieFor(email, "Buyer-pw-8842");
    const key = "k".repeat(24);
    const cases: Record<string, string>[] = [
      {},
      { productId: "", serverName: "", idempotencyKey: key },
      { productId: "abc", serverName: "<script>alert(1)</script>", idempotencyKey: key },
      { productId: "1", serverName: "x".repeat(10_000), idempotencyKey: key },
      {
        productId: "1",
        serverName: "ok",
        billingCycle: "weekly",
        backup: "'; drop table users; --",
        idempotencyKey: key,
      },
      { productId: "99999999999999999999", serverName: "ok", idempotencyKey: key },
      { productId: "1", serverName: "ok", playerSlots: "-5", idempotencyKey: "short" },
    ];
    for (const fields of cases) {
      const result = (await run(order, "/order", fields, cookie)) as Result;
      expect(result.init?.status, JSON.stringify(fields)).toBeGreaterThanOrEqual(400);
      expect(result.init?.status).toBeLessThan(500);
    }
    const blank = (await run(
      order,
      "/order",
      { productId: "", serverName: "  ", idempotencyKey: key },
      cookie,
    )) as Result;
    expect(blank.data.formError).toBe("orders.errors.required");
    const unknown = (await run(
      order,
      "/order",
      { productId: "424242", serverName: "ok", idempotencyKey: key },
      cookie,
    )) as Result;
    expect(unknown.data.formError).toBe("orders.errors.serviceNotFound");
    const mtaStarter = await productId(app(), "mta-starter");
    // The form showed another price than the plan has now: 409, the choices kept, nothing charged.
    const stale = (await run(
      order,
      "/order",
      {
        productId: String(mtaStarter),
        serverName: "Stale",
        shownPrices: `${mtaStarter}:250`,
        idempotencyKey: key,
      },
      cookie,
    )) as Result;
    expect(stale.init?.status).toBe(409);
    expect(stale.data.formError).toBe("orders.errors.priceChanged");
    expect(stale.data.values).toMatchObject({ productId: String(mtaStarter), serverName: "Stale" });
    expect(await balanceOf(app(), user)).toBe(5000);
    expect(
      await app().db.selectFrom("orders").select("id").where("user_id", "=", user).execute(),
    ).toHaveLength(0);

    const placed = (await run(
      order,
      "/order",
      {
        productId: String(await productId(app(), "mta-starter")),
        serverName: "Real",
        idempotencyKey: key,
      },
      cookie,
    )) as Response;
    expect(placed.status).toBe(302);
    expect(placed.headers.get("location")).toBe("/dashboard/billing");
    const again = (await run(
      order,
      "/order",
      {
        productId: String(await productId(app(), "mta-starter")),
        serverName: "Real",
        idempotencyKey: key,
      },
      cookie,
    )) as Response;
    expect(again.status).toBe(302);
    expect(await balanceOf(app(), user)).toBe(5000 - 300);

    const renewBad = (await run(
      services,
      "/dashboard/services",
      { intent: "renew", serviceId: "x", idempotencyKey: "y" },
      cookie,
    )) as Result;
    expect(renewBad.init?.status).toBe(400);
    await expectLedgerIntact(app());
  });

  it("sends an order approved as it is paid to the services tab, and says on the billing tab why another waits", async () => {
    const mta = await productId(app(), "mta-starter");
    await app()
      .db.updateTable("products")
      .set({ activate_when_paid: 1 })
      .where("id", "=", mta)
      .execute();
    try {
      const signedIn = async (verified: boolean) => {
        const user = await customerWithCoins(app(), 5000);
        const row = await app()
          .db.updateTable("users")
          .set({ email_verified: verifiedFlag(app().db, verified) })
          .where("id", "=", user)
          .returning("email")
          .executeTakeFirstOrThrow();
        return { user, cookie: await cookieFor(row.email, "Buyer-pw-8842") };
      };
      const placeMta = (cookie: string, serverName: string) =>
        run(
          order,
          "/order",
          { productId: String(mta), serverName, idempotencyKey: randomUUID() },
          cookie,
        ) as Promise<Response>;

      // A trusted customer: verified, with an order approved before.
      const trusted = await signedIn(true);
      await approvedOrder(app(), trusted.user, { productId: await productId(app(), "vps-entry") });
      const approved = await placeMta(trusted.cookie, "Instant");
      expect(approved.status).toBe(302);
      expect(approved.headers.get("location")).toBe("/dashboard/services");
      expect(decodeURIComponent(approved.headers.get("set-cookie") ?? "")).toContain(
        "toast.orderApprovedAutomatically",
      );

      // A first purchase waits, and the billing tab says why, in the customer's language.
      const first = await signedIn(true);
      const waiting = await placeMta(first.cookie, "Waiting");
      expect(waiting.headers.get("location")).toBe("/dashboard/billing");
      expect(decodeURIComponent(waiting.headers.get("set-cookie") ?? "")).toContain(
        "toast.orderSubmitted",
      );
      const billing = await (
        await appFetch(app())("/dashboard/billing", { cookie: first.cookie })
      ).text();
      expect(billing).toContain(
        "It waits for our team because this is your first purchase with us.",
      );
      expect(billing).toContain("data-approval-time");
      const french = await (
        await appFetch(app())("/dashboard/billing?lang=fr", { cookie: first.cookie })
      ).text();
      expect(french).toContain("Elle attend notre équipe car c’est votre premier achat chez nous.");
    } finally {
      await app()
        .db.updateTable("products")
        .set({ activate_when_paid: 0 })
        .where("id", "=", mta)
        .execute();
    }
  });

  it("offers the settings' locations by their name in the reader's language, each valued as the list names it", async () => {
    await updateSettingsSection(app().db, "general", {
      ...defaultSettings().general,
      locations: ["Frankfurt", "Casablanca"],
      locationNamesFr: { Frankfurt: "Francfort" },
      locationNamesAr: { Frankfurt: "فرانكفورت", Casablanca: "الدار البيضاء" },
    });
    app().settings.invalidate();
    try {
      const offered = async (acceptLanguage: string) =>
        (
          (await order.loader(
            routeArgs({
              request: new Request("http://localhost/order"),
              context: await contextFor(app(), { acceptLanguage }),
            }),
          )) as Awaited<ReturnType<typeof order.loader>>
        ).locations;
      expect(await offered("fr")).toEqual([
        { value: "Frankfurt", label: "Francfort" },
        { value: "Casablanca", label: "Casablanca" },
      ]);
      expect(await offered("ar")).toEqual([
        { value: "Frankfurt", label: "فرانكفورت" },
        { value: "Casablanca", label: "الدار البيضاء" },
      ]);
      expect(await offered("en")).toEqual([
        { value: "Frankfurt", label: "Frankfurt" },
        { value: "Casablanca", label: "Casablanca" },
      ]);
    } finally {
      await updateSettingsSection(app().db, "general", defaultSettings().general);
      app().settings.invalidate();
    }
  });

  it("charges what the form showed: the VAT of the customer's country on prices that exclude it", async () => {
    await updateSettingsSection(app().db, "invoicing", {
      ...defaultSettings().invoicing,
      pricesIncludeVat: false,
    });
    app().settings.invalidate();
    try {
      const user = await customerWithCoins(app(), 5000);
      await saveBillingDetails(app().db, {
        userId: user,
        billingName: "",
        billingAddress: "",
        billingCountry: "MA",
      });
      const { email } = await app()
        .db.selectFrom("users")
        .select("email")
        .where("id", "=", user)
        .executeTakeFirstOrThrow();
      const cookie = await cookieFor(email, "Buyer-pw-8842");
      const load = async (as?: string) =>
        (await order.loader(
          routeArgs({
            request: new Request("http://localhost/order"),
            context: await contextFor(app(), { cookie: as }),
          }),
        )) as Awaited<ReturnType<typeof order.loader>>;
      // A visitor's country is not known: no VAT is added to what the form shows.
      expect((await load()).vat).toEqual({ rateBp: 0, pricesIncludeVat: false });
      const page = await load(cookie);
      expect(page.vat).toEqual({ rateBp: 2000, pricesIncludeVat: false });

      // What the form shows for the plan, as it works it out (order-form.tsx: orderSummary).
      const plan = page.products.find((product) => product.slug === "mta-starter")!;
      const chosen = { cycle: "quarterly", backup: "choliba" } as const;
      const shown = orderSummary({ productPriceCents: plan.priceCents, ...chosen, vat: page.vat });
      expect(shown.lines.find((line) => line.kind === "vat")?.amountCents).toBeGreaterThan(0);
      const total = shown.lines.at(-1)!.amountCents;
      const fields = {
        productId: String(plan.id),
        billingCycle: chosen.cycle,
        backup: chosen.backup,
        serverName: "Taxed",
        shownPrices: `${plan.id}:${plan.priceCents}`,
        shownVatRate: "2000",
      };

      // A form that showed no VAT (opened before the country was saved) is refused, nothing charged.
      const stale = (await run(
        order,
        "/order",
        { ...fields, shownVatRate: "0", idempotencyKey: "v".repeat(24) },
        cookie,
      )) as Result;
      expect(stale.init?.status).toBe(409);
      expect(stale.data.formError).toBe("orders.errors.vatChanged");
      expect(await balanceOf(app(), user)).toBe(5000);

      const placed = (await run(
        order,
        "/order",
        { ...fields, idempotencyKey: "w".repeat(24) },
        cookie,
      )) as Response;
      expect(placed.status).toBe(302);
      expect(5000 - (await balanceOf(app(), user))).toBe(total);
      const invoice = await app()
        .db.selectFrom("invoices")
        .innerJoin("orders", "orders.id", "invoices.order_id")
        .select(["invoices.total_cents", "invoices.vat_cents", "orders.total_cents as charged"])
        .where("orders.user_id", "=", user)
        .executeTakeFirstOrThrow();
      expect(invoice).toEqual({
        total_cents: total,
        vat_cents: shown.amounts.vatCents,
        charged: total,
      });
      await expectLedgerIntact(app());
    } finally {
      await updateSettingsSection(app().db, "invoicing", defaultSettings().invoicing);
      app().settings.invalidate();
    }
  });

  it("refuses bad admin input with a message and keeps the books", async () => {
    const admin = await cookieFor(TEST_ADMIN.email, TEST_ADMIN.password);
    const orderCases: Record<string, string>[] = [
      {},
      { intent: "approve" },
      { intent: "reject", orderId: "1" },
      { intent: "explode", orderId: "1" },
      { intent: "approve", orderId: "-1" },
    ];
    for (const fields of orderCases) {
      const result = (await run(adminOrders, "/admin/orders", fields, admin)) as Result;
      expect(result.init?.status, JSON.stringify(fields)).toBe(400);
    }
    const missing = (await run(
      adminOrders,
      "/admin/orders",
      { intent: "approve", orderId: "987654" },
      admin,
    )) as Result;
    expect(missing.init?.status).toBe(404);
    expect(missing.data).toMatchObject({ ok: false, message: "orders.errors.notFound" });
    // Posted without JavaScript: the orders page with the message, not the "Page not found" page.
    const page = await appFetch(app())("/admin/orders", {
      cookie: admin,
      form: { intent: "approve", orderId: "987654" },
    });
    expect(page.status).toBe(404);
    const html = await page.text();
    expect(html).toContain("Order not found");
    expect(html).not.toContain("Page not found");

    const serviceCases: Record<string, string>[] = [
      { intent: "add" },
      { intent: "add", userId: "", name: "" },
      { intent: "add", userId: "x", name: "n", price: "abc" },
      { intent: "suspend", serviceId: "nope" },
    ];
    for (const fields of serviceCases) {
      const result = (await run(adminServices, "/admin/services", fields, admin)) as Result;
      expect(result.init?.status, JSON.stringify(fields)).toBe(400);
    }
    const required = (await run(
      adminServices,
      "/admin/services",
      { intent: "add", userId: "", name: "" },
      admin,
    )) as Result;
    expect(required.data.message).toBe("services.errors.required");

    // A valid form key, so each case is refused for what it shows (without one, for the key).
    const key = { idempotencyKey: "order-routes-coin-key" };
    const coinCases: Record<string, string>[] = [
      {},
      { userId: "x", amount: "5", reason: "r" },
      { ...key, userId: "x", amount: "abc", reason: "r" },
      { ...key, userId: "x", amount: "0", reason: "r" },
      { ...key, userId: "x", amount: "5", reason: "" },
      { ...key, userId: "x", amount: "1e9", reason: "r" },
      { ...key, userId: "x", amount: "1000000.01", reason: "r" },
      { ...key, userId: "x", amount: "5", reason: "r", idempotencyKey: "short" },
    ];
    for (const fields of coinCases) {
      const result = (await run(adminClients, "/admin/clients", fields, admin)) as Result;
      expect(result.init?.status, JSON.stringify(fields)).toBe(400);
    }
    const nobody = (await run(
      adminClients,
      "/admin/clients",
      { ...key, userId: "missing", amount: "5", reason: "r" },
      admin,
    )) as Result;
    expect(nobody.init?.status).toBe(404);
    expect(nobody.data).toMatchObject({ ok: false, message: "coins.errors.userNotFound" });
    await expectLedgerIntact(app());
  });
});
