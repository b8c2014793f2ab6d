import type { Db, Tx } from "~/db/transaction";
import type { ImportCollection } from "./collections";
import type { ImportUser } from "./dataset-types";
import type { LegacyDataset } from "./legacy-dataset";

// What is already here: accounts by email, and what earlier imports brought in (legacy_imports).

export interface Mapping {
  newId: string;
  outcome: "created" | "matched";
}

export const mappingKey = (collection: ImportCollection, key: string) =>
  `${collection}\u0000${key}`;

export const sameName = (a: string, b: string) =>
  a.trim().replace(/\s+/g, " ").toLowerCase() === b.trim().replace(/\s+/g, " ").toLowerCase();

function chunks<T>(items: T[], size = 500): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size));
  return out;
}

export async function existingEmails(db: Db | Tx, emails: string[]): Promise<Set<string>> {
  const found = new Set<string>();
  for (const part of chunks(emails)) {
    const rows = await db.selectFrom("users").select("email").where("email", "in", part).execute();
    for (const row of rows) found.add(row.email);
  }
  return found;
}

export async function loadMappings(db: Db | Tx): Promise<Map<string, Mapping>> {
  const rows = await db
    .selectFrom("legacy_imports")
    .select(["collection", "legacy_key", "new_id", "outcome"])
    .execute();
  return new Map(
    rows.map((row) => [
      mappingKey(row.collection as ImportCollection, row.legacy_key),
      { newId: row.new_id, outcome: row.outcome as Mapping["outcome"] },
    ]),
  );
}

/** Users that an import would create now: not imported before and no account with their email. */
export async function usersToCreate(db: Db, data: LegacyDataset): Promise<ImportUser[]> {
  const mappings = await loadMappings(db);
  const taken = await existingEmails(
    db,
    data.users.map((u) => u.email),
  );
  return data.users.filter(
    (u) => !mappings.has(mappingKey("users", u.email)) && !taken.has(u.email),
  );
}
