import { randomUUID } from "node:crypto";
import { expect, it } from "vitest";
import { prepareDatabase } from "~/context.server";
import { renewService } from "~/domain/hosting-services/renewal.server";
import { placeOrder } from "~/domain/orders/orders.server";
import { createVoucher } from "~/domain/promotions/promotions.server";
import {
  adminId,
  asAdmin,
  approvedOrder,
  balanceOf,
  customerWithCoins,
  expectLedgerIntactAfterEach,
  ordersOf,
  orderInput,
  placedOrder,
} from "../../../tests/support/money-fixtures";
import { productForm as planForm } from "../../../tests/support/catalogue-fixtures";
import { readRow, readRows } from "../../../tests/support/read-column";
import { refusal } from "../../../tests/support/results";
import { describeEachDatabase } from "../../../tests/support/test-database";
import type { ProductType } from "./catalogue";
import {
  createProduct,
  deleteProduct,
  findProductForAdmin,
  listProductsForAdmin,
  moveProduct,
  setProductStatus,
  updateProduct,
} from "./catalogue-admin.server";
import { findActiveProduct, listActiveProducts } from "./catalogue.server";

/** A product as the admin's form sends it, with its specs, read by the page's own schema. */
const productForm = (fields: Record<string, string> = {}) =>
  planForm({ ramGb: "2", storageGb: "10", cpuCores: "1", slots: "100", ...fields });

describeEachDatabase("catalogue administration", (app) => {
  expectLedgerIntactAfterEach(app);

  async function positions(type: ProductType) {
    const rows = await app()
      .db.selectFrom("products")
      .select(["id", "position"])
      .where("type", "=", type)
      .orderBy("position")
      .orderBy("id")
      .execute();
    return rows;
  }

  async function expectCleanSequence(type: ProductType) {
    expect((await positions(type)).map((row) => row.position)).toEqual(
      (await positions(type)).map((_, index) => index),
    );
  }

  /** A product the seed admin adds through the form: it must be created. */
  async function createdProduct(fields: Record<string, string> = {}) {
    const created = await createProduct(app().db, {
      actorId: await adminId(app()),
      product: productForm(fields),
    });
    if (!created.ok) throw new Error(created.error);
    return created.product;
  }

  async function auditOf(productId: number) {
    return readRows(
      app().db,
      "audit_log",
      ["action", "actor_id", "before", "after"],
      { target_type: "product", target_id: String(productId) },
      "id",
    );
  }

  it("creates, edits, reorders, hides and shows a product, each change audited", async () => {
    const { db, admin: actorId } = await asAdmin(app());
    const created = await createdProduct({ name: "MTA Arena", price: "4,99", slug: "" });
    const id = created.id;
    expect(created).toMatchObject({
      name: "MTA Arena",
      slug: "mta-arena",
      type: "mta",
      category: "Game Hosting",
      priceCents: 499,
      status: "active",
      position: 3,
      features: ["DDoS protection", "NVMe"],
      specs: { ramGb: 2, storageGb: 10, cpuCores: 1, slots: 100 },
    });
    // The storefront lists it at once, last of its type.
    expect((await listActiveProducts(db, "mta")).at(-1)?.name).toBe("MTA Arena");

    const edited = await updateProduct(db, {
      actorId,
      id,
      product: productForm({ name: "MTA Arena XL", price: "2.5", slug: "arena-xl", slots: "" }),
    });
    expect(edited).toMatchObject({
      ok: true,
      product: { name: "MTA Arena XL", priceCents: 250, slug: "arena-xl", position: 3 },
    });
    expect((await findActiveProduct(db, id))?.specs.slots).toBeNull();

    expect(await moveProduct(db, { actorId, id, direction: "up" })).toMatchObject({ ok: true });
    expect(await moveProduct(db, { actorId, id, direction: "up" })).toMatchObject({ ok: true });
    expect((await listActiveProducts(db, "mta")).map((p) => p.name)).toEqual([
      "MTA Starter",
      "MTA Arena XL",
      "MTA Advanced",
      "MTA Pro",
    ]);
    await expectCleanSequence("mta");
    expect(await moveProduct(db, { actorId, id, direction: "up" })).toMatchObject({ ok: true });
    expect(await moveProduct(db, { actorId, id, direction: "up" })).toEqual(
      refusal("conflict", "admin-catalogue.products.errors.cannotMove"),
    );
    expect((await listActiveProducts(db, "mta"))[0]?.id).toBe(id);

    expect(await setProductStatus(db, { actorId, id, status: "hidden" })).toMatchObject({
      ok: true,
      product: { status: "hidden" },
    });
    expect((await listActiveProducts(db, "mta")).map((p) => p.id)).not.toContain(id);
    expect(await findActiveProduct(db, id)).toBeUndefined();
    // The admin still sees it, in its place; hiding twice changes nothing and writes no second entry.
    const listed = await listProductsForAdmin(db, { type: "mta" });
    expect(listed[0]).toMatchObject({ id, status: "hidden", position: 0 });
    await setProductStatus(db, { actorId, id, status: "hidden" });
    expect(await setProductStatus(db, { actorId, id, status: "active" })).toMatchObject({
      ok: true,
    });
    expect((await listActiveProducts(db, "mta"))[0]?.id).toBe(id);

    const audit = await auditOf(id);
    expect(audit.map((row) => row.action)).toEqual([
      "product.create",
      "product.update",
      "product.move",
      "product.move",
      "product.move",
      "product.hide",
      "product.show",
    ]);
    expect(audit.every((row) => row.actor_id === actorId)).toBe(true);
    const update = audit[1]!;
    expect(JSON.parse(update.before!)).toMatchObject({ name: "MTA Arena", priceCents: 499 });
    expect(JSON.parse(update.after!)).toMatchObject({ name: "MTA Arena XL", priceCents: 250 });
    expect(JSON.parse(audit[2]!.before!)).toEqual({ position: 3 });
    expect(JSON.parse(audit[2]!.after!)).toEqual({ position: 2 });
  });

  it("saves whether a product activates as soon as it is paid, and audits the change", async () => {
    const { db, admin: actorId } = await asAdmin(app());
    const created = await createdProduct({ name: "SA-MP Instant", activateWhenPaid: "on" });
    expect(created.activateWhenPaid).toBe(true);
    expect(await readRow(db, "products", ["activate_when_paid"], { id: created.id })).toEqual({
      activate_when_paid: 1,
    });
    expect((await findActiveProduct(db, created.id))?.activateWhenPaid).toBe(true);
    // The checkbox left unticked: a form sends nothing, and the product waits for an admin again.
    const edited = await updateProduct(db, {
      actorId,
      id: created.id,
      product: productForm({ name: "SA-MP Instant" }),
    });
    expect(edited).toMatchObject({ ok: true, product: { activateWhenPaid: false } });
    expect(await readRow(db, "products", ["activate_when_paid"], { id: created.id })).toEqual({
      activate_when_paid: 0,
    });
    const audit = await auditOf(created.id);
    expect(audit.map((row) => row.action)).toEqual(["product.create", "product.update"]);
    expect(JSON.parse(audit[0]!.after!)).toMatchObject({ activateWhenPaid: true });
    expect(JSON.parse(audit[1]!.before!)).toMatchObject({ activateWhenPaid: true });
    expect(JSON.parse(audit[1]!.after!)).toMatchObject({ activateWhenPaid: false });
  });

  it("refuses a taken slug, keeps positions clean across types, and deletes only what nothing uses", async () => {
    const { db, admin: actorId } = await asAdmin(app());
    const count = async () =>
      Number(
        (
          await db
            .selectFrom("products")
            .select((eb) => eb.fn.countAll<number>().as("n"))
            .executeTakeFirstOrThrow()
        ).n,
      );
    const before = await count();
    expect(
      await createProduct(db, { actorId, product: productForm({ slug: "samp-starter" }) }),
    ).toEqual(refusal("conflict", "admin-catalogue.products.errors.slugTaken"));
    expect(await count()).toBe(before);

    // Two products with the same name get two slugs.
    const first = await createProduct(db, { actorId, product: productForm({ name: "Twin" }) });
    const second = await createProduct(db, { actorId, product: productForm({ name: "Twin" }) });
    if (!first.ok || !second.ok) throw new Error("not created");
    expect([first.product.slug, second.product.slug]).toEqual(["twin", "twin-2"]);
    expect(
      await updateProduct(db, {
        actorId,
        id: second.product.id,
        product: productForm({ name: "Twin", slug: "twin" }),
      }),
    ).toEqual(refusal("conflict", "admin-catalogue.products.errors.slugTaken"));

    // Moving to another type: last there, and the old type closes the gap.
    const moved = await updateProduct(db, {
      actorId,
      id: first.product.id,
      product: productForm({ name: "Twin", slug: "twin", type: "game" }),
    });
    expect(moved).toMatchObject({ ok: true, product: { type: "game", position: 3 } });
    await expectCleanSequence("mta");
    await expectCleanSequence("game");

    // Delete: a visible product must be hidden first; then it goes, and positions close up.
    expect(await deleteProduct(db, { actorId, id: first.product.id })).toEqual(
      refusal("conflict", "admin-catalogue.products.errors.deleteVisible"),
    );
    await setProductStatus(db, { actorId, id: first.product.id, status: "hidden" });
    expect(await deleteProduct(db, { actorId, id: first.product.id })).toEqual({ ok: true });
    expect(await findProductForAdmin(db, first.product.id)).toBeUndefined();
    await expectCleanSequence("game");
    const deleted = await auditOf(first.product.id);
    expect(deleted.at(-1)).toMatchObject({ action: "product.delete", after: null });
    expect(JSON.parse(deleted.at(-1)!.before!)).toMatchObject({ slug: "twin" });

    // A voucher naming a product, or an order for it, keeps it from being deleted.
    await setProductStatus(db, { actorId, id: second.product.id, status: "hidden" });
    const voucher = await createVoucher(db, {
      actorId,
      voucher: {
        code: `ONLY${Date.now()}`,
        description: "",
        discountType: "percentage",
        discountValue: 5,
        minPurchaseCents: 0,
        maxUses: 5,
        validFromDay: "2020-01-01",
        validUntilDay: "2099-12-31",
        applicableServices: [second.product.id],
      },
    });
    expect(voucher.ok).toBe(true);
    expect(await findProductForAdmin(db, second.product.id)).toMatchObject({ voucherCount: 1 });
    expect(await deleteProduct(db, { actorId, id: second.product.id })).toEqual(
      refusal("conflict", "admin-catalogue.products.errors.inUse"),
    );

    const used = await createdProduct({ type: "vps", slots: "" });
    const buyer = await customerWithCoins(app(), 10_000);
    const order = await placeOrder(db, buyer, orderInput({ productId: used.id }));
    expect(order.ok).toBe(true);
    await setProductStatus(db, { actorId, id: used.id, status: "hidden" });
    expect(await findProductForAdmin(db, used.id)).toMatchObject({
      orderCount: 1,
      serviceCount: 0,
    });
    expect(await deleteProduct(db, { actorId, id: used.id })).toEqual(
      refusal("conflict", "admin-catalogue.products.errors.inUse"),
    );
    expect(await updateProduct(db, { actorId, id: 999_999, product: productForm() })).toEqual(
      refusal("notFound", "admin-catalogue.products.errors.notFound"),
    );
  });

  it("a hidden product cannot be ordered: 'Service not found', nothing charged; what was bought renews", async () => {
    const { db, admin: actorId } = await asAdmin(app());
    const created = await createdProduct({ type: "samp" });
    const owner = await customerWithCoins(app(), 5_000);
    const { approved } = await approvedOrder(app(), owner, { productId: created.id });
    await setProductStatus(db, { actorId, id: created.id, status: "hidden" });
    // A service already bought is the customer's: hiding the plan does not stop its renewal.
    expect(
      await renewService(db, {
        userId: owner,
        serviceId: approved.hostingServiceId!,
        idempotencyKey: randomUUID(),
      }),
    ).toMatchObject({ ok: true });
    expect(await balanceOf(app(), owner)).toBe(5_000 - 500 - 500);

    const buyer = await customerWithCoins(app(), 5_000);
    const result = await placeOrder(db, buyer, orderInput({ productId: created.id }));
    expect(result).toEqual(refusal("notFound", "orders.errors.serviceNotFound"));
    expect(await balanceOf(app(), buyer)).toBe(5_000);
    expect(await ordersOf(app(), buyer)).toEqual([]);

    // Shown again, it can be ordered again.
    await setProductStatus(db, { actorId, id: created.id, status: "active" });
    expect((await placeOrder(db, buyer, orderInput({ productId: created.id }))).ok).toBe(true);
  });

  it("editing a product's name and price changes no past order, service or ledger row; new orders pay the new price, renewals the old one", async () => {
    const { db, admin: actorId } = await asAdmin(app());
    const { id: productId } = await createdProduct({
      name: "Legacy Plan",
      price: "4.00",
      type: "game",
    });
    const buyer = await customerWithCoins(app(), 100_000);
    const { approved } = await approvedOrder(app(), buyer, {
      productId,
      billingCycle: "quarterly",
    });
    const pending = await placedOrder(app(), buyer, { productId });
    const serviceId = approved.hostingServiceId!;

    const snapshot = async () => ({
      orders: await db.selectFrom("orders").selectAll().orderBy("id").execute(),
      services: await db.selectFrom("hosting_services").selectAll().orderBy("id").execute(),
      ledger: await db.selectFrom("coin_ledger").selectAll().orderBy("id").execute(),
      renewals: await db.selectFrom("service_renewals").selectAll().orderBy("id").execute(),
    });
    const before = await snapshot();
    const edited = await updateProduct(db, {
      actorId,
      id: productId,
      product: productForm({ name: "Shiny Plan", price: "9.00", type: "game" }),
    });
    expect(edited.ok).toBe(true);
    expect(await snapshot()).toEqual(before);
    const service = before.services.find((row) => Number(row.id) === serviceId)!;
    // Quarterly at €4.00: 1200 − 5% = 1140, as bought.
    expect(service).toMatchObject({
      name: "Legacy Plan",
      monthly_price_cents: 400,
      cycle_price_cents: 1140,
    });
    expect(before.orders.find((row) => Number(row.id) === pending.id)).toMatchObject({
      product_name: "Legacy Plan",
      product_price_cents: 400,
      total_cents: 400,
    });

    // Renewal charges what the service was bought at, not the new catalogue price.
    const balance = await balanceOf(app(), buyer);
    const renewed = await renewService(db, {
      userId: buyer,
      serviceId,
      idempotencyKey: randomUUID(),
    });
    expect(renewed.ok).toBe(true);
    expect(await balanceOf(app(), buyer)).toBe(balance - 1140);

    // A new order takes the new name and price.
    const fresh = await placedOrder(app(), buyer, { productId });
    expect(fresh).toMatchObject({
      productName: "Shiny Plan",
      monthlyPriceCents: 900,
      totalCents: 900,
    });
    const row = await readRow(db, "orders", ["product_price_cents"], { id: fresh.id });
    expect(row.product_price_cents).toBe(900);
    expect(await findProductForAdmin(db, productId)).toMatchObject({
      orderCount: 3,
      serviceCount: 1,
      activeServiceCount: 1,
    });
  });

  it("a start after the admin's edits brings back no renamed or deleted plan", async () => {
    const { db, admin: actorId } = await asAdmin(app());
    const all = await listProductsForAdmin(db);
    const renamed = all.find((p) => p.slug === "game-pro")!;
    const removed = all.find((p) => p.slug === "vps-premium")!;
    expect(
      await updateProduct(db, {
        actorId,
        id: renamed.id,
        product: productForm({ name: "Game Pro", slug: "game-pro-2027", type: "game" }),
      }),
    ).toMatchObject({ ok: true });
    await setProductStatus(db, { actorId, id: removed.id, status: "hidden" });
    expect(await deleteProduct(db, { actorId, id: removed.id })).toEqual({ ok: true });
    const count = (await listProductsForAdmin(db)).length;

    await prepareDatabase(app());
    const after = await listProductsForAdmin(db);
    expect(after).toHaveLength(count);
    expect(after.map((p) => p.slug)).not.toContain("game-pro");
    expect(after.map((p) => p.slug)).not.toContain("vps-premium");
  });
});
