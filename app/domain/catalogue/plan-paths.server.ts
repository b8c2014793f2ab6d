import { refuse, type Db, type Tx } from "~/db/transaction";
import type { ProductRefused } from "./catalogue-admin.server";
import { PLAN_PATH_TYPE_ERROR } from "./plan-paths";

// The changes of plan an admin allows (docs/self-service.md), as the product editor saves them: a
// product's outgoing paths, each to another product of its type.

/** Each product's outgoing paths (the products it may change to), by product id. */
export async function readChangeTo(
  db: Db | Tx,
  productIds: readonly number[],
): Promise<Map<number, number[]>> {
  const paths = new Map<number, number[]>();
  if (productIds.length === 0) return paths;
  const rows = await db
    .selectFrom("product_plan_paths")
    .select(["from_product_id", "to_product_id"])
    .where("from_product_id", "in", [...productIds])
    .orderBy("from_product_id")
    .orderBy("to_product_id")
    .execute();
  for (const row of rows) {
    const from = Number(row.from_product_id);
    paths.set(from, [...(paths.get(from) ?? []), Number(row.to_product_id)]);
  }
  return paths;
}

/**
 * Step, in a product's save: its outgoing paths become `changeTo` (when the form said), each a product
 * of `type` other than itself (anything else refuses the save). A path joins two plans of one type:
 * the paths between it and products of another type (a type changed) go, either way.
 */
export async function savePlanPaths(
  trx: Tx,
  input: { productId: number; type: string; changeTo?: readonly number[]; now: string },
): Promise<void> {
  const otherType = trx.selectFrom("products").select("id").where("type", "!=", input.type);
  await trx
    .deleteFrom("product_plan_paths")
    .where((eb) =>
      eb.or([
        eb.and([eb("to_product_id", "=", input.productId), eb("from_product_id", "in", otherType)]),
        eb.and([eb("from_product_id", "=", input.productId), eb("to_product_id", "in", otherType)]),
      ]),
    )
    .execute();
  if (input.changeTo === undefined) return;
  const targets = input.changeTo.filter((id) => id !== input.productId);
  if (targets.length !== input.changeTo.length)
    refuse<ProductRefused>("invalid", PLAN_PATH_TYPE_ERROR);
  if (targets.length > 0) {
    const found = await trx
      .selectFrom("products")
      .select("id")
      .where("id", "in", targets)
      .where("type", "=", input.type)
      .execute();
    if (found.length !== targets.length) refuse<ProductRefused>("invalid", PLAN_PATH_TYPE_ERROR);
  }
  await trx
    .deleteFrom("product_plan_paths")
    .where("from_product_id", "=", input.productId)
    .execute();
  if (targets.length > 0)
    await trx
      .insertInto("product_plan_paths")
      .values(
        targets.map((to) => ({
          from_product_id: input.productId,
          to_product_id: to,
          created_at: input.now,
        })),
      )
      .execute();
}
