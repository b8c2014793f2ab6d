import type { Kysely } from "kysely";
import { Migrator } from "kysely/migration";
import { MIGRATIONS } from "~/db/migrate.server";
import type { Database } from "~/db/schema";

// A migration's test: the database brought to the migration before it, rows written as they stood then,
// then the migration itself run (and undone), on each dialect.

/** The name of the migration that runs just before `name`. */
export function migrationBefore(name: string): string {
  const before = Object.keys(MIGRATIONS)
    .filter((each) => each < name)
    .sort()
    .at(-1);
  if (!before) throw new Error(`no migration before ${name}`);
  return before;
}

/** Migrates `db` up or down to `target` (a migration's name), as the app's migrator would. */
export async function migrateTo(db: Kysely<Database>, target: string): Promise<void> {
  const { error } = await new Migrator({
    db,
    provider: { getMigrations: async () => MIGRATIONS },
  }).migrateTo(target);
  if (error) throw error;
}
