import { mkdirSync } from "node:fs";
import path from "node:path";
import SQLite from "better-sqlite3";
import { Kysely, PostgresDialect, sql } from "kysely";
import pg from "pg";
import type { Database } from "./schema";
import { prepareStatementsOn } from "./named-statements.server";
import { SqliteServerDialect } from "./sqlite-dialect.server";

export type DialectName = "sqlite" | "postgres";

export interface DatabaseHandle {
  db: Kysely<Database>;
  dialect: DialectName;
  /** The raw handle better-auth is given (see accounts/auth.server.ts). */
  authDatabase: { db: Kysely<unknown>; type: DialectName };
  /**
   * How many writes of this process found another process holding SQLite's write lock and waited for
   * it (ADR 14); always 0 on PostgreSQL, whose writers wait on row locks inside the server.
   */
  writeLockWaits(): number;
  destroy(): Promise<void>;
}

export function dialectOf(url: string): DialectName {
  return /^postgres(ql)?:\/\//.test(url) ? "postgres" : "sqlite";
}

export function sqliteFilePath(url: string): string {
  return path.resolve(url.replace(/^file:/, ""));
}

const TIMESTAMPTZ = 1184;
const TIMESTAMP = 1114;
const INT8 = 20;
const NUMERIC = 1700;

/** Our pool reads timestamps as ISO strings and 64-bit integers as numbers, like SQLite does. */
function appTypeParser(oid: number, format?: string) {
  if (oid === TIMESTAMPTZ || oid === TIMESTAMP) {
    return (value: string) => new Date(oid === TIMESTAMP ? `${value}Z` : value).toISOString();
  }
  if (oid === INT8 || oid === NUMERIC) return (value: string) => Number(value);
  return pg.types.getTypeParser(oid, format as "text");
}

export interface DatabaseOptions {
  poolSize?: number;
  /**
   * Told when PostgreSQL drops an idle pooled connection (a restart, a failover, an admin's kill). The
   * pool discards that connection and opens a new one for the next query; without a listener, pg's pool
   * raises the error on the process and the server dies with it.
   */
  onConnectionError?: (error: Error) => void;
}

export function createDatabase(url: string, options: DatabaseOptions = {}): DatabaseHandle {
  if (dialectOf(url) === "postgres") {
    const pool = new pg.Pool({
      connectionString: url,
      max: options.poolSize ?? 10,
      // Our queries are short and indexed; PostgreSQL's JIT compiler, triggered by a high cost estimate,
      // spent 150 ms compiling a query that runs in 4 ms (measured: git log -p docs/performance.md,
      // "Scale"). Off, as for most web apps.
      options: "-c jit=off",
      types: { getTypeParser: appTypeParser as typeof pg.types.getTypeParser },
    });
    prepareStatementsOn(pool);
    // better-auth expects Date objects back from PostgreSQL, so it gets a small pool of its own with
    // pg's default parsers; our code keeps one representation for both dialects.
    const authPool = new pg.Pool({ connectionString: url, max: 4 });
    const onConnectionError = options.onConnectionError ?? (() => {});
    // Every connection reports its own error once, idle or lent out (a transaction between its
    // statements); the pool passes an idle one's on as well, and must have a listener too, or it throws.
    for (const each of [pool, authPool]) {
      each.on("connect", (client) => client.on("error", onConnectionError));
      each.on("error", () => {});
    }
    const db = new Kysely<Database>({ dialect: new PostgresDialect({ pool }) });
    const authDb = new Kysely<unknown>({ dialect: new PostgresDialect({ pool: authPool }) });
    return {
      db,
      dialect: "postgres",
      authDatabase: { db: authDb, type: "postgres" },
      writeLockWaits: () => 0,
      async destroy() {
        await Promise.all([db.destroy(), authDb.destroy()]);
      },
    };
  }

  const file = sqliteFilePath(url);
  mkdirSync(path.dirname(file), { recursive: true });
  const writer = new SQLite(file);
  writer.pragma("journal_mode = WAL");
  writer.pragma("synchronous = FULL");
  writer.pragma("foreign_keys = ON");
  // Waiting for another process's write lock is done on a timer (sqlite-dialect.server.ts), not here.
  writer.pragma("busy_timeout = 0");
  const reader = new SQLite(file);
  reader.pragma("query_only = ON");
  // A WAL reader waits only in rare moments (a crashed writer's log being recovered).
  reader.pragma("busy_timeout = 5000");
  const lockWaits = { count: 0 };
  const db = new Kysely<Database>({
    dialect: new SqliteServerDialect(
      { reader: withStatementCache(reader), writer: withStatementCache(writer) },
      lockWaits,
    ),
  });
  return {
    db,
    dialect: "sqlite",
    authDatabase: { db: db as unknown as Kysely<unknown>, type: "sqlite" },
    writeLockWaits: () => lockWaits.count,
    async destroy() {
      await db.destroy();
    },
  };
}

/**
 * better-sqlite3 behind a cache of prepared statements. Kysely prepares every query it runs, and
 * preparing costs about as much as running a small query, so an order (a dozen statements) spends a
 * good part of its database time compiling the same SQL again. Bounded, least recently used first out,
 * because a query's text varies with the length of its IN lists. A statement is only ever used by one
 * query at a time: better-sqlite3 runs synchronously and we never stream.
 */
function withStatementCache(sqlite: SQLite.Database, size = 500) {
  const cache = new Map<string, SQLite.Statement>();
  return {
    close: () => sqlite.close(),
    get inTransaction() {
      return sqlite.inTransaction;
    },
    prepare(query: string) {
      let statement = cache.get(query);
      if (statement) {
        cache.delete(query);
      } else {
        statement = sqlite.prepare(query);
        if (cache.size >= size) cache.delete(cache.keys().next().value!);
      }
      cache.set(query, statement);
      return statement;
    },
  };
}

export async function pingDatabase(db: Kysely<Database>): Promise<boolean> {
  try {
    await sql`select 1`.execute(db);
    return true;
  } catch {
    return false;
  }
}
