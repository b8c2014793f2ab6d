import { sql } from "kysely";
import { record } from "~/domain/events/events.server";
import type { Product } from "~/domain/catalogue/catalogue";
import {
  findActiveProduct,
  listActiveProducts,
  productNameIn,
} from "~/domain/catalogue/catalogue.server";
import { getSettings } from "~/domain/settings/settings.server";
import type { Settings } from "~/domain/settings/settings";
import { creditOrderInvoice } from "~/domain/invoices/credit-notes.server";
import {
  amountsFor,
  invoiceTermsFor,
  issueOrderInvoice,
  orderVatFor,
} from "~/domain/invoices/issuing.server";
import {
  payFromCoins,
  writeLedgerEntry,
  type InsufficientCoins,
} from "~/domain/coins/coins.server";
import { ledgerReason } from "~/domain/coins/ledger-reason";
import { customerCount, withOwner } from "~/db/customer-rows";
import { fetchPage, pageWindow, type PageRequest } from "~/db/paging";
import { LIST_PAGE_SIZE } from "~/domain/customer-dashboard/customer-dashboard";
import {
  inTransaction,
  storeOncePerKey,
  Refusal,
  refuse,
  type Db,
  type Tx,
} from "~/db/transaction";
import {
  addDays,
  evaluateVoucher,
  playerSlotsFor,
  quote,
  type OrderFormInput,
  type OrderStatus,
  type VoucherError,
  type VoucherTerms,
  type AdminOrderView,
  type Order,
} from "./orders";
import { toVoucherTerms } from "~/domain/promotions/promotions.server";
import { isOfferedLocation, slotChoicesFor } from "./order-options";
import type { VoucherCheckQuery, VoucherCheckResult } from "./voucher-check";
import {
  unverifiedEmailRefusal,
  type UnverifiedEmailRefusal,
} from "~/domain/accounts/email-verification.server";
import { panelHasRoom } from "~/domain/provisioning/provisioning.server";
import {
  decidePending,
  orderColumns,
  orderRef,
  toOrder,
  type DecideResult,
  type OrderRow,
} from "./order-rows.server";
import { activationOnPayment, approvePending } from "./order-approval.server";
import {
  requireStaffPermission,
  requireStaffPermissionOrSystem,
  type StaffForbidden,
} from "~/domain/staff/staff-actor.server";

export type { DecideResult } from "./order-rows.server";

async function findVoucher(db: Db | Tx, code: string): Promise<VoucherTerms | undefined> {
  const row = await db
    .selectFrom("vouchers")
    .selectAll()
    .where("code", "=", code)
    .executeTakeFirst();
  return row && toVoucherTerms(row);
}

/**
 * The location and player slots an order gets. The location must be one of the settings' list (read in
 * the order's transaction, not from a cache), the first when none is sent; the slots one of the plan's
 * choices, the plan's own count when none is sent; a VPS has none.
 */
function orderOptions(
  locations: readonly string[],
  product: Product,
  input: Pick<OrderFormInput, "location" | "playerSlots">,
):
  | { ok: true; location: string; playerSlots: number | null }
  | { ok: false; kind: "invalid"; error: "orders.errors.invalidOption"; field: string } {
  const location = input.location ?? locations[0]!;
  if (!isOfferedLocation(locations, location))
    return { ok: false, kind: "invalid", error: "orders.errors.invalidOption", field: "location" };
  const slots = slotChoicesFor(product);
  if (!slots) return { ok: true, location, playerSlots: null };
  const playerSlots = input.playerSlots ?? slots.defaultSlots;
  if (!slots.choices.includes(playerSlots))
    return {
      ok: false,
      kind: "invalid",
      error: "orders.errors.invalidOption",
      field: "playerSlots",
    };
  return { ok: true, location, playerSlots: playerSlotsFor(product.type, playerSlots) };
}

export type PlaceOrderResult =
  /**
   * Placed and paid; approved by the system at once when its plan activates when paid and the customer is
   * trusted (`order.status` "approved"), else pending with its `waitReason`.
   */
  | { ok: true; order: Order; balanceCents: number | null; duplicate: boolean }
  /** The account's address is not verified while that is required (docs/accounts.md). */
  | UnverifiedEmailRefusal
  | { ok: false; kind: "notFound"; error: "orders.errors.serviceNotFound" }
  | { ok: false; kind: "conflict"; error: "orders.errors.priceChanged" }
  /** The VAT added to the prices is not the one the form showed (`shownVatRate`). */
  | { ok: false; kind: "conflict"; error: "orders.errors.vatChanged" }
  /** A product made on the game panel, and no node of the chosen location has room for it. */
  | { ok: false; kind: "conflict"; error: "orders.errors.locationFull" }
  | { ok: false; kind: "invalid"; error: "orders.errors.expired" }
  /** The balance, as it is now, does not cover the total. */
  | InsufficientCoins
  | { ok: false; kind: "invalid"; error: VoucherError; minPurchaseCents?: number }
  /** A location the settings do not offer, or slots the plan does not (`field` says which). */
  | { ok: false; kind: "invalid"; error: "orders.errors.invalidOption"; field: string };

/**
 * Places an order and pays it from coins in one transaction: the voucher use is counted, the balance
 * debited with its ledger row, the order created as pending and its invoice issued (docs/invoices.md),
 * or nothing happens at all. The form's
 * idempotency key is unique in the database, so a double click, a retry or a reload after submit
 * returns the first order instead of creating a second one.
 */
export async function placeOrder(
  db: Db,
  userId: string,
  input: OrderFormInput,
  options: {
    /** An unverified address is refused (verifiedEmailRequired: the setting, with SMTP). */
    requireVerifiedEmail?: boolean;
    /**
     * The settings the caller has (the request's cache, as a renewal is given): the locations offered,
     * the invoicing, the staff's webhook and the mail's default language. Read in the transaction when
     * not given. An order is a hot path, which read and parsed them three times before.
     */
    settings?: Settings;
  } = {},
): Promise<PlaceOrderResult> {
  const known = options.settings;
  const unverified = await unverifiedEmailRefusal(db, userId, options.requireVerifiedEmail);
  if (unverified) return unverified;
  const earlier = async (): Promise<PlaceOrderResult | undefined> => {
    const row = await db
      .selectFrom("orders")
      .select(orderColumns)
      .where("idempotency_key", "=", input.idempotencyKey)
      .executeTakeFirst();
    if (!row) return undefined;
    // A key belongs to the form it was made for: someone else's key is neither a way to read their
    // order nor a new one (it is unique in the table), so the form is treated as stale.
    if (row.user_id !== userId)
      return { ok: false, kind: "invalid", error: "orders.errors.expired" };
    return { ok: true, order: toOrder(row), balanceCents: null, duplicate: true };
  };
  // Nearly every submit is new, so the key is not looked up first: the unique index on it stops a
  // second order, and a submit that cannot be placed as asked (the key's index, a product withdrawn since,
  // the voucher's last use gone to the first submit) then looks for the order its key already made. A
  // retry therefore always gets the first order, and a new order costs one query fewer.
  const result = await storeOncePerKey(
    earlier,
    () =>
      inTransaction(db, async (trx): Promise<PlaceOrderResult> => {
        const product = await findActiveProduct(trx, input.productId);
        if (!product) refuse<PlaceOrderResult>("notFound", "orders.errors.serviceNotFound");
        const shown = input.shownPrices?.[product.id];
        if (shown !== undefined && shown !== product.priceCents)
          refuse<PlaceOrderResult>("conflict", "orders.errors.priceChanged");

        // Read once: the locations offered, what the invoice is issued with, the staff's webhook and the
        // mail's default language.
        const settings = known ?? (await getSettings(trx));
        const options = orderOptions(settings.general.locations, product, input);
        if (!options.ok) throw new Refusal<PlaceOrderResult>(options);
        // A server made on the game panel: a location with no room left is refused before any charge.
        if (product.provisioned && !(await panelHasRoom(trx, product.id, options.location)))
          refuse<PlaceOrderResult>("conflict", "orders.errors.locationFull");

        const base = quote({
          productPriceCents: product.priceCents,
          cycle: input.billingCycle,
          backup: input.backup,
        });
        let voucherDiscount = 0;
        let voucherId: number | null = null;
        if (input.voucherCode) {
          const voucher = await findVoucher(trx, input.voucherCode);
          const verdict = evaluateVoucher(voucher, {
            productId: product.id,
            subtotalCents: base.subtotalCents,
            now: new Date(),
          });
          if (!verdict.ok) throw new Refusal<PlaceOrderResult>(verdict);
          // Counted only while uses remain, so two orders racing for the last use cannot both get it.
          const counted = await trx
            .updateTable("vouchers")
            .set({ used_count: sql`used_count + 1` })
            .where("id", "=", voucher!.id)
            .where("used_count", "<", sql<number>`max_uses`)
            .where("is_active", "=", 1)
            .executeTakeFirst();
          if (Number(counted.numUpdatedRows) !== 1) {
            refuse<PlaceOrderResult>("invalid", "orders.errors.voucherUsedUp");
          }
          voucherDiscount = verdict.discountCents;
          voucherId = voucher!.id;
        }
        const price = quote(
          {
            productPriceCents: product.priceCents,
            cycle: input.billingCycle,
            backup: input.backup,
          },
          voucherDiscount,
        );

        // What is charged: the price, with the VAT added when prices do not include it (ADR 36).
        const terms = await invoiceTermsFor(trx, userId, settings);
        if (
          input.shownVatRate !== undefined &&
          input.shownVatRate !== (terms.pricesIncludeVat ? 0 : terms.vatRateBp)
        )
          refuse<PlaceOrderResult>("conflict", "orders.errors.vatChanged");
        const amounts = amountsFor(terms, price.totalCents);
        // Approved by the system as it is placed, or why it waits (decided before anything is written:
        // the trust rule's facts are earlier payments and orders, the room the approval's own check).
        const activation = await activationOnPayment(trx, {
          userId,
          product,
          location: options.location,
        });
        const now = new Date().toISOString();
        const row = await trx
          .insertInto("orders")
          .values({
            user_id: userId,
            product_id: product.id,
            product_name: product.name,
            product_type: product.type,
            product_price_cents: product.priceCents,
            billing_cycle: input.billingCycle,
            location: options.location,
            ddos_protection: input.ddosProtection === "yes" ? 1 : 0,
            player_slots: options.playerSlots,
            backup: input.backup,
            server_name: input.serverName,
            voucher_id: voucherId,
            voucher_code: voucherId ? input.voucherCode! : null,
            monthly_price_cents: price.monthlyCents,
            subtotal_cents: price.subtotalCents,
            discount_cents: price.voucherDiscountCents,
            total_cents: amounts.totalCents,
            paid_with_coins: 1,
            auto_renew: input.autoRenew ? 1 : 0,
            status: "pending",
            wait_reason: activation.approve ? null : activation.reason,
            idempotency_key: input.idempotencyKey,
            created_at: now,
            updated_at: now,
          })
          .returning(orderColumns)
          .executeTakeFirstOrThrow();

        let balance: number | null = null;
        let ledgerEntryId: number | null = null;
        if (amounts.totalCents > 0) {
          const paid = await payFromCoins(trx, amounts.totalCents, {
            userId,
            kind: "order_payment",
            reason: ledgerReason("orderPayment", { id: Number(row.id), product: product.name }),
            actorId: userId,
            orderId: Number(row.id),
          });
          balance = paid.balanceCents;
          ledgerEntryId = paid.entryId;
        }
        // The customer's "order received", each admin's "order waiting" and the staff's Discord post, told
        // with the settings read already. The ledger's reason and the invoice line keep the plan's name,
        // records of what was bought.
        await record(
          trx,
          {
            type: "order.placed",
            order: {
              id: Number(row.id),
              userId,
              productName: product.name,
              serverName: input.serverName,
            },
            totalCents: amounts.totalCents,
            approvedAutomatically: activation.approve,
          },
          undefined,
          settings,
        );
        // Its invoice, in this transaction (rolled back with the order if anything fails); on PostgreSQL
        // numbered as it commits, so the year's counter row is locked for the commit alone (ADR 37).
        await issueOrderInvoice(trx, terms, {
          userId,
          order: {
            id: Number(row.id),
            // The plan as the customer read it: its name in their language as the invoice is issued.
            productName: await productNameIn(trx, product, terms.buyerLocale),
            billingCycle: input.billingCycle,
            serverName: input.serverName,
            subtotalCents: price.subtotalCents,
            discountCents: price.voucherDiscountCents,
            voucherCode: voucherId ? input.voucherCode! : null,
          },
          amounts,
          ledgerEntryId,
        });
        // The admin's approval step, by the system (no actor): its service, its panel plan and create
        // job, its audit and notices, as an admin's click would have made them, in this transaction.
        const order = activation.approve
          ? (
              await approvePending(trx, {
                orderId: Number(row.id),
                actorId: null,
                now: new Date(now),
              })
            ).order
          : toOrder(row);
        return { ok: true, order, balanceCents: balance, duplicate: false };
      }),
    { lookFirst: false },
  );
  return result.ok ? result : ((await earlier()) ?? result);
}

/**
 * The order form's page: the plans in the reader's language, and the VAT the signed-in customer's order
 * would add (`orderVatFor`), so the total it shows is what `placeOrder` charges (docs/invoices.md).
 */
export async function loadOrderForm(
  db: Db,
  input: { userId: string | null; locale: string; invoicing: Settings["invoicing"] },
) {
  const [products, vat] = await Promise.all([
    listActiveProducts(db, undefined, input.locale),
    orderVatFor(db, input.userId, input.invoicing),
  ]);
  return { products, vat };
}

/**
 * Approve, by a member of the staff whose role decides orders (`orders.decide`, checked in the
 * transaction): the customer's service is created, active for one cycle from now. At most once. (The
 * system approves through the step, approvePending, as the order is placed.)
 */
export async function approveOrder(
  db: Db,
  input: { orderId: number; actorId: string },
): Promise<DecideResult | StaffForbidden> {
  return inTransaction(db, async (trx) => {
    await requireStaffPermission(trx, input.actorId, "orders.decide");
    return approvePending(trx, { ...input, now: new Date() });
  });
}

/**
 * Reject with a reason: the coins paid come back with a ledger row, and the voucher use is returned.
 * `expired`: the lifecycle gives up on an order no admin decided, with the system as the actor
 * (`actorId` null), its own refund reason and notification, at the lifecycle's clock. Any other actor
 * is a member of the staff whose role decides orders (`orders.decide`), checked in the transaction.
 */
export async function rejectOrder(
  db: Db,
  input: {
    orderId: number;
    actorId: string | null;
    reason: string;
    expired?: { days: number; now: Date };
  },
): Promise<DecideResult | StaffForbidden> {
  return inTransaction(db, async (trx) => {
    await requireStaffPermissionOrSystem(trx, input.actorId, "orders.decide");
    const decided = await decidePending(
      trx,
      input,
      { status: "rejected", reject_reason: input.reason },
      (input.expired?.now ?? new Date()).toISOString(),
    );
    const order = toOrder(decided);
    let refundEntryId: number | null = null;
    if (order.paidWithCoins && order.totalCents > 0) {
      const refunded = await writeLedgerEntry(trx, {
        userId: order.userId,
        amountCents: order.totalCents,
        kind: "order_refund",
        reason: input.expired
          ? ledgerReason("orderExpiredRefund", { id: order.id })
          : ledgerReason("orderRefund", { id: order.id, reason: input.reason }),
        actorId: input.actorId,
        orderId: order.id,
      });
      // The refund would take the balance past the maximum: the order stays pending, nothing is lost.
      if (refunded === null) refuse<DecideResult>("conflict", "coins.errors.balanceTooHigh");
      refundEntryId = refunded.entryId;
    }
    // Its invoice (orders placed before invoices existed have none) gets its credit note.
    const creditNote = await creditOrderInvoice(trx, {
      orderId: order.id,
      reason: input.reason,
      ledgerEntryId: refundEntryId,
      actorId: input.actorId,
      now: input.expired?.now,
    });
    if (decided.voucher_id) {
      await trx
        .updateTable("vouchers")
        .set({ used_count: sql`used_count - 1` })
        .where("id", "=", decided.voucher_id)
        .where("used_count", ">", 0)
        .execute();
    }
    await record(
      trx,
      {
        type: "order.rejected",
        actorId: input.actorId,
        order: orderRef(order),
        reason: input.reason,
        totalCents: order.totalCents,
        refundCents: order.paidWithCoins ? order.totalCents : 0,
        expired: input.expired,
        creditNote,
      },
      input.expired?.now,
    );
    return { ok: true, order };
  });
}

/** The count of orders waiting for a decision (one customer's, or everyone's), as a query to run or to nest. */
export function pendingOrdersCount(db: Db | Tx, userId?: string) {
  return customerCount(db.selectFrom("orders").where("status", "=", "pending"), "orders", userId);
}

/** A customer's orders, newest first, a page of the dashboard's LIST_PAGE_SIZE at a time. */
export async function listCustomerOrders(db: Db, userId: string, page: PageRequest) {
  const { rows, hasMore } = await fetchPage(
    db
      .selectFrom("orders")
      .select(orderColumns)
      .where("user_id", "=", userId)
      .orderBy("id", "desc"),
    pageWindow(page, LIST_PAGE_SIZE),
  );
  return { orders: rows.map(toOrder), hasMore };
}

/**
 * A customer's orders that are not services (yet), newest first, at most `limit`: every pending one, and
 * the rejected ones decided since `rejectedSince` (ISO).
 */
export async function listOrdersNotActive(
  db: Db,
  userId: string,
  options: { rejectedSince: string; limit: number },
): Promise<Order[]> {
  const rows = await db
    .selectFrom("orders")
    .select(orderColumns)
    .where("user_id", "=", userId)
    .where((eb) =>
      eb.or([
        eb("status", "=", "pending"),
        eb.and([eb("status", "=", "rejected"), eb("decided_at", ">=", options.rejectedSince)]),
      ]),
    )
    .orderBy("id", "desc")
    .limit(options.limit)
    .execute();
  return rows.map(toOrder);
}

/** How many orders a page of /admin/orders shows. */
export const ADMIN_ORDERS_PAGE_SIZE = 25;

/** Every customer's orders for admins, newest first, filtered by status or id and paged. */
export async function listOrdersForAdmin(
  db: Db,
  filter: PageRequest & { status?: OrderStatus; id?: number },
) {
  let query = withOwner(db, "orders").select([
    ...orderColumns.map((c) => `orders.${c}` as const),
    "users.email",
    "users.name as user_name",
  ]);
  if (filter.status) query = query.where("orders.status", "=", filter.status);
  if (filter.id) query = query.where("orders.id", "=", filter.id);
  const { rows, hasMore } = await fetchPage(
    query.orderBy("orders.id", "desc"),
    pageWindow(filter, ADMIN_ORDERS_PAGE_SIZE),
  );
  return {
    orders: rows.map((row): AdminOrderView => ({
      ...toOrder(row as OrderRow),
      userEmail: row.email,
      userName: row.user_name,
    })),
    hasMore,
  };
}

export const WELCOME_VOUCHER = {
  code: "WELCOME10",
  description: "10% off your first order",
  discountType: "percentage",
  discountValue: 10,
  minPurchaseCents: 500,
  maxUses: 100,
  validDays: 30,
} as const;

/**
 * The spec's seed voucher, created once into an empty voucher table: valid for 30 days from the first
 * start. After that the vouchers are the admins' (/admin/promotions): a renamed code is not re-created.
 */
export async function seedVouchers(db: Db): Promise<void> {
  const existing = await db.selectFrom("vouchers").select("id").limit(1).executeTakeFirst();
  if (existing) return;
  const now = new Date();
  await db
    .insertInto("vouchers")
    .values({
      code: WELCOME_VOUCHER.code,
      description: WELCOME_VOUCHER.description,
      discount_type: WELCOME_VOUCHER.discountType,
      discount_value: WELCOME_VOUCHER.discountValue,
      min_purchase_cents: WELCOME_VOUCHER.minPurchaseCents,
      max_uses: WELCOME_VOUCHER.maxUses,
      used_count: 0,
      is_active: 1,
      valid_from: now.toISOString(),
      valid_until: addDays(now, WELCOME_VOUCHER.validDays),
      applicable_services: JSON.stringify("all"),
      created_at: now.toISOString(),
      updated_at: now.toISOString(),
    })
    .onConflict((oc) => oc.column("code").doNothing())
    .execute();
}

/**
 * Checks a voucher code as the order form is filled in: whether it applies to this plan, cycle and backup
 * now, and what it takes off, by the same rules and arithmetic as placeOrder (which checks it again and
 * counts its use). One read of the plan and one of the voucher; nothing is written.
 */
export async function checkVoucher(
  db: Db,
  query: VoucherCheckQuery,
  now = new Date(),
): Promise<VoucherCheckResult> {
  const product = await findActiveProduct(db, query.product);
  if (!product) return { ok: false, kind: "notFound", error: "orders.errors.serviceNotFound" };
  const input = {
    productPriceCents: product.priceCents,
    cycle: query.billingCycle,
    backup: query.backup,
  };
  const verdict = evaluateVoucher(await findVoucher(db, query.code), {
    productId: product.id,
    subtotalCents: quote(input).subtotalCents,
    now,
  });
  if (!verdict.ok) return verdict;
  return {
    ok: true,
    code: query.code,
    discountCents: verdict.discountCents,
    totalCents: quote(input, verdict.discountCents).totalCents,
  };
}
