import { withoutDirectionalControls } from "~/lib/bidi";
import { requiredText, wholeNumberText, withFormField, z } from "~/lib/zod";
import { DEFAULT_TIME_ZONE, isTimeZone } from "~/lib/time-zone";
import { STAFF_ROLES, type StaffRole } from "~/domain/staff/permissions";
import { isCountryCode } from "~/domain/invoices/billing-details";
import {
  COUNTRY_CODE_PATTERN,
  DEFAULT_SHOP_COUNTRY,
  MAX_RETENTION_YEARS,
  MAX_VAT_RATE_BP,
  MAX_VAT_RATES,
  SELLER_ADDRESS_MAX,
  parseVatRates,
  isDiscordWebhookUrl,
  LIFECYCLE_MAX_DAYS,
  MAX_LOCATION_LENGTH,
  MAX_LOCATIONS,
  DEFAULT_LOCATIONS,
  PRIVACY_TEXT_MAX,
  DEFAULT_APPROVAL_HOURS,
  MAX_APPROVAL_HOURS,
  MAX_COIN_CAP,
  MAX_AUTO_REFUND_COINS,
  MAX_DATA_EXPORTS_PER_DAY,
  MAX_TICKET_FILE_RETENTION_DAYS,
  parseLocationNames,
  tickedTwoFactorRoles,
} from "./settings";
import { isHexColor, secondaryKeepsWhiteTextReadable } from "./theme";

// The settings' schemas: the stored rows and the admin's forms. Only actions, loaders, *.server.ts and
// tests import this file, so zod never reaches the browser (docs/architecture.md); settings.ts keeps what
// the pages use, its types derived from these schemas.

// Only web addresses: a link setting ends up in an href, where "javascript:" would run.
const url = z.url({ protocol: /^https?$/ }).max(500);
/** A link the admin may leave empty: the site then leaves that link out. */
const optionalUrl = url.or(z.literal(""));
const hexColor = z.string().regex(/^#[0-9a-fA-F]{6}$/);
/** Location names in one language, by the list's name (both at most MAX_LOCATION_LENGTH). */
const locationNames = z
  .record(
    z.string().trim().min(1).max(MAX_LOCATION_LENGTH),
    z.string().trim().min(1).max(MAX_LOCATION_LENGTH),
  )
  .refine((names) => Object.keys(names).length <= MAX_LOCATIONS)
  .default({});
/** Roles in the order STAFF_ROLES lists them, each once: a list compares equal whoever wrote it. */
const inRoleOrder = (roles: readonly StaffRole[]) =>
  STAFF_ROLES.filter((role) => roles.includes(role));
/** A coin cap as stored: a whole number of coins. */
const coins = z.number().int().min(0).max(MAX_COIN_CAP);
/** A Discord webhook's address (isDiscordWebhookUrl), or empty for none. */
const discordWebhook = z.string().refine(isDiscordWebhookUrl).or(z.literal(""));

// The self-service section's bounds live in settings.ts (the settings page shows them); named here too.
export { MAX_AUTO_REFUND_COINS, MAX_DATA_EXPORTS_PER_DAY, MAX_TICKET_FILE_RETENTION_DAYS };

/**
 * The site settings of spec section 3, grouped into sections. Each section is one row of the settings
 * table; a section missing from the database (or stored by an older version) falls back to its defaults.
 *
 * Texts the site also has in its catalogues (site description, maintenance message, SEO title and
 * description) default to empty, which means "the built-in text, in the visitor's language"; an admin's
 * own text is shown as written, in every language.
 */
export const settingsSchema = z.object({
  general: z
    .object({
      siteName: z.string().trim().min(1).max(80).default("Hostfront"),
      siteDescription: z.string().trim().max(300).default(""),
      contactEmail: z.email().default("support@hostfront.example"),
      paymentsEmail: z.email().default("payments@hostfront.example"),
      maintenanceMode: z.boolean().default(false),
      maintenanceMessage: z.string().max(500).default(""),
      defaultLocale: z.enum(["en", "fr", "ar"]).default("en"),
      entryGate: z.boolean().default(true),
      // The data centres the order form offers: the company runs every plan in Frankfurt.
      locations: z
        .array(z.string().trim().min(1).max(MAX_LOCATION_LENGTH))
        .min(1)
        .max(MAX_LOCATIONS)
        .default([...DEFAULT_LOCATIONS]),
      // Each location's name in French and Arabic, by its name in the list (locationName); a location
      // without one shows the list's name.
      locationNamesFr: locationNames,
      locationNamesAr: locationNames,
      // The site's time zone: the background worker reads its schedules in it.
      timeZone: z.string().refine(isTimeZone).default(DEFAULT_TIME_ZONE),
      // What customers are told of how long approving an order or a top-up usually takes.
      approvalHours: z
        .number()
        .int()
        .min(1)
        .max(MAX_APPROVAL_HOURS)
        .default(DEFAULT_APPROVAL_HOURS),
    })
    .prefault({}),
  links: z
    .object({
      discord: optionalUrl.default("https://discord.gg/hostfront"),
      whatsapp: optionalUrl.default("https://wa.me/212600000000"),
      gamePanel: optionalUrl.default("https://panel.hostfront.example"),
      databaseAdmin: optionalUrl.default("https://panel.hostfront.example/phpmyadmin"),
      telegram: optionalUrl.default("https://t.me/hostfront"),
      github: optionalUrl.default("https://github.com/hostfront"),
      instagram: optionalUrl.default("https://instagram.com/hostfront"),
      facebook: optionalUrl.default("https://facebook.com/hostfront"),
    })
    .prefault({}),
  theme: z
    .object({
      primaryColor: hexColor.default("#2563eb"),
      secondaryColor: hexColor.default("#0f172a"),
      accentColor: hexColor.default("#f59e0b"),
    })
    .prefault({}),
  features: z
    .object({
      registration: z.boolean().default(true),
      coinPurchase: z.boolean().default(true),
      livechat: z.boolean().default(true),
      tickets: z.boolean().default(true),
    })
    .prefault({}),
  seo: z
    .object({
      title: z.string().max(120).default(""),
      description: z.string().max(300).default(""),
      keywords: z.string().max(300).default("samp hosting, mta hosting, game server hosting, vps"),
    })
    .prefault({}),
  // The privacy page's text per language (ADR 19, privacy.ts): empty everywhere means the built-in text
  // of the catalogues, in the reader's language; an admin's text is shown as written, French and Arabic
  // falling back to the English one.
  privacy: z
    .object({
      en: z.string().max(PRIVACY_TEXT_MAX).default(""),
      fr: z.string().max(PRIVACY_TEXT_MAX).default(""),
      ar: z.string().max(PRIVACY_TEXT_MAX).default(""),
    })
    .prefault({}),
  // The service lifecycle (app/domain/lifecycle): what the automation does by itself, in days.
  // `enabled` is written by migration 0028: off on an install that had services then, on for a new one;
  // a row that cannot be read falls back to off, never to a run nobody decided.
  lifecycle: z
    .object({
      enabled: z.boolean().default(false),
      /** Reminders before a service expires; 0 leaves one out. */
      firstReminderDays: z.number().int().min(0).max(LIFECYCLE_MAX_DAYS).default(7),
      secondReminderDays: z.number().int().min(0).max(LIFECYCLE_MAX_DAYS).default(3),
      lastReminderDays: z.number().int().min(0).max(LIFECYCLE_MAX_DAYS).default(1),
      /** Days after its expiry an unrenewed service keeps running (and auto-renewal keeps trying). */
      graceDays: z.number().int().min(0).max(LIFECYCLE_MAX_DAYS).default(2),
      /** Days a service suspended for expiry waits before it is terminated. */
      terminationDays: z.number().int().min(1).max(LIFECYCLE_MAX_DAYS).default(14),
      /** The customer is warned this many days before the termination; 0: not warned. */
      terminationWarningDays: z.number().int().min(0).max(LIFECYCLE_MAX_DAYS).default(3),
      /** Pending orders no admin decided are rejected and refunded after `orderExpiryDays`. */
      expireOrders: z.boolean().default(true),
      orderExpiryDays: z.number().int().min(1).max(LIFECYCLE_MAX_DAYS).default(7),
    })
    .prefault({}),
  // Where the worker posts its alerts (a dead job, a failed run): a Discord webhook, empty for none. A
  // section of its own, never among the public settings: the address lets anyone post to the channel.
  // Only Discord's own webhook addresses: the worker posts to it, so any other address would make it
  // send requests wherever an admin (or a stolen admin session) says. A stored row that is not one
  // reads as none.
  alerts: z
    .object({
      discordWebhook: discordWebhook.default(""),
    })
    .prefault({}),
  // The game panel (docs/provisioning.md "Where the panel may be"): its address may be on the local
  // network (loopback, private, link-local) only while this is on. Off by default: the worker calls the
  // panel with its key, and a private address is where a stolen admin session would point it.
  gamePanel: z
    .object({
      allowLocalNetwork: z.boolean().default(false),
    })
    .prefault({}),
  // The online payment providers (docs/payments.md "Online providers"): a provider's API address may be
  // on the local network (a test double, a trial) only while this is on. Off by default: the server sends
  // the provider's secret key there, and a private address is where a stolen admin session would point it.
  payments: z
    .object({
      allowLocalNetwork: z.boolean().default(false),
    })
    .prefault({}),
  // The staff's rules (docs/staff.md). `twoFactorRoles`: the staff roles that must sign in with a
  // second factor; a member without one is sent to set it up before any admin page or action answers
  // (requireAdmin). Owner and Billing on a new install; migration 0052 kept an older install's choice.
  // The coin caps bound Billing's changes (per change) and Support's goodwill credit (per member and
  // day), in coins; a coin change above `freshProofCoinThreshold` coins asks for a fresh proof of
  // identity. Never among the public settings.
  security: z
    .object({
      twoFactorRoles: z
        .array(z.enum(STAFF_ROLES))
        .default(["owner", "billing"])
        .transform(inRoleOrder),
      billingCoinCap: coins.default(500),
      supportDailyCoinCap: coins.default(20),
      freshProofCoinThreshold: coins.default(100),
    })
    .prefault({}),
  // Verified addresses (docs/accounts.md): an account whose email is not verified cannot order,
  // open a ticket or ask for coins. Only while SMTP_URL is set (verifiedEmailRequired): without mail no
  // link could reach anyone, so a fresh install is never held back.
  verification: z
    .object({
      requireVerifiedEmail: z.boolean().default(true),
    })
    .prefault({}),
  // Invoices and receipts (docs/invoices.md, ADR 36): who issues them, the VAT, how long the
  // accounting records are kept. Never among the public settings as a whole: the storefront reads only
  // whether its prices include VAT.
  invoicing: z
    .object({
      sellerName: z.string().trim().min(1).max(120).default("Hostfront"),
      sellerAddress: z.string().trim().max(SELLER_ADDRESS_MAX).default(""),
      sellerTaxId: z.string().trim().max(60).default(""),
      vatEnabled: z.boolean().default(true),
      /** Basis points per billing country (ISO 3166 alpha-2): 2000 is 20%. */
      vatRates: z
        .record(
          z.string().regex(COUNTRY_CODE_PATTERN),
          z.number().int().min(0).max(MAX_VAT_RATE_BP),
        )
        .refine((rates) => Object.keys(rates).length <= MAX_VAT_RATES)
        .default({ MA: 2000 }),
      pricesIncludeVat: z.boolean().default(true),
      retentionYears: z.number().int().min(1).max(MAX_RETENTION_YEARS).default(10),
      // The country registration offers first (the shop's own).
      shopCountry: z.string().refine(isCountryCode).default(DEFAULT_SHOP_COUNTRY),
    })
    .prefault({}),
  // What customers do for themselves (docs/self-service.md): a refund asked within the terms' 14 days
  // is decided by the system when it is at most `autoRefundMaxCoins` (0: every request waits for
  // staff); files sent with tickets are kept `ticketFileRetentionDays`; a customer may ask for
  // `dataExportsPerDay` archives of their data a day. Never among the public settings.
  selfService: z
    .object({
      autoRefundMaxCoins: z.number().int().min(0).max(MAX_AUTO_REFUND_COINS).default(10),
      ticketFileRetentionDays: z
        .number()
        .int()
        .min(1)
        .max(MAX_TICKET_FILE_RETENTION_DAYS)
        .default(180),
      dataExportsPerDay: z.number().int().min(1).max(MAX_DATA_EXPORTS_PER_DAY).default(3),
    })
    .prefault({}),
});

export type Settings = z.infer<typeof settingsSchema>;

// Messages are catalogue keys (admin-settings namespace), written out for the catalogue test.
/** A checkbox: browsers send "on" when it is ticked and nothing when it is not. */
const checkbox = z
  .string()
  .optional()
  .transform((value) => value === "on" || value === "true" || value === "1");

const text = (max: number) =>
  z
    .string({ error: "admin-settings.errors.tooLong" })
    .trim()
    .max(max, "admin-settings.errors.tooLong")
    .default("");

/** A text a document copies (the seller's details): its directional controls taken out first (lib/bidi.ts). */
const withoutControls = <T extends z.ZodType>(schema: T) =>
  z.preprocess(
    (value) => (typeof value === "string" ? withoutDirectionalControls(value) : value),
    schema,
  );

const email = z
  .string({ error: "admin-settings.errors.emailInvalid" })
  .trim()
  .max(254, "admin-settings.errors.emailInvalid")
  .pipe(z.email("admin-settings.errors.emailInvalid"))
  .transform((value) => value.toLowerCase());

const link = z
  .string({ error: "admin-settings.errors.urlInvalid" })
  .trim()
  .max(500, "admin-settings.errors.urlInvalid")
  .default("")
  .pipe(
    z.union(
      [z.literal(""), z.url({ protocol: /^https?$/, error: "admin-settings.errors.urlInvalid" })],
      "admin-settings.errors.urlInvalid",
    ),
  );

const colour = z
  .string({ error: "admin-settings.errors.colourInvalid" })
  .trim()
  .toLowerCase()
  .refine(isHexColor, "admin-settings.errors.colourInvalid");

export const generalFormSchema = z.object({
  siteName: requiredText(
    "admin-settings.errors.siteNameRequired",
    80,
    "admin-settings.errors.tooLong",
  ),
  siteDescription: text(300),
  contactEmail: email,
  paymentsEmail: email,
  defaultLocale: z.enum(["en", "fr", "ar"], "admin-settings.errors.localeInvalid"),
  entryGate: checkbox,
});

export const linksFormSchema = z.object({
  discord: link,
  whatsapp: link,
  gamePanel: link,
  databaseAdmin: link,
  telegram: link,
  github: link,
  instagram: link,
  facebook: link,
});

export const maintenanceFormSchema = z.object({
  maintenanceMode: checkbox,
  maintenanceMessage: text(500),
});

/**
 * The server locations, one per line as the admin writes them: blank lines dropped, each name once
 * (whatever its case), at least one, and no more than MAX_LOCATIONS of at most MAX_LOCATION_LENGTH.
 */
export const locationsFormSchema = z.object({
  locations: z
    .string({ error: "admin-settings.errors.locationsRequired" })
    .max(MAX_LOCATIONS * (MAX_LOCATION_LENGTH + 2), "admin-settings.errors.tooLong")
    .transform((text) =>
      text
        .split(/\r?\n/)
        .map((line) => line.trim())
        .filter(Boolean),
    )
    .pipe(
      z
        .array(z.string().max(MAX_LOCATION_LENGTH, "admin-settings.errors.locationTooLong"))
        .min(1, "admin-settings.errors.locationsRequired")
        .max(MAX_LOCATIONS, "admin-settings.errors.tooManyLocations")
        .refine(
          (names) => new Set(names.map((name) => name.toLowerCase())).size === names.length,
          "admin-settings.errors.locationTwice",
        ),
    ),
});

/** One language's location names, one "Frankfurt = Francfort" a line (parseLocationNames). */
const locationNamesText = z
  .string({ error: "admin-settings.errors.locationNamesInvalid" })
  .max(MAX_LOCATIONS * (2 * MAX_LOCATION_LENGTH + 5), "admin-settings.errors.tooLong")
  .transform((value, context) => {
    const names = parseLocationNames(value);
    if (names && Object.keys(names).length <= MAX_LOCATIONS) return names;
    context.addIssue({ code: "custom", message: "admin-settings.errors.locationNamesInvalid" });
    return z.NEVER;
  });

/**
 * The server locations with their French and Arabic names. A post without the names (a page from
 * before them) keeps the stored ones; `settingsActionSchema` checks that each names a listed location.
 */
export const locationsWithNamesFormSchema = locationsFormSchema.extend({
  locationNamesFr: locationNamesText.optional(),
  locationNamesAr: locationNamesText.optional(),
});

/** How long approving an order or a top-up usually takes, in whole hours. */
export const approvalFormSchema = z.object({
  approvalHours: wholeNumberText("admin-settings.errors.approvalHoursInvalid", {
    digits: 3,
    min: 1,
    max: MAX_APPROVAL_HOURS,
  }),
});

export const themeFormSchema = z.object({
  primaryColor: colour,
  secondaryColor: colour.refine(
    secondaryKeepsWhiteTextReadable,
    "admin-settings.errors.secondaryTooLight",
  ),
  accentColor: colour,
});

export const featuresFormSchema = z.object({
  registration: checkbox,
  coinPurchase: checkbox,
  livechat: checkbox,
  tickets: checkbox,
});

export const seoFormSchema = z.object({
  title: text(120),
  description: text(300),
  keywords: text(300),
});

/** The privacy text in each language; `settingsActionSchema` adds that English is required (below). */
export const privacyFormSchema = z.object({
  en: text(PRIVACY_TEXT_MAX),
  fr: text(PRIVACY_TEXT_MAX),
  ar: text(PRIVACY_TEXT_MAX),
});

/** A number of days typed in a form: a whole number between `min` and LIFECYCLE_MAX_DAYS. */
const days = (min: number) =>
  wholeNumberText("admin-settings.errors.daysInvalid", { digits: 3, min, max: LIFECYCLE_MAX_DAYS });

/** The service lifecycle's form: its switch, the reminders, the grace period, termination, orders. */
export const lifecycleFormSchema = z.object({
  enabled: checkbox,
  firstReminderDays: days(0),
  secondReminderDays: days(0),
  lastReminderDays: days(0),
  graceDays: days(0),
  terminationDays: days(1),
  terminationWarningDays: days(0),
  expireOrders: checkbox,
  orderExpiryDays: days(1),
});

/** The site's time zone, an IANA name ("Africa/Casablanca", "Europe/Paris") or "UTC". */
export const timeZoneFormSchema = z.object({
  timeZone: z
    .string({ error: "admin.automation.errors.timeZoneInvalid" })
    .trim()
    .max(64, "admin.automation.errors.timeZoneInvalid")
    .refine(isTimeZone, "admin.automation.errors.timeZoneInvalid"),
});

/** The worker's alerts: a Discord webhook's address (https://discord.com/api/webhooks/…), or empty for none. */
export const alertsFormSchema = z.object({
  discordWebhook: z
    .string({ error: "admin-settings.errors.discordWebhookInvalid" })
    .trim()
    .max(500, "admin-settings.errors.discordWebhookInvalid")
    .default("")
    .refine(
      (value) => value === "" || isDiscordWebhookUrl(value),
      "admin-settings.errors.discordWebhookInvalid",
    ),
});

/** Whether the game panel may be on the local network (/admin/settings/game-panel). */
export const gamePanelFormSchema = z.object({ allowLocalNetwork: checkbox });

/** Whether a payment provider's API address may be on the local network. */
export const paymentsFormSchema = z.object({ allowLocalNetwork: checkbox });

/** A coin cap typed in the security form: a whole number of coins from 0 to MAX_COIN_CAP. */
const coinCap = wholeNumberText("admin-settings.errors.coinCapInvalid", {
  digits: String(MAX_COIN_CAP).length,
  min: 0,
  max: MAX_COIN_CAP,
  outOfRange: "admin-settings.errors.coinCapTooLarge",
});

/**
 * The staff's rules: the roles that must sign in with a second factor, read from a checkbox per role
 * (`twoFactorRole-owner`…, gathered by settingsActionSchema) and refused whole when one names no role,
 * and the three coin caps.
 */
export const securityFormSchema = z.object({
  twoFactorRoles: z
    .array(
      z.enum(STAFF_ROLES, "admin-settings.errors.twoFactorRoleUnknown"),
      "admin-settings.errors.twoFactorRoleUnknown",
    )
    .transform(inRoleOrder),
  billingCoinCap: coinCap,
  supportDailyCoinCap: coinCap,
  freshProofCoinThreshold: coinCap,
});
/** Whether an unverified address holds an account back (verifiedEmailRequired). */
export const verificationFormSchema = z.object({ requireVerifiedEmail: checkbox });

/**
 * Invoicing: the seller's details, the VAT switch and rates (one "MA 20" a line, the rate in percent with
 * at most two decimals), whether prices include VAT, the years accounting records are kept, and the
 * shop's country (the one registration offers first).
 */
export const invoicingFormSchema = z.object({
  sellerName: withoutControls(
    requiredText("admin-settings.errors.sellerNameRequired", 120, "admin-settings.errors.tooLong"),
  ),
  sellerAddress: withoutControls(text(SELLER_ADDRESS_MAX)),
  sellerTaxId: withoutControls(text(60)),
  vatEnabled: checkbox,
  vatRates: z
    .string({ error: "admin-settings.errors.vatRatesInvalid" })
    .max(MAX_VAT_RATES * 12, "admin-settings.errors.tooLong")
    .default("")
    .transform((value, context) => {
      const rates = parseVatRates(value);
      if (rates) return rates;
      context.addIssue({ code: "custom", message: "admin-settings.errors.vatRatesInvalid" });
      return z.NEVER;
    }),
  pricesIncludeVat: checkbox,
  retentionYears: wholeNumberText("admin-settings.errors.retentionInvalid", {
    digits: 2,
    min: 1,
    max: MAX_RETENTION_YEARS,
  }),
  // A post without it (from before the field) leaves the stored country as it is (saveSettingsForm).
  shopCountry: z
    .string({ error: "admin-settings.errors.shopCountryInvalid" })
    .trim()
    .toUpperCase()
    .refine(isCountryCode, "admin-settings.errors.shopCountryInvalid")
    .optional(),
});

/** What customers do for themselves: the automatic refund's ceiling, files' retention, exports a day. */
export const selfServiceFormSchema = z.object({
  autoRefundMaxCoins: wholeNumberText("admin-settings.errors.autoRefundInvalid", {
    digits: String(MAX_AUTO_REFUND_COINS).length,
    min: 0,
    max: MAX_AUTO_REFUND_COINS,
  }),
  ticketFileRetentionDays: wholeNumberText("admin-settings.errors.fileRetentionInvalid", {
    digits: String(MAX_TICKET_FILE_RETENTION_DAYS).length,
    min: 1,
    max: MAX_TICKET_FILE_RETENTION_DAYS,
  }),
  dataExportsPerDay: wholeNumberText("admin-settings.errors.exportsPerDayInvalid", {
    digits: String(MAX_DATA_EXPORTS_PER_DAY).length,
    min: 1,
    max: MAX_DATA_EXPORTS_PER_DAY,
  }),
});

/** The settings page's forms, by `intent`. */
const settingsForms = z
  .discriminatedUnion(
    "intent",
    [
      generalFormSchema.extend({ intent: z.literal("general") }),
      linksFormSchema.extend({ intent: z.literal("links") }),
      maintenanceFormSchema.extend({ intent: z.literal("maintenance") }),
      locationsWithNamesFormSchema.extend({ intent: z.literal("locations") }),
      approvalFormSchema.extend({ intent: z.literal("approval") }),
      themeFormSchema.extend({ intent: z.literal("theme") }),
      featuresFormSchema.extend({ intent: z.literal("features") }),
      seoFormSchema.extend({ intent: z.literal("seo") }),
      privacyFormSchema.extend({ intent: z.literal("privacy") }),
      lifecycleFormSchema.extend({ intent: z.literal("lifecycle") }),
      timeZoneFormSchema.extend({ intent: z.literal("timeZone") }),
      alertsFormSchema.extend({ intent: z.literal("alerts") }),
      gamePanelFormSchema.extend({ intent: z.literal("gamePanel") }),
      paymentsFormSchema.extend({ intent: z.literal("payments") }),
      securityFormSchema.extend({ intent: z.literal("security") }),
      verificationFormSchema.extend({ intent: z.literal("verification") }),
      invoicingFormSchema.extend({ intent: z.literal("invoicing") }),
      selfServiceFormSchema.extend({ intent: z.literal("selfService") }),
    ],
    { error: "admin-settings.errors.unknownForm" },
  )
  .superRefine((value, context) => {
    // A name in French or Arabic belongs to a location of the list sent with it.
    if (value.intent === "locations")
      for (const field of ["locationNamesFr", "locationNamesAr"] as const) {
        const names = value[field];
        if (names && Object.keys(names).some((location) => !value.locations.includes(location)))
          context.addIssue({
            code: "custom",
            path: [field],
            message: "admin-settings.errors.locationNameUnknown",
          });
      }
    // French and Arabic fall back to English, so an admin's own text starts with the English one; all
    // three empty is the built-in text.
    if (value.intent === "privacy" && !value.en && (value.fr || value.ar))
      context.addIssue({
        code: "custom",
        path: ["en"],
        message: "admin-settings.errors.privacyEnglishRequired",
      });
  });

/**
 * The settings page's one action: `intent` names the form. The security form's role checkboxes are
 * handed to its schema as one list (`twoFactorRoles`), whatever a post says under that name itself.
 */
export const settingsActionSchema = withFormField(
  "twoFactorRoles",
  (fields) => (fields.intent === "security" ? tickedTwoFactorRoles(fields) : undefined),
  settingsForms,
);
export type SettingsActionInput = z.infer<typeof settingsActionSchema>;
