import { describe, expect, it } from "vitest";
import { createDatabase } from "~/db/database.server";
import { migrateTo, migrationBefore } from "../support/migrations";
import { createTestDatabaseUrl, dialects } from "../support/test-database";

const MIGRATION = "0044-proof-thumbnails";
const BEFORE = migrationBefore(MIGRATION);

// Migration 0044 (docs/payments.md#proof-files): the previews' table beside the proof files, and the one
// job that makes the previews of the image proofs stored before it, queued only when there are some.
describe.each(dialects)("migration 0044 [%s]", (dialect) => {
  it("adds the previews' table, queues the job for the images stored before, and goes down again", async () => {
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
      const proof = (contentType: string, n: number) =>
        db
          .insertInto("top_up_proofs")
          .values({
            top_up_request_id: Number(request.id),
            user_id: "u1",
            content_type: contentType,
            bytes: Buffer.from("bytes"),
            byte_size: 5,
            sha256: String(n).repeat(64),
            file_name: "proof",
            created_at: now,
          })
          .returning("id")
          .executeTakeFirstOrThrow();
      const jobs = () =>
        db.selectFrom("jobs").select(["type", "state", "unique_key"]).orderBy("id").execute();

      // Only PDFs: nothing to make.
      await proof("application/pdf", 1);
      await migrateTo(db, MIGRATION);
      expect(await jobs()).toEqual([]);
      await migrateTo(db, BEFORE);

      // An image: the job, once.
      const image = await proof("image/png", 2);
      await migrateTo(db, MIGRATION);
      expect(await jobs()).toEqual([
        {
          type: "payments.proof-thumbnails",
          state: "queued",
          unique_key: "payments.proof-thumbnails",
        },
      ]);
      const thumbnail = (overrides: Record<string, unknown> = {}) =>
        db
          .insertInto("top_up_proof_thumbnails")
          .values({
            proof_id: Number(image.id),
            bytes: Buffer.from([0, 255, 1]),
            byte_size: 3,
            width: 32,
            height: 16,
            created_at: now,
            ...overrides,
          } as never)
          .execute();
      await expect(thumbnail({ byte_size: 0 })).rejects.toThrow(/check/i);
      await expect(thumbnail({ width: 0 })).rejects.toThrow(/check/i);
      await expect(thumbnail({ proof_id: 999_999 })).rejects.toThrow(/foreign key/i);
      await thumbnail();
      const row = await db
        .selectFrom("top_up_proof_thumbnails")
        .selectAll()
        .executeTakeFirstOrThrow();
      expect(Buffer.from(row.bytes).equals(Buffer.from([0, 255, 1]))).toBe(true);
      // One preview a file.
      await expect(thumbnail()).rejects.toThrow(/unique|duplicate/i);

      await migrateTo(db, BEFORE);
      const tables = (await db.introspection.getTables()).map((t) => t.name);
      expect(tables).not.toContain("top_up_proof_thumbnails");
      expect(tables).toContain("top_up_proofs");
    } finally {
      await handle.destroy();
      await target.drop();
    }
  });
});
