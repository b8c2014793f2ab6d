import type { FailureKind } from "~/lib/result";
import { editorOutcome, type EditorOutcome } from "~/lib/save-actions";
import { sql } from "kysely";
import { inTransaction, orWhenTaken, refuse, Refusal, type Db, type Tx } from "~/db/transaction";
import { countRows } from "~/db/paging";
import { record } from "~/domain/events/events.server";
import { rowToEdit } from "~/lib/row-to-edit";
import type { ProductStatus, ProductType } from "./catalogue";
import {
  canDeleteProduct,
  firstFreeSlug,
  slugify,
  type AdminProduct,
  type MoveDirection,
  type ProductAction,
  type ProductChoice,
  type ProductInput,
  type ProductListQuery,
} from "./catalogue-admin";
import { emptyTranslations, type ProductTranslations } from "./catalogue";
import { readTranslations, toProduct, translationRows } from "./catalogue.server";
import { parseApplicable } from "~/domain/promotions/promotions";
import { readPanelSnapshot } from "~/domain/provisioning/panel-connection.server";
import {
  checkAgainstPanel,
  PROVISIONING_PANEL_ERRORS,
  type ProvisioningFieldError,
} from "~/domain/provisioning/product-editor";
import type { ProductProvisioning } from "~/domain/provisioning/provisioning";
import { parseStoredProvisioning } from "~/domain/provisioning/provisioning.schemas";
import type { PLAN_PATH_TYPE_ERROR } from "./plan-paths";
import { readChangeTo, savePlanPaths } from "./plan-paths.server";

export type ProductRefusal =
  | "admin-catalogue.products.errors.notFound"
  | "admin-catalogue.products.errors.slugTaken"
  | "admin-catalogue.products.errors.cannotMove"
  | "admin-catalogue.products.errors.inUse"
  | "admin-catalogue.products.errors.deleteVisible"
  | typeof PROVISIONING_PANEL_ERRORS.notFitting
  | typeof PLAN_PATH_TYPE_ERROR;

/**
 * A refused save. A provisioning block that does not fit the panel names each field it refuses
 * (`env.MAX_PLAYERS`, `eggId`) with its message and the values the message takes ({{max}}).
 */
export interface ProductRefused {
  ok: false;
  kind: FailureKind;
  error: ProductRefusal;
  fieldErrors?: Record<string, ProvisioningFieldError["message"]>;
  fieldErrorValues?: Record<string, Record<string, string | number>>;
}

export type ProductResult = { ok: true; product: AdminProduct } | ProductRefused;

/** How many vouchers name each product in their list (a voucher for "all" names none). */
async function voucherCounts(db: Db | Tx): Promise<Map<number, number>> {
  const rows = await db
    .selectFrom("vouchers")
    .select("applicable_services")
    .where("applicable_services", "!=", JSON.stringify("all"))
    .execute();
  const counts = new Map<number, number>();
  for (const row of rows) {
    const ids = parseApplicable(row.applicable_services);
    if (ids === "all") continue;
    for (const id of new Set(ids)) counts.set(id, (counts.get(id) ?? 0) + 1);
  }
  return counts;
}

function productsWithUse(db: Db | Tx) {
  return db.selectFrom("products").select((eb) => [
    "products.id",
    "products.slug",
    "products.type",
    "products.category",
    "products.name",
    "products.description",
    "products.price_cents",
    "products.features",
    "products.ram_gb",
    "products.storage_gb",
    "products.cpu_cores",
    "products.slots",
    "products.recommended",
    "products.status",
    "products.position",
    "products.created_at",
    "products.updated_at",
    "products.provisioning",
    "products.activate_when_paid",
    eb
      .selectFrom("orders")
      .select((inner) => inner.fn.countAll<number>().as("n"))
      .whereRef("orders.product_id", "=", "products.id")
      .as("order_count"),
    eb
      .selectFrom("hosting_services")
      .select((inner) => inner.fn.countAll<number>().as("n"))
      .whereRef("hosting_services.product_id", "=", "products.id")
      .as("service_count"),
    eb
      .selectFrom("hosting_services")
      .select((inner) => inner.fn.countAll<number>().as("n"))
      .whereRef("hosting_services.product_id", "=", "products.id")
      .where("hosting_services.status", "=", "active")
      .as("active_service_count"),
  ]);
}

type UseRow = Awaited<ReturnType<ReturnType<typeof productsWithUse>["executeTakeFirstOrThrow"]>>;

function toAdminProduct(
  row: UseRow,
  vouchers: Map<number, number>,
  translations: Map<number, ProductTranslations>,
  changeTo: Map<number, number[]>,
): AdminProduct {
  const product = toProduct(row);
  const stored = parseStoredProvisioning(row.provisioning);
  return {
    ...product,
    translations: translations.get(product.id) ?? emptyTranslations(),
    provisioning: stored.provisioning,
    provisioningUnreadable: stored.unreadable,
    orderCount: Number(row.order_count ?? 0),
    serviceCount: Number(row.service_count ?? 0),
    activeServiceCount: Number(row.active_service_count ?? 0),
    voucherCount: vouchers.get(product.id) ?? 0,
    changeTo: changeTo.get(product.id) ?? [],
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
}

/**
 * Every product, hidden ones too, in catalogue order (the order the storefront lists them in), with how
 * many orders and hosting services (all, and active) and vouchers refer to each.
 */
export async function listProductsForAdmin(
  db: Db,
  filter: { type?: ProductType; status?: ProductStatus } = {},
): Promise<AdminProduct[]> {
  let query = productsWithUse(db);
  if (filter.type) query = query.where("products.type", "=", filter.type);
  if (filter.status) query = query.where("products.status", "=", filter.status);
  // The catalogue is a short list of plans; the cap only guards the page against a runaway table.
  const [rows, vouchers] = await Promise.all([
    query
      .orderBy("products.type")
      .orderBy("products.position")
      .orderBy("products.id")
      .limit(1000)
      .execute(),
    voucherCounts(db),
  ]);
  const ids = rows.map((row) => Number(row.id));
  const [translations, changeTo] = await Promise.all([
    readTranslations(db, ids),
    readChangeTo(db, ids),
  ]);
  return rows.map((row) => toAdminProduct(row, vouchers, translations, changeTo));
}

export async function findProductForAdmin(
  db: Db | Tx,
  id: number,
): Promise<AdminProduct | undefined> {
  const row = await productsWithUse(db).where("products.id", "=", id).executeTakeFirst();
  if (!row) return undefined;
  const [vouchers, translations, changeTo] = await Promise.all([
    voucherCounts(db),
    readTranslations(db, [Number(row.id)]),
    readChangeTo(db, [Number(row.id)]),
  ]);
  return toAdminProduct(row, vouchers, translations, changeTo);
}

/**
 * Every catalogue change starts here: a no-op update takes the row locks of every product on PostgreSQL
 * and the write lock on SQLite, so two admins reordering or editing at once are serialised and positions
 * stay a clean sequence. Orders only read products, so they are never held up.
 */
async function lockCatalogue(trx: Tx): Promise<void> {
  await trx
    .updateTable("products")
    .set({ position: sql`position` })
    .execute();
}

/** Step: the catalogue locked, then the product the admin acts on, or a notFound refusal. */
async function lockedProductOrRefuse(trx: Tx, id: number): Promise<AdminProduct> {
  await lockCatalogue(trx);
  const product = await findProductForAdmin(trx, id);
  if (!product) refuse<ProductResult>("notFound", "admin-catalogue.products.errors.notFound");
  return product;
}

/** Positions 0, 1, 2… within a type, in their current order (hidden products keep their place). */
async function renumber(trx: Tx, type: string, order?: number[]): Promise<void> {
  const rows = await trx
    .selectFrom("products")
    .select(["id", "position"])
    .where("type", "=", type)
    .orderBy("position")
    .orderBy("id")
    .execute();
  const ids = order ?? rows.map((row) => Number(row.id));
  const current = new Map(rows.map((row) => [Number(row.id), row.position]));
  for (const [index, id] of ids.entries()) {
    if (current.get(id) === index) continue;
    await trx.updateTable("products").set({ position: index }).where("id", "=", id).execute();
  }
}

async function slugTaken(trx: Tx, slug: string, exceptId?: number): Promise<boolean> {
  let query = trx.selectFrom("products").select("id").where("slug", "=", slug);
  if (exceptId !== undefined) query = query.where("id", "!=", exceptId);
  return Boolean(await query.executeTakeFirst());
}

function columnsOf(input: ProductInput) {
  return {
    type: input.type,
    category: input.category,
    name: input.name,
    description: input.description,
    price_cents: input.priceCents,
    features: JSON.stringify(input.features),
    ram_gb: input.specs.ramGb,
    storage_gb: input.specs.storageGb,
    cpu_cores: input.specs.cpuCores,
    slots: input.specs.slots,
    recommended: input.recommended ? 1 : 0,
    activate_when_paid: input.activateWhenPaid ? 1 : 0,
    status: input.status,
    // Null is "set up by hand": the storefront and the order code read a non-null block as provisioned.
    provisioning:
      input.provisioning.provisioner === "none" ? null : JSON.stringify(input.provisioning),
  };
}

/**
 * The block as it is saved: a Pterodactyl block must fit the panel as its last check saw it
 * (checkAgainstPanel: the egg, its variables and their rules, the locations and nodes), else the save
 * is refused with each field's reason. Run inside the save's transaction.
 */
async function blockToSave(trx: Tx, block: ProductProvisioning): Promise<ProductProvisioning> {
  if (block.provisioner === "none") return block;
  const checked = checkAgainstPanel(block, await readPanelSnapshot(trx));
  if (checked.ok) return checked.block;
  throw new Refusal<ProductRefused>({
    ok: false,
    kind: "invalid",
    error: PROVISIONING_PANEL_ERRORS.notFitting,
    fieldErrors: Object.fromEntries(checked.errors.map((each) => [each.field, each.message])),
    fieldErrorValues: Object.fromEntries(checked.errors.map((each) => [each.field, each.values])),
  });
}

/** Replaces a product's French and Arabic texts with the form's (a language left empty has no row). */
async function saveTranslations(
  trx: Tx,
  productId: number,
  translations: ProductTranslations,
  now: string,
): Promise<void> {
  await trx.deleteFrom("product_texts").where("product_id", "=", productId).execute();
  const rows = translationRows(productId, translations, now);
  if (rows.length > 0) await trx.insertInto("product_texts").values(rows).execute();
}

// Only another writer outside the catalogue lock (a script) could take the slug first.
function withSlugRace(work: () => Promise<ProductResult>): Promise<ProductResult> {
  return orWhenTaken(
    { ok: false, kind: "conflict", error: "admin-catalogue.products.errors.slugTaken" },
    work,
  );
}

/** A new product, placed last in its type; recorded as saved in the same transaction. */
export async function createProduct(
  db: Db,
  input: { actorId: string; product: ProductInput },
): Promise<ProductResult> {
  return withSlugRace(() =>
    inTransaction(db, async (trx) => {
      await lockCatalogue(trx);
      const fields = {
        ...input.product,
        provisioning: await blockToSave(trx, input.product.provisioning),
      };
      if (fields.slug && (await slugTaken(trx, fields.slug)))
        refuse<ProductResult>("conflict", "admin-catalogue.products.errors.slugTaken");
      const slug =
        fields.slug ||
        (await firstFreeSlug(slugify(fields.name), (candidate) => slugTaken(trx, candidate)));
      const position = await countRows(trx.selectFrom("products").where("type", "=", fields.type));
      const now = new Date().toISOString();
      const row = await trx
        .insertInto("products")
        .values({
          ...columnsOf(fields),
          slug,
          position,
          created_at: now,
          updated_at: now,
        })
        .returning("id")
        .executeTakeFirstOrThrow();
      await saveTranslations(trx, Number(row.id), fields.translations, now);
      await savePlanPaths(trx, {
        productId: Number(row.id),
        type: fields.type,
        changeTo: fields.changeTo,
        now,
      });
      await renumber(trx, fields.type);
      const product = await savedProduct(trx, { actorId: input.actorId, id: Number(row.id) });
      return { ok: true as const, product };
    }),
  );
}

/** Step, the end of a save: the product as it now stands, recorded as saved (with what it was). */
async function savedProduct(
  trx: Tx,
  input: { actorId: string; id: number; before?: AdminProduct },
): Promise<AdminProduct> {
  const product = (await findProductForAdmin(trx, input.id))!;
  await record(trx, {
    type: "product.saved",
    actorId: input.actorId,
    before: input.before,
    after: product,
  });
  return product;
}

/** A row action's change: `set` written on the product, with its time of change. */
async function changeProduct(trx: Tx, id: number, set: { status?: ProductStatus } = {}) {
  await trx
    .updateTable("products")
    .set({ ...set, updated_at: new Date().toISOString() })
    .where("id", "=", id)
    .execute();
}

/**
 * Changes a product's catalogue fields. Orders and hosting services keep the name and price they were
 * bought at (their own copies), so this never changes what anyone already bought or pays at renewal. A
 * product moved to another type goes last in that type.
 */
export async function updateProduct(
  db: Db,
  input: { actorId: string; id: number; product: ProductInput },
): Promise<ProductResult> {
  return withSlugRace(() =>
    inTransaction(db, async (trx) => {
      const before = await lockedProductOrRefuse(trx, input.id);
      const fields = {
        ...input.product,
        provisioning: await blockToSave(trx, input.product.provisioning),
      };
      const slug = fields.slug || before.slug;
      if (slug !== before.slug && (await slugTaken(trx, slug, before.id)))
        refuse<ProductResult>("conflict", "admin-catalogue.products.errors.slugTaken");
      let position = before.position;
      if (fields.type !== before.type)
        position = await countRows(trx.selectFrom("products").where("type", "=", fields.type));
      const now = new Date().toISOString();
      await trx
        .updateTable("products")
        .set({ ...columnsOf(fields), slug, position, updated_at: now })
        .where("id", "=", before.id)
        .execute();
      await saveTranslations(trx, before.id, fields.translations, now);
      await savePlanPaths(trx, {
        productId: before.id,
        type: fields.type,
        changeTo: fields.changeTo,
        now,
      });
      if (fields.type !== before.type) {
        await renumber(trx, before.type);
        await renumber(trx, fields.type);
      }
      const product = await savedProduct(trx, { actorId: input.actorId, id: before.id, before });
      return { ok: true as const, product };
    }),
  );
}

/** Moves a product one place up or down among the products of its type (hidden ones included). */
export async function moveProduct(
  db: Db,
  input: { actorId: string; id: number; direction: MoveDirection },
): Promise<ProductResult> {
  return inTransaction(db, async (trx) => {
    const product = await lockedProductOrRefuse(trx, input.id);
    const ids = (
      await trx
        .selectFrom("products")
        .select("id")
        .where("type", "=", product.type)
        .orderBy("position")
        .orderBy("id")
        .execute()
    ).map((row) => Number(row.id));
    const from = ids.indexOf(product.id);
    const to = input.direction === "up" ? from - 1 : from + 1;
    if (to < 0 || to >= ids.length)
      refuse<ProductResult>("conflict", "admin-catalogue.products.errors.cannotMove");
    [ids[from], ids[to]] = [ids[to]!, ids[from]!];
    await renumber(trx, product.type, ids);
    await changeProduct(trx, product.id);
    await record(trx, {
      type: "product.moved",
      actorId: input.actorId,
      productId: product.id,
      from,
      to,
    });
    return { ok: true as const, product: { ...product, position: to } };
  });
}

/**
 * Hides a product (no longer listed, and ordering it answers 'Service not found') or shows it again.
 * What was already bought is untouched. Setting the status it already has changes nothing.
 */
export async function setProductStatus(
  db: Db,
  input: { actorId: string; id: number; status: ProductStatus },
): Promise<ProductResult> {
  return inTransaction(db, async (trx) => {
    const product = await lockedProductOrRefuse(trx, input.id);
    if (product.status === input.status) return { ok: true as const, product };
    await changeProduct(trx, product.id, { status: input.status });
    await record(trx, {
      type: "product.statusChanged",
      actorId: input.actorId,
      productId: product.id,
      from: product.status,
      to: input.status,
    });
    return { ok: true as const, product: { ...product, status: input.status } };
  });
}

export type DeleteProductResult =
  { ok: true } | { ok: false; kind: FailureKind; error: ProductRefusal };

/**
 * Deletes a product for good, only when it is hidden and no order, hosting service or voucher refers to
 * it (a mistake made today, say). Anything with history is hidden instead, never deleted.
 */
export async function deleteProduct(
  db: Db,
  input: { actorId: string; id: number },
): Promise<DeleteProductResult> {
  return inTransaction(db, async (trx) => {
    const product = await lockedProductOrRefuse(trx, input.id);
    if (!canDeleteProduct(product))
      refuse<DeleteProductResult>(
        "conflict",
        product.status !== "hidden"
          ? "admin-catalogue.products.errors.deleteVisible"
          : "admin-catalogue.products.errors.inUse",
      );
    // The foreign key cascades too; said here so the order of the two deletes never matters.
    await trx.deleteFrom("product_texts").where("product_id", "=", product.id).execute();
    await trx.deleteFrom("products").where("id", "=", product.id).execute();
    await renumber(trx, product.type);
    await record(trx, { type: "product.deleted", actorId: input.actorId, product });
    return { ok: true as const };
  });
}

/** Every product, hidden ones too, as choices for another form (a voucher's products). */
export async function listProductChoices(db: Db | Tx): Promise<ProductChoice[]> {
  const rows = await db
    .selectFrom("products")
    .select(["id", "name", "type", "status"])
    .orderBy("type")
    .orderBy("position")
    .orderBy("id")
    .limit(1000)
    .execute();
  return rows.map((row) => ({
    id: Number(row.id),
    name: row.name,
    type: row.type as ProductType,
    status: row.status as ProductStatus,
  }));
}

/**
 * What /admin/products shows: the list (filtered), how many products each type has (for the move
 * buttons at either end), and the product whose form is open, "new" for an empty one, or null when
 * the asked one does not exist; with a form open, what the game panel had at its last check (its
 * eggs, locations and nodes: the provisioning block's choices), null when it was never checked, and
 * every product (`planChoices`), those of its type being where its services may change to.
 */
export async function loadProductsPage(db: Db, query: ProductListQuery) {
  const [products, counts, editing, panel, planChoices] = await Promise.all([
    listProductsForAdmin(db, { type: query.type, status: query.status }),
    db
      .selectFrom("products")
      .select((eb) => ["type", eb.fn.countAll<number>().as("n")])
      .groupBy("type")
      .execute(),
    rowToEdit(query.edit, (id) => findProductForAdmin(db, id)),
    query.edit === undefined ? Promise.resolve(null) : readPanelSnapshot(db),
    // The editor's "Customers may change to": every product, to list those of the edited one's type.
    query.edit === undefined ? Promise.resolve([]) : listProductChoices(db),
  ]);
  const typeCounts = Object.fromEntries(counts.map((row) => [row.type, Number(row.n)])) as Partial<
    Record<ProductType, number>
  >;
  return { products, typeCounts, editing, panel, planChoices };
}

// What each of /admin/products' actions says when it worked (admin-catalogue keys, written out).
const ACTION_MESSAGES = {
  create: "admin-catalogue.products.created",
  update: "admin-catalogue.products.updated",
  move: "admin-catalogue.products.moved",
  hide: "admin-catalogue.products.hidden",
  show: "admin-catalogue.products.shown",
  delete: "admin-catalogue.products.deleted",
} as const satisfies Record<ProductAction["intent"], string>;

/** What a post to /admin/products did: the product it saved or acted on and what to say, or why not. */
export type ProductOutcome = EditorOutcome<typeof ACTION_MESSAGES, ProductRefused>;

/** /admin/products' one action: a save (create, update) or a row's button (move, hide, show, delete). */
export async function runProductAction(
  db: Db,
  actorId: string,
  action: ProductAction,
): Promise<ProductOutcome> {
  if (action.intent === "create") {
    const created = await createProduct(db, { actorId, product: action.product });
    return editorOutcome(created, (saved) => saved.product.id, ACTION_MESSAGES.create);
  }
  // Every other action names its product.
  const result =
    action.intent === "update"
      ? await updateProduct(db, { actorId, id: action.id, product: action.product })
      : action.intent === "move"
        ? await moveProduct(db, { actorId, id: action.id, direction: action.direction })
        : action.intent === "delete"
          ? await deleteProduct(db, { actorId, id: action.id })
          : await setProductStatus(db, {
              actorId,
              id: action.id,
              status: action.intent === "hide" ? "hidden" : "active",
            });
  return editorOutcome(result, action.id, ACTION_MESSAGES[action.intent]);
}
