import { expect, it } from "vitest";
import { inTransaction } from "~/db/transaction";
import type { Announcement } from "~/domain/announcements/announcements";
import { findProductForAdmin } from "~/domain/catalogue/catalogue-admin.server";
import { listPaymentMethodsForAdmin } from "~/domain/payments/payment-methods.server";
import { findVoucherForAdmin } from "~/domain/promotions/promotions.server";
import { adminId, customerWithCoins } from "../../../tests/support/money-fixtures";
import { latestRow } from "../../../tests/support/read-column";
import { describeEachDatabase } from "../../../tests/support/test-database";
import { record, type DomainEvent } from "./events.server";

describeEachDatabase("the admin's configuration events", (app) => {
  /** The audit entry an event's reaction wrote: the latest of `action` on `targetId`, its JSON read. */
  const audited = async (action: string, targetId: string | number) => {
    const row = await latestRow(app().db, "audit_log", "*", {
      action,
      target_id: String(targetId),
    });
    return {
      actorId: row.actor_id,
      targetType: row.target_type,
      before: row.before === null ? null : (JSON.parse(row.before) as unknown),
      after: row.after === null ? null : (JSON.parse(row.after) as unknown),
      reason: row.reason,
    };
  };
  const recorded = (event: DomainEvent) => inTransaction(app().db, (trx) => record(trx, event));

  const aProduct = async () => {
    const row = await app().db.selectFrom("products").select("id").executeTakeFirstOrThrow();
    return (await findProductForAdmin(app().db, Number(row.id)))!;
  };
  const aVoucher = async () => {
    const row = await app().db.selectFrom("vouchers").select("id").executeTakeFirstOrThrow();
    return (await findVoucherForAdmin(app().db, Number(row.id)))!;
  };
  const aMethod = async () => (await listPaymentMethodsForAdmin(app().db))[0]!;

  it("product.saved: audited as a creation without a before, as an update with one; fields only", async () => {
    const actorId = await adminId(app());
    const product = await aProduct();
    const {
      orderCount: _o,
      serviceCount: _s,
      activeServiceCount: _a,
      voucherCount: _v,
      createdAt: _c,
      updatedAt: _u,
      ...fields
    } = product;
    await recorded({ type: "product.saved", actorId, after: product });
    expect(await audited("product.create", product.id)).toEqual({
      actorId,
      targetType: "product",
      before: null,
      after: fields,
      reason: "",
    });
    const renamed = { ...product, name: `${product.name} renamed` };
    await recorded({ type: "product.saved", actorId, before: product, after: renamed });
    expect(await audited("product.update", product.id)).toMatchObject({
      before: fields,
      after: { ...fields, name: renamed.name },
    });
  });

  it("product.moved, product.statusChanged and product.deleted: their audit entries", async () => {
    const actorId = await adminId(app());
    const product = await aProduct();
    await recorded({ type: "product.moved", actorId, productId: product.id, from: 2, to: 1 });
    expect(await audited("product.move", product.id)).toMatchObject({
      actorId,
      targetType: "product",
      before: { position: 2 },
      after: { position: 1 },
    });
    const changed = { actorId, productId: product.id } as const;
    await recorded({ type: "product.statusChanged", ...changed, from: "active", to: "hidden" });
    expect(await audited("product.hide", product.id)).toMatchObject({
      before: { status: "active" },
      after: { status: "hidden" },
    });
    await recorded({ type: "product.statusChanged", ...changed, from: "hidden", to: "active" });
    expect(await audited("product.show", product.id)).toMatchObject({
      before: { status: "hidden" },
      after: { status: "active" },
    });
    await recorded({ type: "product.deleted", actorId, product });
    const deleted = await audited("product.delete", product.id);
    expect(deleted).toMatchObject({ actorId, targetType: "product", after: null });
    expect(deleted.before).toMatchObject({ id: product.id, slug: product.slug });
    expect(deleted.before).not.toHaveProperty("orderCount");
    expect(deleted.before).not.toHaveProperty("updatedAt");
  });

  it("voucher.saved and voucher.switched: the terms before and after, the state switched", async () => {
    const actorId = await adminId(app());
    const voucher = await aVoucher();
    await recorded({ type: "voucher.saved", actorId, after: voucher });
    const created = await audited("voucher.create", voucher.id);
    expect(created).toMatchObject({ actorId, targetType: "voucher", before: null });
    expect(created.after).toMatchObject({ id: voucher.id, code: voucher.code });
    for (const left of ["recentOrders", "orderCount", "status", "createdAt"])
      expect(created.after).not.toHaveProperty(left);
    const changed = { ...voucher, maxUses: voucher.maxUses + 1 };
    await recorded({ type: "voucher.saved", actorId, before: voucher, after: changed });
    expect(await audited("voucher.update", voucher.id)).toMatchObject({
      before: { maxUses: voucher.maxUses },
      after: { maxUses: voucher.maxUses + 1 },
    });
    await recorded({ type: "voucher.switched", actorId, voucherId: voucher.id, active: false });
    expect(await audited("voucher.deactivate", voucher.id)).toMatchObject({
      before: { isActive: true },
      after: { isActive: false },
    });
    await recorded({ type: "voucher.switched", actorId, voucherId: voucher.id, active: true });
    expect(await audited("voucher.activate", voucher.id)).toMatchObject({
      before: { isActive: false },
      after: { isActive: true },
    });
  });

  it("paymentMethod.saved, .switched and .deleted: the method without its times", async () => {
    const actorId = await adminId(app());
    const method = await aMethod();
    const { createdAt: _c, updatedAt: _u, ...fields } = method;
    await recorded({ type: "paymentMethod.saved", actorId, after: method });
    expect(await audited("payment_method.create", method.id)).toEqual({
      actorId,
      targetType: "payment_method",
      before: null,
      after: fields,
      reason: "",
    });
    const resorted = { ...method, sortOrder: method.sortOrder + 1 };
    await recorded({ type: "paymentMethod.saved", actorId, before: method, after: resorted });
    expect(await audited("payment_method.update", method.id)).toMatchObject({
      before: fields,
      after: { ...fields, sortOrder: method.sortOrder + 1 },
    });
    const on = { ...method, enabled: true };
    const off = { ...method, enabled: false };
    await recorded({ type: "paymentMethod.switched", actorId, before: off, after: on });
    expect(await audited("payment_method.enable", method.id)).toMatchObject({
      before: { enabled: false },
      after: { enabled: true },
    });
    await recorded({ type: "paymentMethod.switched", actorId, before: on, after: off });
    expect(await audited("payment_method.disable", method.id)).toMatchObject({
      before: { enabled: true },
      after: { enabled: false },
    });
    await recorded({ type: "paymentMethod.deleted", actorId, method });
    expect(await audited("payment_method.delete", method.id)).toMatchObject({
      before: fields,
      after: null,
    });
  });

  it("settings.saved: the form's changed fields, as they were and as they are", async () => {
    const actorId = await adminId(app());
    const change = { before: { siteName: "Old" }, after: { siteName: "New" } };
    await recorded({ type: "settings.saved", actorId, form: "general", change });
    expect(await audited("settings.update", "general")).toEqual({
      actorId,
      targetType: "settings",
      ...change,
      reason: "",
    });
  });

  it("announcement events: created with its texts, changed with what it was", async () => {
    const actorId = await adminId(app());
    const before: Announcement = {
      id: 9_001,
      title: "Maintenance",
      content: "Tonight",
      type: "info",
      isActive: true,
      targetAudience: "all",
      createdAt: "2026-01-01T00:00:00.000Z",
      translations: {
        fr: { title: "Maintenance", content: "Ce soir" },
        ar: { title: "", content: "" },
      },
    };
    const texts = { title: "Maintenance done", translations: before.translations };
    await recorded({ type: "announcement.created", actorId, announcementId: 9_001, texts });
    expect(await audited("announcement.create", 9_001)).toEqual({
      actorId,
      targetType: "announcement",
      before: null,
      after: texts,
      reason: "",
    });
    await recorded({ type: "announcement.updated", actorId, before, texts });
    expect(await audited("announcement.update", 9_001)).toMatchObject({ before, after: texts });
    for (const [type, action] of [
      ["announcement.activated", "announcement.activate"],
      ["announcement.deactivated", "announcement.deactivate"],
      ["announcement.deleted", "announcement.delete"],
    ] as const) {
      await recorded({ type, actorId, before });
      expect(await audited(action, 9_001)).toMatchObject({ before, after: null });
    }
  });

  it("contactMessage.deleted and newsletterSubscriber.removed: when, never who", async () => {
    const actorId = await adminId(app());
    const at = "2026-02-03T04:05:06.000Z";
    await recorded({
      type: "contactMessage.deleted",
      actorId,
      messageId: 9_002,
      receivedAt: at,
      read: true,
    });
    expect(await audited("contact_message.delete", 9_002)).toEqual({
      actorId,
      targetType: "contact_message",
      before: { receivedAt: at, read: true },
      after: null,
      reason: "",
    });
    await recorded({
      type: "newsletterSubscriber.removed",
      actorId,
      subscriberId: 9_003,
      subscribedAt: at,
    });
    expect(await audited("newsletter_subscriber.remove", 9_003)).toEqual({
      actorId,
      targetType: "newsletter_subscriber",
      before: { subscribedAt: at },
      after: null,
      reason: "",
    });
  });

  it("client.noteChanged: the old and new note on the account", async () => {
    const actorId = await adminId(app());
    const userId = await customerWithCoins(app(), 0);
    await recorded({
      type: "client.noteChanged",
      actorId,
      userId,
      change: { before: null, after: "Pays late" },
    });
    expect(await audited("user.note", userId)).toEqual({
      actorId,
      targetType: "user",
      before: { adminNote: null },
      after: { adminNote: "Pays late" },
      reason: "",
    });
  });

  it("legacy.imported: no actor, the file and its counts, and its reason", async () => {
    const counts = { users: { imported: 2, matched: 1, skipped: 0, already: 0 } };
    await recorded({
      type: "legacy.imported",
      fileHash: "abc123def456",
      fileName: "old.json",
      counts,
    });
    expect(await audited("legacy.import", "abc123def456")).toEqual({
      actorId: null,
      targetType: "legacy_import",
      before: null,
      after: { file: "old.json", counts },
      reason: "Imported old.json",
    });
  });
});
