import { setTimeout as sleep } from "node:timers/promises";
import type SQLite from "better-sqlite3";
import {
  CompiledQuery,
  SelectQueryNode,
  SqliteAdapter,
  SqliteIntrospector,
  SqliteQueryCompiler,
  type DatabaseConnection,
  type Dialect,
  type Driver,
  type Kysely,
  type QueryResult,
} from "kysely";

/** Prepared statements by SQL text (database.server.ts keeps them cached). */
export interface StatementSource {
  prepare(sql: string): SQLite.Statement;
  /** Whether the connection has a transaction open (better-sqlite3's own flag). */
  readonly inTransaction: boolean;
  close(): void;
}

/** How long a write waits for another server process to finish its own before giving up. */
export const WRITE_LOCK_TIMEOUT_MS = 5_000;

/**
 * SQLite for one server process among several on the same file (ADR 4, ADR 14), on two connections.
 *
 * - Reads outside a transaction go to a connection of their own, which in WAL mode never waits for a
 *   writer: a page's queries are not held up by this process's order in progress, nor by another
 *   process's.
 * - Transactions and writes go to the writer connection, one at a time in this process. A transaction
 *   takes SQLite's write lock when it begins (BEGIN IMMEDIATE: with several processes, a deferred
 *   transaction that reads and then writes fails with SQLITE_BUSY at once when another process wrote in
 *   between). When another process holds the lock, the wait is a timer, not SQLite's busy handler, which
 *   sleeps on the thread that serves every request of this process.
 */
export class SqliteServerDialect implements Dialect {
  readonly #connections: { reader: StatementSource; writer: StatementSource };
  readonly #lockWaits: LockWaits;

  constructor(
    connections: { reader: StatementSource; writer: StatementSource },
    lockWaits: LockWaits = { count: 0 },
  ) {
    this.#connections = connections;
    this.#lockWaits = lockWaits;
  }

  createAdapter() {
    return new SqliteServerAdapter();
  }

  createDriver(): Driver {
    return new SqliteServerDriver(this.#connections, this.#lockWaits);
  }

  createQueryCompiler() {
    return new SqliteQueryCompiler();
  }

  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- Kysely's own Dialect signature
  createIntrospector(db: Kysely<any>) {
    return new SqliteIntrospector(db);
  }
}

/**
 * Kysely gives SQLite a single connection (its adapter says it has no other), queueing a read behind a
 * transaction in progress. This driver has two, and orders the writes itself.
 */
class SqliteServerAdapter extends SqliteAdapter {
  override get supportsMultipleConnections(): boolean {
    return true;
  }
}

class Mutex {
  #held: Promise<void> | undefined;
  #release: (() => void) | undefined;

  async lock() {
    while (this.#held) await this.#held;
    this.#held = new Promise((resolve) => (this.#release = resolve));
  }

  unlock() {
    const release = this.#release;
    this.#held = undefined;
    this.#release = undefined;
    release?.();
  }
}

function isBusy(error: unknown) {
  const code = error instanceof Error ? (error as Error & { code?: unknown }).code : undefined;
  return typeof code === "string" && code.startsWith("SQLITE_BUSY");
}

/** How many writes of this process found another process holding the write lock, and waited. */
export interface LockWaits {
  count: number;
}

/** Runs `attempt` until no other process holds the write lock, waiting on a timer in between. */
async function whenUnlocked<T>(attempt: () => T, waits: LockWaits): Promise<T> {
  const deadline = performance.now() + WRITE_LOCK_TIMEOUT_MS;
  for (let pause = 1; ; pause = Math.min(pause * 2, 16)) {
    try {
      return attempt();
    } catch (error) {
      if (!isBusy(error) || performance.now() >= deadline) throw error;
    }
    if (pause === 1) waits.count++;
    await sleep(pause);
  }
}

function run<R>(source: StatementSource, query: CompiledQuery): QueryResult<R> {
  const statement = source.prepare(query.sql);
  if (statement.reader) return { rows: statement.all(query.parameters) as R[] };
  const { changes, lastInsertRowid } = statement.run(query.parameters);
  return { numAffectedRows: BigInt(changes), insertId: BigInt(lastInsertRowid), rows: [] };
}

class SqliteServerDriver implements Driver {
  readonly #reader: StatementSource;
  readonly #writer: StatementSource;
  readonly #writerTurn = new Mutex();
  readonly #lockWaits: LockWaits;

  constructor(
    { reader, writer }: { reader: StatementSource; writer: StatementSource },
    lockWaits: LockWaits,
  ) {
    this.#reader = reader;
    this.#writer = writer;
    this.#lockWaits = lockWaits;
  }

  async init() {}

  async acquireConnection(): Promise<DatabaseConnection> {
    return new RoutedConnection(this.#reader, this.#writer, this.#writerTurn, this.#lockWaits);
  }

  async beginTransaction(connection: DatabaseConnection) {
    await (connection as RoutedConnection).begin();
  }

  async commitTransaction(connection: DatabaseConnection) {
    await (connection as RoutedConnection).end("commit");
  }

  async rollbackTransaction(connection: DatabaseConnection) {
    await (connection as RoutedConnection).end("rollback");
  }

  async releaseConnection() {}

  async destroy() {
    this.#reader.close();
    this.#writer.close();
  }
}

/** One query, or one transaction, as Kysely sees it. */
class RoutedConnection implements DatabaseConnection {
  #inTransaction = false;

  constructor(
    private readonly reader: StatementSource,
    private readonly writer: StatementSource,
    private readonly writerTurn: Mutex,
    private readonly lockWaits: LockWaits,
  ) {}

  async begin() {
    await this.writerTurn.lock();
    try {
      await whenUnlocked(
        () => run(this.writer, CompiledQuery.raw("begin immediate")),
        this.lockWaits,
      );
    } catch (error) {
      this.writerTurn.unlock();
      throw error;
    }
    this.#inTransaction = true;
  }

  async end(how: "commit" | "rollback") {
    if (!this.#inTransaction) return; // BEGIN failed: nothing is open and the turn was given back
    if (how === "commit") {
      // A COMMIT refused as busy leaves the transaction open, to be tried again; one that fails
      // otherwise leaves it open too, and Kysely rolls back next.
      await whenUnlocked(() => run(this.writer, CompiledQuery.raw("commit")), this.lockWaits);
    }
    try {
      // After a failed COMMIT (a disk error), SQLite may have rolled back already.
      if (how === "rollback" && this.writer.inTransaction)
        run(this.writer, CompiledQuery.raw("rollback"));
    } finally {
      this.#inTransaction = false;
      this.writerTurn.unlock();
    }
  }

  async executeQuery<R>(query: CompiledQuery): Promise<QueryResult<R>> {
    if (this.#inTransaction) return run(this.writer, query);
    if (SelectQueryNode.is(query.query)) return run(this.reader, query);
    await this.writerTurn.lock();
    try {
      // A statement refused as busy has changed nothing, so it can be run again.
      return await whenUnlocked(() => run<R>(this.writer, query), this.lockWaits);
    } finally {
      this.writerTurn.unlock();
    }
  }

  // eslint-disable-next-line require-yield -- nothing here streams (better-sqlite3 answers at once)
  async *streamQuery<R>(): AsyncIterableIterator<QueryResult<R>> {
    throw new Error("Streaming is not supported");
  }
}
