import type { Building } from "./build-context";
import { formatPath } from "./file-sources";
import { flattenSettings, SETTINGS_MAP, SETTINGS_NOT_IMPORTED } from "./map-settings";

/** Settings, one old path at a time; a path with no place in ours is skipped. */
export function buildSettings(b: Building) {
  for (const source of b.sources) {
    const settings = source.document?.settings;
    if (!settings) continue;
    for (const [path, value] of flattenSettings(settings)) {
      const ref = formatPath(source.prefix, ["settings", ...path.split(".")]);
      const target = SETTINGS_MAP[path];
      if (target) {
        b.data.settings.push({ ref, key: path, section: target[0], field: target[1], value });
        continue;
      }
      const code = SETTINGS_NOT_IMPORTED.includes(path) ? "settingNotImported" : "settingUnknown";
      b.data.skipped.push({ collection: "settings", ref, label: path, reason: { code } });
    }
  }
}

/** Tickets and live chats: their fields are not known, so each list is skipped whole, counted. */
export function buildUnsupported(b: Building) {
  for (const collection of ["tickets", "livechats"] as const) {
    for (const source of b.sources) {
      const records = source.document
        ? source.document[collection]
        : source.legacyKey === collection
          ? (source.legacy as unknown[])
          : null;
      if (!records?.length) continue;
      const stats = b.legacyStats.get(source.index);
      if (stats) stats.records += records.length;
      b.data.skipped.push({
        collection,
        ref: formatPath(source.prefix, source.document ? [collection] : []),
        label: `${records.length} record(s)`,
        reason: { code: "notSupported", count: records.length },
      });
    }
  }
}
