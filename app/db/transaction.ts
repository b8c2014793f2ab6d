import type { Kysely, Transaction } from "kysely";
import type { Database } from "./schema";

/** A step takes this: it can only run inside a transaction that a use-case opened. */
export type Tx = Transaction<Database>;
export type Db = Kysely<Database>;

/** Thrown inside a transaction to roll it back and hand a refusal to the caller. */
export class Refusal<T> extends Error {
  constructor(readonly result: T) {
    super("refused");
  }
}

/** A use-case's refusal, as its result type spells one. */
type RefusedResult = { ok: false; kind: string; error: string };

type Failure<R> = Extract<R, RefusedResult>;

/**
 * Throws the refusal `{ ok: false, kind, error }` of the result type `R`, given explicitly:
 * `refuse<OpenTicketResult>("invalid", "tickets.errors.serviceNotFound")`.
 */
export function refuse<R extends { ok: boolean }>(
  kind: Failure<R>["kind"],
  error: Failure<R>["error"],
): never {
  throw new Refusal({ ok: false, kind, error });
}

/**
 * Step: the row `query` finds, or `refusal` thrown as a `Refusal`, which rolls the transaction back and
 * is what the use-case returns.
 */
export async function rowOrRefuse<O>(
  query: { executeTakeFirst(): Promise<O | undefined> },
  refusal: RefusedResult,
): Promise<O> {
  const row = await query.executeTakeFirst();
  if (row === undefined) throw new Refusal(refusal);
  return row;
}

/** Attempts of a transaction PostgreSQL gave up on (a deadlock, a serialization failure). */
const TRANSACTION_ATTEMPTS = 4;

/**
 * True when PostgreSQL ended the transaction so that another could go on: a deadlock (40P01) or a
 * serialization failure (40001). Nothing of it was written, and running it again is the documented answer.
 */
export function isRetryableConflict(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return code === "40P01" || code === "40001";
}

/**
 * Runs `work` in a transaction. A `Refusal` thrown inside rolls everything back and its result is
 * returned; any other error rolls back and propagates. When PostgreSQL breaks a deadlock (two money
 * transactions locking a customer's row and a service's or an order's in turn) by ending this one, the
 * whole of `work` runs again in a new transaction, up to TRANSACTION_ATTEMPTS times, after a short random
 * wait: `work` only reads and writes the database, so running it again is running it once.
 */
export async function inTransaction<T>(db: Db, work: (trx: Tx) => Promise<T>): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await db.transaction().execute(work);
    } catch (error) {
      if (error instanceof Refusal) return error.result as T;
      if (attempt >= TRANSACTION_ATTEMPTS || !isRetryableConflict(error)) throw error;
      await new Promise((resolve) => setTimeout(resolve, 5 + Math.random() * 20 * attempt));
    }
  }
}

/** True for a unique-constraint violation on either dialect. */
export function isUniqueViolation(error: unknown): boolean {
  if (!error || typeof error !== "object") return false;
  const e = error as { code?: string; message?: string };
  return (
    e.code === "23505" ||
    e.code === "SQLITE_CONSTRAINT_UNIQUE" ||
    /UNIQUE constraint failed/.test(e.message ?? "")
  );
}

/**
 * What `work` returns, or `taken` when a unique index refused its write: another request wrote the same
 * value (a code, an address, a claim) between our look and our write.
 */
export async function orWhenTaken<R>(taken: NoInfer<R>, work: () => Promise<R>): Promise<R> {
  try {
    return await work();
  } catch (error) {
    if (isUniqueViolation(error)) return taken;
    throw error;
  }
}

/**
 * Stores once per idempotency key. `earlier` finds what a request with the same key stored (or a refusal
 * when the key was made for someone else); `store` writes, behind the key's unique index. The key is
 * looked up first unless `lookFirst` is false (where nearly every submit is new); a unique violation (the
 * same key raced in from a second request) answers with what the first request stored.
 */
export async function storeOncePerKey<R>(
  earlier: () => Promise<R | undefined>,
  store: () => Promise<R>,
  { lookFirst = true }: { lookFirst?: boolean } = {},
): Promise<R> {
  if (lookFirst) {
    const replayed = await earlier();
    if (replayed) return replayed;
  }
  try {
    return await store();
  } catch (error) {
    const previous = isUniqueViolation(error) ? await earlier() : undefined;
    if (previous) return previous;
    throw error;
  }
}
