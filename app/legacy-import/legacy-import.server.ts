import { createHash } from "node:crypto";
import { inTransaction, Refusal, type Db, type Tx } from "~/db/transaction";
import { record } from "~/domain/events/events.server";
import { prepareCredentials, StaleCredentials, type Credential } from "./credentials.server";
import { usersToCreate } from "./import-state.server";
import type { LegacyDataset } from "./legacy-dataset";
import { readLegacyFile } from "./read-file";
import type { FileProblem, ImportReport } from "./report-types";
import { writeAnnouncements } from "./write-announcements.server";
import { startWriting } from "./write-context.server";
import { writeOrders } from "./write-orders.server";
import { writeServices } from "./write-services.server";
import { writeSettings } from "./write-settings.server";
import { writeUserServices } from "./write-user-services.server";
import { writeUsers } from "./write-users.server";
import { writeVouchers } from "./write-vouchers.server";

export type ImportResult =
  { ok: true; report: ImportReport } | { ok: false; problems: FileProblem[] };

const STALE =
  "an account was created or removed in Hostfront while the import was being prepared; nothing was imported, run it again";

/**
 * Imports a file of the old storefront (docs/legacy-import.md). The file is read and checked first; any
 * problem refuses it whole. Passwords are hashed next, outside the transaction. Then every write happens
 * in ONE transaction, with one audit entry: everything is imported, or nothing is. Each record brought in
 * is remembered in legacy_imports, so the same file run again imports nothing. A dry run does all of it
 * and rolls back.
 */
export async function importLegacyFile(
  db: Db,
  input: { text: string; fileName: string; dryRun?: boolean },
): Promise<ImportResult> {
  const read = readLegacyFile(input.text);
  if (!read.ok) return read;
  const data = read.dataset;
  const dryRun = input.dryRun ?? false;
  const credentials = await prepareCredentials(await usersToCreate(db, data), dryRun);
  const fileHash = createHash("sha256").update(input.text).digest("hex").slice(0, 12);
  try {
    return await inTransaction(db, async (trx) => {
      const report = await writeAll(trx, data, credentials, dryRun);
      const written = Object.values(report.counts).reduce((n, c) => n + c.imported + c.matched, 0);
      if (written > 0) {
        await record(trx, {
          type: "legacy.imported",
          fileHash,
          fileName: input.fileName,
          counts: report.counts,
        });
      }
      const result: ImportResult = { ok: true, report };
      // A dry run rolls everything back and still answers with what would have happened.
      if (dryRun) throw new Refusal(result);
      return result;
    });
  } catch (error) {
    if (!(error instanceof StaleCredentials)) throw error;
    return { ok: false, problems: [{ path: "", message: STALE }] };
  }
}

/** The write steps in order: later ones point at what earlier ones made (users, then products). */
async function writeAll(
  trx: Tx,
  data: LegacyDataset,
  credentials: Map<string, Credential>,
  dryRun: boolean,
): Promise<ImportReport> {
  const w = await startWriting(trx, data, credentials, dryRun);
  const accounts = await writeUsers(w);
  const catalogue = await writeServices(w);
  await writeOrders(w, accounts, catalogue);
  await writeUserServices(w, accounts, catalogue);
  await writeAnnouncements(w);
  await writeVouchers(w, catalogue);
  await writeSettings(w);
  return w.report;
}
