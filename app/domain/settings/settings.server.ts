import { sql, type Kysely } from "kysely";
import { recordAudit } from "~/domain/audit/audit.server";
import { inTransaction, type Db } from "~/db/transaction";
import type { Database } from "~/db/schema";
import {
  SETTINGS_FORM_FIELDS,
  SETTINGS_FORM_SECTION,
  settingsSections,
  type SettingsActionInput,
  type Settings,
  type SettingsSection,
} from "./settings";
import { settingsSchema } from "./settings.schemas";

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

/** Writes the defaults of any section that has no row yet; never touches an existing row. */
export async function seedSettings(db: Kysely<Database>): Promise<void> {
  const now = new Date().toISOString();
  const defaults = settingsSchema.parse({});
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

export type SaveSettingsResult = { ok: true; changed: string[] };

/**
 * Saves one form of the settings page: the form's fields are merged into their section (so the general
 * and maintenance forms, which share a row, never undo each other), written with an audit entry of what
 * changed in the same transaction, and the settings cache is emptied once it is committed, so the next
 * request sees the change. The row is locked first (an UPDATE takes the row lock on PostgreSQL and the
 * write lock on SQLite), so two admins saving at once cannot lose each other's change. Saving what is
 * already stored changes and records nothing.
 */
export async function saveSettingsForm(
  deps: { db: Db; settings: { invalidate(): void } },
  input: SettingsActionInput & { actorId: string },
): Promise<SaveSettingsResult> {
  const { intent: form, actorId, ...values } = input;
  const section = SETTINGS_FORM_SECTION[form];
  const submitted = values as Record<string, unknown>;
  // A field the form did not send (an optional one, posted by a page from before it) keeps its value.
  const fields = (SETTINGS_FORM_FIELDS[form] as readonly string[]).filter(
    (field) => submitted[field] !== undefined,
  );
  const result = await inTransaction(deps.db, async (trx): Promise<SaveSettingsResult> => {
    await trx
      .updateTable("settings")
      .set({ updated_at: sql`updated_at` })
      .where("key", "=", section)
      .execute();
    const row = await trx
      .selectFrom("settings")
      .select("value")
      .where("key", "=", section)
      .executeTakeFirst();
    const current = readSection(section, row?.value) as Record<string, unknown>;
    // Compared as JSON: a list (the locations) is a new array at every save.
    const changed = fields.filter(
      (field) => JSON.stringify(submitted[field]) !== JSON.stringify(current[field]),
    );
    if (changed.length === 0) return { ok: true, changed };
    // Parsed again with the stored schema, so nothing the site could not read is ever written.
    const next = settingsSchema.shape[section].parse({ ...current, ...pick(submitted, fields) });
    const now = new Date().toISOString();
    const value = JSON.stringify(next);
    await trx
      .insertInto("settings")
      .values({ key: section, value, updated_at: now })
      .onConflict((oc) => oc.column("key").doUpdateSet({ value, updated_at: now }))
      .execute();
    await recordAudit(trx, {
      actorId,
      action: "settings.update",
      targetType: "settings",
      targetId: form,
      before: pick(current, changed),
      after: pick(submitted, changed),
    });
    return { ok: true, changed };
  });
  deps.settings.invalidate();
  return result;
}

function pick(source: Record<string, unknown>, keys: readonly string[]) {
  return Object.fromEntries(keys.map((key) => [key, source[key]]));
}

/** One stored section as the site reads it: the stored value when valid, its defaults otherwise. */
function readSection(section: SettingsSection, stored: string | undefined) {
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
