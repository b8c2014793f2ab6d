import { expect, it } from "vitest";
import { prepareDatabase } from "~/context.server";
import { placeOrder, rejectOrder } from "~/domain/orders/orders.server";
import { isUniqueViolation } from "~/db/transaction";
import {
  asAdmin,
  balanceOf,
  customerWithCoins,
  expectLedgerIntactAfterEach,
  orderInput,
  placedOrder,
  productId,
} from "../../../tests/support/money-fixtures";
import { voucherForm } from "../../../tests/support/catalogue-fixtures";
import { readRows } from "../../../tests/support/read-column";
import { refusal } from "../../../tests/support/results";
import { describeEachDatabase } from "../../../tests/support/test-database";
import {
  createVoucher,
  findVoucherForAdmin,
  listVouchersForAdmin,
  setVoucherActive,
  updateVoucher,
} from "./promotions.server";

describeEachDatabase("promotions", (app) => {
  expectLedgerIntactAfterEach(app);

  it("creates a voucher an order can use, and refuses its code in any other case", async () => {
    const { db, admin: actorId } = await asAdmin(app());
    const created = await createVoucher(db, {
      actorId,
      voucher: voucherForm({ code: " spring-sale ", discountValue: "20" }),
    });
    expect(created).toMatchObject({
      ok: true,
      voucher: {
        code: "SPRING-SALE",
        discountType: "percentage",
        discountValue: 20,
        usedCount: 0,
        isActive: true,
        status: "active",
        validFrom: "2020-01-01T00:00:00.000Z",
        validUntil: "2099-12-31T23:59:59.999Z",
      },
    });
    for (const code of ["SPRING-SALE", "Spring-Sale"]) {
      expect(await createVoucher(db, { actorId, voucher: voucherForm({ code }) })).toEqual(
        refusal("conflict", "admin-catalogue.promotions.errors.codeTaken"),
      );
    }
    // The database itself refuses a second spelling, whatever writes it.
    const now = new Date().toISOString();
    const sneaky = await db
      .insertInto("vouchers")
      .values({
        code: "spring-sale",
        discount_type: "percentage",
        discount_value: 5,
        max_uses: 1,
        valid_from: now,
        valid_until: now,
        created_at: now,
        updated_at: now,
      })
      .execute()
      .catch((error: unknown) => error);
    expect(isUniqueViolation(sneaky)).toBe(true);

    const buyer = await customerWithCoins(app(), 10_000);
    const order = await placeOrder(
      db,
      buyer,
      orderInput({ productId: await productId(app(), "vps-entry"), voucherCode: "spring-sale" }),
    );
    // €7.00 − 20% = €5.60
    expect(order).toMatchObject({ ok: true, order: { discountCents: 140, totalCents: 560 } });

    const audit = await readRows(db, "audit_log", ["action", "after"], {
      target_type: "voucher",
      target_id: String(created.ok && created.voucher.id),
    });
    expect(audit.map((row) => row.action)).toEqual(["voucher.create"]);
    expect(JSON.parse(audit[0]!.after!)).toMatchObject({ code: "SPRING-SALE", discountValue: 20 });
  });

  it("an edit applies to the next order and changes no order already placed", async () => {
    const { db, admin: actorId } = await asAdmin(app());
    const created = await createVoucher(db, {
      actorId,
      voucher: voucherForm({ code: "EDITME", discountValue: "10" }),
    });
    if (!created.ok) throw new Error(created.error);
    const id = created.voucher.id;
    const edit = (fields: Record<string, string>) =>
      updateVoucher(db, { actorId, id, voucher: voucherForm({ code: "EDITME", ...fields }) });
    const vpsEntry = await productId(app(), "vps-entry");
    const sampStarter = await productId(app(), "samp-starter");
    const buyer = await customerWithCoins(app(), 20_000);
    const first = await placedOrder(app(), buyer, { productId: vpsEntry, voucherCode: "editme" });
    const ordersBefore = await db.selectFrom("orders").selectAll().orderBy("id").execute();

    const edited = await edit({
      discountType: "fixed",
      discountValue: "3",
      minPurchase: "6",
      appliesTo: "selected",
      [`product-${vpsEntry}`]: "on",
    });
    expect(edited).toMatchObject({
      ok: true,
      voucher: {
        discountType: "fixed",
        discountValue: 300,
        minPurchaseCents: 600,
        applicableServices: [vpsEntry],
        usedCount: 1,
        orderCount: 1,
        recentOrders: [{ id: first.id, status: "pending" }],
      },
    });
    expect(await db.selectFrom("orders").selectAll().orderBy("id").execute()).toEqual(ordersBefore);

    const second = await placeOrder(
      db,
      buyer,
      orderInput({ productId: vpsEntry, voucherCode: "EDITME" }),
    );
    expect(second).toMatchObject({ ok: true, order: { discountCents: 300, totalCents: 400 } });
    // Not for another product any more, and the minimum counts.
    expect(
      await placeOrder(db, buyer, orderInput({ productId: sampStarter, voucherCode: "EDITME" })),
    ).toEqual(refusal("invalid", "orders.errors.voucherNotApplicable"));

    // The uses cannot go below those counted; a refused edit changes nothing.
    expect(await edit({ maxUses: "1" })).toEqual(
      refusal("conflict", "admin-catalogue.promotions.errors.maxUsesBelowUsed"),
    );
    expect(await findVoucherForAdmin(db, id)).toMatchObject({
      maxUses: 100,
      discountType: "fixed",
    });
    expect(await edit({ maxUses: "2" })).toMatchObject({
      ok: true,
      voucher: { status: "usedUp", maxUses: 2, usedCount: 2 },
    });
    expect(
      await placeOrder(db, buyer, orderInput({ productId: vpsEntry, voucherCode: "EDITME" })),
    ).toEqual(refusal("invalid", "orders.errors.voucherUsedUp"));

    // Products the catalogue does not have are refused.
    expect(await edit({ appliesTo: "selected", "product-987654": "on" })).toEqual(
      refusal("invalid", "admin-catalogue.promotions.errors.productsUnknown"),
    );
    expect(await updateVoucher(db, { actorId, id: 987_654, voucher: voucherForm() })).toEqual(
      refusal("notFound", "admin-catalogue.promotions.errors.notFound"),
    );
  });

  it("a deactivated voucher is refused at order, and works again once reactivated", async () => {
    const { db, admin: actorId } = await asAdmin(app());
    const created = await createVoucher(db, { actorId, voucher: voucherForm({ code: "PAUSE" }) });
    if (!created.ok) throw new Error(created.error);
    const buyer = await customerWithCoins(app(), 5_000);
    const vps = await productId(app(), "vps-entry");

    expect(
      await setVoucherActive(db, { actorId, id: created.voucher.id, active: false }),
    ).toMatchObject({
      ok: true,
      voucher: { isActive: false, status: "inactive" },
    });
    expect(
      await placeOrder(db, buyer, orderInput({ productId: vps, voucherCode: "pause" })),
    ).toEqual(refusal("invalid", "orders.errors.voucherInactive"));
    expect(await balanceOf(app(), buyer)).toBe(5_000);
    expect((await findVoucherForAdmin(db, created.voucher.id))?.usedCount).toBe(0);

    await setVoucherActive(db, { actorId, id: created.voucher.id, active: true });
    expect(
      (await placeOrder(db, buyer, orderInput({ productId: vps, voucherCode: "pause" }))).ok,
    ).toBe(true);
    const actions = await readRows(
      db,
      "audit_log",
      ["action"],
      { target_type: "voucher", target_id: String(created.voucher.id) },
      "id",
    );
    expect(actions.map((row) => row.action)).toEqual([
      "voucher.create",
      "voucher.deactivate",
      "voucher.activate",
    ]);
  });

  it("refuses a last day that has passed, and keeps one a voucher has run out on", async () => {
    const { db, admin: actorId } = await asAdmin(app());
    const now = new Date("2026-05-10T12:00:00.000Z");
    const before = await db.selectFrom("vouchers").select("id").execute();
    expect(
      await createVoucher(db, {
        actorId,
        voucher: voucherForm({ code: "LATE", validFrom: "2026-05-01", validUntil: "2026-05-09" }),
        now,
      }),
    ).toEqual(refusal("invalid", "admin-catalogue.promotions.errors.untilPassed"));
    expect(await db.selectFrom("vouchers").select("id").execute()).toEqual(before);
    // Its last day is today: it serves orders until the day ends.
    const today = await createVoucher(db, {
      actorId,
      voucher: voucherForm({ code: "TODAY", validFrom: "2026-05-01", validUntil: "2026-05-10" }),
      now,
    });
    expect(today).toMatchObject({ ok: true, voucher: { code: "TODAY" } });
    if (!today.ok) throw new Error(today.error);

    // Days later it has run out: a change that keeps its last day is saved, one that sets another
    // passed day is refused and changes nothing.
    const later = new Date("2026-05-20T12:00:00.000Z");
    const edit = (fields: Record<string, string>) =>
      updateVoucher(db, {
        actorId,
        id: today.voucher.id,
        voucher: voucherForm({ code: "TODAY", validFrom: "2026-05-01", ...fields }),
        now: later,
      });
    expect(await edit({ validUntil: "2026-05-10", description: "Spring" })).toMatchObject({
      ok: true,
      voucher: { description: "Spring", validUntil: today.voucher.validUntil },
    });
    expect(await edit({ validUntil: "2026-05-15", description: "Moved" })).toEqual(
      refusal("invalid", "admin-catalogue.promotions.errors.untilPassed"),
    );
    expect(await findVoucherForAdmin(db, today.voucher.id)).toMatchObject({
      description: "Spring",
      validUntil: today.voucher.validUntil,
    });
    expect(await edit({ validUntil: "2026-06-30" })).toMatchObject({
      ok: true,
      voucher: { validUntil: "2026-06-30T23:59:59.999Z" },
    });
  });

  it("lists vouchers by status and code, with the orders that used them", async () => {
    const { db, admin: actorId } = await asAdmin(app());
    const tag = `L${Date.now()}`;
    const make = async (suffix: string, fields: Record<string, string>, now?: Date) => {
      const result = await createVoucher(db, {
        actorId,
        voucher: voucherForm({ code: `${tag}-${suffix}`, ...fields }),
        now,
      });
      if (!result.ok) throw new Error(result.error);
      return result.voucher;
    };
    const active = await make("ACTIVE", {});
    const later = await make("LATER", { validFrom: "2098-01-01", validUntil: "2098-12-31" });
    // Made while it ran: today no save may set a last day that has passed.
    const past = await make(
      "PAST",
      { validFrom: "2020-01-01", validUntil: "2020-12-31" },
      new Date("2020-06-01T00:00:00.000Z"),
    );
    const full = await make("FULL", { maxUses: "1" });
    const off = await make("OFF", {});
    await setVoucherActive(db, { actorId, id: off.id, active: false });
    const buyer = await customerWithCoins(app(), 50_000);
    const vps = await productId(app(), "vps-entry");
    await placeOrder(db, buyer, orderInput({ productId: vps, voucherCode: full.code }));
    const used: number[] = [];
    for (let i = 0; i < 7; i++) {
      used.push((await placedOrder(app(), buyer, { productId: vps, voucherCode: active.code })).id);
    }
    // A rejected order gives its use back but is still listed among the voucher's orders.
    await rejectOrder(db, { orderId: used[0]!, actorId, reason: "test" });

    const list = async (query: {
      q?: string;
      status?: "active" | "inactive" | "scheduled" | "expired" | "usedUp";
    }) => listVouchersForAdmin(db, { ...query, limit: 25, offset: 0 });
    const codes = async (status: Parameters<typeof list>[0]["status"]) =>
      (await list({ q: tag.toLowerCase(), status })).vouchers.map((v) => v.code);
    expect(await codes(undefined)).toEqual([
      off.code,
      full.code,
      past.code,
      later.code,
      active.code,
    ]);
    expect(await codes("active")).toEqual([active.code]);
    expect(await codes("scheduled")).toEqual([later.code]);
    expect(await codes("expired")).toEqual([past.code]);
    expect(await codes("usedUp")).toEqual([full.code]);
    expect(await codes("inactive")).toEqual([off.code]);

    const page = await list({ q: `${tag}-ACT` });
    expect(page.total).toBe(1);
    const [row] = page.vouchers;
    expect(row).toMatchObject({ usedCount: 6, orderCount: 7, status: "active" });
    expect(row!.recentOrders.map((o) => o.id)).toEqual(used.slice(-5).reverse());
    // LIKE's wildcards are plain characters in the search.
    expect((await list({ q: "%" })).vouchers).toEqual([]);

    const paged = await listVouchersForAdmin(db, { q: tag, limit: 2, offset: 2 });
    expect(paged.vouchers.map((v) => v.code)).toEqual([past.code, later.code]);
    expect(paged.hasMore).toBe(true);
    expect(paged.total).toBe(5);
  });

  it("keeps the seed voucher's exact window when its days are not changed, and a start does not re-create a renamed seed", async () => {
    const { db, admin: actorId } = await asAdmin(app());
    const seed = (await listVouchersForAdmin(db, { q: "WELCOME10", limit: 5, offset: 0 }))
      .vouchers[0]!;
    expect(seed).toMatchObject({
      discountType: "percentage",
      discountValue: 10,
      minPurchaseCents: 500,
      maxUses: 100,
    });
    expect(Date.parse(seed.validUntil) - Date.parse(seed.validFrom)).toBe(30 * 86_400_000);
    const edited = await updateVoucher(db, {
      actorId,
      id: seed.id,
      voucher: voucherForm({
        code: "WELCOME-2027",
        description: "Renamed",
        minPurchase: "5",
        validFrom: seed.validFrom.slice(0, 10),
        validUntil: seed.validUntil.slice(0, 10),
      }),
    });
    expect(edited).toMatchObject({
      ok: true,
      voucher: { code: "WELCOME-2027", validFrom: seed.validFrom, validUntil: seed.validUntil },
    });
    await prepareDatabase(app());
    expect(
      (await listVouchersForAdmin(db, { q: "WELCOME10", limit: 5, offset: 0 })).vouchers,
    ).toEqual([]);
  });
});
