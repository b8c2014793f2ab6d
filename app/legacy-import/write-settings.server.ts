import type { Settings, SettingsSection } from "~/domain/settings/settings";
import { getSettings, updateSettingsSection } from "~/domain/settings/settings.server";
import type { ImportSetting } from "./legacy-dataset";
import { applySetting } from "./map-settings";
import { mapped, remember, skip, type Writing } from "./write-context.server";

/** Settings: each value checked by the settings schema; a bad one is skipped, never stored. */
export async function writeSettings(w: Writing) {
  const settings: Settings = await getSettings(w.trx);
  const changed = new Set<SettingsSection>();
  for (const setting of w.data.settings) {
    if (mapped(w, "settings", setting.key)) continue;
    const section = setting.section;
    const applied = applyOne(settings, setting);
    if (!applied.ok) {
      skip(w, "settings", setting.ref, setting.key, {
        code: "settingInvalid",
        detail: applied.message,
      });
      continue;
    }
    (settings as Record<SettingsSection, unknown>)[section] = applied.value;
    changed.add(section);
    await remember(w, "settings", setting.key, `${section}.${setting.field}`, "created");
  }
  for (const section of changed) await updateSettingsSection(w.trx, section, settings[section]);
}

function applyOne(settings: Settings, setting: ImportSetting) {
  if (setting.value === null || setting.value === undefined || setting.value === "")
    return { ok: false, message: "empty" } as const;
  return applySetting(settings[setting.section], setting.section, setting.field, setting.value);
}
