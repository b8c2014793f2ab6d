import type { ProductStatus } from "~/domain/catalogue/catalogue";
import type { AdminProduct } from "~/domain/catalogue/catalogue-admin";
import type { AdminVoucher } from "~/domain/promotions/promotions";
import type { ReactionTable } from "./reaction.server";
import { auditSaved, type Saved } from "./saved.server";

export type CatalogueEvent =
  /** An admin added a product (no `before`) or changed its catalogue fields. */
  | ({ type: "product.saved" } & Saved<AdminProduct>)
  /** Moved one place up or down among its type's products. */
  | { type: "product.moved"; actorId: string; productId: number; from: number; to: number }
  /** Hidden from the catalogue, or shown again. */
  | {
      type: "product.statusChanged";
      actorId: string;
      productId: number;
      from: ProductStatus;
      to: ProductStatus;
    }
  /** Deleted for good (`product` as it was): a hidden one nothing referred to. */
  | { type: "product.deleted"; actorId: string; product: AdminProduct }
  /** An admin added a voucher (no `before`) or changed its terms. */
  | ({ type: "voucher.saved" } & Saved<AdminVoucher>)
  /** Switched off (orders refuse it) or on again. */
  | { type: "voucher.switched"; actorId: string; voucherId: number; active: boolean };

/** What the audit log keeps of a product: its catalogue fields, not the counts nor its times. */
function productView(product: AdminProduct) {
  const {
    orderCount: _o,
    serviceCount: _s,
    activeServiceCount: _a,
    voucherCount: _v,
    ...rest
  } = product;
  const { createdAt: _c, updatedAt: _u, ...fields } = rest;
  return fields;
}

/** What the audit log keeps of a voucher: its terms, not its orders nor its status of the day. */
function voucherView(voucher: AdminVoucher) {
  const { recentOrders: _r, orderCount: _o, status: _s, createdAt: _c, ...terms } = voucher;
  return terms;
}

const savedProduct = auditSaved("product", productView);
const savedVoucher = auditSaved("voucher", voucherView);

/** What follows an admin's changes to the catalogue's products and to the vouchers. */
export const catalogueReactions: ReactionTable<CatalogueEvent> = {
  "product.saved": {
    audit: (event) => savedProduct(event, event.before ? "product.update" : "product.create"),
  },
  "product.moved": {
    audit: ({ actorId, productId, from, to }) => ({
      actorId,
      action: "product.move",
      targetType: "product",
      targetId: productId,
      before: { position: from },
      after: { position: to },
    }),
  },
  "product.statusChanged": {
    audit: ({ actorId, productId, from, to }) => ({
      actorId,
      action: to === "hidden" ? "product.hide" : "product.show",
      targetType: "product",
      targetId: productId,
      before: { status: from },
      after: { status: to },
    }),
  },
  "product.deleted": {
    audit: ({ actorId, product }) => ({
      actorId,
      action: "product.delete",
      targetType: "product",
      targetId: product.id,
      before: productView(product),
    }),
  },
  "voucher.saved": {
    audit: (event) => savedVoucher(event, event.before ? "voucher.update" : "voucher.create"),
  },
  "voucher.switched": {
    audit: ({ actorId, voucherId, active }) => ({
      actorId,
      action: active ? "voucher.activate" : "voucher.deactivate",
      targetType: "voucher",
      targetId: voucherId,
      before: { isActive: !active },
      after: { isActive: active },
    }),
  },
};
