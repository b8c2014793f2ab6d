import { sql } from "kysely";
import { describe, expect, it } from "vitest";
import { createDatabase } from "~/db/database.server";
import { isUniqueViolation } from "~/db/transaction";
import { migrateTo, migrationBefore } from "../support/migrations";
import { createTestDatabaseUrl, dialects } from "../support/test-database";

const MIGRATION = "0054-service-cancellations";
const BEFORE = migrationBefore(MIGRATION);

// Migration 0054: the cancellations' table with its one open request a service, the lifecycle's flag on
// the services, and an invoice allowed several credit notes; and back down.
describe.each(dialects)("migration 0054's service cancellations [%s]", (dialect) => {
  it("keeps one open request a service, lets an invoice have two credit notes, and goes down again", async () => {
    const target = await createTestDatabaseUrl(dialect);
    const handle = createDatabase(target.url);
    const { db } = handle;
    try {
      await migrateTo(db, BEFORE);
      await migrateTo(db, MIGRATION);
      const at = new Date().toISOString();
      await db
        .insertInto("users")
        .values({ id: "u1", name: "U", email: "u@example.com", created_at: at, updated_at: at })
        .execute();
      const service = await db
        .insertInto("hosting_services")
        .values({
          user_id: "u1",
          name: "Plan",
          monthly_price_cents: 100,
          cycle_price_cents: 100,
          expires_at: at,
          created_at: at,
          updated_at: at,
        })
        .returning(["id", "ends_at_expiry"])
        .executeTakeFirstOrThrow();
      expect(service.ends_at_expiry).toBe(0);
      const request = (state: string, kind = "refund", reason = "other") =>
        db
          .insertInto("service_cancellations")
          .values({
            hosting_service_id: Number(service.id),
            user_id: "u1",
            kind,
            reason,
            state,
            created_at: at,
            updated_at: at,
          })
          .execute();
      await request("requested");
      // A second open request, of either kind, is refused by the index; a decided one is not.
      await expect(request("scheduled", "end_of_term")).rejects.toSatisfy(isUniqueViolation);
      await request("withdrawn");
      // A state of the other kind, and a reason off the list, are refused by the CHECKs.
      await expect(request("done", "refund")).rejects.toThrow();
      await expect(request("withdrawn", "refund", "bored")).rejects.toThrow();

      // Two credit notes of one invoice: the index that forbade it is a plain one now.
      const document = (number: string, kind: string, credits: number | null) =>
        db
          .insertInto("invoices")
          .values({
            number,
            kind,
            user_id: "u1",
            credits_invoice_id: credits,
            prices_include_vat: 1,
            subtotal_cents: 0,
            vat_rate_bp: 0,
            vat_cents: 0,
            total_cents: 0,
            seller: "{}",
            buyer: "{}",
            lines: "[]",
            state: "paid",
            issued_at: at,
          })
          .returning("id")
          .executeTakeFirstOrThrow();
      const invoice = await document("HF-2031-000001", "invoice", null);
      await document("HFC-2031-000001", "credit_note", Number(invoice.id));
      await document("HFC-2031-000002", "credit_note", Number(invoice.id));

      await sql`delete from invoices where kind = 'credit_note'`.execute(db);
      await migrateTo(db, BEFORE);
      const tables = (await db.introspection.getTables()).map((table) => table.name);
      expect(tables).not.toContain("service_cancellations");
      const columns = (await db.introspection.getTables())
        .find((table) => table.name === "hosting_services")!
        .columns.map((column) => column.name);
      expect(columns).not.toContain("ends_at_expiry");
      // Down again: one credit note an invoice.
      await document("HFC-2031-000003", "credit_note", Number(invoice.id));
      await expect(
        document("HFC-2031-000004", "credit_note", Number(invoice.id)),
      ).rejects.toSatisfy(isUniqueViolation);
    } finally {
      await handle.destroy();
      await target.drop();
    }
  });
});
