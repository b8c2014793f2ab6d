import { readFileSync } from "node:fs";
import path from "node:path";
import { sql } from "kysely";
import { expect, it } from "vitest";
import type { AppServices } from "~/context.server";
import type { DialectName } from "~/db/database.server";
import type { Database } from "~/db/schema";
import { registerCustomer, signIn } from "~/domain/accounts/accounts.server";
import { getSettings } from "~/domain/settings/settings.server";
import { expectLedgerIntact } from "../../tests/support/money-fixtures";
import { readRow, readRows } from "../../tests/support/read-column";
import { refusal } from "../../tests/support/results";
import { describeEachDatabase } from "../../tests/support/test-database";
import type { ImportCollection } from "./collections";
import { importLegacyFile } from "./legacy-import.server";
import type { ImportReport } from "./report-types";

const fixtures = path.resolve("tests/fixtures/legacy");
const dumpText = readFileSync(path.join(fixtures, "local-storage.json"), "utf8");
const documentText = readFileSync(path.join(fixtures, "storefront-database.json"), "utf8");

/** Every plain-text password in a file, looking inside localStorage values too. */
function passwordsIn(value: unknown, found = new Set<string>()): Set<string> {
  if (typeof value === "string") {
    try {
      const inner: unknown = JSON.parse(value);
      if (inner && typeof inner === "object") passwordsIn(inner, found);
    } catch {
      // plain text, not JSON
    }
  } else if (Array.isArray(value)) {
    for (const item of value) passwordsIn(item, found);
  } else if (value && typeof value === "object") {
    for (const [key, child] of Object.entries(value)) {
      if (key === "password" && typeof child === "string") found.add(child);
      else passwordsIn(child, found);
    }
  }
  return found;
}

const COUNTED: (keyof Database)[] = [
  "users",
  "accounts",
  "products",
  "orders",
  "hosting_services",
  "announcements",
  "vouchers",
  "coin_ledger",
  "legacy_imports",
  "audit_log",
  "settings",
];

async function tableCounts(app: AppServices) {
  const counts: Record<string, number> = {};
  for (const table of COUNTED) {
    const row = await app.db
      .selectFrom(table)
      .select((eb) => eb.fn.countAll<number>().as("n"))
      .executeTakeFirstOrThrow();
    counts[table] = Number(row.n);
  }
  const settings = await app.db.selectFrom("settings").select(["key", "value"]).execute();
  counts.settingsText = JSON.stringify(settings).length;
  return counts;
}

async function allTables(app: AppServices, dialect: DialectName): Promise<string[]> {
  const rows =
    dialect === "sqlite"
      ? await sql<{ name: string }>`select name from sqlite_master where type = 'table'`.execute(
          app.db,
        )
      : await sql<{ name: string }>`
          select table_name as name from information_schema.tables
          where table_schema = current_schema()`.execute(app.db);
  return rows.rows.map((r) => r.name);
}

function summary(report: ImportReport) {
  const out: Partial<Record<ImportCollection, string>> = {};
  for (const [collection, c] of Object.entries(report.counts))
    out[collection as ImportCollection] = `${c.imported}/${c.matched}/${c.skipped}/${c.already}`;
  return out;
}

/** The accounts the fixture's import creates (the sixth old user's address was taken here already). */
const IMPORTED_EMAILS = [
  "admin@gamehost.ma",
  "karim@example.com",
  "nadia@example.com",
  "omar@example.com",
  "samira@example.com",
  "youssef.amrani@example.com",
];

async function userRow(app: AppServices, email: string) {
  return readRow(
    app.db,
    "users",
    ["id", "name", "role", "coin_balance_cents", "must_change_password", "created_at"],
    { email },
  );
}

let ip = 0;
const client = () => ({ ip: `10.66.${Math.floor(ip / 200)}.${(ip++ % 200) + 1}` });

describeEachDatabase("importing the old storefront", (app, dialect) => {
  let firstReport: ImportReport;

  /** Imports `text` and returns the report; a file it refuses fails the test with its problems. */
  async function importedReport(
    text: string,
    fileName: string,
    options: { dryRun?: boolean } = {},
  ) {
    const result = await importLegacyFile(app().db, { text, fileName, ...options });
    if (!result.ok) throw new Error(JSON.stringify(result.problems));
    return result.report;
  }

  it("a dry run says what an import would do and writes nothing", async () => {
    // A customer who already registered here with an address the old store also has.
    const early = await registerCustomer(
      app(),
      {
        name: "Early Bird (Hostfront)",
        email: "early.bird@example.com",
        password: "Hostfront-Early-551",
        confirmPassword: "Hostfront-Early-551",
      },
      { registrationOpen: true },
    );
    expect(early.ok).toBe(true);
    const before = await tableCounts(app());
    const dry = await importedReport(dumpText, "local-storage.json", { dryRun: true });
    expect(dry.dryRun).toBe(true);
    expect(summary(dry).users).toBe("6/0/1/0");
    expect(dry.oneTimePasswords).toEqual([]);
    expect(await tableCounts(app())).toEqual(before);
  });

  it("imports users, catalogue, orders, services, announcements, vouchers and settings", async () => {
    const before = await tableCounts(app());
    firstReport = await importedReport(dumpText, "local-storage.json");
    // imported / matched / skipped / already imported
    expect(summary(firstReport)).toEqual({
      users: "6/0/1/0",
      services: "1/2/0/0",
      orders: "4/0/1/0",
      userServices: "2/0/0/0",
      announcements: "1/0/0/0",
      vouchers: "1/0/1/0",
      settings: "14/0/2/0",
      tickets: "0/0/1/0",
      livechats: "0/0/0/0",
    });
    expect(
      firstReport.skipped.map((s) => `${s.collection} ${s.label} ${s.reason.code}`).sort(),
    ).toEqual([
      "orders SAMP Starter userMissing",
      "settings maintenanceMode settingNotImported",
      "settings theme.accentColor settingInvalid",
      "tickets 1 record(s) notSupported",
      "users early.bird@example.com emailTaken",
      "vouchers WELCOME10 voucherCodeTaken",
    ]);
    const after = await tableCounts(app());
    expect({
      users: after.users! - before.users!,
      accounts: after.accounts! - before.accounts!,
      products: after.products! - before.products!,
      orders: after.orders! - before.orders!,
      hosting_services: after.hosting_services! - before.hosting_services!,
      announcements: after.announcements! - before.announcements!,
      vouchers: after.vouchers! - before.vouchers!,
      coin_ledger: after.coin_ledger! - before.coin_ledger!,
      legacy_imports: after.legacy_imports! - before.legacy_imports!,
      audit_log: after.audit_log! - before.audit_log!,
    }).toEqual({
      users: 6,
      accounts: 6,
      products: 1,
      orders: 4,
      hosting_services: 2,
      announcements: 1,
      vouchers: 1,
      coin_ledger: 4,
      legacy_imports: 31,
      audit_log: 1,
    });
  });

  it("lets customers sign in with their old passwords, hashed; admins get a one-time password", async () => {
    const signs = async (email: string, password: string) =>
      signIn(app(), { email, password }, client());
    expect(await signs("youssef.amrani@example.com", "Atlas-Rif-2024!")).toMatchObject({
      ok: true,
      role: "user",
      mustChangePassword: false,
    });
    expect(await signs("omar@example.com", "Omar-Samp-5512")).toMatchObject({ ok: true });
    expect(await signs("nadia@example.com", "Nadia-Mta-7781")).toMatchObject({
      ok: true,
      mustChangePassword: false,
    });
    // Short and common passwords still open the door once, then must be replaced.
    expect(await signs("samira@example.com", "123")).toMatchObject({
      ok: true,
      mustChangePassword: true,
    });
    expect(await signs("karim@example.com", "password1")).toMatchObject({
      ok: true,
      mustChangePassword: true,
    });
    // The old seed admin's password was printed in every visitor's console: it opens nothing here.
    expect(await signs("admin@gamehost.ma", "admin123")).toEqual(
      refusal("unauthenticated", "errors.invalidCredentials"),
    );
    const otp = firstReport.oneTimePasswords;
    expect(otp.map((p) => p.email)).toEqual(["admin@gamehost.ma"]);
    expect(await signs("admin@gamehost.ma", otp[0]!.password)).toMatchObject({
      ok: true,
      role: "admin",
      mustChangePassword: true,
    });
    expect((await userRow(app(), "admin@gamehost.ma")).must_change_password).toBe(1);
    // The old site's accounts come verified (their address was its login), as migration 0032 made every
    // account it found; the live account with the same address keeps its own state (not verified yet).
    const verified = await app()
      .db.selectFrom("users")
      .select(["email", "email_verified"])
      .where("email", "in", [...IMPORTED_EMAILS, "early.bird@example.com"])
      .orderBy("email")
      .execute();
    expect(
      verified.map((row) => [row.email, row.email_verified === true || row.email_verified === 1]),
    ).toEqual(
      [...IMPORTED_EMAILS.map((email) => [email, true]), ["early.bird@example.com", false]].sort(
        (a, b) => String(a[0]).localeCompare(String(b[0])),
      ),
    );
    // The live account with the same address was left alone.
    const early = await userRow(app(), "early.bird@example.com");
    expect(early).toMatchObject({ name: "Early Bird (Hostfront)", coin_balance_cents: 0 });
    expect(await signs("early.bird@example.com", "Hostfront-Early-551")).toMatchObject({
      ok: true,
    });
    expect(await signs("early.bird@example.com", "Early-Bird-3310")).toMatchObject({ ok: false });
  });

  it("stores no plain-text password anywhere in the database", async () => {
    const secrets = [
      ...passwordsIn(JSON.parse(dumpText)),
      ...firstReport.oneTimePasswords.map((p) => p.password),
    ];
    expect(secrets).toContain("Atlas-Rif-2024!");
    expect(secrets).toContain("123");
    const leaks: string[] = [];
    for (const table of await allTables(app(), dialect)) {
      const rows = await sql<Record<string, unknown>>`select * from ${sql.table(table)}`.execute(
        app().db,
      );
      for (const row of rows.rows)
        for (const [column, value] of Object.entries(row)) {
          if (typeof value !== "string") continue;
          for (const secret of secrets)
            if (value === secret || (secret.length >= 6 && value.includes(secret)))
              leaks.push(`${table}.${column}`);
        }
    }
    expect(leaks).toEqual([]);
    const hashes = await app()
      .db.selectFrom("accounts")
      .innerJoin("users", "users.id", "accounts.user_id")
      .select(["accounts.password", "accounts.provider_id", "accounts.account_id", "users.id"])
      .where("users.email", "=", "youssef.amrani@example.com")
      .executeTakeFirstOrThrow();
    expect(hashes.password).toMatch(/^\$argon2id\$v=19\$m=19456,t=2,p=1\$/);
    expect(hashes).toMatchObject({ provider_id: "credential", account_id: hashes.id });
  });

  it("brings balances in through the ledger, in exact cents, never below 0", async () => {
    const balances: Record<string, number> = {};
    for (const email of [
      "admin@gamehost.ma",
      "youssef.amrani@example.com",
      "samira@example.com",
      "karim@example.com",
      "nadia@example.com",
      "omar@example.com",
    ])
      balances[email] = (await userRow(app(), email)).coin_balance_cents;
    expect(balances).toEqual({
      "admin@gamehost.ma": 1_000_000,
      // The database document's 45.5, not the legacy key's 60.
      "youssef.amrani@example.com": 4550,
      "samira@example.com": 1230,
      "karim@example.com": 30,
      "nadia@example.com": 0,
      "omar@example.com": 0,
    });
    const ledger = await readRows(
      app().db,
      "coin_ledger",
      ["kind", "amount_cents", "actor_id", "reason"],
      { kind: "legacy_import" },
      "amount_cents",
    );
    expect(ledger.map((l) => l.amount_cents)).toEqual([30, 1230, 4550, 1_000_000]);
    expect(ledger.every((l) => l.actor_id === null)).toBe(true);
    // Orders are history: no coin moved for them.
    const imported = await readRows(app().db, "legacy_imports", ["new_id"], {
      collection: "users",
    });
    const moved = await app()
      .db.selectFrom("coin_ledger")
      .select("kind")
      .where(
        "user_id",
        "in",
        imported.map((i) => i.new_id),
      )
      .where("kind", "!=", "legacy_import")
      .execute();
    expect(moved).toEqual([]);
    await expectLedgerIntact(app());
    expect((await userRow(app(), "samira@example.com")).created_at).toBe(
      "2024-06-10T06:13:20.002Z",
    );
  });

  it("maps the catalogue, orders and user services onto ours", async () => {
    const products = await app()
      .db.selectFrom("products")
      .selectAll()
      .where("slug", "in", ["samp-starter", "mta-professional", "vps-premium"])
      .execute();
    const bySlug = Object.fromEntries(products.map((p) => [p.slug, p]));
    // Matched by name: Hostfront's own plan is kept as it is.
    expect(bySlug["samp-starter"]!.price_cents).toBe(250);
    expect(bySlug["vps-premium"]!.price_cents).toBe(2000);
    expect(bySlug["mta-professional"]).toMatchObject({
      type: "mta",
      category: "Game Hosting",
      price_cents: 1500,
      ram_gb: 4,
      storage_gb: 20,
      cpu_cores: 2,
      slots: 200,
      status: "active",
    });
    expect(JSON.parse(bySlug["mta-professional"]!.features)).toContain("Daily Backups");

    const order = (key: string) =>
      readRow(app().db, "orders", "*", { idempotency_key: `legacy-order:${key}` });
    expect(await order("1718100000002")).toMatchObject({
      status: "approved",
      product_id: bySlug["mta-professional"]!.id,
      product_name: "MTA Professional",
      product_price_cents: 1425,
      total_cents: 1425,
      billing_cycle: "quarterly",
      location: "france",
      ddos_protection: 0,
      backup: "premium",
      player_slots: 100,
      server_name: "Casablanca Drift",
      paid_with_coins: 1,
      created_at: "2024-06-21T12:00:00.000Z",
      decided_at: "2024-06-21T12:00:00.000Z",
    });
    // As recorded: the old price, under Hostfront's matching product.
    expect(await order("1718100000001")).toMatchObject({
      status: "pending",
      product_id: bySlug["samp-starter"]!.id,
      product_price_cents: 500,
      player_slots: 50,
    });
    expect(await order("1718100000003")).toMatchObject({
      status: "pending",
      product_type: "vps",
      player_slots: null,
      billing_cycle: "annual",
      total_cents: 2500,
    });
    expect(await order("1718100000005")).toMatchObject({ server_name: "Omar Freeroam" });

    const services = await app()
      .db.selectFrom("hosting_services")
      .innerJoin("users", "users.id", "hosting_services.user_id")
      .select([
        "users.email",
        "hosting_services.status",
        "hosting_services.expires_at",
        "hosting_services.monthly_price_cents",
        "hosting_services.product_id",
      ])
      .where("users.email", "in", ["youssef.amrani@example.com", "samira@example.com"])
      .orderBy("users.email")
      .execute();
    expect(services).toEqual([
      {
        email: "samira@example.com",
        status: "active",
        expires_at: "2030-07-21T13:00:00.000Z",
        monthly_price_cents: 1500,
        product_id: bySlug["mta-professional"]!.id,
      },
      {
        email: "youssef.amrani@example.com",
        status: "suspended",
        // No expiry in the file: 30 days after it was created (spec section 9).
        expires_at: "2024-07-20T13:00:00.000Z",
        monthly_price_cents: 500,
        product_id: bySlug["samp-starter"]!.id,
      },
    ]);
  });

  it("imports the announcement, the new voucher and the valid settings", async () => {
    const vouchers = await app().db.selectFrom("vouchers").selectAll().orderBy("code").execute();
    const mta = await readRow(app().db, "products", ["id"], { slug: "mta-professional" });
    expect(vouchers.find((v) => v.code === "MTA5")).toMatchObject({
      discount_type: "fixed",
      discount_value: 500,
      min_purchase_cents: 1000,
      max_uses: 20,
      applicable_services: JSON.stringify([mta.id]),
    });
    // Hostfront's own WELCOME10 is untouched.
    expect(vouchers.find((v) => v.code === "WELCOME10")).toMatchObject({ used_count: 0 });
    const announcement = await readRow(
      app().db,
      "announcements",
      ["title", "type", "is_active", "target_audience", "created_at"],
      { title: "Welcome to GameHost MA!" },
    );
    expect(announcement).toMatchObject({ is_active: 1, created_at: "2024-01-15T09:00:00.000Z" });

    const settings = await getSettings(app().db);
    expect(settings.general).toMatchObject({
      siteName: "GameHost MA",
      contactEmail: "support@gamehost.ma",
      maintenanceMessage: "We are moving to a new site.",
      maintenanceMode: false,
    });
    expect(settings.links.discord).toBe("https://discord.gg/gamehostma");
    expect(settings.theme).toEqual({
      primaryColor: "#3b82f6",
      secondaryColor: "#1e293b",
      accentColor: "#f59e0b",
    });
    expect(settings.seo.keywords).toBe("samp, mta, vps, maroc");

    const audit = await readRows(app().db, "audit_log", ["actor_id", "target_type", "after"], {
      action: "legacy.import",
    });
    expect(audit).toHaveLength(1);
    expect(audit[0]!.actor_id).toBeNull();
    expect(JSON.parse(audit[0]!.after!)).toMatchObject({
      file: "local-storage.json",
      counts: { users: { imported: 6 } },
    });
  });

  it("imports nothing the second time and reports everything as already imported", async () => {
    const before = await tableCounts(app());
    const again = await importedReport(dumpText, "local-storage.json");
    expect(summary(again)).toEqual({
      users: "0/0/1/6",
      services: "0/0/0/3",
      orders: "0/0/1/4",
      userServices: "0/0/0/2",
      announcements: "0/0/0/1",
      vouchers: "0/0/1/1",
      settings: "0/0/2/14",
      tickets: "0/0/1/0",
      livechats: "0/0/0/0",
    });
    expect(again.oneTimePasswords).toEqual([]);
    expect(await tableCounts(app())).toEqual(before);
    await expectLedgerIntact(app());

    // The database document alone (the same records, fewer of them) is already here too.
    const documentReport = await importedReport(documentText, "storefront-database.json");
    expect(summary(documentReport).users).toBe("0/0/1/5");
    expect(summary(documentReport).orders).toBe("0/0/1/3");
    expect(await tableCounts(app())).toEqual(before);
  });

  it("refuses a malformed file whole, naming the place, and imports nothing from it", async () => {
    const before = await tableCounts(app());
    const withNewUser = (change: (doc: Record<string, unknown[]>) => void) => {
      const doc = JSON.parse(documentText) as Record<string, unknown[]>;
      doc.users!.unshift({ id: "9", email: "fresh@example.com", password: "Fresh-pass-9911" });
      change(doc);
      return JSON.stringify(doc, null, 2);
    };
    const cases: [string, string, string][] = [
      [dumpText.slice(0, -20), "", "not valid JSON: line"],
      [
        withNewUser((doc) => ((doc.users![4] as { email: string }).email = "karim@")),
        "users[4].email",
        '"karim@" is not an email address',
      ],
      [
        withNewUser((doc) => ((doc.orders![1] as { price: string }).price = "14.255")),
        "orders[1].price",
        "more than two decimals",
      ],
      [
        withNewUser((doc) => ((doc as Record<string, unknown>).services = { id: 1 })),
        "services",
        "expected a list of services, found an object",
      ],
      [
        JSON.stringify({ ...JSON.parse(dumpText), orders: '[{"id": 1,' }),
        'localStorage["orders"]',
        "not valid JSON: line 1, column 11",
      ],
    ];
    for (const [text, where, message] of cases) {
      const result = await importLegacyFile(app().db, { text, fileName: "bad.json" });
      expect(result.ok, where).toBe(false);
      if (result.ok) continue;
      expect(result.problems.map((p) => p.path)).toEqual([where]);
      expect(result.problems[0]!.message).toContain(message);
    }
    expect(await tableCounts(app())).toEqual(before);
    expect(
      await app()
        .db.selectFrom("users")
        .select("id")
        .where("email", "=", "fresh@example.com")
        .executeTakeFirst(),
    ).toBeUndefined();
  });
});
