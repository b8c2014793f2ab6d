import { describe, expect, it } from "vitest";
import { defaultSettings, settingsSchema } from "./settings";

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

  it("refuses a colour that is not a hex code", () => {
    expect(settingsSchema.shape.theme.safeParse({ primaryColor: "red" }).success).toBe(false);
  });
});
