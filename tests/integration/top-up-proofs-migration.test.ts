import { describe, expect, it } from "vitest";
import { createDatabase } from "~/db/database.server";
import { migrateTo, migrationBefore } from "../support/migrations";
import { createTestDatabaseUrl, dialects } from "../support/test-database";

const MIGRATION = "0036-top-up-proofs";
const BEFORE = migrationBefore(MIGRATION);

// Migration 0036 (docs/payments.md#proof-files): the proof files' table on each dialect, its bytes read
// back as they were written, its CHECKs, and the way down.
describe.each(dialects)("migration 0036 [%s]", (dialect) => {
  it("stores any bytes and gives them back, holds its checks, and goes down again", async () => {
    const target = await createTestDatabaseUrl(dialect);
    const handle = createDatabase(target.url);
    const { db } = handle;
    try {
      await migrateTo(db, BEFORE);
      const now = new Date().toISOString();
      await db
        .insertInto("users")
        .values({ id: "u1", name: "U", email: "u@example.com", created_at: now, updated_at: now })
        .execute();
      const method = await db
        .insertInto("payment_methods")
        .values({
          code: "m",
          builtin: 0,
          enabled: 0,
          currency: "EUR",
          rate: 100,
          min_coins: 1,
          max_coins: 10,
          fee_fixed: 0,
          fee_percent_bp: 0,
          names: "{}",
          instructions: "{}",
          sort_order: 0,
          created_at: now,
          updated_at: now,
        })
        .returning("id")
        .executeTakeFirstOrThrow();
      const request = await db
        .insertInto("top_up_requests")
        .values({
          reference: "TU-AAAAA",
          user_id: "u1",
          payment_method_id: Number(method.id),
          coins: 1,
          currency: "EUR",
          amount: 100,
          fee: 0,
          total: 100,
          credit_cents: 100,
          state: "proof_sent",
          created_at: now,
          updated_at: now,
        })
        .returning("id")
        .executeTakeFirstOrThrow();

      await migrateTo(db, MIGRATION);
      // Every byte value, NUL and 0xFF included, comes back as it went in.
      const bytes = Buffer.from(Array.from({ length: 512 }, (_, i) => i % 256));
      const proof = (overrides: Partial<Record<string, unknown>> = {}) =>
        db
          .insertInto("top_up_proofs")
          .values({
            top_up_request_id: Number(request.id),
            user_id: "u1",
            content_type: "application/pdf",
            bytes,
            byte_size: bytes.length,
            sha256: "a".repeat(64),
            file_name: "proof.pdf",
            created_at: now,
            ...overrides,
          } as never)
          .execute();
      await proof();
      const row = await db.selectFrom("top_up_proofs").selectAll().executeTakeFirstOrThrow();
      expect(Buffer.isBuffer(row.bytes)).toBe(true);
      expect(Buffer.from(row.bytes).equals(bytes)).toBe(true);
      expect(row).toMatchObject({ width: null, height: null, byte_size: 512 });
      await expect(proof({ content_type: "text/html" })).rejects.toThrow(/check/i);
      await expect(proof({ byte_size: 0 })).rejects.toThrow(/check/i);
      await expect(proof({ sha256: "abc" })).rejects.toThrow(/check/i);
      await expect(proof({ top_up_request_id: 999_999 })).rejects.toThrow(/foreign key/i);

      await migrateTo(db, BEFORE);
      const tables = (await db.introspection.getTables()).map((t) => t.name);
      expect(tables).not.toContain("top_up_proofs");
      expect(tables).toContain("top_up_requests");
    } finally {
      await handle.destroy();
      await target.drop();
    }
  });
});
