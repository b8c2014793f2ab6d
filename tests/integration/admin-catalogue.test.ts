import { randomUUID } from "node:crypto";
import { expect, it } from "vitest";
import { signIn } from "~/domain/accounts/accounts.server";
import type { Product } from "~/domain/catalogue/catalogue";
import type { AdminProduct } from "~/domain/catalogue/catalogue-admin";
import type { AdminVoucher } from "~/domain/promotions/promotions";
import * as home from "~/routes/home";
import * as order from "~/routes/order";
import * as adminProducts from "~/routes/admin/products";
import * as adminPromotions from "~/routes/admin/promotions";
import * as services from "~/routes/site/services";
import { balanceOf, customerWithCoins, expectLedgerIntact } from "../support/money-fixtures";
import {
  contextFor,
  cookieHeader,
  formRequest,
  routeArgs,
  settle,
} from "../support/request-context";
import { describeEachDatabase, TEST_ADMIN } from "../support/test-database";

type Result = { data: Record<string, unknown>; init: { status: number } | null };
type Module = { loader: (args: never) => unknown; action?: (args: never) => unknown };

// /admin/products and /admin/promotions through their route modules, and the storefront pages that show
// what they change, as requests would reach them.
describeEachDatabase("admin catalogue pages", (app) => {
  const cookies = new Map<string, string>();

  async function cookieFor(email: string, password: string) {
    let cookie = cookies.get(email);
    if (!cookie) {
      const result = await signIn(app(), { email, password }, { ip: "10.60.0.1" });
      if (!result.ok) throw new Error("sign in failed");
      cookie = cookieHeader(result.setCookies);
      cookies.set(email, cookie);
    }
    return cookie;
  }
  const adminCookie = () => cookieFor(TEST_ADMIN.email, TEST_ADMIN.password);

  async function load(module: Module, path: string, params: Record<string, string> = {}) {
    const cookie = await adminCookie();
    return settle(async () =>
      module.loader(
        routeArgs({
          request: new Request(`http://localhost${path}`, { headers: { cookie } }),
          context: await contextFor(app(), { cookie }),
          params,
        }),
      ),
    );
  }

  async function post(
    module: Module,
    path: string,
    fields: Record<string, string>,
    cookie?: string,
  ) {
    const as = cookie ?? (await adminCookie());
    return settle(async () =>
      module.action!(
        routeArgs({
          request: formRequest(path, fields, as),
          context: await contextFor(app(), { cookie: as }),
        }),
      ),
    );
  }

  async function count(table: "products" | "vouchers" | "audit_log") {
    const row = await app()
      .db.selectFrom(table)
      .select((eb) => eb.fn.countAll<number>().as("n"))
      .executeTakeFirstOrThrow();
    return Number(row.n);
  }

  async function gamePlans() {
    return ((await load(services, "/game-hosting")) as { plans: Product[] }).plans;
  }

  async function customerCookie(coins: number) {
    const id = await customerWithCoins(app(), coins);
    const { email } = await app()
      .db.selectFrom("users")
      .select("email")
      .where("id", "=", id)
      .executeTakeFirstOrThrow();
    return { id, cookie: await cookieFor(email, "Buyer-pw-8842") };
  }

  const newProduct = {
    intent: "create",
    name: "Game Titan",
    slug: "",
    type: "game",
    category: "",
    description: "For huge modded worlds",
    price: "3,99",
    features: "Mods\nDaily backups",
    ramGb: "16",
    storageGb: "100",
    cpuCores: "8",
    slots: "500",
    status: "active",
  };

  it("lists every product, hidden ones too, and opens the form from the address", async () => {
    const page = (await load(adminProducts, "/admin/products")) as {
      products: AdminProduct[];
      typeCounts: Record<string, number>;
      editing: unknown;
      meta: { title: string };
    };
    expect(page.meta.title).toBe("Products");
    expect(page.products.length).toBeGreaterThanOrEqual(12);
    expect(page.products.map((p) => p.type)).toEqual([...page.products.map((p) => p.type)].sort());
    expect(page.typeCounts.samp).toBeGreaterThanOrEqual(3);
    expect(page.editing).toBeUndefined();
    expect(
      ((await load(adminProducts, "/admin/products?edit=new")) as { editing: unknown }).editing,
    ).toBe("new");
    expect(
      ((await load(adminProducts, "/admin/products?edit=99999")) as { editing: unknown }).editing,
    ).toBeNull();
    const vps = (await load(adminProducts, "/admin/products?type=vps&status=bogus")) as {
      products: AdminProduct[];
      query: object;
    };
    expect(vps.query).toEqual({ type: "vps" });
    expect(new Set(vps.products.map((p) => p.type))).toEqual(new Set(["vps"]));
  });

  it("refuses a bad product form with its messages and what was typed, and saves nothing", async () => {
    const before = { products: await count("products"), audit: await count("audit_log") };
    const cases: [Record<string, string>, Record<string, string>][] = [
      [
        { ...newProduct, name: " ", price: "abc" },
        {
          name: "admin-catalogue.products.errors.nameRequired",
          price: "admin-catalogue.money.invalid",
        },
      ],
      [
        { ...newProduct, type: "vps", slots: "10" },
        { slots: "admin-catalogue.products.errors.slotsVps" },
      ],
      [{ ...newProduct, price: "-2" }, { price: "admin-catalogue.money.negative" }],
      [{ ...newProduct, price: "4.999" }, { price: "admin-catalogue.money.decimals" }],
      [{ ...newProduct, price: "99999999" }, { price: "admin-catalogue.money.tooLarge" }],
      [{ ...newProduct, ramGb: "lots" }, { ramGb: "admin-catalogue.products.errors.ramGbInvalid" }],
      [
        { ...newProduct, intent: "update", id: "abc" },
        { id: "admin-catalogue.products.errors.notFound" },
      ],
    ];
    for (const [fields, fieldErrors] of cases) {
      const result = (await post(adminProducts, "/admin/products", fields)) as Result;
      expect(result.init?.status, JSON.stringify(fields)).toBe(400);
      expect(result.data).toMatchObject({
        ok: false,
        intent: "save",
        message: "admin-catalogue.products.saveFailed",
        fieldErrors,
        values: { name: fields.name, price: fields.price },
      });
    }
    // A slug that is taken is refused after parsing: still the form's values and the field's message.
    const taken = (await post(adminProducts, "/admin/products", {
      ...newProduct,
      slug: "samp-starter",
    })) as Result;
    expect(taken.init?.status).toBe(409);
    expect(taken.data).toMatchObject({
      message: "admin-catalogue.products.saveFailed",
      reason: "admin-catalogue.products.errors.slugTaken",
      fieldErrors: { slug: "admin-catalogue.products.errors.slugTaken" },
      values: { slug: "samp-starter", name: "Game Titan" },
    });
    const row = (await post(adminProducts, "/admin/products", {
      intent: "hide",
      id: "999999",
    })) as Result;
    expect(row.init?.status).toBe(404);
    expect(row.data).toMatchObject({ message: "admin-catalogue.products.errors.notFound" });
    expect({ products: await count("products"), audit: await count("audit_log") }).toEqual(before);
  });

  it("creates, edits, hides and shows a product, and the storefront follows at once", async () => {
    const created = (await post(adminProducts, "/admin/products", newProduct)) as Response;
    expect(created.status).toBe(302);
    const location = created.headers.get("location")!;
    expect(location).toMatch(/^\/admin\/products\?notice=created#product-\d+$/);
    const id = Number(location.split("#product-")[1]);
    const listed = (await gamePlans()).find((p) => p.id === id);
    expect(listed).toMatchObject({ name: "Game Titan", priceCents: 399, slug: "game-titan" });
    const orderForm = (await load(order, "/order")) as { products: Product[] };
    expect(orderForm.products.map((p) => p.id)).toContain(id);

    const edited = (await post(adminProducts, `/admin/products?edit=${id}`, {
      ...newProduct,
      intent: "update",
      id: String(id),
      name: "Game Titan XL",
      price: "5.49",
    })) as Response;
    expect(edited.status).toBe(302);
    expect(edited.headers.get("location")).toBe(`/admin/products?notice=updated#product-${id}`);
    expect((await gamePlans()).find((p) => p.id === id)).toMatchObject({
      name: "Game Titan XL",
      priceCents: 549,
    });

    expect(
      await post(adminProducts, "/admin/products", {
        intent: "move",
        id: String(id),
        direction: "up",
      }),
    ).toEqual({
      ok: true,
      intent: "row",
      id: String(id),
      message: "admin-catalogue.products.moved",
    });
    const plans = await gamePlans();
    expect(plans.at(-2)?.id).toBe(id);

    expect(
      await post(adminProducts, "/admin/products", { intent: "hide", id: String(id) }),
    ).toEqual({
      ok: true,
      intent: "row",
      id: String(id),
      message: "admin-catalogue.products.hidden",
    });
    expect((await gamePlans()).map((p) => p.id)).not.toContain(id);
    expect(
      ((await load(order, "/order")) as { products: Product[] }).products.map((p) => p.id),
    ).not.toContain(id);
    // Ordering it anyway: the spec's 'Service not found', nothing charged.
    const buyer = await customerCookie(5_000);
    const refused = (await post(
      order,
      "/order",
      { productId: String(id), serverName: "Titan", idempotencyKey: randomUUID() },
      buyer.cookie,
    )) as Result;
    expect(refused.init?.status).toBe(404);
    expect(refused.data).toMatchObject({ formError: "orders.errors.serviceNotFound" });
    expect(await balanceOf(app(), buyer.id)).toBe(5_000);

    expect(
      await post(adminProducts, "/admin/products", { intent: "show", id: String(id) }),
    ).toMatchObject({
      ok: true,
      message: "admin-catalogue.products.shown",
    });
    expect((await gamePlans()).map((p) => p.id)).toContain(id);
    // The home page keeps its three SA-MP plans.
    const homePage = (await load(home, "/")) as { plans: Product[] };
    expect(homePage.plans.map((p) => p.type)).toEqual(["samp", "samp", "samp"]);
    await expectLedgerIntact(app());
  });

  const newVoucher = {
    intent: "create",
    code: "route-10",
    description: "Route test",
    discountType: "percentage",
    discountValue: "10",
    minPurchase: "",
    maxUses: "10",
    validFrom: "2020-01-01",
    validUntil: "2099-12-31",
    appliesTo: "all",
  };

  it("creates, edits and deactivates a voucher; the order form follows the current terms", async () => {
    const before = await count("vouchers");
    const bad = (await post(adminPromotions, "/admin/promotions", {
      ...newVoucher,
      code: "x",
      discountValue: "150",
      validUntil: "2019-12-31",
    })) as Result;
    expect(bad.init?.status).toBe(400);
    expect(bad.data).toMatchObject({
      ok: false,
      intent: "save",
      message: "admin-catalogue.promotions.saveFailed",
      fieldErrors: {
        code: "admin-catalogue.promotions.errors.codeInvalid",
        discountValue: "admin-catalogue.promotions.errors.percentInvalid",
        validUntil: "admin-catalogue.promotions.errors.datesOrder",
      },
      values: { code: "x", discountValue: "150" },
    });
    expect(await count("vouchers")).toBe(before);
    // Dates in order but all past: no order could use it, so it is refused on its last day's field.
    const past = (await post(adminPromotions, "/admin/promotions", {
      ...newVoucher,
      validUntil: "2020-12-31",
    })) as Result;
    expect(past.init?.status).toBe(400);
    expect(past.data).toMatchObject({
      ok: false,
      intent: "save",
      message: "admin-catalogue.promotions.saveFailed",
      reason: "admin-catalogue.promotions.errors.untilPassed",
      fieldErrors: { validUntil: "admin-catalogue.promotions.errors.untilPassed" },
      values: { code: "route-10", validUntil: "2020-12-31" },
    });
    expect(await count("vouchers")).toBe(before);

    const created = (await post(adminPromotions, "/admin/promotions", newVoucher)) as Response;
    expect(created.status).toBe(302);
    const id = Number(created.headers.get("location")!.split("#voucher-")[1]);
    expect(created.headers.get("location")).toBe(`/admin/promotions?notice=created#voucher-${id}`);
    const duplicate = (await post(adminPromotions, "/admin/promotions", {
      ...newVoucher,
      code: "ROUTE-10",
    })) as Result;
    expect(duplicate.init?.status).toBe(409);
    expect(duplicate.data).toMatchObject({
      reason: "admin-catalogue.promotions.errors.codeTaken",
      fieldErrors: { code: "admin-catalogue.promotions.errors.codeTaken" },
      values: { code: "ROUTE-10" },
    });
    expect(await count("vouchers")).toBe(before + 1);

    const buyer = await customerCookie(10_000);
    const vpsEntry = (await load(services, "/services/vps", { type: "vps" })) as {
      plans: Product[];
    };
    const productId = String(vpsEntry.plans.find((p) => p.slug === "vps-entry")!.id);
    const placeOrder = (voucherCode: string) =>
      post(
        order,
        "/order",
        { productId, serverName: "Voucher test", voucherCode, idempotencyKey: randomUUID() },
        buyer.cookie,
      );
    expect(((await placeOrder("route-10")) as Response).status).toBe(302);
    expect(await balanceOf(app(), buyer.id)).toBe(10_000 - 630);

    const edited = (await post(adminPromotions, `/admin/promotions?edit=${id}`, {
      ...newVoucher,
      intent: "update",
      id: String(id),
      discountValue: "50",
    })) as Response;
    expect(edited.status).toBe(302);
    expect(((await placeOrder("Route-10")) as Response).status).toBe(302);
    expect(await balanceOf(app(), buyer.id)).toBe(10_000 - 630 - 350);

    expect(
      await post(adminPromotions, "/admin/promotions", { intent: "deactivate", id: String(id) }),
    ).toEqual({
      ok: true,
      intent: "row",
      id: String(id),
      message: "admin-catalogue.promotions.deactivated",
    });
    const refused = (await placeOrder("route-10")) as Result;
    expect(refused.init?.status).toBe(400);
    expect(refused.data).toMatchObject({ formError: "orders.errors.voucherInactive" });
    expect(await balanceOf(app(), buyer.id)).toBe(10_000 - 630 - 350);

    const page = (await load(adminPromotions, "/admin/promotions?q=route&status=inactive")) as {
      vouchers: AdminVoucher[];
      products: unknown[];
      meta: { title: string };
    };
    expect(page.meta.title).toBe("Promotions");
    expect(page.vouchers).toHaveLength(1);
    expect(page.vouchers[0]).toMatchObject({
      code: "ROUTE-10",
      status: "inactive",
      usedCount: 2,
      orderCount: 2,
      discountValue: 50,
    });
    expect(page.products.length).toBeGreaterThanOrEqual(12);
    const editing = (await load(adminPromotions, `/admin/promotions?edit=${id}`)) as {
      editing: AdminVoucher;
    };
    expect(editing.editing.id).toBe(id);
    expect(
      (await post(adminPromotions, "/admin/promotions", {
        intent: "activate",
        id: "123456",
      })) as Result,
    ).toMatchObject({ init: { status: 404 } });
    await expectLedgerIntact(app());
  });
});
