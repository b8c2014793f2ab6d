import { sql } from "kysely";
import type { Db } from "~/db/transaction";
import { reasonCounts, type CancellationReasonCount } from "~/domain/hosting-services/cancellation";

/**
 * Why customers cancelled in [from, to) (the report's months): each reason's requests, at the end of
 * the term and with a refund, counted by the database. A request the customer withdrew is left out: they
 * kept the service.
 */
export async function loadCancellationReasons(
  db: Db,
  window: { from: string; to: string },
): Promise<CancellationReasonCount[]> {
  const rows = await db
    .selectFrom("service_cancellations")
    .select(["reason", "kind", sql<number>`count(*)`.as("n")])
    .where("created_at", ">=", window.from)
    .where("created_at", "<", window.to)
    .where("state", "!=", "withdrawn")
    .groupBy(["reason", "kind"])
    .execute();
  return reasonCounts(rows.map((row) => ({ ...row, count: Number(row.n) })));
}
