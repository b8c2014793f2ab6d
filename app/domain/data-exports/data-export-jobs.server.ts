import { inTransaction, type Db } from "~/db/transaction";
import { record } from "~/domain/events/events.server";
import type { JobHandler } from "~/domain/jobs/jobs.server";
import type { ScheduleDefinition } from "~/domain/jobs/schedule-slots";
import { buildDataArchive, type DataExportTexts } from "./data-export-archive.server";
import { DATA_EXPORT_LINK_DAYS } from "./data-exports";
import {
  DATA_EXPORT_JOB,
  dataExportToken,
  dataExportTokenHash,
  purgeDataExports,
} from "./data-exports.server";

// The worker's side of a customer's archive (docs/self-service.md#a-customers-data): the job that makes
// one asked for (never a request: reading everything and drawing every PDF takes seconds), and the
// schedule that deletes the bytes of those whose link has run out.

/** The hourly purge of archives whose link has run out (its schedule's name is its job type). */
export const DATA_EXPORT_PURGE_JOB = "data-exports.purge";

const DAY_MS = 86_400_000;

/**
 * What the archive's job is made with, given by the process that runs it (server/data-exports.ts): the
 * auth secret its link's token is derived with, and the words of a customer's language (none known: the
 * site's default).
 */
export interface DataExportWiring {
  secret: string;
  texts: (locale: string | null) => Promise<DataExportTexts>;
}

async function failExport(db: Db, exportId: number): Promise<void> {
  await db
    .updateTable("data_exports")
    .set({ state: "failed" })
    .where("id", "=", exportId)
    .where("state", "=", "queued")
    .execute();
}

/**
 * Makes archive `payload.exportId`: read, zipped and stored with its link's hash and end in one
 * transaction that also tells the customer (`dataExport.ready`: a notice and a mail with the link) and
 * completes the job. Run again (a crash, a second claim) it finds the archive made and does nothing. A
 * failure is retried; after the last attempt the archive is failed (the account tab says so, and the
 * customer may ask again) and the job dies, which alerts staff.
 */
function buildHandler(wiring: DataExportWiring): JobHandler {
  return async ({ db, now, payload, job, complete }): Promise<Record<string, number>> => {
    const exportId = Number((payload as { exportId?: unknown }).exportId);
    const row = Number.isInteger(exportId)
      ? await db
          .selectFrom("data_exports")
          .innerJoin("users", "users.id", "data_exports.user_id")
          .select([
            "data_exports.id",
            "data_exports.user_id",
            "data_exports.state",
            "data_exports.asked_at",
            "users.locale",
            "users.status",
          ])
          .where("data_exports.id", "=", exportId)
          .executeTakeFirst()
      : undefined;
    if (!row || row.state !== "queued") return { skipped: 1 };
    // The account was closed meanwhile: nothing is made of what it held.
    if (row.status !== "active") {
      await failExport(db, exportId);
      return { skipped: 1 };
    }
    try {
      const archive = await buildDataArchive(db, {
        userId: row.user_id,
        now,
        texts: await wiring.texts(row.locale),
      });
      const token = dataExportToken(wiring.secret, { ...row, id: exportId });
      const expiresAt = new Date(now.getTime() + DATA_EXPORT_LINK_DAYS * DAY_MS).toISOString();
      await inTransaction(db, async (trx) => {
        const made = await trx
          .updateTable("data_exports")
          .set({
            state: "ready",
            archive,
            size_bytes: archive.length,
            token_hash: dataExportTokenHash(token),
            ready_at: now.toISOString(),
            expires_at: expiresAt,
          })
          .where("id", "=", exportId)
          .where("state", "=", "queued")
          .executeTakeFirst();
        if (Number(made.numUpdatedRows) === 1)
          await record(
            trx,
            {
              type: "dataExport.ready",
              userId: row.user_id,
              exportId,
              token,
              expiresAt,
              sizeBytes: archive.length,
            },
            now,
          );
        await complete(trx);
      });
      return { archives: 1 };
    } catch (error) {
      if (job.attempts >= job.max_attempts) await failExport(db, exportId);
      throw error;
    }
  };
}

/** The archive's job, made with the process's wiring (registry.server.ts). */
export function dataExportHandlers(wiring: DataExportWiring): Record<string, JobHandler> {
  return { [DATA_EXPORT_JOB]: buildHandler(wiring) };
}

/** The purge needs nothing from the process: every worker has it. */
export const dataExportPurgeHandlers: Record<string, JobHandler> = {
  [DATA_EXPORT_PURGE_JOB]: async ({ db, now }) => {
    const { expired, failed } = await purgeDataExports(db, { now });
    return { archivesExpired: expired, archivesFailed: failed };
  },
};

export const dataExportSchedules: ScheduleDefinition[] = [
  { name: DATA_EXPORT_PURGE_JOB, cron: "25 * * * *", jobType: DATA_EXPORT_PURGE_JOB },
];
