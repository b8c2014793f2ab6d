import type { ImportCollection } from "./collections";
import { recordsOf, type Source, type SourcedRecord } from "./file-sources";
import type { LegacyDataset } from "./legacy-dataset";
import type { RawOwned } from "./schema-records";

/** What the per-collection builders share: the sources read, the dataset they fill, per-key counts. */
export interface Building {
  sources: Source[];
  data: LegacyDataset;
  /** Per legacy localStorage key (by source index): its records, and how many the document also has. */
  legacyStats: Map<number, { key: string; records: number; merged: number }>;
}

/**
 * Keeps the first record of each identity; says whether this one is new. Two records with one identity
 * in the same source are a real duplicate (skipped); a copy in a later source is merged (the first wins,
 * and the fields they differ in are noted).
 */
export function keepFirst<R>(
  b: Building,
  collection: ImportCollection,
  seen: Map<string, SourcedRecord<R>>,
  entry: SourcedRecord<R>,
  key: string,
  label: string,
  compare?: (kept: R, copy: R) => string[],
): boolean {
  const stats = b.legacyStats.get(entry.source.index);
  if (stats) stats.records++;
  const first = seen.get(key);
  if (!first) {
    seen.set(key, entry);
    return true;
  }
  if (first.source === entry.source) {
    const reason = { code: "duplicate", of: first.ref } as const;
    b.data.skipped.push({ collection, ref: entry.ref, label, reason });
    return false;
  }
  if (stats) stats.merged++;
  const fields = compare?.(first.record, entry.record) ?? [];
  if (fields.length) {
    const note = { code: "copiesDiffer", fields, kept: first.ref } as const;
    b.data.notes.push({ collection, ref: entry.ref, label, note });
  }
  return false;
}

/**
 * The first record of each old id, with its label. A record without an id cannot be imported exactly
 * once, so it is skipped.
 */
export function firstById<R extends { id: string | null }>(
  b: Building,
  collection: ImportCollection,
  labelOf: (record: R) => string,
): { ref: string; key: string; label: string; record: R }[] {
  const seen = new Map<string, SourcedRecord<R>>();
  const out: { ref: string; key: string; label: string; record: R }[] = [];
  for (const entry of recordsOf<R>(b.sources, collection)) {
    const label = labelOf(entry.record);
    const key = entry.record.id;
    if (key === null) {
      b.data.skipped.push({ collection, ref: entry.ref, label, reason: { code: "noId" } });
      continue;
    }
    if (keepFirst(b, collection, seen, entry, key, label))
      out.push({ ref: entry.ref, key, label, record: entry.record });
  }
  return out;
}

/**
 * The first order or user service of each old id (firstById), labelled by its service's name, else by
 * `noun` and its old id ("order 12").
 */
export function firstOwnedById<R extends RawOwned & { id: string | null }>(
  b: Building,
  collection: "orders" | "userServices",
  noun: string,
) {
  return firstById<R>(
    b,
    collection,
    (record) => record.serviceName ?? (record.id ? `${noun} ${record.id}` : noun),
  );
}

/** The fields an order and a user service share (ImportOwned): the old record's and its mapped status. */
export function ownedFields<S extends string>(
  entry: { ref: string; key: string; record: RawOwned },
  status: { status: S; unknown: string | null },
) {
  return {
    ref: entry.ref,
    key: entry.key,
    userId: entry.record.userId,
    serviceId: entry.record.serviceId,
    serviceName: entry.record.serviceName,
    status: status.status,
    unknownStatus: status.unknown,
    priceCents: entry.record.price,
  };
}
