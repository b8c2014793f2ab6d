import { z } from "~/lib/zod";

const url = z.url().max(500);
const hexColor = z.string().regex(/^#[0-9a-fA-F]{6}$/);

/**
 * The site settings of spec section 3, grouped into sections. Each section is one row of the settings
 * table; a section missing from the database (or stored by an older version) falls back to its defaults.
 */
export const settingsSchema = z.object({
  general: z
    .object({
      siteName: z.string().trim().min(1).max(80).default("Hostfront"),
      siteDescription: z
        .string()
        .trim()
        .max(300)
        .default(
          "Game server hosting for SA-MP and MTA, game servers and VPS in Frankfurt, Germany.",
        ),
      contactEmail: z.email().default("support@hostfront.example"),
      paymentsEmail: z.email().default("payments@hostfront.example"),
      maintenanceMode: z.boolean().default(false),
      maintenanceMessage: z
        .string()
        .max(500)
        .default("We are performing scheduled maintenance. We will be back shortly."),
      defaultLocale: z.enum(["en", "fr", "ar"]).default("en"),
      entryGate: z.boolean().default(true),
    })
    .prefault({}),
  links: z
    .object({
      discord: url.default("https://discord.gg/hostfront"),
      whatsapp: url.default("https://wa.me/212600000000"),
      gamePanel: url.default("https://panel.hostfront.example"),
      databaseAdmin: url.default("https://panel.hostfront.example/phpmyadmin"),
      telegram: url.default("https://t.me/hostfront"),
      github: url.default("https://github.com/hostfront"),
      instagram: url.default("https://instagram.com/hostfront"),
      facebook: url.default("https://facebook.com/hostfront"),
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
      title: z.string().max(120).default("Hostfront: SA-MP, MTA, game server and VPS hosting"),
      description: z
        .string()
        .max(300)
        .default(
          "Game server hosting for SA-MP and MTA, game servers and VPS in Frankfurt, Germany: NVMe storage, DDoS protection, 99.9% uptime and 24/7 support.",
        ),
      keywords: z.string().max(300).default("samp hosting, mta hosting, game server hosting, vps"),
    })
    .prefault({}),
});

export type Settings = z.infer<typeof settingsSchema>;
export type SettingsSection = keyof Settings;
export const settingsSections = Object.keys(settingsSchema.shape) as SettingsSection[];

export function defaultSettings(): Settings {
  return settingsSchema.parse({});
}

/** The part of the settings any visitor's browser may see (all of it, today; kept explicit). */
export type PublicSettings = Pick<Settings, "general" | "links" | "theme" | "features">;
