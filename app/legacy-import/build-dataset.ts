import { buildAnnouncements } from "./build-announcements";
import type { Building } from "./build-context";
import { buildOrders } from "./build-orders";
import { buildServices } from "./build-services";
import { buildSettings, buildUnsupported } from "./build-settings";
import { buildUserServices } from "./build-user-services";
import { buildUsers } from "./build-users";
import { buildVouchers } from "./build-vouchers";
import type { Source } from "./file-sources";
import type { LegacyDataset } from "./legacy-dataset";
import type { SourceSummary } from "./report-types";

/**
 * Normalises every record and merges the sources. The document wins over a legacy key for a record in
 * both (users by email, vouchers by code, the rest by id); a record only in a legacy key is added. Two
 * records with one identity in the same source are a real duplicate: the first is kept, the second skipped.
 */
export function buildDataset(sources: Source[], summary: SourceSummary): LegacyDataset {
  const data: LegacyDataset = {
    source: summary,
    users: [],
    services: [],
    orders: [],
    userServices: [],
    announcements: [],
    vouchers: [],
    settings: [],
    skipped: [],
    notes: [],
    userEmailById: new Map(),
    skippedUserRefs: new Map(),
  };
  const b: Building = { sources, data, legacyStats: new Map() };
  for (const source of sources)
    if (source.legacyKey)
      b.legacyStats.set(source.index, { key: source.legacyKey, records: 0, merged: 0 });
  // In the order the report lists them: each step appends its skips and notes.
  for (const build of [
    buildUsers,
    buildServices,
    buildOrders,
    buildUserServices,
    buildAnnouncements,
    buildVouchers,
    buildSettings,
    buildUnsupported,
  ])
    build(b);
  summary.legacyKeys = [...b.legacyStats.values()];
  return data;
}
