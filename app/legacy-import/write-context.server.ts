import type { Tx } from "~/db/transaction";
import { emptyCounts, type ImportCollection, type Outcome } from "./collections";
import type { Credential } from "./credentials.server";
import { loadMappings, mappingKey, type Mapping } from "./import-state.server";
import type { LegacyDataset } from "./legacy-dataset";
import type { ImportNote, ImportReport, SkipReason } from "./report-types";

/** What every write step shares: the transaction, the dataset, the report it fills, what is mapped. */
export interface Writing {
  trx: Tx;
  data: LegacyDataset;
  credentials: Map<string, Credential>;
  /** One time for the whole import: every row's updated_at, and created_at when the file had none. */
  now: string;
  report: ImportReport;
  mappings: Map<string, Mapping>;
}

/** The report starts with the records turned away while the file was read. */
export async function startWriting(
  trx: Tx,
  data: LegacyDataset,
  credentials: Map<string, Credential>,
  dryRun: boolean,
): Promise<Writing> {
  const report: ImportReport = {
    dryRun,
    source: data.source,
    counts: emptyCounts(),
    skipped: [],
    notes: [...data.notes],
    oneTimePasswords: [],
  };
  const now = new Date().toISOString();
  const w: Writing = { trx, data, credentials, now, report, mappings: await loadMappings(trx) };
  for (const line of data.skipped) {
    report.skipped.push(line);
    report.counts[line.collection].skipped +=
      line.reason.code === "notSupported" ? line.reason.count : 1;
  }
  return w;
}

const count = (w: Writing, collection: ImportCollection, outcome: Outcome) =>
  w.report.counts[collection][outcome]++;

export function skip(
  w: Writing,
  collection: ImportCollection,
  ref: string,
  label: string,
  reason: SkipReason,
) {
  w.report.skipped.push({ collection, ref, label, reason });
  count(w, collection, "skipped");
}

export function note(
  w: Writing,
  collection: ImportCollection,
  ref: string,
  label: string,
  n: ImportNote,
) {
  w.report.notes.push({ collection, ref, label, note: n });
}

/** Notes an old status that was mapped onto one of ours (the record keeps it as `unknownStatus`). */
export function noteMappedStatus(
  w: Writing,
  collection: ImportCollection,
  record: { ref: string; status: string; unknownStatus: string | null },
  label: string,
) {
  if (record.unknownStatus)
    note(w, collection, record.ref, label, {
      code: "statusMapped",
      from: record.unknownStatus,
      to: record.status,
    });
}

/** Records what a record became, so the same file run again imports it no second time. */
export async function remember(
  w: Writing,
  collection: ImportCollection,
  key: string,
  newId: string | number,
  outcome: "created" | "matched",
) {
  await w.trx
    .insertInto("legacy_imports")
    .values({ collection, legacy_key: key, new_id: String(newId), outcome, imported_at: w.now })
    .execute();
  w.mappings.set(mappingKey(collection, key), { newId: String(newId), outcome });
  count(w, collection, outcome === "created" ? "imported" : "matched");
}

/** What an earlier import made of this record (counted as already imported), if anything. */
export function mapped(w: Writing, collection: ImportCollection, key: string) {
  const found = w.mappings.get(mappingKey(collection, key));
  if (found) count(w, collection, "already");
  return found;
}
