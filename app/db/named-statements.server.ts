import { createHash } from "node:crypto";
import type pg from "pg";

/**
 * How many statements one connection keeps prepared. PostgreSQL holds each in the backend's memory for
 * the connection's life (about 25 KB for a two-table join, measured: 5 MB per connection at most), and
 * a query's text varies with the length of its IN lists; past this, a new text runs as an unnamed
 * statement, parsed and planned each time as before. The pool closes a connection idle for 10 s.
 */
export const STATEMENTS_PER_CONNECTION = 200;

interface NamedQuery {
  name: string;
  text: string;
  values: unknown[];
}

/**
 * The statement's name: the same text always gets the same name, in every process (a hash), so a name
 * can never stand for another text on a connection (pg refuses that) whoever prepared it.
 */
export function statementName(text: string): string {
  return `s_${createHash("sha1").update(text).digest("base64url")}`;
}

/**
 * What a query of Kysely's becomes: a named statement when it has parameters and the connection has
 * room for one more (or already holds it), else the query as it was. A query without parameters
 * (`begin`, `commit`, a savepoint) gains nothing from being kept.
 */
export function namedQuery(
  text: unknown,
  values: unknown,
  prepared: { has(name: string): boolean; size: number },
  names: Map<string, string>,
  limit = STATEMENTS_PER_CONNECTION,
  generation = 0,
): NamedQuery | null {
  if (typeof text !== "string" || !Array.isArray(values) || values.length === 0) return null;
  let name = names.get(text);
  if (name === undefined) {
    name = statementName(text);
    // One name per distinct text the process has run; the texts are the application's, so the map
    // stays as small as its queries, but a runaway (a generated IN list per request) must not grow it.
    if (names.size < 10_000) names.set(text, name);
  }
  if (generation > 0) name = `${name}_${generation}`;
  if (!prepared.has(name) && prepared.size >= limit) return null;
  return { name, text, values };
}

/**
 * Each of the pool's connections runs Kysely's queries as named (prepared) statements: PostgreSQL
 * parses and plans a text once per connection instead of once per query. A signed-in page runs six to
 * ten small queries, and the parse and plan were about half of PostgreSQL's CPU for each (measured:
 * git log -p docs/performance.md, "Signed-in page CPU").
 *
 * pg sends a named statement's Parse only the first time a connection runs it, and remembers it per
 * connection (`parsedStatements`, filled when PostgreSQL confirms it); this only gives the query a name.
 */
export function prepareStatementsOn(pool: pg.Pool, limit = STATEMENTS_PER_CONNECTION): void {
  const names = new Map<string, string>();
  pool.on("connect", (client) => {
    const query = client.query.bind(client) as (...args: unknown[]) => unknown;
    const prepared = preparedOn(client);
    // Bumped when a kept statement no longer fits its table (below): the connection's statements then
    // get new names and are parsed again, once each.
    let generation = 0;
    (client as { query: unknown }).query = (...args: unknown[]) => {
      const named =
        args.length === 2 ? namedQuery(args[0], args[1], prepared, names, limit, generation) : null;
      if (!named) return query(...args);
      return (query(named) as Promise<unknown>).catch((error: unknown) => {
        // A statement prepared before a table it reads changed its columns (a migration run by
        // another process, a restore) fails with this until the connection closes; PostgreSQL
        // cannot re-plan it into another row type. The query fails once; the next runs afresh.
        if (staleResultType(error)) generation++;
        throw error;
      });
    };
  });
}

/** PostgreSQL's refusal to run a kept statement whose table's columns changed since it was parsed. */
export function staleResultType(error: unknown): boolean {
  return (
    error instanceof Error &&
    (error as { code?: string }).code === "0A000" &&
    error.message.includes("cached plan must not change result type")
  );
}

/** The names a connection has prepared or is preparing (pg's own bookkeeping, read as a set). */
function preparedOn(client: pg.PoolClient): { has(name: string): boolean; size: number } {
  const connection = (
    client as unknown as {
      connection: {
        parsedStatements: Record<string, string>;
        submittedNamedStatements?: Record<string, string>;
      };
    }
  ).connection;
  return {
    has: (name) =>
      connection.parsedStatements[name] !== undefined ||
      connection.submittedNamedStatements?.[name] !== undefined,
    get size() {
      return Object.keys(connection.parsedStatements).length;
    },
  };
}
