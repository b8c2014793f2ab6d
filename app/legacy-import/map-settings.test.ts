import { describe, expect, it } from "vitest";
import { defaultSettings } from "~/domain/settings/settings";
import { applySetting } from "./map-settings";

describe("settings", () => {
  const defaults = defaultSettings();

  it("takes a valid value and keeps the rest of the section", () => {
    const result = applySetting(defaults.theme, "theme", "primaryColor", "#3b82f6");
    expect(result).toEqual({ ok: true, value: { ...defaults.theme, primaryColor: "#3b82f6" } });
  });

  it("reads #abc colours and true/false written as text", () => {
    expect(applySetting(defaults.theme, "theme", "accentColor", "#fa0")).toMatchObject({
      ok: true,
      value: { accentColor: "#ffaa00" },
    });
    expect(applySetting(defaults.features, "features", "livechat", "false")).toMatchObject({
      ok: true,
      value: { livechat: false },
    });
  });

  it("refuses a value the settings schema refuses, saying why", () => {
    const colour = applySetting(defaults.theme, "theme", "accentColor", "orange");
    expect(colour).toEqual({ ok: false, message: '"orange" is not a colour like #2563eb' });
    expect(applySetting(defaults.links, "links", "discord", "discord").ok).toBe(false);
    expect(applySetting(defaults.general, "general", "contactEmail", "nope").ok).toBe(false);
    expect(applySetting(defaults.general, "general", "siteName", "x".repeat(200)).ok).toBe(false);
  });
});
