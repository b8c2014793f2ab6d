import { sql, type Kysely } from "kysely";

// Activation on payment (docs/money.md#activation-on-payment).
//
// 1. `orders.wait_reason`: why an order paid from coins was not approved by the system as it was placed,
//    fixed at that moment so the customer is told what held it then (a later verification does not
//    rewrite it): the plan does not activate when paid (`planApproval`), the address is not verified
//    (`unverified`), the customer has no earlier payment nor approved order (`firstPurchase`), or the
//    panel has no room right now (`noRoom`). Null for an order approved at once, and for every order
//    placed before this column.
// 2. The seeded game plans listed "Instant setup" among their features, promised whatever the plan: the
//    plan card now says it from `products.activate_when_paid` (or "Set up after approval"), so a feature
//    list that is still exactly a seeded one loses that line, in English, French and Arabic. A list an
//    admin changed is left as it is.

/** The seeded game plans' feature lists (migration 0024 on), and the promise each one drops. */
const SEEDED_FEATURES: { list: string[]; promise: string }[] = [
  { list: ["DDoS protection", "Instant setup", "24/7 support"], promise: "Instant setup" },
  {
    list: ["Protection anti-DDoS", "Installation instantanée", "Support 24h/24, 7j/7"],
    promise: "Installation instantanée",
  },
  { list: ["حماية من هجمات DDoS", "تفعيل فوري", "دعم فني 24/7"], promise: "تفعيل فوري" },
];

function withoutPromise(features: string): string | undefined {
  let list: unknown;
  try {
    list = JSON.parse(features);
  } catch {
    return undefined;
  }
  const seeded = SEEDED_FEATURES.find((seed) => JSON.stringify(seed.list) === JSON.stringify(list));
  return seeded ? JSON.stringify(seeded.list.filter((line) => line !== seeded.promise)) : undefined;
}

async function dropPromise(db: Kysely<unknown>, table: "products" | "product_texts") {
  const rows = await sql<{ id: number; features: string }>`
    select id, features from ${sql.table(table)}
  `.execute(db);
  for (const row of rows.rows) {
    const features = withoutPromise(row.features);
    if (features !== undefined)
      await sql`update ${sql.table(table)} set features = ${features} where id = ${row.id}`.execute(
        db,
      );
  }
}

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable("orders")
    .addColumn("wait_reason", "text", (c) =>
      c.check(sql`wait_reason in ('planApproval', 'unverified', 'firstPurchase', 'noRoom')`),
    )
    .execute();
  await dropPromise(db, "products");
  await dropPromise(db, "product_texts");
}

export async function down(db: Kysely<unknown>): Promise<void> {
  // The seeded promise is not given back: it was said of plans that did not keep it.
  await db.schema.alterTable("orders").dropColumn("wait_reason").execute();
}
