import type { FailureKind } from "~/lib/result";
import { editorOutcome, type EditorOutcome } from "~/lib/save-actions";
import type { ExpressionBuilder, Selectable } from "kysely";
import type { Database, VouchersTable } from "~/db/schema";
import type { VoucherTerms } from "~/domain/orders/orders";
import { listProductChoices } from "~/domain/catalogue/catalogue-admin.server";
import { record } from "~/domain/events/events.server";
import { inTransaction, orWhenTaken, refuse, type Db, type Tx } from "~/db/transaction";
import { containsAny } from "~/db/like-pattern";
import { countRows, fetchPage } from "~/db/paging";
import { rowToEdit } from "~/lib/row-to-edit";
import {
  dayOf,
  lastDayPassed,
  endOfDay,
  parseApplicable,
  RECENT_ORDERS_PER_VOUCHER,
  startOfDay,
  voucherStatus,
  type AdminVoucher,
  type VoucherAction,
  type VoucherInput,
  type VoucherListQuery,
  type VoucherStatus,
  VOUCHERS_PAGE_SIZE,
} from "./promotions";

export type VoucherRefusal =
  | "admin-catalogue.promotions.errors.notFound"
  | "admin-catalogue.promotions.errors.codeTaken"
  | "admin-catalogue.promotions.errors.productsUnknown"
  | "admin-catalogue.promotions.errors.maxUsesBelowUsed"
  | "admin-catalogue.promotions.errors.untilPassed";

export type VoucherResult =
  { ok: true; voucher: AdminVoucher } | { ok: false; kind: FailureKind; error: VoucherRefusal };

const voucherColumns = [
  "vouchers.id",
  "vouchers.code",
  "vouchers.description",
  "vouchers.discount_type",
  "vouchers.discount_value",
  "vouchers.min_purchase_cents",
  "vouchers.max_uses",
  "vouchers.used_count",
  "vouchers.is_active",
  "vouchers.valid_from",
  "vouchers.valid_until",
  "vouchers.applicable_services",
  "vouchers.created_at",
] as const;

function vouchersWithOrders(db: Db | Tx) {
  return db.selectFrom("vouchers").select((eb) => [
    ...voucherColumns,
    eb
      .selectFrom("orders")
      .select((inner) => inner.fn.countAll<number>().as("n"))
      .whereRef("orders.voucher_id", "=", "vouchers.id")
      .as("order_count"),
  ]);
}

/** A voucher's row as the order price check reads it, and as the admin list starts from. */
export function toVoucherTerms(
  row: Omit<Selectable<VouchersTable>, "description" | "created_at" | "updated_at">,
): VoucherTerms {
  return {
    id: Number(row.id),
    code: row.code,
    discountType: row.discount_type === "fixed" ? "fixed" : "percentage",
    discountValue: row.discount_value,
    minPurchaseCents: row.min_purchase_cents,
    maxUses: row.max_uses,
    usedCount: row.used_count,
    isActive: row.is_active === 1,
    validFrom: row.valid_from,
    validUntil: row.valid_until,
    applicableServices: parseApplicable(row.applicable_services),
  };
}

type VoucherRow = Awaited<
  ReturnType<ReturnType<typeof vouchersWithOrders>["executeTakeFirstOrThrow"]>
>;

function toAdminVoucher(
  row: VoucherRow,
  now: Date,
  recentOrders: { id: number; status: string }[] = [],
): AdminVoucher {
  const voucher = {
    ...toVoucherTerms(row),
    description: row.description,
    createdAt: row.created_at,
    orderCount: Number(row.order_count ?? 0),
    recentOrders,
  };
  return { ...voucher, status: voucherStatus(voucher, now) };
}

/** The status filter in SQL, the same rules as voucherStatus (timestamps compare as ISO text on SQLite). */
function statusIs(status: VoucherStatus, now: string) {
  return (eb: ExpressionBuilder<Database, "vouchers">) => {
    if (status === "inactive") return eb("vouchers.is_active", "=", 0);
    const on = eb("vouchers.is_active", "=", 1);
    if (status === "scheduled") return eb.and([on, eb("vouchers.valid_from", ">", now)]);
    const started = eb("vouchers.valid_from", "<=", now);
    if (status === "expired") return eb.and([on, started, eb("vouchers.valid_until", "<", now)]);
    const running = eb.and([on, started, eb("vouchers.valid_until", ">=", now)]);
    const usedUp = eb("vouchers.used_count", ">=", eb.ref("vouchers.max_uses"));
    return status === "usedUp"
      ? eb.and([running, usedUp])
      : eb.and([running, eb("vouchers.used_count", "<", eb.ref("vouchers.max_uses"))]);
  };
}

/** The latest few orders of each voucher, newest first. */
async function recentOrdersOf(db: Db | Tx, voucherIds: number[]) {
  const byVoucher = new Map<number, { id: number; status: string }[]>();
  if (voucherIds.length === 0) return byVoucher;
  const rows = await db
    .selectFrom((eb) =>
      eb
        .selectFrom("orders")
        .select((inner) => [
          "orders.id",
          "orders.voucher_id",
          "orders.status",
          inner.fn
            .agg<number>("row_number")
            .over((over) => over.partitionBy("orders.voucher_id").orderBy("orders.id", "desc"))
            .as("rank"),
        ])
        .where("orders.voucher_id", "in", voucherIds)
        .as("ranked"),
    )
    .select(["ranked.id", "ranked.voucher_id", "ranked.status"])
    .where("ranked.rank", "<=", RECENT_ORDERS_PER_VOUCHER)
    .orderBy("ranked.id", "desc")
    .execute();
  for (const row of rows) {
    const list = byVoucher.get(Number(row.voucher_id)) ?? [];
    list.push({ id: Number(row.id), status: row.status });
    byVoucher.set(Number(row.voucher_id), list);
  }
  return byVoucher;
}

/**
 * Vouchers for /admin/promotions, newest first: searched by code (part of it, any case), filtered by
 * status, paged, with the number of orders that used each and links to the latest of them.
 */
export async function listVouchersForAdmin(
  db: Db,
  query: { q?: string; status?: VoucherStatus; limit: number; offset: number; now?: Date },
) {
  const now = query.now ?? new Date();
  let base = db.selectFrom("vouchers");
  if (query.q) {
    // Codes are stored upper-case; the query is upper-cased by its schema. LIKE's wildcards are escaped.
    base = base.where(containsAny(["vouchers.code"], query.q.toUpperCase()));
  }
  if (query.status) base = base.where(statusIs(query.status, now.toISOString()));
  const ids = base.select("vouchers.id");
  const [{ rows: page, hasMore }, total] = await Promise.all([
    fetchPage(
      vouchersWithOrders(db).where("vouchers.id", "in", ids).orderBy("vouchers.id", "desc"),
      query,
    ),
    countRows(base),
  ]);
  const recent = await recentOrdersOf(
    db,
    page.map((row) => Number(row.id)),
  );
  return {
    vouchers: page.map((row) => toAdminVoucher(row, now, recent.get(Number(row.id)))),
    hasMore,
    total,
  };
}

export async function findVoucherForAdmin(
  db: Db | Tx,
  id: number,
  now = new Date(),
): Promise<AdminVoucher | undefined> {
  const row = await vouchersWithOrders(db).where("vouchers.id", "=", id).executeTakeFirst();
  if (!row) return undefined;
  const recent = await recentOrdersOf(db, [Number(row.id)]);
  return toAdminVoucher(row, now, recent.get(Number(row.id)));
}

async function checkProducts(trx: Tx, applicable: "all" | number[]): Promise<void> {
  if (applicable === "all") return;
  const found = await trx
    .selectFrom("products")
    .select("id")
    .where("id", "in", applicable)
    .execute();
  if (found.length !== applicable.length)
    refuse<VoucherResult>("invalid", "admin-catalogue.promotions.errors.productsUnknown");
}

async function codeTaken(trx: Tx, code: string, exceptId?: number): Promise<boolean> {
  // Codes are stored upper-case (and a unique index on upper(code) backs it), so equality is enough.
  let query = trx.selectFrom("vouchers").select("id").where("code", "=", code.toUpperCase());
  if (exceptId !== undefined) query = query.where("id", "!=", exceptId);
  return Boolean(await query.executeTakeFirst());
}

// Two admins creating the same code at once: the second meets the unique index.
function withCodeRace(work: () => Promise<VoucherResult>): Promise<VoucherResult> {
  return orWhenTaken(
    { ok: false, kind: "conflict", error: "admin-catalogue.promotions.errors.codeTaken" },
    work,
  );
}

/** The columns the form sets alike on a new voucher and a changed one (not its days, not its state). */
function termsColumns(v: VoucherInput) {
  return {
    code: v.code,
    description: v.description,
    discount_type: v.discountType,
    discount_value: v.discountValue,
    min_purchase_cents: v.minPurchaseCents,
    max_uses: v.maxUses,
    applicable_services: JSON.stringify(v.applicableServices),
  };
}

const untilPassed = {
  ok: false,
  kind: "invalid",
  error: "admin-catalogue.promotions.errors.untilPassed",
} as const satisfies VoucherResult;

/** A new voucher, active, recorded as saved in the same transaction. */
export async function createVoucher(
  db: Db,
  input: { actorId: string; voucher: VoucherInput; now?: Date },
): Promise<VoucherResult> {
  const v = input.voucher;
  if (lastDayPassed(v.validUntilDay, input.now ?? new Date())) return untilPassed;
  return withCodeRace(() =>
    inTransaction(db, async (trx) => {
      if (await codeTaken(trx, v.code))
        refuse<VoucherResult>("conflict", "admin-catalogue.promotions.errors.codeTaken");
      await checkProducts(trx, v.applicableServices);
      const now = new Date().toISOString();
      const row = await trx
        .insertInto("vouchers")
        .values({
          ...termsColumns(v),
          used_count: 0,
          is_active: 1,
          valid_from: startOfDay(v.validFromDay),
          valid_until: endOfDay(v.validUntilDay),
          created_at: now,
          updated_at: now,
        })
        .returning("id")
        .executeTakeFirstOrThrow();
      const voucher = await savedVoucher(trx, { actorId: input.actorId, id: Number(row.id) });
      return { ok: true as const, voucher };
    }),
  );
}

/** Step, the end of a save: the voucher as it now stands, recorded as saved (with what it was). */
async function savedVoucher(
  trx: Tx,
  input: { actorId: string; id: number; before?: AdminVoucher },
): Promise<AdminVoucher> {
  const voucher = (await findVoucherForAdmin(trx, input.id))!;
  await record(trx, {
    type: "voucher.saved",
    actorId: input.actorId,
    before: input.before,
    after: voucher,
  });
  return voucher;
}

/**
 * Changes a voucher's terms. Orders already placed keep the discount they got (their own copy); the next
 * order is judged by the new terms. A day left as it was keeps its exact time (the seed voucher starts at
 * the moment of the first start). The uses cannot go below those already counted.
 */
export async function updateVoucher(
  db: Db,
  input: { actorId: string; id: number; voucher: VoucherInput; now?: Date },
): Promise<VoucherResult> {
  const v = input.voucher;
  return withCodeRace(() =>
    inTransaction(db, async (trx) => {
      const before = await findVoucherForAdmin(trx, input.id);
      if (!before) refuse<VoucherResult>("notFound", "admin-catalogue.promotions.errors.notFound");
      if (v.code !== before.code && (await codeTaken(trx, v.code, before.id)))
        refuse<VoucherResult>("conflict", "admin-catalogue.promotions.errors.codeTaken");
      await checkProducts(trx, v.applicableServices);
      const validFrom =
        dayOf(before.validFrom) === v.validFromDay ? before.validFrom : startOfDay(v.validFromDay);
      const untilKept = dayOf(before.validUntil) === v.validUntilDay;
      if (!untilKept && lastDayPassed(v.validUntilDay, input.now ?? new Date())) return untilPassed;
      const validUntil = untilKept ? before.validUntil : endOfDay(v.validUntilDay);
      // Conditional on the uses counted by now, so an order taking a use at this moment cannot push
      // used_count past the new maximum (the CHECK would refuse it with an error instead).
      const updated = await trx
        .updateTable("vouchers")
        .set({
          ...termsColumns(v),
          valid_from: validFrom,
          valid_until: validUntil,
          updated_at: new Date().toISOString(),
        })
        .where("id", "=", before.id)
        .where("used_count", "<=", v.maxUses)
        .executeTakeFirst();
      if (Number(updated.numUpdatedRows) !== 1)
        refuse<VoucherResult>("conflict", "admin-catalogue.promotions.errors.maxUsesBelowUsed");
      const voucher = await savedVoucher(trx, { actorId: input.actorId, id: before.id, before });
      return { ok: true as const, voucher };
    }),
  );
}

/**
 * Deactivates a voucher (orders refuse it: 'This voucher is no longer active') or reactivates it. A
 * voucher is never deleted: orders point at it. Setting what it already is changes nothing.
 */
export async function setVoucherActive(
  db: Db,
  input: { actorId: string; id: number; active: boolean },
): Promise<VoucherResult> {
  return inTransaction(db, async (trx) => {
    const before = await findVoucherForAdmin(trx, input.id);
    if (!before) refuse<VoucherResult>("notFound", "admin-catalogue.promotions.errors.notFound");
    if (before.isActive === input.active) return { ok: true as const, voucher: before };
    await trx
      .updateTable("vouchers")
      .set({ is_active: input.active ? 1 : 0, updated_at: new Date().toISOString() })
      .where("id", "=", before.id)
      .execute();
    const voucher = (await findVoucherForAdmin(trx, before.id))!;
    await record(trx, {
      type: "voucher.switched",
      actorId: input.actorId,
      voucherId: voucher.id,
      active: voucher.isActive,
    });
    return { ok: true as const, voucher };
  });
}

/**
 * What /admin/promotions shows: one page of vouchers, the catalogue to choose products from, and the
 * voucher whose form is open ("new" for an empty one, null when the asked one does not exist).
 */
export async function loadPromotionsPage(db: Db, query: VoucherListQuery, now = new Date()) {
  const [list, products, editing] = await Promise.all([
    listVouchersForAdmin(db, {
      q: query.q,
      status: query.status,
      limit: VOUCHERS_PAGE_SIZE,
      offset: (query.page - 1) * VOUCHERS_PAGE_SIZE,
      now,
    }),
    listProductChoices(db),
    rowToEdit(query.edit, (id) => findVoucherForAdmin(db, id, now)),
  ]);
  // The new voucher's first day is the server's, so the form hydrates as it was written.
  return { ...list, products, editing, today: now.toISOString().slice(0, 10) };
}

// What each of /admin/promotions' actions says when it worked (admin-catalogue keys, written out).
const ACTION_MESSAGES = {
  create: "admin-catalogue.promotions.created",
  update: "admin-catalogue.promotions.updated",
  activate: "admin-catalogue.promotions.activated",
  deactivate: "admin-catalogue.promotions.deactivated",
} as const satisfies Record<VoucherAction["intent"], string>;

/** What a post to /admin/promotions did: the voucher it saved or switched and what to say, or why not. */
export type VoucherOutcome = EditorOutcome<
  typeof ACTION_MESSAGES,
  { ok: false; kind: FailureKind; error: VoucherRefusal }
>;

/** /admin/promotions' one action: a save (create, update) or a row's button (activate, deactivate). */
export async function runVoucherAction(
  db: Db,
  actorId: string,
  action: VoucherAction,
): Promise<VoucherOutcome> {
  const result =
    action.intent === "create"
      ? await createVoucher(db, { actorId, voucher: action.voucher })
      : action.intent === "update"
        ? await updateVoucher(db, { actorId, id: action.id, voucher: action.voucher })
        : await setVoucherActive(db, {
            actorId,
            id: action.id,
            active: action.intent === "activate",
          });
  return editorOutcome(result, (saved) => saved.voucher.id, ACTION_MESSAGES[action.intent]);
}
