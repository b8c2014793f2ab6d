import { keysOf } from "~/lib/keys-of";
import { DEFAULT_TIME_ZONE } from "~/lib/time-zone";
import type { StaffRole } from "~/domain/staff/permissions";
import type { Settings } from "./settings.schemas";

// The settings' types come from their schemas (settings.schemas.ts); a type import never brings zod.
export type { Settings, SettingsActionInput } from "./settings.schemas";

/** The longest location name an admin may write, and how many locations the list may hold. */
export const MAX_LOCATION_LENGTH = 60;
export const MAX_LOCATIONS = 20;
/** Where every page says the servers are. */
export const DEFAULT_LOCATIONS = ["Frankfurt"] as const;

/** The languages a location may have its own name in; English shows the name as the list writes it. */
export const LOCATION_NAME_LOCALES = ["fr", "ar"] as const;
export type LocationNameLocale = (typeof LOCATION_NAME_LOCALES)[number];

/**
 * A location's name in the reader's language: the admin's French or Arabic name for it ("Francfort",
 * "فرانكفورت"), else the name as the list writes it, which is also what an order stores.
 */
export function locationName(
  general: Pick<Settings["general"], "locationNamesFr" | "locationNamesAr">,
  location: string,
  locale: string,
): string {
  const names =
    locale === "fr" ? general.locationNamesFr : locale === "ar" ? general.locationNamesAr : null;
  return (names && Object.hasOwn(names, location) ? names[location] : undefined) || location;
}

/** A language's location names as the settings form writes them: one "Frankfurt = Francfort" a line. */
export function formatLocationNames(names: Record<string, string>): string {
  return Object.entries(names)
    .map(([location, name]) => `${location} = ${name}`)
    .join("\n");
}

/**
 * The form's location names read back: blank lines dropped, each other line a location of the list, "="
 * and its name in that language (both at most MAX_LOCATION_LENGTH). Null when a line is not that, or
 * names a location twice.
 */
export function parseLocationNames(text: string): Record<string, string> | null {
  const names: Record<string, string> = {};
  for (const line of text.split(/\r?\n/)) {
    if (!line.trim()) continue;
    const at = line.indexOf("=");
    if (at < 0) return null;
    const location = line.slice(0, at).trim();
    const name = line.slice(at + 1).trim();
    if (!location || !name || location.length > MAX_LOCATION_LENGTH) return null;
    if (name.length > MAX_LOCATION_LENGTH || Object.hasOwn(names, location)) return null;
    names[location] = name;
  }
  return names;
}

/**
 * How long the team usually takes to approve an order or a top-up, in hours (a setting the customer is
 * told beside what waits): at least one hour, at most 30 days.
 */
export const DEFAULT_APPROVAL_HOURS = 24;
export const MAX_APPROVAL_HOURS = 720;

/** The largest refund an admin may let the system decide alone: 1,000 coins. */
export const MAX_AUTO_REFUND_COINS = 1_000;
export const MAX_TICKET_FILE_RETENTION_DAYS = 3_650;
export const MAX_DATA_EXPORTS_PER_DAY = 20;

/** The bounds of the service lifecycle's numbers of days, as the form and the stored row check them. */
export const LIFECYCLE_MAX_DAYS = 365;

/** The longest privacy text an admin may write, per language (characters). */
export const PRIVACY_TEXT_MAX = 20_000;

/** An ISO 3166 alpha-2 country code, as billing details and VAT rates store it. */
export const COUNTRY_CODE_PATTERN = /^[A-Z]{2}$/;
/** The highest VAT rate a setting may hold (basis points: 10000 is 100%), and how many countries. */
export const MAX_VAT_RATE_BP = 10_000;
export const MAX_VAT_RATES = 50;
/**
 * The shop's own country (ISO 3166 alpha-2): the one registration offers first, so that a new customer's
 * invoices carry its VAT unless they choose another (docs/invoices.md).
 */
export const DEFAULT_SHOP_COUNTRY = "MA";
/** The longest seller address (several lines), and the most years accounting records may be kept. */
export const SELLER_ADDRESS_MAX = 400;
export const MAX_RETENTION_YEARS = 50;

/** VAT rates as the settings form writes them: one "MA 20" a line (percent, at most two decimals). */
export function formatVatRates(rates: Record<string, number>): string {
  return Object.entries(rates)
    .map(([country, bp]) => `${country} ${bp / 100}`)
    .join("\n");
}

/**
 * The form's VAT rates read back into basis points per country: blank lines dropped, a "%" allowed, a
 * comma as the decimal mark; null when a line is not a country and a rate, names a country twice, or
 * there are more than MAX_VAT_RATES.
 */
export function parseVatRates(text: string): Record<string, number> | null {
  const rates: Record<string, number> = {};
  const lines = text
    .split(/\r?\n/)
    .map((line) => line.trim())
    .filter(Boolean);
  if (lines.length > MAX_VAT_RATES) return null;
  for (const line of lines) {
    const match = /^([A-Za-z]{2})\s*[:=]?\s*(\d{1,3})(?:[.,](\d{1,2}))?\s*%?$/.exec(line);
    if (!match) return null;
    const country = match[1]!.toUpperCase();
    const bp = Number(match[2]) * 100 + Number((match[3] ?? "").padEnd(2, "0"));
    if (bp > MAX_VAT_RATE_BP || Object.hasOwn(rates, country)) return null;
    rates[country] = bp;
  }
  return rates;
}

/**
 * A Discord webhook's address as Discord gives it: https://discord.com/api/webhooks/<id>/<token> (also
 * discordapp.com, and the canary. and ptb. clients' hosts), nothing before or after. The worker posts
 * to it, so nothing else may be saved there: no other host, port, path, query or fragment.
 */
export function isDiscordWebhookUrl(text: string): boolean {
  return /^https:\/\/(?:(?:canary|ptb)\.)?discord(?:app)?\.com\/api\/webhooks\/\d{1,20}\/[A-Za-z0-9_-]{1,200}$/.test(
    text,
  );
}

/**
 * The settings of a site nobody has set up: what `settingsSchema` makes of an empty row (settings.test.ts
 * holds them equal), written out so that a page needs no zod to know them. Never changed in place:
 * `defaultSettings()` gives a copy to change.
 */
/** The most coins a staff cap may say: a cap above the coin form's own limit of a change bounds nothing. */
export const MAX_COIN_CAP = 1_000_000;

/**
 * The security form's checkbox of a staff role is `twoFactorRole-<role>` ("twoFactorRole-owner"): ticked,
 * the role must sign in with a second factor. A checkbox per role, as a form's fields are read one value
 * a name.
 */
const TWO_FACTOR_ROLE_FIELD = /^twoFactorRole-(.*)$/;

export function twoFactorRoleField(role: StaffRole): `twoFactorRole-${StaffRole}` {
  return `twoFactorRole-${role}`;
}

/**
 * The roles a security post ticks, as it names them: browsers send a ticked box as "on" and leave an
 * unticked one out. A name that is no role is kept, for the form's schema to refuse it by name.
 */
export function tickedTwoFactorRoles(fields: Record<string, unknown>): string[] {
  return Object.entries(fields).flatMap(([name, value]) => {
    const role = TWO_FACTOR_ROLE_FIELD.exec(name)?.[1];
    return role !== undefined && value === "on" ? [role] : [];
  });
}

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
    locationNamesFr: {},
    locationNamesAr: {},
    timeZone: DEFAULT_TIME_ZONE,
    approvalHours: DEFAULT_APPROVAL_HOURS,
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
  gamePanel: { allowLocalNetwork: false },
  payments: { allowLocalNetwork: false },
  security: {
    twoFactorRoles: ["owner", "billing"],
    billingCoinCap: 500,
    supportDailyCoinCap: 20,
    freshProofCoinThreshold: 100,
  },
  verification: { requireVerifiedEmail: true },
  invoicing: {
    sellerName: "Hostfront",
    sellerAddress: "",
    sellerTaxId: "",
    vatEnabled: true,
    vatRates: { MA: 2000 },
    pricesIncludeVat: true,
    retentionYears: 10,
    shopCountry: DEFAULT_SHOP_COUNTRY,
  },
  selfService: { autoRefundMaxCoins: 10, ticketFileRetentionDays: 180, dataExportsPerDay: 3 },
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
  // What customers are told of the team's approval time (an order, a top-up).
  approval: "general",
  theme: "theme",
  features: "features",
  seo: "seo",
  privacy: "privacy",
  lifecycle: "lifecycle",
  // Saved from /admin/automation, whose schedules read in it.
  timeZone: "general",
  alerts: "alerts",
  // Saved from /admin/settings/game-panel: the panel client reads it (docs/provisioning.md).
  gamePanel: "gamePanel",
  // The payment providers' addresses: the provider settings' save reads it (docs/payments.md).
  payments: "payments",
  // The staff's rules: the roles that must use two-factor sign-in (the admin guard reads them,
  // app/http/guards.server.ts) and the coin caps (the coin changes' use-cases read them).
  security: "security",
  // Verified addresses (docs/accounts.md).
  verification: "verification",
  // Invoices and receipts (docs/invoices.md).
  invoicing: "invoicing",
  // What customers do for themselves (docs/self-service.md).
  selfService: "selfService",
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
  locations: ["locations", "locationNamesFr", "locationNamesAr"],
  approval: ["approvalHours"],
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
  gamePanel: ["allowLocalNetwork"],
  payments: ["allowLocalNetwork"],
  security: ["twoFactorRoles", "billingCoinCap", "supportDailyCoinCap", "freshProofCoinThreshold"],
  verification: ["requireVerifiedEmail"],
  invoicing: [
    "sellerName",
    "sellerAddress",
    "sellerTaxId",
    "vatEnabled",
    "vatRates",
    "pricesIncludeVat",
    "retentionYears",
    "shopCountry",
  ],
  selfService: ["autoRefundMaxCoins", "ticketFileRetentionDays", "dataExportsPerDay"],
} as const satisfies {
  [F in SettingsForm]: readonly (keyof Settings[(typeof SETTINGS_FORM_SECTION)[F]])[];
};

export function isSettingsForm(value: unknown): value is SettingsForm {
  return typeof value === "string" && (SETTINGS_FORMS as readonly string[]).includes(value);
}
