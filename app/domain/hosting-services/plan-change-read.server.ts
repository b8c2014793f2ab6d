import type { Selectable } from "kysely";
import type { ProductsTable } from "~/db/schema";
import { refuse, Refusal, type Db, type Tx } from "~/db/transaction";
import type { VatTerms } from "~/domain/invoices/invoices";
import { parsePanelPlan, type PanelPlan } from "~/domain/provisioning/panel-plan";
import { parseStoredProvisioning } from "~/domain/provisioning/provisioning.schemas";
import type { PterodactylProvisioning } from "~/domain/provisioning/provisioning";
import {
  canChangePlan,
  planChangeQuote,
  type PlanChangeDirection,
  type PlanChangeQuote,
  type PlanChangeRefusal,
  type PlanOfChange,
} from "./plan-change";
import { SERVICE_COLUMNS, serviceNotFound, toService } from "./service-rows.server";
import type { HostingService } from "./hosting-services";

// What a change of plan reads before anything moves (docs/self-service.md): the customer's service, the
// plan it is on and the one asked for, the path between them, and the price (plan-change.ts). The page's
// confirmation and the change itself read it alike, so that what is shown is what is charged.

export type { PlanChangeRefusal } from "./plan-change";

/** What a service's row is read with for a change: its own columns and its place on the game panel. */
const CHANGE_COLUMNS = [...SERVICE_COLUMNS, "panel_plan", "panel_server_id"] as const;

/** A product's columns a change reads. */
const PRODUCT_COLUMNS = [
  "id",
  "name",
  "type",
  "status",
  "price_cents",
  "ram_gb",
  "storage_gb",
  "cpu_cores",
  "slots",
  "provisioning",
] as const;

type ProductRow = Pick<Selectable<ProductsTable>, (typeof PRODUCT_COLUMNS)[number]>;

/** A product as a plan of a change. */
export function planOf(row: ProductRow): PlanOfChange {
  return {
    productId: Number(row.id),
    name: row.name,
    priceCents: row.price_cents,
    limits: {
      ramGb: row.ram_gb,
      storageGb: row.storage_gb,
      cpuCores: row.cpu_cores,
      slots: row.slots,
    },
  };
}

/** Everything a change of plan was decided from, read in the caller's transaction (or for a page). */
export interface ChangeContext {
  service: HostingService;
  row: Awaited<ReturnType<typeof readServiceRow>>;
  from: ProductRow;
  to: ProductRow;
  /** The server's plan on the game panel, and the new product's block: the plan it moves to. */
  panel: { plan: PanelPlan; provisioning: PterodactylProvisioning } | null;
  quote: PlanChangeQuote;
}

async function readServiceRow(db: Db | Tx, serviceId: number, userId: string) {
  const row = await db
    .selectFrom("hosting_services")
    .select(CHANGE_COLUMNS)
    .where("id", "=", serviceId)
    .where("user_id", "=", userId)
    .executeTakeFirst();
  if (!row) throw new Refusal(serviceNotFound);
  return row;
}

async function readProduct(db: Db | Tx, id: number): Promise<ProductRow | undefined> {
  return db.selectFrom("products").select(PRODUCT_COLUMNS).where("id", "=", id).executeTakeFirst();
}

/** Whether the admin allows a service of `from` to move to `to`. */
async function pathAllowed(db: Db | Tx, from: number, to: number): Promise<boolean> {
  const row = await db
    .selectFrom("product_plan_paths")
    .select("to_product_id")
    .where("from_product_id", "=", from)
    .where("to_product_id", "=", to)
    .executeTakeFirst();
  return row !== undefined;
}

/**
 * The products a service of `fromProductId` may change to now: the paths the admin allows, to plans
 * of its type still sold, in the catalogue's order.
 */
export async function allowedTargets(
  db: Db | Tx,
  fromProductId: number,
  type: string,
): Promise<ProductRow[]> {
  return db
    .selectFrom("product_plan_paths")
    .innerJoin("products", "products.id", "product_plan_paths.to_product_id")
    .select(PRODUCT_COLUMNS.map((column) => `products.${column}` as const))
    .where("product_plan_paths.from_product_id", "=", fromProductId)
    .where("products.type", "=", type)
    .where("products.status", "=", "active")
    .orderBy("products.position")
    .orderBy("products.id")
    .execute();
}

/**
 * Step (or a page's read): the change of the customer's service to `toProductId` as it stands now, or
 * a refusal thrown (`Refusal`): not the customer's service, not running, no path, another type, or a
 * server the new plan does not fit. `shown`: what the confirmation showed, which must still hold.
 */
export async function readChange(
  db: Db | Tx,
  input: {
    userId: string;
    serviceId: number;
    toProductId: number;
    vat: VatTerms;
    now: Date;
    shown?: { amountCents: number; direction: PlanChangeDirection };
  },
): Promise<ChangeContext> {
  const row = await readServiceRow(db, input.serviceId, input.userId);
  const service = toService(row);
  if (!canChangePlan(service.status, service.expiresAt, input.now))
    refuse<PlanChangeRefusal>("conflict", "services.planChange.errors.cannotChange");
  const from = row.product_id === null ? undefined : await readProduct(db, row.product_id);
  const to = await readProduct(db, input.toProductId);
  if (!from || !to || to.id === from.id)
    refuse<PlanChangeRefusal>("invalid", "services.planChange.errors.notAllowed");
  // Another type is refused for what it is, whatever the paths say (a post made by hand).
  if (to.type !== from.type || (service.type !== null && to.type !== service.type))
    refuse<PlanChangeRefusal>("invalid", "services.planChange.errors.otherType");
  if (to.status !== "active" || !(await pathAllowed(db, Number(from.id), Number(to.id))))
    refuse<PlanChangeRefusal>("invalid", "services.planChange.errors.notAllowed");
  const panel = panelOfChange(row.panel_plan, to);
  const user = await db
    .selectFrom("users")
    .select("coin_balance_cents")
    .where("id", "=", input.userId)
    .executeTakeFirstOrThrow();
  const quote = planChangeQuote({
    service,
    from: planOf(from),
    to: planOf(to),
    balanceCents: user.coin_balance_cents,
    vat: input.vat,
    now: input.now,
  });
  if (
    input.shown &&
    (input.shown.amountCents !== quote.amountCents || input.shown.direction !== quote.direction)
  )
    refuse<PlanChangeRefusal>("conflict", "services.planChange.errors.amountChanged");
  return { service, row, from, to, panel, quote };
}

/**
 * A server on the game panel moves to the new product's limits: only a product made on the panel, with
 * the same port layout (the server keeps its ports), can take it. A service set up by hand has no
 * server of ours to change.
 */
function panelOfChange(panelPlan: string | null, to: ProductRow): ChangeContext["panel"] {
  if (panelPlan === null) return null;
  const plan = parsePanelPlan(panelPlan);
  const { provisioning } = parseStoredProvisioning(to.provisioning);
  if (!plan || provisioning.provisioner !== "pterodactyl")
    refuse<PlanChangeRefusal>("conflict", "services.planChange.errors.notForThisServer");
  if (provisioning.portLayout !== plan.portLayout)
    refuse<PlanChangeRefusal>("conflict", "services.planChange.errors.notForThisServer");
  return { plan, provisioning };
}

/** What `work` gives, or the refusal it threw (a page's read, outside any transaction). */
export async function orRefusal<T, R>(work: () => Promise<T>): Promise<T | R> {
  try {
    return await work();
  } catch (error) {
    if (error instanceof Refusal) return error.result as R;
    throw error;
  }
}
