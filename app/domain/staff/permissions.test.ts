import { describe, expect, it } from "vitest";
import {
  can,
  coinBounds,
  coinChangeRefusal,
  FRESH_PROOF_MS,
  isProofFresh,
  mayAssignRole,
  PERMISSIONS,
  ROLE_PERMISSIONS,
  STAFF_ROLES,
  staffRoleOf,
  type Permission,
  type StaffRole,
} from "./permissions";

// Each role's permissions written out here, not read back from ROLE_PERMISSIONS: a permission added to
// or dropped from a role by mistake fails this table.
const HELD: Record<StaffRole, Permission[]> = {
  owner: [...PERMISSIONS],
  billing: [
    "clients.view",
    "coins.adjust",
    "topups.decide",
    "orders.view",
    "orders.decide",
    "invoices.view",
    "invoices.refund",
    "services.view",
    "reports.view",
    "affiliates.manage",
  ],
  support: [
    "clients.view",
    "clients.viewAs",
    "coins.adjust",
    "orders.view",
    "invoices.view",
    "services.view",
    "tickets.reply",
    "inbox.manage",
    "mail.view",
    "knowledgebase.manage",
  ],
  technician: ["services.view", "services.manage", "panel.manage", "automation.run"],
};

describe("can", () => {
  it("grants each role exactly its permissions", () => {
    for (const role of STAFF_ROLES)
      for (const permission of PERMISSIONS)
        expect(can(role, permission), `${role} ${permission}`).toBe(
          HELD[role].includes(permission),
        );
  });

  it("grants nothing without a role", () => {
    for (const permission of PERMISSIONS) {
      expect(can(null, permission)).toBe(false);
      expect(can(undefined, permission)).toBe(false);
    }
  });

  it("keeps what moves money or secrets, and the staff, with the owner among the roles", () => {
    for (const permission of [
      "staff.manage",
      "gateways.manage",
      "settings.manage",
      "logs.view",
    ] as const)
      expect(
        STAFF_ROLES.filter((role) => can(role, permission)),
        permission,
      ).toEqual(["owner"]);
    // Every permission is the owner's, and every role's list names only known permissions.
    expect([...ROLE_PERMISSIONS.owner].sort()).toEqual([...PERMISSIONS].sort());
    for (const role of STAFF_ROLES)
      for (const permission of ROLE_PERMISSIONS[role]) expect(PERMISSIONS).toContain(permission);
  });
});

describe("staffRoleOf", () => {
  it("reads back each stored role", () => {
    for (const role of STAFF_ROLES) expect(staffRoleOf(role)).toBe(role);
  });

  it("reads anything else as no role", () => {
    for (const value of [
      null,
      undefined,
      "",
      "admin",
      "Owner",
      " owner",
      "owner ",
      1,
      {},
      ["owner"],
    ])
      expect(staffRoleOf(value), JSON.stringify(value)).toBeNull();
  });
});

describe("mayAssignRole", () => {
  const others = ["billing", "support", "technician"] as const;

  it("lets only an owner make or unmake an owner", () => {
    for (const from of [null, ...others]) {
      expect(mayAssignRole("owner", from, "owner"), `owner makes ${from} an owner`).toBe(true);
      for (const actor of [null, ...others])
        expect(mayAssignRole(actor, from, "owner"), `${actor} makes an owner`).toBe(false);
    }
    for (const to of [null, ...others]) {
      expect(mayAssignRole("owner", "owner", to), `owner unmakes an owner (${to})`).toBe(true);
      for (const actor of [null, ...others])
        expect(mayAssignRole(actor, "owner", to), `${actor} unmakes an owner`).toBe(false);
    }
  });

  it("lets only a role holding staff.manage change the other roles", () => {
    for (const from of [null, ...others])
      for (const to of [null, ...others]) {
        expect(mayAssignRole("owner", from, to), `owner: ${from} → ${to}`).toBe(true);
        for (const actor of [null, ...others])
          expect(mayAssignRole(actor, from, to), `${actor}: ${from} → ${to}`).toBe(false);
      }
  });
});

describe("coin bounds", () => {
  const caps = { billingCoinCap: 500, supportDailyCoinCap: 20 };

  it("bounds each role as its caps say", () => {
    expect(coinBounds("owner", caps)).toEqual({
      perChangeCents: null,
      perDayCents: null,
      creditsOnly: false,
    });
    expect(coinBounds("billing", caps)).toEqual({
      perChangeCents: 50_000,
      perDayCents: null,
      creditsOnly: false,
    });
    expect(coinBounds("support", caps)).toEqual({
      perChangeCents: 2_000,
      perDayCents: 2_000,
      creditsOnly: true,
    });
    expect(coinBounds("technician", caps)).toBeNull();
    expect(coinBounds(null, caps)).toBeNull();
  });

  it("refuses a role without coins.adjust, whatever the amount", () => {
    for (const amount of [1, -1, 0]) expect(coinChangeRefusal(null, amount, 0)).toBe("notAllowed");
  });

  it("lets the owner move any amount either way", () => {
    const owner = coinBounds("owner", caps);
    for (const amount of [1, -1, 100_000_000, -100_000_000])
      expect(coinChangeRefusal(owner, amount, 999_999_999)).toBeNull();
  });

  it("holds billing to its cap per change, either way, and to no daily sum", () => {
    const billing = coinBounds("billing", caps);
    expect(coinChangeRefusal(billing, 50_000, 0)).toBeNull();
    expect(coinChangeRefusal(billing, -50_000, 0)).toBeNull();
    expect(coinChangeRefusal(billing, 50_001, 0)).toBe("perChange");
    expect(coinChangeRefusal(billing, -50_001, 0)).toBe("perChange");
    expect(coinChangeRefusal(billing, 50_000, 10_000_000)).toBeNull();
  });

  it("holds support to credits, and to its daily cap in one change and over the day", () => {
    const support = coinBounds("support", caps);
    expect(coinChangeRefusal(support, -1, 0)).toBe("creditsOnly");
    expect(coinChangeRefusal(support, -2_000, 0)).toBe("creditsOnly");
    expect(coinChangeRefusal(support, 2_000, 0)).toBeNull();
    expect(coinChangeRefusal(support, 2_001, 0)).toBe("perChange");
    // The day's sum: exactly at the cap passes, one cent over is refused.
    expect(coinChangeRefusal(support, 500, 1_500)).toBeNull();
    expect(coinChangeRefusal(support, 501, 1_500)).toBe("perDay");
    expect(coinChangeRefusal(support, 1, 2_000)).toBe("perDay");
    expect(coinChangeRefusal(support, 1, 1_999)).toBeNull();
  });

  it("refuses every credit when a cap is zero", () => {
    const zero = { billingCoinCap: 0, supportDailyCoinCap: 0 };
    expect(coinChangeRefusal(coinBounds("billing", zero), 1, 0)).toBe("perChange");
    expect(coinChangeRefusal(coinBounds("billing", zero), -1, 0)).toBe("perChange");
    expect(coinChangeRefusal(coinBounds("support", zero), 1, 0)).toBe("perChange");
  });
});

describe("isProofFresh", () => {
  const proven = "2026-11-28T10:00:00.000Z";
  const at = (ms: number) => new Date(Date.parse(proven) + ms);

  it("is fresh for 15 minutes after the proof, and no longer", () => {
    expect(FRESH_PROOF_MS).toBe(15 * 60 * 1000);
    expect(isProofFresh(proven, at(0))).toBe(true);
    expect(isProofFresh(proven, at(14 * 60 * 1000 + 59 * 1000))).toBe(true);
    expect(isProofFresh(proven, at(15 * 60 * 1000 - 1))).toBe(true);
    expect(isProofFresh(proven, at(15 * 60 * 1000))).toBe(false);
    expect(isProofFresh(proven, at(60 * 60 * 1000))).toBe(false);
  });

  it("allows a clock a minute ahead, and no more, for a stamp in the future", () => {
    expect(isProofFresh(proven, at(-60_000))).toBe(true);
    expect(isProofFresh(proven, at(-60_001))).toBe(false);
    expect(isProofFresh(proven, at(-24 * 60 * 60 * 1000))).toBe(false);
  });

  it("is never fresh without a readable stamp", () => {
    for (const stamp of [null, undefined, "", "yesterday", "2026-13-45T99:00:00Z"])
      expect(isProofFresh(stamp, at(0)), String(stamp)).toBe(false);
  });
});
