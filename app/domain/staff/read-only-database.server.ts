import type { Kysely, KyselyPlugin, PluginTransformQueryArgs, RootOperationNode } from "kysely";
import type { Database } from "~/db/schema";

// The database as a request that views the site as a customer sees it (ADR 57): reads pass, and a write
// is refused before it reaches the database. The pages that write as they are read skip that while
// viewing; this is the net under them (app/http/view-as-gate.server.ts hands it to every such request).

/** Thrown by the read-only database: a write asked for while viewing as a customer. */
export class ReadOnlyViewError extends Error {
  constructor(kind: string) {
    super(`a write (${kind}) was refused: this request views the site as a customer, read-only`);
    this.name = "ReadOnlyViewError";
  }
}

const WRITE_KINDS = new Set([
  "InsertQueryNode",
  "UpdateQueryNode",
  "DeleteQueryNode",
  "MergeQueryNode",
]);

/** The kind of write inside a select (a data-modifying WITH on PostgreSQL), or null. */
function nestedWrite(node: unknown): string | null {
  if (Array.isArray(node)) {
    for (const item of node) {
      const found = nestedWrite(item);
      if (found) return found;
    }
    return null;
  }
  if (!node || typeof node !== "object") return null;
  const kind = (node as { kind?: unknown }).kind;
  if (typeof kind === "string" && WRITE_KINDS.has(kind)) return kind;
  for (const value of Object.values(node)) {
    const found = nestedWrite(value);
    if (found) return found;
  }
  return null;
}

/**
 * What a query would change, or null for a read: a select (without a write inside it) or a raw
 * statement that starts with `select`. Anything else (inserts, updates, deletes, schema changes, other
 * raw statements) counts as a write.
 */
export function writeOf(node: RootOperationNode): string | null {
  if (node.kind === "SelectQueryNode") return nestedWrite(node);
  if (node.kind === "RawNode")
    return /^\s*select\b/i.test(node.sqlFragments.join("?")) ? null : "raw statement";
  return node.kind;
}

function readOnlyPlugin(refuse: (kind: string) => unknown): KyselyPlugin {
  return {
    transformQuery(args: PluginTransformQueryArgs): RootOperationNode {
      const write = writeOf(args.node);
      if (write) throw refuse(write);
      return args.node;
    },
    transformResult: async (args) => args.result,
  };
}

/**
 * The database as a read-only view sees it: reads pass, any write throws what `refuse` makes of it
 * (ReadOnlyViewError unless the caller says otherwise: the request's gate throws its 403 answer, so a
 * page that writes as it is read tells the viewer it is read-only rather than failing).
 */
export function readOnlyDatabase(
  db: Kysely<Database>,
  refuse: (kind: string) => unknown = (kind) => new ReadOnlyViewError(kind),
): Kysely<Database> {
  return db.withPlugin(readOnlyPlugin(refuse));
}
