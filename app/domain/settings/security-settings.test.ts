import { describe, expect, it } from "vitest";
import { expectRefusals } from "../../../tests/support/form-errors";
import { tickedTwoFactorRoles, twoFactorRoleField } from "./settings";
import { settingsActionSchema, settingsSchema } from "./settings.schemas";
import { readSection } from "./settings.server";

// The staff's rules on the settings page: a checkbox per role that must use two-factor sign-in, and the
// coin caps as whole numbers of coins.
const VALID = {
  intent: "security",
  billingCoinCap: "500",
  supportDailyCoinCap: "20",
  freshProofCoinThreshold: "100",
};
const parse = (fields: Record<string, string>) => settingsActionSchema.safeParse(fields);

describe("the security form", () => {
  it("reads the ticked role checkboxes as the list of roles, in the roles' order", () => {
    expect(twoFactorRoleField("billing")).toBe("twoFactorRole-billing");
    expect(
      tickedTwoFactorRoles({
        intent: "security",
        "twoFactorRole-support": "on",
        "twoFactorRole-owner": "on",
        "twoFactorRole-technician": "",
        twoFactorRoles: "billing",
        billingCoinCap: "on",
      }),
    ).toEqual(["support", "owner"]);
    expect(
      parse({ ...VALID, "twoFactorRole-technician": "on", "twoFactorRole-owner": "on" }),
    ).toMatchObject({
      success: true,
      data: {
        intent: "security",
        twoFactorRoles: ["owner", "technician"],
        billingCoinCap: 500,
        supportDailyCoinCap: 20,
        freshProofCoinThreshold: 100,
      },
    });
    // Nothing ticked: no role must use it. A field named like the list is no checkbox.
    expect(parse({ ...VALID, twoFactorRoles: "owner" })).toMatchObject({
      success: true,
      data: { twoFactorRoles: [] },
    });
  });

  it("reads the caps as whole numbers of coins from 0 to 1,000,000, in any digits", () => {
    expect(
      parse({
        ...VALID,
        billingCoinCap: " 0 ",
        supportDailyCoinCap: "١٥٠",
        freshProofCoinThreshold: "1000000",
      }),
    ).toMatchObject({
      success: true,
      data: { billingCoinCap: 0, supportDailyCoinCap: 150, freshProofCoinThreshold: 1_000_000 },
    });
  });

  it("refuses a role that does not exist and a cap that is not a whole number of coins", () => {
    const invalid = "admin-settings.errors.coinCapInvalid";
    const tooLarge = "admin-settings.errors.coinCapTooLarge";
    expectRefusals(settingsActionSchema, VALID, [
      [{}, {}],
      [
        { "twoFactorRole-owner": "on", "twoFactorRole-admin": "on" },
        { twoFactorRoles: "admin-settings.errors.twoFactorRoleUnknown" },
      ],
      [
        { "twoFactorRole-": "on" },
        { twoFactorRoles: "admin-settings.errors.twoFactorRoleUnknown" },
      ],
      [
        { "twoFactorRole-__proto__": "on" },
        { twoFactorRoles: "admin-settings.errors.twoFactorRoleUnknown" },
      ],
      [{ billingCoinCap: "-1" }, { billingCoinCap: invalid }],
      [{ billingCoinCap: "+5" }, { billingCoinCap: invalid }],
      [{ supportDailyCoinCap: "2.5" }, { supportDailyCoinCap: invalid }],
      [{ supportDailyCoinCap: "1e3" }, { supportDailyCoinCap: invalid }],
      [{ freshProofCoinThreshold: "ten" }, { freshProofCoinThreshold: invalid }],
      [{ freshProofCoinThreshold: "" }, { freshProofCoinThreshold: invalid }],
      [{ billingCoinCap: "1000001" }, { billingCoinCap: tooLarge }],
      [{ billingCoinCap: "99999999999999999999" }, { billingCoinCap: tooLarge }],
    ]);
    const { billingCoinCap: _, ...withoutCap } = VALID;
    expectRefusals(settingsActionSchema, withoutCap, [[{}, { billingCoinCap: invalid }]]);
  });
});

describe("the stored security settings", () => {
  const security = settingsSchema.shape.security;

  it("keeps the roles in the roles' order, each once", () => {
    expect(
      security.parse({ twoFactorRoles: ["technician", "owner", "technician"] }).twoFactorRoles,
    ).toEqual(["owner", "technician"]);
    expect(security.parse({}).twoFactorRoles).toEqual(["owner", "billing"]);
  });

  it("reads a row naming a role that does not exist, or a cap out of range, as the defaults", () => {
    const defaults = security.parse({});
    for (const stored of [
      { twoFactorRoles: ["owner", "admin"] },
      { twoFactorRoles: "owner" },
      { billingCoinCap: -1 },
      { supportDailyCoinCap: 1_000_001 },
      { freshProofCoinThreshold: 2.5 },
    ])
      expect(readSection("security", JSON.stringify(stored)), JSON.stringify(stored)).toEqual(
        defaults,
      );
  });
});
