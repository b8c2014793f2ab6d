import { type Settings, type SettingsSection } from "~/domain/settings/settings";
import { settingsSchema } from "~/domain/settings/settings.schemas";
import { bad, describeJsonValue, ok, shown, type Read } from "./field-basics";
import { FALSE_WORDS, TRUE_WORDS } from "./field-readers";

// The old flat settings onto our sections, one field at a time.

/** The old settings' paths and where each lands in ours. */
export const SETTINGS_MAP: Record<string, [SettingsSection, string]> = {
  siteName: ["general", "siteName"],
  siteDescription: ["general", "siteDescription"],
  contactEmail: ["general", "contactEmail"],
  maintenanceMessage: ["general", "maintenanceMessage"],
  discordLink: ["links", "discord"],
  "theme.primaryColor": ["theme", "primaryColor"],
  "theme.secondaryColor": ["theme", "secondaryColor"],
  "theme.accentColor": ["theme", "accentColor"],
  "features.registration": ["features", "registration"],
  "features.coinPurchase": ["features", "coinPurchase"],
  "features.livechat": ["features", "livechat"],
  "features.tickets": ["features", "tickets"],
  "seo.title": ["seo", "title"],
  "seo.description": ["seo", "description"],
  "seo.keywords": ["seo", "keywords"],
};

/**
 * Settings that describe the old site rather than this one. The old site was likely put in maintenance
 * for the move; copying that switch would close Hostfront the moment it opens.
 */
export const SETTINGS_NOT_IMPORTED = ["maintenanceMode"];

/** Light clean-up before the settings schema judges a value: trimmed text, "#abc" colours, "true". */
function settingValue(field: string, value: unknown): unknown {
  if (typeof value !== "string") return value;
  const text = value.trim();
  if (/color$/i.test(field) && /^#[0-9a-fA-F]{3}$/.test(text))
    return `#${[...text.slice(1)].map((c) => c + c).join("")}`;
  if (["registration", "coinPurchase", "livechat", "tickets"].includes(field)) {
    if (TRUE_WORDS.includes(text.toLowerCase())) return true;
    if (FALSE_WORDS.includes(text.toLowerCase())) return false;
  }
  return text;
}

/**
 * One old setting applied to our section, validated by the settings schema: the section with the new
 * value, or why the value cannot be used (the site keeps its current one).
 */
export function applySetting<S extends SettingsSection>(
  current: Settings[S],
  section: S,
  field: string,
  raw: unknown,
): Read<Settings[S]> {
  const value = settingValue(field, raw);
  const parsed = settingsSchema.shape[section].safeParse({ ...current, [field]: value });
  if (parsed.success) return ok(parsed.data as Settings[S]);
  return bad(`${shown(value)} ${whyRefused(section, field, value)}`);
}

function whyRefused(section: SettingsSection, field: string, value: unknown): string {
  if (typeof value !== "string")
    return `is ${describeJsonValue(value)}, not what this setting takes`;
  if (/color$/i.test(field)) return "is not a colour like #2563eb";
  if (field === "contactEmail") return "is not an email address";
  if (section === "links") return "is not a web address (https://...)";
  return "is too long or empty";
}

/** The old settings as paths: nested objects one level deep ("theme.primaryColor"). */
export function flattenSettings(settings: Record<string, unknown>): [string, unknown][] {
  return Object.entries(settings).flatMap(([key, value]) =>
    value && typeof value === "object" && !Array.isArray(value)
      ? Object.entries(value as Record<string, unknown>).map(
          ([child, v]) => [`${key}.${child}`, v] as [string, unknown],
        )
      : [[key, value] as [string, unknown]],
  );
}
