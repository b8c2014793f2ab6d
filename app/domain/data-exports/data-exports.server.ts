import { createHash, createHmac } from "node:crypto";
import { sql } from "kysely";
import { inTransaction, orWhenTaken, refuse, type Db, type Tx } from "~/db/transaction";
import { lockUser } from "~/domain/accounts/user-lock.server";
import { record } from "~/domain/events/events.server";
import { enqueueJob } from "~/domain/jobs/jobs.server";
import {
  DATA_EXPORT_LIST_SIZE,
  DATA_EXPORT_WINDOW_HOURS,
  dataExportFileName,
  dataExportPath,
  DATA_EXPORT_TOKEN,
  isDataExportState,
  type DataExportsCard,
} from "./data-exports";

// A customer's archive of their data, the use-cases (docs/self-service.md, ADR 61): asking for one
// (which queues the worker's job that makes it), the account tab's list, the download, and the purge of
// the archives whose link has run out. The archive itself is made by data-export-jobs.server.ts.

/** The job that makes an archive (its handler: data-export-jobs.server.ts). */
export const DATA_EXPORT_JOB = "data-exports.build";
/** An archive's job is tried this many times before the archive is given up as failed. */
export const DATA_EXPORT_ATTEMPTS = 3;

const HOUR_MS = 3_600_000;

/**
 * The link's token of archive `row`, derived from the auth secret: the database keeps only its hash, so a
 * copy of the database alone opens no archive, and the account tab can still show the link.
 */
export function dataExportToken(
  secret: string,
  row: { id: number; user_id: string; asked_at: string },
): string {
  return createHmac("sha256", secret)
    .update(`data-export\0${row.id}\0${row.user_id}\0${row.asked_at}`)
    .digest("base64url");
}

/** What the database keeps of a token: its SHA-256, in hex. */
export function dataExportTokenHash(token: string): string {
  return createHash("sha256").update(token).digest("hex");
}

/**
 * A step: the account's archives still queued whose job is no more (it died after its last attempt, or
 * was discarded from /admin/automation) are failed: nothing will make them, and one queued would bar
 * the next ask for ever. Returns how many.
 */
export async function failOrphanedExports(trx: Tx | Db, userId?: string): Promise<number> {
  let query = trx
    .updateTable("data_exports")
    .set({ state: "failed" })
    .where("state", "=", "queued")
    .where((eb) =>
      eb.or([
        eb("job_id", "is", null),
        eb.not(
          eb.exists(
            eb
              .selectFrom("jobs")
              .select("jobs.id")
              .whereRef("jobs.id", "=", "data_exports.job_id")
              .where("jobs.state", "<>", "dead"),
          ),
        ),
      ]),
    );
  if (userId !== undefined) query = query.where("user_id", "=", userId);
  return Number((await query.executeTakeFirst()).numUpdatedRows);
}

export type AskDataExportResult =
  | { ok: true; exportId: number }
  /** As many as the setting allows were asked in the last 24 hours (`count` of them). */
  | {
      ok: false;
      kind: "limited";
      error: "dashboard.dataExport.errors.dailyLimit";
      params: { count: number };
    }
  | { ok: false; kind: "conflict"; error: "dashboard.dataExport.errors.waiting" }
  | { ok: false; kind: "notFound"; error: "dashboard.dataExport.errors.noAccount" };

const waitingRefusal = {
  ok: false,
  kind: "conflict",
  error: "dashboard.dataExport.errors.waiting",
} as const;

/**
 * A customer asks for an archive of their data. Refused while one is being made (one at a time: a unique
 * index settles two asks at once) and past `perDay` asked in the last 24 hours (a failed one is not
 * counted: it was our failure). The archive is made by the worker: its job is queued in this
 * transaction, so it exists if and only if the ask does. `now`: the clock's (tests inject theirs).
 */
export async function askForDataExport(
  db: Db,
  input: { userId: string; now?: Date },
  limits: { perDay: number },
): Promise<AskDataExportResult> {
  const now = input.now ?? new Date();
  return orWhenTaken<AskDataExportResult>(waitingRefusal, () =>
    inTransaction(db, async (trx): Promise<AskDataExportResult> => {
      await lockUser(trx, input.userId);
      const user = await trx
        .selectFrom("users")
        .select("id")
        .where("id", "=", input.userId)
        .where("status", "=", "active")
        .executeTakeFirst();
      if (!user) refuse<AskDataExportResult>("notFound", "dashboard.dataExport.errors.noAccount");
      await failOrphanedExports(trx, input.userId);
      const counts = await trx
        .selectFrom("data_exports")
        .select((eb) => [
          eb.fn.count<number>(sql`case when state = 'queued' then 1 end`).as("waiting"),
          eb.fn
            .count<number>(
              sql`case when state <> 'failed' and asked_at > ${windowStart(now)} then 1 end`,
            )
            .as("recent"),
        ])
        .where("user_id", "=", input.userId)
        .executeTakeFirstOrThrow();
      if (Number(counts.waiting) > 0) return waitingRefusal;
      if (Number(counts.recent) >= limits.perDay)
        return {
          ok: false,
          kind: "limited",
          error: "dashboard.dataExport.errors.dailyLimit",
          params: { count: Number(counts.recent) },
        };
      const at = now.toISOString();
      const row = await trx
        .insertInto("data_exports")
        .values({ user_id: input.userId, state: "queued", asked_at: at })
        .returning("id")
        .executeTakeFirstOrThrow();
      const exportId = Number(row.id);
      const jobId = await enqueueJob(trx, {
        type: DATA_EXPORT_JOB,
        payload: { exportId },
        uniqueKey: `${DATA_EXPORT_JOB}:${exportId}`,
        maxAttempts: DATA_EXPORT_ATTEMPTS,
        now,
      });
      await trx
        .updateTable("data_exports")
        .set({ job_id: jobId })
        .where("id", "=", exportId)
        .execute();
      await record(trx, { type: "dataExport.requested", userId: input.userId, exportId }, now);
      return { ok: true, exportId };
    }),
  );
}

/** The start of the window the daily limit counts in, before `now`. */
function windowStart(now: Date): string {
  return new Date(now.getTime() - DATA_EXPORT_WINDOW_HOURS * HOUR_MS).toISOString();
}

/**
 * The account tab's card: the customer's latest archives, each with its link while it works (derived
 * from `secret`), and whether they may ask for another now.
 */
export async function loadDataExportsCard(
  db: Db,
  input: { userId: string; secret: string; perDay: number; now?: Date },
): Promise<DataExportsCard> {
  const now = input.now ?? new Date();
  const at = now.toISOString();
  const [rows, recent] = await Promise.all([
    db
      .selectFrom("data_exports")
      .select([
        "id",
        "user_id",
        "state",
        "asked_at",
        "ready_at",
        "expires_at",
        "size_bytes",
        "downloads",
        "job_id",
      ])
      .where("user_id", "=", input.userId)
      .orderBy("asked_at", "desc")
      .orderBy("id", "desc")
      .limit(DATA_EXPORT_LIST_SIZE)
      .execute(),
    db
      .selectFrom("data_exports")
      .select((eb) => eb.fn.countAll<number>().as("count"))
      .where("user_id", "=", input.userId)
      .where("state", "<>", "failed")
      .where("asked_at", ">", windowStart(now))
      .executeTakeFirstOrThrow(),
  ]);
  const exports = rows.map((row) => {
    const id = Number(row.id);
    const stored = isDataExportState(row.state) ? row.state : "failed";
    // Past its end, a link no longer works even before the purge has deleted the bytes.
    const lapsed = stored === "ready" && row.expires_at !== null && row.expires_at <= at;
    const state = lapsed ? "expired" : stored;
    return {
      id,
      state,
      askedAt: row.asked_at,
      readyAt: row.ready_at,
      expiresAt: row.expires_at,
      sizeBytes: row.size_bytes,
      downloads: row.downloads,
      link:
        state === "ready" ? dataExportPath(dataExportToken(input.secret, { ...row, id })) : null,
    } as const;
  });
  return {
    exports,
    perDay: input.perDay,
    askedInWindow: Number(recent.count),
    waiting: exports.some((each) => each.state === "queued"),
  };
}

/**
 * The archive a link opens, counted as downloaded: only for its owner (`userId`, the signed-in
 * account), only while it is ready and before its end. Anything else (a token of no archive, someone
 * else's, a lapsed one, a token that is not one) is nothing, the same for all.
 */
export async function openDataExport(
  db: Db,
  input: { userId: string; token: string; now?: Date },
): Promise<{ fileName: string; bytes: Buffer } | null> {
  if (!DATA_EXPORT_TOKEN.test(input.token)) return null;
  const at = (input.now ?? new Date()).toISOString();
  const found = await db
    .selectFrom("data_exports")
    .select(["id", "archive", "ready_at"])
    .where("token_hash", "=", dataExportTokenHash(input.token))
    .where("user_id", "=", input.userId)
    .where("state", "=", "ready")
    .where("expires_at", ">", at)
    .executeTakeFirst();
  if (!found?.archive || !found.ready_at) return null;
  await db
    .updateTable("data_exports")
    .set({ downloads: sql<number>`downloads + 1` })
    .where("id", "=", found.id)
    .execute();
  return { fileName: dataExportFileName(found.ready_at), bytes: found.archive };
}

/**
 * The purge (a use-case, the worker's schedule): every ready archive whose link ended by `now` loses its
 * bytes and becomes expired; the queued ones whose job is no more are failed. Returns the counts.
 */
export async function purgeDataExports(
  db: Db,
  { now }: { now: Date },
): Promise<{ expired: number; failed: number }> {
  const expired = await db
    .updateTable("data_exports")
    .set({ state: "expired", archive: null })
    .where("state", "=", "ready")
    .where("expires_at", "<=", now.toISOString())
    .executeTakeFirst();
  const failed = await failOrphanedExports(db);
  return { expired: Number(expired.numUpdatedRows), failed };
}
