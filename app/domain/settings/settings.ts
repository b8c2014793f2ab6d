import { keysOf } from "~/lib/keys-of";
import { DEFAULT_TIME_ZONE } from "~/lib/time-zone";
import type { Settings } from "./settings.schemas";

// The settings' types come from their schemas (settings.schemas.ts); a type import never brings zod.
export type { Settings, SettingsActionInput } from "./settings.schemas";

/** The longest location name an admin may write, and how many locations the list may hold. */
export const MAX_LOCATION_LENGTH = 60;
export const MAX_LOCATIONS = 20;
/** Where every page says the servers are. */
export const DEFAULT_LOCATIONS = ["Frankfurt"] as const;

/** The bounds of the service lifecycle's numbers of days (issue 24), as the form and the stored row check them. */
export const LIFECYCLE_MAX_DAYS = 365;

/** The longest privacy text an admin may write, per language (characters). */
export const PRIVACY_TEXT_MAX = 20_000;

/**
 * The settings of a site nobody has set up: what `settingsSchema` makes of an empty row (settings.test.ts
 * holds them equal), written out so that a page needs no zod to know them. Never changed in place:
 * `defaultSettings()` gives a copy to change.
 */
export const DEFAULT_SETTINGS: Settings = {
  general: {
    siteName: "Hostfront",
    siteDescription: "",
    contactEmail: "support@hostfront.example",
    paymentsEmail: "payments@hostfront.example",
    maintenanceMode: false,
    maintenanceMessage: "",
    defaultLocale: "en",
    entryGate: true,
    locations: [...DEFAULT_LOCATIONS],
    timeZone: DEFAULT_TIME_ZONE,
  },
  links: {
    discord: "https://discord.gg/hostfront",
    whatsapp: "https://wa.me/212600000000",
    gamePanel: "https://panel.hostfront.example",
    databaseAdmin: "https://panel.hostfront.example/phpmyadmin",
    telegram: "https://t.me/hostfront",
    github: "https://github.com/hostfront",
    instagram: "https://instagram.com/hostfront",
    facebook: "https://facebook.com/hostfront",
  },
  theme: { primaryColor: "#2563eb", secondaryColor: "#0f172a", accentColor: "#f59e0b" },
  features: { registration: true, coinPurchase: true, livechat: true, tickets: true },
  seo: {
    title: "",
    description: "",
    keywords: "samp hosting, mta hosting, game server hosting, vps",
  },
  privacy: { en: "", fr: "", ar: "" },
  lifecycle: {
    enabled: false,
    firstReminderDays: 7,
    secondReminderDays: 3,
    lastReminderDays: 1,
    graceDays: 2,
    terminationDays: 14,
    terminationWarningDays: 3,
    expireOrders: true,
    orderExpiryDays: 7,
  },
  alerts: { discordWebhook: "" },
  security: { requireAdminTwoFactor: false },
  verification: { requireVerifiedEmail: true },
};

export type SettingsSection = keyof Settings;
export const settingsSections = keysOf(DEFAULT_SETTINGS);

export function defaultSettings(): Settings {
  return structuredClone(DEFAULT_SETTINGS);
}

/** The part of the settings any visitor's browser may see (all of it, today; kept explicit). */
export type PublicSettings = Pick<Settings, "general" | "links" | "theme" | "features">;

/**
 * Live chat (the `livechat` feature, spec section 3) is read as the channels where people talk with the
 * team in real time: the community chat server (Discord), WhatsApp and Telegram. Email, tickets and the
 * contact form are not live chat. Every page asks here, so the switch and an empty link hide them alike.
 */
export function liveChatLinks(settings: Pick<PublicSettings, "features" | "links">): {
  community: string | null;
  whatsapp: string | null;
  telegram: string | null;
} {
  const on = settings.features.livechat;
  const { discord, whatsapp, telegram } = settings.links;
  return {
    community: on && discord ? discord : null,
    whatsapp: on && whatsapp ? whatsapp : null,
    telegram: on && telegram ? telegram : null,
  };
}

// ---------------------------------------------------------------------------------------------------
// The admin's settings page (/admin/settings): one form per part, each saved on its own. Maintenance is
// its own form but is stored in the general section (where the spec's maintenanceMode lives).

export const SETTINGS_FORM_SECTION = {
  general: "general",
  links: "links",
  maintenance: "general",
  locations: "general",
  theme: "theme",
  features: "features",
  seo: "seo",
  privacy: "privacy",
  lifecycle: "lifecycle",
  // Saved from /admin/automation, whose schedules read in it (issue 24).
  timeZone: "general",
  alerts: "alerts",
  // Two-factor sign-in for admins (issue 25): the admin guard reads it (app/http/guards.server.ts).
  security: "security",
  // Verified addresses (issue 25, docs/accounts.md).
  verification: "verification",
} as const satisfies Record<string, SettingsSection>;
export type SettingsForm = keyof typeof SETTINGS_FORM_SECTION;
export const SETTINGS_FORMS = keysOf(SETTINGS_FORM_SECTION);

/** The fields each form owns in its section: saving one form never touches another form's fields. */
export const SETTINGS_FORM_FIELDS = {
  general: [
    "siteName",
    "siteDescription",
    "contactEmail",
    "paymentsEmail",
    "defaultLocale",
    "entryGate",
  ],
  links: [
    "discord",
    "whatsapp",
    "gamePanel",
    "databaseAdmin",
    "telegram",
    "github",
    "instagram",
    "facebook",
  ],
  maintenance: ["maintenanceMode", "maintenanceMessage"],
  locations: ["locations"],
  theme: ["primaryColor", "secondaryColor", "accentColor"],
  features: ["registration", "coinPurchase", "livechat", "tickets"],
  seo: ["title", "description", "keywords"],
  privacy: ["en", "fr", "ar"],
  lifecycle: [
    "enabled",
    "firstReminderDays",
    "secondReminderDays",
    "lastReminderDays",
    "graceDays",
    "terminationDays",
    "terminationWarningDays",
    "expireOrders",
    "orderExpiryDays",
  ],
  timeZone: ["timeZone"],
  alerts: ["discordWebhook"],
  security: ["requireAdminTwoFactor"],
  verification: ["requireVerifiedEmail"],
} as const satisfies {
  [F in SettingsForm]: readonly (keyof Settings[(typeof SETTINGS_FORM_SECTION)[F]])[];
};

export function isSettingsForm(value: unknown): value is SettingsForm {
  return typeof value === "string" && (SETTINGS_FORMS as readonly string[]).includes(value);
}
