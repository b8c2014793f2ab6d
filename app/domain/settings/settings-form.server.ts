import { sql } from "kysely";
import { inTransaction, type Db } from "~/db/transaction";
import { record } from "~/domain/events/events.server";
import { SETTINGS_FORM_FIELDS, SETTINGS_FORM_SECTION, type SettingsActionInput } from "./settings";
import { settingsSchema } from "./settings.schemas";
import { readSection } from "./settings.server";

// The settings page's save, apart from the reads of settings.server.ts: what follows a save (its
// event's reactions, the outbox among them) reads the settings, so the reads cannot import it back.

export type SaveSettingsResult = { ok: true; changed: string[] };

/**
 * Saves one form of the settings page: the form's fields are merged into their section (so the general
 * and maintenance forms, which share a row, never undo each other), recorded as saved with what changed
 * in the same transaction, and the settings cache is emptied once it is committed, so the next
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
    await record(trx, {
      type: "settings.saved",
      actorId,
      form,
      change: { before: pick(current, changed), after: pick(submitted, changed) },
    });
    return { ok: true, changed };
  });
  deps.settings.invalidate();
  return result;
}

function pick(source: Record<string, unknown>, keys: readonly string[]) {
  return Object.fromEntries(keys.map((key) => [key, source[key]]));
}
