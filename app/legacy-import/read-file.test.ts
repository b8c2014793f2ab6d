import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import type { LegacyDataset } from "./legacy-dataset";
import { readLegacyFile } from "./read-file";
import type { FileProblem } from "./report-types";

const fixture = (name: string) => readFileSync(path.resolve("tests/fixtures/legacy", name), "utf8");

function dataset(text: string): LegacyDataset {
  const result = readLegacyFile(text);
  if (!result.ok) throw new Error(JSON.stringify(result.problems));
  return result.dataset;
}

function problems(value: unknown): FileProblem[] {
  const result = readLegacyFile(typeof value === "string" ? value : JSON.stringify(value));
  if (result.ok) throw new Error("expected the file to be refused");
  return result.problems;
}

const paths = (value: unknown) => problems(value).map((p) => p.path);

describe("reading the database document (shape a)", () => {
  const data = dataset(fixture("storefront-database.json"));

  it("reads every collection", () => {
    expect(data.source).toEqual({ shape: "document", mainKey: null, legacyKeys: [], ignored: [] });
    expect(data.users.map((u) => u.email)).toEqual([
      "admin@gamehost.ma",
      "youssef.amrani@example.com",
      "samira@example.com",
      "karim@example.com",
      "nadia@example.com",
      "early.bird@example.com",
    ]);
    expect(data.services.map((s) => [s.slug, s.priceCents, s.type])).toEqual([
      ["samp-starter", 500, "samp"],
      ["mta-professional", 1500, "mta"],
      ["vps-premium", 2500, "vps"],
    ]);
    expect(data.orders).toHaveLength(4);
    expect(data.userServices).toHaveLength(2);
    expect(data.announcements).toHaveLength(1);
    expect(data.vouchers.map((v) => [v.code, v.discountType, v.discountValue])).toEqual([
      ["WELCOME10", "percentage", 10],
      ["MTA5", "fixed", 500],
    ]);
  });

  it("is liberal where the old app was inconsistent", () => {
    const [admin, youssef, samira, karim, nadia] = data.users;
    expect(admin).toMatchObject({ role: "admin", coinsCents: 1_000_000 });
    expect(youssef).toMatchObject({ name: "Youssef Amrani", coinsCents: 4550 });
    // username instead of name, a numeric id, coins as text
    expect(samira).toMatchObject({ name: "samira", coinsCents: 1230 });
    expect(data.userEmailById.get("1718000000002")).toBe("samira@example.com");
    // the old app's float arithmetic, and an unreadable time
    expect(karim).toMatchObject({ coinsCents: 30, createdAt: null });
    // coins never below 0
    expect(nadia).toMatchObject({ coinsCents: 0, coinsClampedFromCents: -500 });
    const order = data.orders[1]!;
    expect(order).toMatchObject({
      key: "1718100000002",
      userId: "1718000000002",
      serviceId: "2",
      priceCents: 1425,
      status: "approved",
      billingCycle: "quarterly",
      location: "france",
      ddosProtection: false,
      backup: "premium",
      playerSlots: 100,
    });
    expect(data.orders[2]).toMatchObject({ status: "pending", unknownStatus: "processing" });
    expect(data.services[2]!.specs).toEqual({
      ramGb: 12,
      storageGb: 250,
      cpuCores: 6,
      slots: null,
    });
  });

  it("maps the settings it knows and reports the rest", () => {
    expect(data.settings.map((s) => `${s.key}->${s.section}.${s.field}`)).toContain(
      "discordLink->links.discord",
    );
    expect(data.skipped).toEqual([
      {
        collection: "settings",
        ref: "settings.maintenanceMode",
        label: "maintenanceMode",
        reason: { code: "settingNotImported" },
      },
      {
        collection: "tickets",
        ref: "tickets",
        label: "1 record(s)",
        reason: { code: "notSupported", count: 1 },
      },
    ]);
  });

  it("never keeps a password in anything it reports", () => {
    expect(JSON.stringify({ ...data, users: [] })).not.toContain("Atlas-Rif-2024!");
  });
});

describe("reading a localStorage dump (shape b)", () => {
  const data = dataset(fixture("local-storage.json"));

  it("finds the document under its key and reads the legacy keys beside it", () => {
    expect(data.source).toEqual({
      shape: "localStorage",
      mainKey: "hosting_db",
      legacyKeys: [
        { key: "users", records: 3, merged: 2 },
        { key: "currentUser", records: 1, merged: 1 },
        { key: "orders", records: 2, merged: 1 },
        { key: "userServices", records: 1, merged: 1 },
      ],
      ignored: ["theme", "i18nextLng"],
    });
  });

  it("lets the document win for a record in both, and adds what only a legacy key has", () => {
    const youssef = data.users.find((u) => u.email === "youssef.amrani@example.com")!;
    expect(youssef.coinsCents).toBe(4550);
    expect(youssef.ref).toBe('localStorage["hosting_db"].users[1]');
    expect(data.notes).toContainEqual({
      collection: "users",
      ref: 'localStorage["users"][1]',
      label: "youssef.amrani@example.com",
      note: {
        code: "copiesDiffer",
        fields: ["coins"],
        kept: 'localStorage["hosting_db"].users[1]',
      },
    });
    const omar = data.users.find((u) => u.email === "omar@example.com")!;
    expect(omar.ref).toBe('localStorage["users"][2]');
    expect(data.userEmailById.get("1718000000006")).toBe("omar@example.com");
    expect(data.users).toHaveLength(7);
    expect(data.orders.map((o) => o.key)).toEqual([
      "1718100000001",
      "1718100000002",
      "1718100000003",
      "1718100000004",
      "1718100000005",
    ]);
  });

  it("reads a dump with legacy keys only", () => {
    const only = dataset(
      JSON.stringify({
        users: JSON.stringify([{ id: 1, email: "a@example.com", password: "Longer-pass-1" }]),
        currentUser: "null",
      }),
    );
    expect(only.source.mainKey).toBeNull();
    expect(only.users.map((u) => u.email)).toEqual(["a@example.com"]);
  });
});

describe("records turned away before the database is read", () => {
  it("skips a duplicate in one source, an order without an id and an inactive account", () => {
    const data = dataset(
      JSON.stringify({
        users: [
          { id: 1, email: "a@example.com" },
          { id: 2, email: "A@example.com" },
          { id: 3, email: "b@example.com", status: "banned" },
        ],
        orders: [{ userId: 1, serviceId: 1 }],
      }),
    );
    expect(data.users.map((u) => u.email)).toEqual(["a@example.com"]);
    expect(data.skipped.map((s) => [s.ref, s.reason.code])).toEqual([
      ["users[1]", "duplicate"],
      ["users[2]", "inactiveUser"],
      ["orders[0]", "noId"],
    ]);
    expect(data.skippedUserRefs.get("b@example.com")).toBe("users[2]");
  });
});

describe("refusing a malformed file", () => {
  it("gives the line and column of bad JSON", () => {
    expect(problems('{\n  "users": [\n    {"email": "a@example.com",}\n  ]\n}')).toEqual([
      { path: "", message: "not valid JSON: line 3, column 30: a comma before '}' (remove it)" },
    ]);
  });

  it("names the place of every wrong value", () => {
    const found = problems({
      users: [
        { email: "a@example.com" },
        { email: "b@example.com", coins: "lots" },
        { email: "c@example.com", isAdmin: "maybe" },
        { email: "not-an-email", password: "Secret-99" },
        "someone",
      ],
      services: [
        { id: 1, name: "X" },
        { id: 2, name: "Y", price: -1 },
      ],
      orders: { id: 1 },
      vouchers: [{ code: "A", discountType: "percentage", discountValue: 150 }],
      settings: [],
    });
    expect(found.map((p) => p.path)).toEqual([
      "users[1].coins",
      "users[2].isAdmin",
      "users[3].email",
      "users[4]",
      "services[0].price",
      "services[1].price",
      "orders",
      "vouchers[0].discountValue",
      "settings",
    ]);
    expect(found[2]!.message).toBe('"not-an-email" is not an email address');
    expect(JSON.stringify(found)).not.toContain("Secret-99");
  });

  it("names places inside a localStorage dump", () => {
    expect(
      paths({
        db: JSON.stringify({ users: [{ email: "ok@example.com" }, { email: 5 }] }),
        orders: JSON.stringify([{ id: 1, price: "4.999" }]),
      }),
    ).toEqual(['localStorage["db"].users[1].email', 'localStorage["orders"][0].price']);
    expect(problems({ db: "{}", users: "[{" })).toEqual([
      {
        path: 'localStorage["users"]',
        message: "not valid JSON: line 1, column 3: the text ends too early",
      },
    ]);
  });

  it("refuses what is not the old storefront's data", () => {
    expect(problems("")[0]!.message).toBe("the file is empty");
    expect(problems("[1]")[0]!.message).toContain("found a list");
    expect(problems({ foo: 1 })[0]!.message).toContain("neither the old storefront's database");
    expect(problems({ theme: "dark" })[0]!.message).toContain(
      "holds none of the old storefront's data",
    );
    expect(
      problems({ a: JSON.stringify({ users: [] }), b: JSON.stringify({ orders: [] }) })[0]!.message,
    ).toContain('several keys hold a database document ("a", "b")');
  });
});
