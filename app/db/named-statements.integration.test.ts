import { Kysely, PostgresDialect, sql, type QueryExecutorProvider } from "kysely";
import pg from "pg";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createTestDatabaseUrl } from "../../tests/support/test-database";
import { createDatabase } from "./database.server";
import { prepareStatementsOn, statementName } from "./named-statements.server";

/** A pool of one connection, so every query below runs on the connection whose statements are read. */
function onePool(url: string, limit?: number) {
  const pool = new pg.Pool({ connectionString: url, max: 1 });
  prepareStatementsOn(pool, limit);
  return { pool, db: new Kysely<unknown>({ dialect: new PostgresDialect({ pool }) }) };
}

const keptNames = async (db: QueryExecutorProvider) =>
  (
    await sql<{
      name: string;
    }>`select name from pg_prepared_statements where name like ${"s\\_%"} order by name`.execute(db)
  ).rows.map((row) => row.name);

describe("named statements [postgres]", () => {
  let database: Awaited<ReturnType<typeof createTestDatabaseUrl>>;
  beforeEach(async () => {
    database = await createTestDatabaseUrl("postgres");
  });
  afterEach(async () => {
    await database.drop();
  });

  it("parses a query with parameters once per connection and keeps answering it rightly", async () => {
    const handle = createDatabase(database.url, { poolSize: 1 });
    try {
      await sql`create table probes (id integer primary key, name text not null)`.execute(
        handle.db,
      );
      const text = "select name from probes where id = $1";
      for (const [id, name] of [
        [1, "one"],
        [2, "two"],
      ] as const)
        await sql`insert into probes (id, name) values (${id}, ${name})`.execute(handle.db);
      for (let i = 0; i < 8; i++) {
        const id = (i % 2) + 1;
        const { rows } = await sql<{
          name: string;
        }>`select name from probes where id = ${id}`.execute(handle.db);
        expect(rows).toEqual([{ name: id === 1 ? "one" : "two" }]);
      }
      const kept = await keptNames(handle.db);
      expect(kept).toContain(statementName(text));
      // Kept once, though it ran eight times: PostgreSQL refuses a second prepare of one name.
      expect(kept.filter((name) => name === statementName(text))).toHaveLength(1);
      // A query without parameters (begin, commit) is not kept.
      await handle.db.transaction().execute(async (trx) => {
        await sql`insert into probes (id, name) values (${3}, ${"three"})`.execute(trx);
      });
      expect(await keptNames(handle.db)).not.toContain(statementName("begin"));
    } finally {
      await handle.destroy();
    }
  });

  it("keeps no more statements than its limit and runs the others unnamed", async () => {
    const { pool, db } = onePool(database.url, 3);
    try {
      for (let i = 0; i < 10; i++) {
        const { rows } = await sql<{
          n: number;
        }>`select ${i}::int + ${sql.raw(String(i))} as n`.execute(db);
        expect(rows).toEqual([{ n: 2 * i }]);
      }
      // The three kept, and the query reading them (with a parameter of its own) ran unnamed.
      expect(await keptNames(db)).toHaveLength(3);
    } finally {
      await db.destroy();
      await pool.end().catch(() => {});
    }
  });

  it("fails once, then answers with the new columns, when a kept statement's table changed", async () => {
    const { pool, db } = onePool(database.url);
    const other = createDatabase(database.url);
    try {
      await sql`create table probes (id integer primary key, name text not null)`.execute(db);
      await sql`insert into probes (id, name) values (${1}, ${"one"})`.execute(db);
      const read = () => sql`select * from probes where id = ${1}`.execute(db);
      expect((await read()).rows).toEqual([{ id: 1, name: "one" }]);
      // Another process migrates while this connection holds the statement.
      await sql`alter table probes add column note text`.execute(other.db);
      await expect(read()).rejects.toThrow(/cached plan must not change result type/);
      expect((await read()).rows).toEqual([{ id: 1, name: "one", note: null }]);
      expect((await read()).rows).toEqual([{ id: 1, name: "one", note: null }]);
    } finally {
      await other.destroy();
      await db.destroy();
      await pool.end().catch(() => {});
    }
  });
});
