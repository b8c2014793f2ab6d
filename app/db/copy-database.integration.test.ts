import { expect, it } from "vitest";
import { findLedgerDiscrepancies } from "~/domain/coins/coins.server";
import { placeOrder } from "~/domain/orders/orders.server";
import { markTopUpPaid, requestTopUp } from "~/domain/payments/top-up-requests.server";
import { openTicket } from "~/domain/tickets/tickets.server";
import { pdfProof, pngProof } from "../../tests/support/proof-files";
import {
  approvedOrder,
  customerWithCoins,
  orderInput,
  productId,
} from "../../tests/support/money-fixtures";
import { describe } from "vitest";
import { readRow } from "../../tests/support/read-column";
import { createTestDatabaseUrl } from "../../tests/support/test-database";
import { createServices, prepareDatabase } from "~/context.server";
import { testEnv } from "../../tests/support/test-database";
import { copyDatabase, TABLES_IN_ORDER } from "./copy-database.server";
import { createDatabase } from "./database.server";

describe("moving from SQLite to PostgreSQL", () => {
  it("copies every row, keeps the ledger right and lets PostgreSQL go on from the copied ids", async () => {
    const source = await createTestDatabaseUrl("sqlite");
    const target = await createTestDatabaseUrl("postgres");
    const app = createServices(testEnv(source.url));
    try {
      await prepareDatabase(app);
      const user = await customerWithCoins(app, 10_000);
      const { placed } = await approvedOrder(app, user, {
        productId: await productId(app, "mta-pro"),
      });
      await openTicket(app.db, {
        userId: user,
        department: "billing",
        subject: "Hi",
        priority: "low",
        message: "m",
      });
      // A top-up request with its proof file: the bytes move with it.
      const cashPlus = await readRow(app.db, "payment_methods", ["id"], { code: "cashplus" });
      await app.db
        .updateTable("payment_methods")
        .set({ enabled: 1, instructions: JSON.stringify({ en: "Pay", fr: "", ar: "" }) })
        .where("id", "=", cashPlus.id)
        .execute();
      const asked = await requestTopUp(app.db, {
        userId: user,
        methodId: Number(cashPlus.id),
        coins: 10,
      });
      if (!asked.ok) throw new Error(asked.error);
      const paid = await markTopUpPaid(app.db, {
        userId: user,
        requestId: asked.request.id,
        payerAccount: "0600",
        paidOn: new Date().toISOString().slice(0, 10),
        proofs: [await pngProof(), pdfProof()],
      });
      if (!paid.ok) throw new Error(paid.error);

      const to = createDatabase(target.url);
      try {
        const counts = await copyDatabase(app.database, to);
        for (const table of TABLES_IN_ORDER) {
          const n = await app.db
            .selectFrom(table)
            .select((eb) => eb.fn.countAll<number>().as("n"))
            .executeTakeFirstOrThrow();
          expect(counts[table], table).toBe(Number(n.n));
        }
        expect(await findLedgerDiscrepancies(to.db)).toEqual([]);
        const proofs = (db: typeof app.db) =>
          db
            .selectFrom("top_up_proofs")
            .select(["id", "content_type", "bytes", "sha256"])
            .orderBy("id")
            .execute();
        const copied = await proofs(to.db);
        expect(copied).toHaveLength(2);
        for (const [i, row] of (await proofs(app.db)).entries()) {
          expect(copied[i]).toMatchObject({ id: row.id, content_type: row.content_type });
          expect(Buffer.from(copied[i]!.bytes).equals(Buffer.from(row.bytes))).toBe(true);
        }
        // The site's own settings, not those the target's migrations wrote (0028's lifecycle switch).
        const settings = (db: typeof app.db) =>
          db.selectFrom("settings").select(["key", "value"]).orderBy("key").execute();
        expect(await settings(to.db)).toEqual(await settings(app.db));
        await expect(copyDatabase(app.database, to)).rejects.toThrow(/not empty/);

        const moved = createServices(testEnv(target.url));
        try {
          // New rows on PostgreSQL get ids after the copied ones.
          const next = await placeOrder(
            moved.db,
            user,
            orderInput({ productId: await productId(moved, "mta-pro") }),
          );
          expect(next.ok && next.order.id > placed.id).toBe(true);
        } finally {
          await moved.database.destroy();
        }
      } finally {
        await to.destroy();
      }
    } finally {
      await app.database.destroy();
      await source.drop();
      await target.drop();
    }
  });
});
