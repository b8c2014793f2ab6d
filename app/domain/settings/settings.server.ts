import type { Kysely } from "kysely";
import type { Database } from "~/db/schema";
import { settingsSections, type Settings, type SettingsSection } from "./settings";
import { settingsSchema } from "./settings.schemas";
import type { StaffRole } from "~/domain/staff/permissions";

/**
 * Reads every section, keeping each stored value that is still valid and falling back to the default
 * for anything missing or no longer valid, so a bad row can never take the site down.
 */
export async function getSettings(db: Kysely<Database>): Promise<Settings> {
  const rows = await db.selectFrom("settings").select(["key", "value"]).execute();
  const stored = new Map(rows.map((row) => [row.key, row.value]));
  const result: Record<string, unknown> = {};
  for (const section of settingsSections)
    result[section] = readSection(section, stored.get(section));
  return result as Settings;
}

/**
 * Writes the defaults of any section that has no row yet; never touches an existing row. `firstStart`
 * replaces a default for a new install (FIRST_START_TWO_FACTOR_ROLES).
 */
export async function seedSettings(
  db: Kysely<Database>,
  firstStart: { twoFactorRoles?: StaffRole[] } = {},
): Promise<void> {
  const now = new Date().toISOString();
  const defaults = settingsSchema.parse({});
  if (firstStart.twoFactorRoles) defaults.security.twoFactorRoles = firstStart.twoFactorRoles;
  await db
    .insertInto("settings")
    .values(
      settingsSections.map((section) => ({
        key: section,
        value: JSON.stringify(defaults[section]),
        updated_at: now,
      })),
    )
    .onConflict((oc) => oc.column("key").doNothing())
    .execute();
}

export async function updateSettingsSection<S extends SettingsSection>(
  db: Kysely<Database>,
  section: S,
  value: unknown,
): Promise<Settings[S]> {
  const parsed = settingsSchema.shape[section].parse(value) as Settings[S];
  const now = new Date().toISOString();
  await db
    .insertInto("settings")
    .values({ key: section, value: JSON.stringify(parsed), updated_at: now })
    .onConflict((oc) =>
      oc.column("key").doUpdateSet({ value: JSON.stringify(parsed), updated_at: now }),
    )
    .execute();
  return parsed;
}

/** One stored section as the site reads it: the stored value when valid, its defaults otherwise. */
export function readSection(section: SettingsSection, stored: string | undefined) {
  const schema = settingsSchema.shape[section];
  let raw: unknown = {};
  try {
    raw = stored === undefined ? {} : JSON.parse(stored);
  } catch {
    // an unreadable row: its defaults apply, as in getSettings
  }
  const parsed = schema.safeParse(raw);
  return parsed.success ? parsed.data : schema.parse({});
}
