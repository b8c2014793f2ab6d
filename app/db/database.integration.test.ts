import { sql } from "kysely";
import { describe, expect, it } from "vitest";
import { createTestDatabaseUrl, dialects } from "../../tests/support/test-database";
import { createDatabase, pingDatabase } from "./database.server";
import { migrateToLatest } from "./migrate.server";

describe.each(dialects)("database [%s]", (dialect) => {
  it("migrates twice without change and answers the health ping until it is closed", async () => {
    const database = await createTestDatabaseUrl(dialect);
    const handle = createDatabase(database.url);
    try {
      await migrateToLatest(handle.db);
      await migrateToLatest(handle.db);
      expect(await pingDatabase(handle.db)).toBe(true);
    } finally {
      await handle.destroy();
    }
    expect(await pingDatabase(handle.db)).toBe(false);
    await database.drop();
  });

  it("answers repeated queries from reused statements, rightly after a schema change and in a failed transaction", async () => {
    const database = await createTestDatabaseUrl(dialect);
    const handle = createDatabase(database.url);
    try {
      await sql`create table probes (id integer primary key, name text not null)`.execute(
        handle.db,
      );
      const names = () =>
        sql<{ name: string }>`select * from probes order by id`.execute(handle.db);
      await sql`insert into probes (id, name) values (${1}, ${"one"})`.execute(handle.db);
      await sql`insert into probes (id, name) values (${2}, ${"two"})`.execute(handle.db);
      expect((await names()).rows).toEqual([
        { id: 1, name: "one" },
        { id: 2, name: "two" },
      ]);
      // The same text after the table gained a column: the columns of now, not of the first prepare.
      await sql`alter table probes add column note text`.execute(handle.db);
      expect((await names()).rows).toEqual([
        { id: 1, name: "one", note: null },
        { id: 2, name: "two", note: null },
      ]);
      // A statement that failed (a duplicate key) is used again inside a rolled-back transaction.
      await expect(
        handle.db.transaction().execute(async (trx) => {
          await sql`insert into probes (id, name) values (${3}, ${"three"})`.execute(trx);
          await sql`insert into probes (id, name) values (${1}, ${"again"})`.execute(trx);
        }),
      ).rejects.toThrow();
      expect((await names()).rows).toHaveLength(2);
      // More distinct queries than the cache holds: the oldest are dropped and prepared again.
      for (let i = 0; i < 600; i++)
        await sql.raw(`select ${i} as n from probes where id = 1`).execute(handle.db);
      expect((await names()).rows).toHaveLength(2);
    } finally {
      await handle.destroy();
      await database.drop();
    }
  });

  it("never lets a coin balance go below zero", async () => {
    const database = await createTestDatabaseUrl(dialect);
    const handle = createDatabase(database.url);
    try {
      await migrateToLatest(handle.db);
      const now = new Date().toISOString();
      await handle.db
        .insertInto("users")
        .values({ id: "u1", name: "N", email: "n@example.com", created_at: now, updated_at: now })
        .execute();
      await expect(
        handle.db
          .updateTable("users")
          .set({ coin_balance_cents: -1 })
          .where("id", "=", "u1")
          .execute(),
      ).rejects.toThrow();
      const row = await handle.db
        .selectFrom("users")
        .select("coin_balance_cents")
        .executeTakeFirstOrThrow();
      expect(row.coin_balance_cents).toBe(0);
      if (dialect === "sqlite") {
        const mode = await sql<{ journal_mode: string }>`pragma journal_mode`.execute(handle.db);
        expect(mode.rows[0]?.journal_mode).toBe("wal");
        const fk = await sql<{ foreign_keys: number }>`pragma foreign_keys`.execute(handle.db);
        expect(fk.rows[0]?.foreign_keys).toBe(1);
      }
    } finally {
      await handle.destroy();
      await database.drop();
    }
  });
});

describe("database [postgres]", () => {
  it("leaves PostgreSQL's JIT compiler off for its short queries", async () => {
    const database = await createTestDatabaseUrl("postgres");
    const handle = createDatabase(database.url);
    try {
      const { rows } = await sql<{ jit: string }>`show jit`.execute(handle.db);
      expect(rows[0]?.jit).toBe("off");
    } finally {
      await handle.destroy();
      await database.drop();
    }
  });
});

/**
 * A PostgreSQL database whose pool reports each connection error into `dropped`, and `restart`, which
 * terminates every backend of that database from the server side (what a PostgreSQL restart does) through
 * a second pool. Both pools are closed and the database dropped after `check`.
 */
async function withDroppedConnections(
  check: (server: {
    handle: ReturnType<typeof createDatabase>;
    dropped: Error[];
    restart: () => Promise<unknown>;
  }) => Promise<void>,
) {
  const database = await createTestDatabaseUrl("postgres");
  const dropped: Error[] = [];
  const handle = createDatabase(database.url, {
    onConnectionError: (error) => dropped.push(error),
  });
  const killer = createDatabase(database.url);
  const name = new URL(database.url).pathname.slice(1);
  const restart = () =>
    sql`select pg_terminate_backend(pid) from pg_stat_activity
      where datname = ${name} and pid <> pg_backend_pid()`.execute(killer.db);
  try {
    await check({ handle, dropped, restart });
  } finally {
    await killer.destroy();
    await handle.destroy();
  }
  await database.drop();
}

describe("database [postgres] when the server drops its connections", () => {
  it("keeps the process alive, reports each dropped idle connection, and answers the next query", async () => {
    await withDroppedConnections(async ({ handle, dropped, restart }) => {
      // Two idle connections in the pool, as between requests.
      await Promise.all([
        sql`select pg_sleep(0.05)`.execute(handle.db),
        sql`select pg_sleep(0.05)`.execute(handle.db),
      ]);
      await restart();
      await expect.poll(() => dropped.length).toBeGreaterThanOrEqual(2);
      expect(dropped[0]?.message).toMatch(/terminat/i);
      expect(await pingDatabase(handle.db)).toBe(true);
    });
  });
});

describe("database [postgres] when the server drops a connection lent to a transaction", () => {
  it("reports it, fails that transaction, and answers the next query", async () => {
    await withDroppedConnections(async ({ handle, dropped, restart }) => {
      const transaction = handle.db.transaction().execute(async (trx) => {
        await sql`select 1`.execute(trx);
        // Between two statements the connection is lent out with no query running: a restart now.
        await restart();
        await expect.poll(() => dropped.length).toBeGreaterThanOrEqual(1);
        await sql`select 2`.execute(trx);
      });
      await expect(transaction).rejects.toThrow();
      expect(await pingDatabase(handle.db)).toBe(true);
    });
  });
});
