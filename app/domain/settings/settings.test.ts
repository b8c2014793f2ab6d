import { describe, expect, it } from "vitest";
import { approvalDuration } from "~/lib/approval-duration";
import { firstErrorsOf } from "../../../tests/support/form-errors";
import {
  DEFAULT_SETTINGS,
  formatLocationNames,
  locationName,
  parseLocationNames,
  defaultSettings,
  formatVatRates,
  liveChatLinks,
  parseVatRates,
  SETTINGS_FORM_FIELDS,
  SETTINGS_FORM_SECTION,
  SETTINGS_FORMS,
  settingsSections,
} from "./settings";
import { settingsActionSchema, settingsSchema } from "./settings.schemas";

describe("settings", () => {
  it("has the spec's defaults: every feature on, maintenance off", () => {
    const settings = defaultSettings();
    expect(settings.features).toEqual({
      registration: true,
      coinPurchase: true,
      livechat: true,
      tickets: true,
    });
    expect(settings.general.maintenanceMode).toBe(false);
    expect(settings.general.entryGate).toBe(true);
  });

  it("writes out exactly the defaults the schema gives an empty row, in its sections' order", () => {
    expect(DEFAULT_SETTINGS).toEqual(settingsSchema.parse({}));
    expect(defaultSettings()).toEqual(settingsSchema.parse({}));
    expect(settingsSections).toEqual(Object.keys(settingsSchema.shape));
  });

  it("gives a copy of the defaults to change, never the defaults themselves", () => {
    const settings = defaultSettings();
    settings.general.locations.push("Paris");
    settings.features.tickets = false;
    expect(DEFAULT_SETTINGS.general.locations).toEqual(["Frankfurt"]);
    expect(DEFAULT_SETTINGS.features.tickets).toBe(true);
  });

  it("refuses a colour that is not a hex code", () => {
    expect(settingsSchema.shape.theme.safeParse({ primaryColor: "red" }).success).toBe(false);
  });

  it("stores only web addresses as links, or nothing", () => {
    const links = settingsSchema.shape.links;
    expect(links.safeParse({ discord: "javascript:alert(1)" }).success).toBe(false);
    expect(links.safeParse({ discord: "ftp://example.com" }).success).toBe(false);
    expect(links.safeParse({ discord: "" }).success).toBe(true);
    expect(links.safeParse({ discord: "https://discord.gg/x" }).success).toBe(true);
  });

  it("stores as the alerts' webhook only a Discord webhook's address, or nothing", () => {
    const alerts = settingsSchema.shape.alerts;
    for (const url of [
      "",
      "https://discord.com/api/webhooks/123456789012345678/AbC-dEf_123",
      "https://discordapp.com/api/webhooks/1/token",
      "https://canary.discord.com/api/webhooks/1/token",
      "https://ptb.discord.com/api/webhooks/1/token",
      "https://ptb.discordapp.com/api/webhooks/1/token",
    ])
      expect(alerts.safeParse({ discordWebhook: url }).success, url).toBe(true);
    for (const url of [
      "http://discord.com/api/webhooks/1/token",
      "https://discord.com:8443/api/webhooks/1/token",
      "https://evil.discord.com/api/webhooks/1/token",
      "https://discord.com.evil.example/api/webhooks/1/token",
      "https://user@discord.com/api/webhooks/1/token",
      "https://discord.com/api/webhooks/1/token?wait=true",
      "https://discord.com/api/webhooks/1/token#",
      "https://discord.com/api/webhooks/1/token/../../../x",
      "https://discord.com/api/webhooks/abc/token",
      "https://discord.com/api/v10/users/@me",
      "http://127.0.0.1:8080/api/webhooks/1/token",
      "http://169.254.169.254/latest/meta-data",
    ])
      expect(alerts.safeParse({ discordWebhook: url }).success, url).toBe(false);
  });

  it("gives each form fields of the section it writes, and no field to two forms", () => {
    const seen = new Set<string>();
    for (const form of SETTINGS_FORMS) {
      const section = settingsSchema.shape[SETTINGS_FORM_SECTION[form]].parse({});
      for (const field of SETTINGS_FORM_FIELDS[form]) {
        expect(Object.keys(section), `${form}.${field}`).toContain(field);
        const key = `${SETTINGS_FORM_SECTION[form]}.${field}`;
        expect(seen.has(key), key).toBe(false);
        seen.add(key);
      }
    }
    // Every stored setting has a form.
    const all = Object.entries(defaultSettings()).flatMap(([section, values]) =>
      Object.keys(values).map((field) => `${section}.${field}`),
    );
    expect([...seen].sort()).toEqual(all.sort());
  });
});

describe("the settings forms", () => {
  const parse = (fields: Record<string, string>) => settingsActionSchema.safeParse(fields);
  const errors = (fields: Record<string, string>) => firstErrorsOf(settingsActionSchema, fields);

  it("reads checkboxes as browsers send them: 'on' when ticked, absent when not", () => {
    const result = parse({ intent: "features", registration: "on", tickets: "on" });
    expect(result.success && result.data).toEqual({
      intent: "features",
      registration: true,
      coinPurchase: false,
      livechat: false,
      tickets: true,
    });
  });

  it("refuses an alerts webhook that is not Discord's, and reads the game panel's switch", () => {
    expect(
      errors({ intent: "alerts", discordWebhook: "https://hooks.example.com/api/webhooks/1/x" }),
    ).toEqual({ discordWebhook: "admin-settings.errors.discordWebhookInvalid" });
    expect(
      parse({ intent: "alerts", discordWebhook: " https://discord.com/api/webhooks/1/x " }),
    ).toMatchObject({
      success: true,
      data: { discordWebhook: "https://discord.com/api/webhooks/1/x" },
    });
    expect(parse({ intent: "gamePanel" })).toMatchObject({
      success: true,
      data: { intent: "gamePanel", allowLocalNetwork: false },
    });
    expect(parse({ intent: "gamePanel", allowLocalNetwork: "on" })).toMatchObject({
      data: { allowLocalNetwork: true },
    });
    // A payment provider's address on the local network: off unless ticked.
    expect(parse({ intent: "payments" })).toMatchObject({
      success: true,
      data: { intent: "payments", allowLocalNetwork: false },
    });
    expect(parse({ intent: "payments", allowLocalNetwork: "on" })).toMatchObject({
      data: { allowLocalNetwork: true },
    });
  });

  it("names each mistake with a message key", () => {
    expect(
      errors({
        intent: "general",
        siteName: " ",
        contactEmail: "nope",
        paymentsEmail: "a@b.example",
        defaultLocale: "de",
      }),
    ).toEqual({
      siteName: "admin-settings.errors.siteNameRequired",
      contactEmail: "admin-settings.errors.emailInvalid",
      defaultLocale: "admin-settings.errors.localeInvalid",
    });
    expect(
      errors({ intent: "links", discord: "javascript:alert(1)", github: "not a url" }),
    ).toEqual({
      discord: "admin-settings.errors.urlInvalid",
      github: "admin-settings.errors.urlInvalid",
    });
    expect(
      errors({
        intent: "theme",
        primaryColor: "red",
        secondaryColor: "#f8fafc",
        accentColor: "#12345",
      }),
    ).toEqual({
      primaryColor: "admin-settings.errors.colourInvalid",
      secondaryColor: "admin-settings.errors.secondaryTooLight",
      accentColor: "admin-settings.errors.colourInvalid",
    });
    expect(errors({ intent: "seo", title: "x".repeat(121) })).toEqual({
      title: "admin-settings.errors.tooLong",
    });
    expect(errors({ intent: "colours" })).toEqual({
      intent: "admin-settings.errors.unknownForm",
    });
  });

  it("normalises what it accepts: trimmed, colours and emails in lower case", () => {
    const theme = parse({
      intent: "theme",
      primaryColor: " #16A34A ",
      secondaryColor: "#0F172A",
      accentColor: "#f59e0b",
    });
    expect(theme.success && theme.data).toMatchObject({
      primaryColor: "#16a34a",
      secondaryColor: "#0f172a",
    });
    const general = parse({
      intent: "general",
      siteName: "  Atlas  ",
      contactEmail: "Help@Atlas.Example",
      paymentsEmail: "pay@atlas.example",
      defaultLocale: "fr",
    });
    expect(general.success && general.data).toMatchObject({
      siteName: "Atlas",
      contactEmail: "help@atlas.example",
      siteDescription: "",
      entryGate: false,
    });
  });
});

describe("live chat", () => {
  it("is the community chat, WhatsApp and Telegram, hidden by the switch or an empty link", () => {
    const settings = defaultSettings();
    expect(liveChatLinks(settings)).toEqual({
      community: settings.links.discord,
      whatsapp: settings.links.whatsapp,
      telegram: settings.links.telegram,
    });
    expect(
      liveChatLinks({ ...settings, features: { ...settings.features, livechat: false } }),
    ).toEqual({ community: null, whatsapp: null, telegram: null });
    expect(
      liveChatLinks({ ...settings, links: { ...settings.links, whatsapp: "" } }).whatsapp,
    ).toBe(null);
  });
});

describe("the invoicing form", () => {
  const parse = (fields: Record<string, string>) =>
    settingsActionSchema.safeParse({
      intent: "invoicing",
      sellerName: "Hostfront SARL",
      retentionYears: "10",
      ...fields,
    });

  it("reads the VAT rates one country a line into basis points", () => {
    const result = parse({ vatRates: "MA 20\r\nfr: 5,5%\n\n  BE 21.25 " });
    expect(result.success && result.data).toMatchObject({
      vatRates: { MA: 2000, FR: 550, BE: 2125 },
      vatEnabled: false,
      pricesIncludeVat: false,
      retentionYears: 10,
    });
    expect(parse({ vatRates: "" }).success && parse({ vatRates: "" }).data).toMatchObject({
      vatRates: {},
    });
  });

  it("refuses rates it cannot read, a country twice, a rate over 100%", () => {
    for (const vatRates of ["Morocco 20", "MA", "MA 20\nma 10", "MA 100.01", "MA -1", "MA 20.123"])
      expect(parse({ vatRates }).error?.issues[0]?.message, vatRates).toBe(
        "admin-settings.errors.vatRatesInvalid",
      );
  });

  it("writes the stored rates back as the form reads them", () => {
    const stored = { MA: 2000, FR: 550, BE: 2125 };
    expect(formatVatRates(stored)).toBe("MA 20\nFR 5.5\nBE 21.25");
    expect(parseVatRates(formatVatRates(stored))).toEqual(stored);
  });

  it("needs a seller name and a number of years between 1 and 50", () => {
    const result = parse({ sellerName: " ", retentionYears: "0" });
    expect(result.error?.issues.map((issue) => [issue.path[0], issue.message])).toEqual([
      ["sellerName", "admin-settings.errors.sellerNameRequired"],
      ["retentionYears", "admin-settings.errors.retentionInvalid"],
    ]);
  });

  it("keeps the seller's details without directional controls, and a name of nothing else is none", () => {
    const result = parse({
      sellerName: "\u2066Hostfront SARL\u2069",
      sellerAddress: "\u202e12 bd Zerktouni\u202c",
      sellerTaxId: "ICE\u061c 1\u200e",
    });
    expect(result.success && result.data).toMatchObject({
      sellerName: "Hostfront SARL",
      sellerAddress: "12 bd Zerktouni",
      sellerTaxId: "ICE 1",
    });
    expect(parse({ sellerName: "\u200f \u202d" }).error?.issues[0]?.message).toBe(
      "admin-settings.errors.sellerNameRequired",
    );
  });
});

describe("the approval time customers are told", () => {
  it.each([
    [1, { unit: "hours", count: 1 }],
    [24, { unit: "hours", count: 24 }],
    [36, { unit: "hours", count: 36 }],
    [48, { unit: "days", count: 2 }],
    [60, { unit: "hours", count: 60 }],
    [720, { unit: "days", count: 30 }],
  ] as const)("says %i hours as %o", (hours, said) => {
    expect(approvalDuration(hours)).toEqual(said);
  });

  it("defaults to a day", () => {
    expect(DEFAULT_SETTINGS.general.approvalHours).toBe(24);
  });
});

describe("location names per language", () => {
  const general = {
    locationNamesFr: { Frankfurt: "Francfort" },
    locationNamesAr: { Frankfurt: "فرانكفورت" },
  };

  it("names a location in the reader's language, else as the list writes it", () => {
    expect(locationName(general, "Frankfurt", "fr")).toBe("Francfort");
    expect(locationName(general, "Frankfurt", "ar")).toBe("فرانكفورت");
    expect(locationName(general, "Frankfurt", "en")).toBe("Frankfurt");
    expect(locationName(general, "Casablanca", "fr")).toBe("Casablanca");
    // A name that is only an object's own key, not one it inherits.
    expect(locationName(general, "constructor", "fr")).toBe("constructor");
  });

  it("reads the form's lines back as they are written out", () => {
    const names = { Frankfurt: "Francfort", "New York": "New York (États-Unis)" };
    expect(parseLocationNames(formatLocationNames(names))).toEqual(names);
    expect(parseLocationNames("\n Frankfurt=Francfort \r\n\n")).toEqual({ Frankfurt: "Francfort" });
  });

  it.each([
    "Frankfurt Francfort",
    "= Francfort",
    "Frankfurt =",
    "Frankfurt = Francfort\nFrankfurt = Francfort-sur-le-Main",
    `Frankfurt = ${"x".repeat(61)}`,
  ])("refuses %j", (text) => {
    expect(parseLocationNames(text)).toBeNull();
  });
});
