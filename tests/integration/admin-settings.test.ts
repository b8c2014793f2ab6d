import { afterEach, expect, it } from "vitest";
import { requestContext } from "~/context.server";
import { signIn } from "~/domain/accounts/accounts.server";
import { defaultSettings, settingsSections, type Settings } from "~/domain/settings/settings";
import { getSettings, updateSettingsSection } from "~/domain/settings/settings.server";
import { openTicket } from "~/domain/tickets/tickets.server";
import * as root from "~/root";
import * as adminSettings from "~/routes/admin/settings";
import * as home from "~/routes/home";
import * as register from "~/routes/register";
import * as privacyPage from "~/routes/site/privacy";
import * as contact from "~/routes/site/contact";
import * as supportNew from "~/routes/support/new";
import * as supportTicket from "~/routes/support/ticket";
import { saveBillingDetails } from "~/domain/invoices/billing-details.server";
import { appFetch } from "../support/app-harness";
import { customerWithCoins } from "../support/money-fixtures";
import {
  contextFor,
  cookieHeader,
  formRequest,
  routeArgs,
  settle,
} from "../support/request-context";
import { describeEachDatabase, TEST_ADMIN } from "../support/test-database";

type Result = { data: Record<string, unknown>; init: { status: number } | null };
type Module = { loader?: (args: never) => unknown; action?: (args: never) => unknown };

describeEachDatabase("admin settings", (app) => {
  let adminCookie: string | undefined;

  async function signedIn(email: string, password: string, ip: string) {
    const result = await signIn(app(), { email, password }, { ip });
    if (!result.ok) throw new Error(`sign in failed for ${email}`);
    return cookieHeader(result.setCookies);
  }

  async function admin() {
    adminCookie ??= await signedIn(TEST_ADMIN.email, TEST_ADMIN.password, "10.60.0.1");
    return adminCookie;
  }

  async function customer() {
    const id = await customerWithCoins(app(), 0);
    const { email } = await app()
      .db.selectFrom("users")
      .select("email")
      .where("id", "=", id)
      .executeTakeFirstOrThrow();
    return { id, cookie: await signedIn(email, "Buyer-pw-8842", "10.60.0.2") };
  }

  async function save(fields: Record<string, string>) {
    const cookie = await admin();
    return (await settle(async () =>
      adminSettings.action(
        routeArgs({
          request: formRequest("/admin/settings", fields, cookie),
          context: await contextFor(app(), { cookie }),
          params: {},
        }),
      ),
    )) as Result | Record<string, unknown>;
  }

  async function run(
    module: Module,
    kind: "loader" | "action",
    path: string,
    cookie?: string,
    fields?: Record<string, string>,
  ) {
    return settle(async () =>
      module[kind]!(
        routeArgs({
          request: fields
            ? formRequest(path, fields, cookie)
            : new Request(`http://localhost${path}`, { headers: cookie ? { cookie } : {} }),
          context: await contextFor(app(), { cookie }),
        }),
      ),
    );
  }

  const auditRows = () =>
    app()
      .db.selectFrom("audit_log")
      .select(["action", "target_type", "target_id", "before", "after", "actor_id"])
      .where("action", "=", "settings.update")
      .orderBy("id")
      .execute();

  const stored = () => getSettings(app().db);

  // Every test starts from the defaults; the cache is emptied as a save would. The suite's install
  // started requiring two-factor of no role (FIRST_START_TWO_FACTOR_ROLES=none, tests/support/test-env.ts),
  // so its admin signs in with a password alone: that is what is put back, not a new install's default.
  afterEach(async () => {
    const defaults = defaultSettings();
    defaults.security.twoFactorRoles = [];
    for (const section of settingsSections)
      await updateSettingsSection(app().db, section, defaults[section]);
    app().settings.invalidate();
  });

  const valid: Record<string, Record<string, string>> = {
    general: {
      intent: "general",
      siteName: "  Atlas Hosting ",
      siteDescription: "Servers for Casablanca gamers",
      contactEmail: "Help@Atlas.Example",
      paymentsEmail: "pay@atlas.example",
      defaultLocale: "fr",
      // entryGate left out: an unticked checkbox sends nothing
    },
    links: {
      intent: "links",
      discord: "https://discord.gg/atlas",
      whatsapp: "",
      gamePanel: "https://panel.atlas.example",
      databaseAdmin: "https://panel.atlas.example/pma",
      telegram: "https://t.me/atlas",
      github: "",
      instagram: "https://instagram.com/atlas",
      facebook: "https://facebook.com/atlas",
    },
    maintenance: {
      intent: "maintenance",
      maintenanceMode: "on",
      maintenanceMessage: "Back at 18:00",
    },
    theme: {
      intent: "theme",
      primaryColor: "#16A34A",
      secondaryColor: "#1e1b4b",
      accentColor: "#f97316",
    },
    features: { intent: "features", registration: "on", livechat: "on" },
    seo: {
      intent: "seo",
      title: "Atlas: SA-MP hosting",
      description: "Cheap servers",
      keywords: "samp",
    },
    privacy: {
      intent: "privacy",
      en: "## Our policy\nWe keep little. Write to {{contactEmail}}.",
      fr: "",
      ar: "## سياستنا\n- القليل فقط",
    },
    // One per line, as the textarea sends them (blank lines and spaces dropped), with their names in
    // French and Arabic, one "Frankfurt = Francfort" a line.
    locations: {
      intent: "locations",
      locations: " Frankfurt \r\n\nCasablanca\n",
      locationNamesFr: "Frankfurt = Francfort\n",
      locationNamesAr: " Frankfurt = فرانكفورت \r\nCasablanca=الدار البيضاء",
    },
    approval: { intent: "approval", approvalHours: " 36 " },
    // Arabic-Indic digits read as 0 to 9, as every whole number of the page.
    selfService: {
      intent: "selfService",
      autoRefundMaxCoins: "0",
      ticketFileRetentionDays: " 90 ",
      dataExportsPerDay: "٥",
    },
  };

  const expected: { [F in keyof typeof valid]: (s: Settings) => unknown } = {
    general: (s) =>
      expect(s.general).toMatchObject({
        siteName: "Atlas Hosting",
        siteDescription: "Servers for Casablanca gamers",
        contactEmail: "help@atlas.example",
        paymentsEmail: "pay@atlas.example",
        defaultLocale: "fr",
        entryGate: false,
      }),
    links: (s) =>
      expect(s.links).toMatchObject({
        discord: "https://discord.gg/atlas",
        whatsapp: "",
        github: "",
      }),
    maintenance: (s) =>
      expect(s.general).toMatchObject({
        maintenanceMode: true,
        maintenanceMessage: "Back at 18:00",
      }),
    theme: (s) =>
      expect(s.theme).toEqual({
        primaryColor: "#16a34a",
        secondaryColor: "#1e1b4b",
        accentColor: "#f97316",
      }),
    features: (s) =>
      expect(s.features).toEqual({
        registration: true,
        coinPurchase: false,
        livechat: true,
        tickets: false,
      }),
    seo: (s) =>
      expect(s.seo).toEqual({
        title: "Atlas: SA-MP hosting",
        description: "Cheap servers",
        keywords: "samp",
      }),
    privacy: (s) =>
      expect(s.privacy).toEqual({
        en: "## Our policy\nWe keep little. Write to {{contactEmail}}.",
        fr: "",
        ar: "## سياستنا\n- القليل فقط",
      }),
    locations: (s) =>
      expect(s.general).toMatchObject({
        locations: ["Frankfurt", "Casablanca"],
        locationNamesFr: { Frankfurt: "Francfort" },
        locationNamesAr: { Frankfurt: "فرانكفورت", Casablanca: "الدار البيضاء" },
      }),
    approval: (s) => expect(s.general.approvalHours).toBe(36),
    selfService: (s) =>
      expect(s.selfService).toEqual({
        autoRefundMaxCoins: 0,
        ticketFileRetentionDays: 90,
        dataExportsPerDay: 5,
      }),
  };

  for (const form of Object.keys(valid)) {
    it(`saves the ${form} form, audits it in the same write, and the next request sees it`, async () => {
      const before = await auditRows();
      const result = await save(valid[form]!);
      expect(result).toEqual({ ok: true, form, message: "admin-settings.saved" });
      expected[form]!(await stored());
      // The cache was emptied: a new request's context has the change.
      expected[form]!(requestContext(await contextFor(app())).settings);

      const rows = await auditRows();
      expect(rows).toHaveLength(before.length + 1);
      const row = rows.at(-1)!;
      expect(row).toMatchObject({ target_type: "settings", target_id: form });
      expect(row.actor_id).toBeTruthy();
      const after = JSON.parse(row.after ?? "{}") as Record<string, unknown>;
      const was = JSON.parse(row.before ?? "{}") as Record<string, unknown>;
      expect(Object.keys(after).length).toBeGreaterThan(0);
      expect(Object.keys(was).sort()).toEqual(Object.keys(after).sort());

      // The same values again: nothing to save, nothing recorded.
      expect(await save(valid[form]!)).toEqual({
        ok: true,
        form,
        message: "admin-settings.unchanged",
      });
      expect(await auditRows()).toHaveLength(before.length + 1);
    });
  }

  const invalid: [string, Record<string, string>, Record<string, string>][] = [
    [
      "general",
      { ...valid.general!, siteName: " ", contactEmail: "nope", defaultLocale: "de" },
      {
        siteName: "admin-settings.errors.siteNameRequired",
        contactEmail: "admin-settings.errors.emailInvalid",
        defaultLocale: "admin-settings.errors.localeInvalid",
      },
    ],
    [
      "links",
      { ...valid.links!, discord: "javascript:alert(1)", gamePanel: "panel" },
      {
        discord: "admin-settings.errors.urlInvalid",
        gamePanel: "admin-settings.errors.urlInvalid",
      },
    ],
    [
      "maintenance",
      { intent: "maintenance", maintenanceMode: "on", maintenanceMessage: "x".repeat(501) },
      { maintenanceMessage: "admin-settings.errors.tooLong" },
    ],
    [
      "theme",
      { intent: "theme", primaryColor: "green", secondaryColor: "#ffffff", accentColor: "#f97316" },
      {
        primaryColor: "admin-settings.errors.colourInvalid",
        secondaryColor: "admin-settings.errors.secondaryTooLight",
      },
    ],
    [
      "seo",
      { intent: "seo", title: "t".repeat(121), description: "ok", keywords: "k".repeat(301) },
      { title: "admin-settings.errors.tooLong", keywords: "admin-settings.errors.tooLong" },
    ],
    [
      "privacy",
      { intent: "privacy", en: "  ", fr: "Notre politique", ar: "" },
      { en: "admin-settings.errors.privacyEnglishRequired" },
    ],
    [
      "privacy",
      { intent: "privacy", en: "x".repeat(20_001), fr: "", ar: "" },
      { en: "admin-settings.errors.tooLong" },
    ],
    [
      "locations",
      { intent: "locations", locations: " \n \r\n" },
      { locations: "admin-settings.errors.locationsRequired" },
    ],
    [
      "locations",
      { intent: "locations", locations: "Frankfurt\nfrankfurt " },
      { locations: "admin-settings.errors.locationTwice" },
    ],
    [
      "locations",
      { intent: "locations", locations: `Frankfurt\n${"x".repeat(61)}` },
      { locations: "admin-settings.errors.locationTooLong" },
    ],
    [
      "locations",
      {
        intent: "locations",
        locations: Array.from({ length: 21 }, (_, i) => `City ${i}`).join("\n"),
      },
      { locations: "admin-settings.errors.tooManyLocations" },
    ],
    [
      "locations",
      { intent: "locations", locations: "Frankfurt", locationNamesFr: "Frankfurt Francfort" },
      { locationNamesFr: "admin-settings.errors.locationNamesInvalid" },
    ],
    [
      "locations",
      { intent: "locations", locations: "Frankfurt", locationNamesAr: "Berlin = برلين" },
      { locationNamesAr: "admin-settings.errors.locationNameUnknown" },
    ],
    ...["0", "721", "12.5", "abc", ""].map(
      (hours): [string, Record<string, string>, Record<string, string>] => [
        "approval",
        { intent: "approval", approvalHours: hours },
        { approvalHours: "admin-settings.errors.approvalHoursInvalid" },
      ],
    ),
    [
      "selfService",
      {
        intent: "selfService",
        autoRefundMaxCoins: "1001",
        ticketFileRetentionDays: "0",
        dataExportsPerDay: "2.5",
      },
      {
        autoRefundMaxCoins: "admin-settings.errors.autoRefundInvalid",
        ticketFileRetentionDays: "admin-settings.errors.fileRetentionInvalid",
        dataExportsPerDay: "admin-settings.errors.exportsPerDayInvalid",
      },
    ],
    [
      "selfService",
      {
        intent: "selfService",
        autoRefundMaxCoins: "-1",
        ticketFileRetentionDays: "180",
        dataExportsPerDay: "3",
      },
      { autoRefundMaxCoins: "admin-settings.errors.autoRefundInvalid" },
    ],
  ];

  for (const [form, fields, fieldErrors] of invalid) {
    it(`refuses a bad ${form} form with 400, keeps what was typed and saves nothing`, async () => {
      const settingsBefore = await app()
        .db.selectFrom("settings")
        .selectAll()
        .orderBy("key")
        .execute();
      const auditBefore = await auditRows();
      const result = (await save(fields)) as Result;
      expect(result.init?.status).toBe(400);
      expect(result.data).toMatchObject({
        ok: false,
        form,
        message: "admin-settings.saveFailed",
        fieldErrors,
      });
      expect(result.data.values).toEqual(fields);
      expect(await app().db.selectFrom("settings").selectAll().orderBy("key").execute()).toEqual(
        settingsBefore,
      );
      expect(await auditRows()).toEqual(auditBefore);
    });
  }

  it("shows the privacy text: built in per language, then the admin's, French falling back to English", async () => {
    type Page = {
      blocks: { kind: string; text?: string; items?: string[] }[];
      lang: string;
      locale: string;
      meta: { title: string };
    };
    const page = async (acceptLanguage: string) =>
      (await privacyPage.loader(
        routeArgs({
          request: new Request("http://localhost/privacy"),
          context: await contextFor(app(), { acceptLanguage }),
          params: {},
        }),
      )) as Page;
    const texts = (p: Page) => p.blocks.flatMap((b) => (b.text ? [b.text] : (b.items ?? [])));
    // Built in: each language its own, the contact address filled in.
    const en = await page("en");
    expect(en).toMatchObject({ lang: "en", locale: "en", meta: { title: "Privacy policy" } });
    expect(en.blocks[0]).toEqual({
      kind: "paragraph",
      text: expect.stringContaining("support@hostfront.example") as string,
    });
    expect(en.blocks.filter((b) => b.kind === "heading")).toHaveLength(3);
    expect(texts(en).join(" ")).not.toContain("{{");
    const fr = await page("fr");
    expect(fr).toMatchObject({ lang: "fr", meta: { title: "Politique de confidentialité" } });
    expect(fr.blocks[1]).toEqual({ kind: "heading", text: "Ce que nous collectons et pourquoi" });
    const ar = await page("ar");
    expect(ar).toMatchObject({ lang: "ar", meta: { title: "سياسة الخصوصية" } });
    expect(ar.blocks[1]).toEqual({ kind: "heading", text: "ما نجمعه ولماذا" });

    // The admin's text: English and Arabic written, French empty falls back to English.
    await save(valid.privacy!);
    const customEn = await page("en");
    expect(customEn.blocks).toEqual([
      { kind: "heading", text: "Our policy" },
      { kind: "paragraph", text: "We keep little. Write to support@hostfront.example." },
    ]);
    expect(await page("fr")).toMatchObject({ lang: "en", locale: "fr", blocks: customEn.blocks });
    expect(await page("ar")).toMatchObject({
      lang: "ar",
      blocks: [
        { kind: "heading", text: "سياستنا" },
        { kind: "list", items: ["القليل فقط"] },
      ],
    });
    // All three emptied: the built-in text again.
    await save({ intent: "privacy", en: "", fr: "", ar: "" });
    expect((await page("fr")).blocks).toEqual(fr.blocks);
  });

  it("refuses an unknown form", async () => {
    const result = (await save({ intent: "colours", primaryColor: "#000000" })) as Result;
    expect(result.init?.status).toBe(400);
    expect(result.data).toMatchObject({
      ok: false,
      form: null,
      message: "admin-settings.errors.unknownForm",
    });
  });

  it("keeps the locations' names when a post of the form (from a page before them) leaves them out", async () => {
    await save(valid.locations!);
    expect(await save({ intent: "locations", locations: "Frankfurt\nCasablanca\nRabat" })).toEqual({
      ok: true,
      form: "locations",
      message: "admin-settings.saved",
    });
    expect((await stored()).general).toMatchObject({
      locations: ["Frankfurt", "Casablanca", "Rabat"],
      locationNamesFr: { Frankfurt: "Francfort" },
      locationNamesAr: { Frankfurt: "فرانكفورت", Casablanca: "الدار البيضاء" },
    });
  });

  it("keeps the general and maintenance forms, which share a row, from undoing each other", async () => {
    await save(valid.general!);
    await save(valid.maintenance!);
    const { general } = await stored();
    expect(general).toMatchObject({ siteName: "Atlas Hosting", maintenanceMode: true });
    await save({ ...valid.general!, siteName: "Atlas 2" });
    expect((await stored()).general).toMatchObject({ siteName: "Atlas 2", maintenanceMode: true });
  });

  it("shows the page to admins only, with the stored settings", async () => {
    await save(valid.theme!);
    const page = (await run(
      adminSettings as Module,
      "loader",
      "/admin/settings",
      await admin(),
    )) as {
      settings: Settings;
      entryGateServerOn: boolean;
    };
    expect(page.settings.theme.primaryColor).toBe("#16a34a");
    const { cookie } = await customer();
    const refused = await run(adminSettings as Module, "loader", "/admin/settings", cookie);
    expect(refused).toBeInstanceOf(Response);
    expect((refused as Response).headers.get("location")).toBe("/");
  });

  it("registration off: the register page says so and its action refuses", async () => {
    await save({ intent: "features", coinPurchase: "on", livechat: "on", tickets: "on" });
    const page = (await run(register as Module, "loader", "/register")) as {
      registrationOpen: boolean;
    };
    expect(page.registrationOpen).toBe(false);
    const email = `closed${Date.now()}@example.com`;
    const refused = (await run(register as Module, "action", "/register", undefined, {
      name: "Late",
      email,
      password: "Late-comer-4411",
      confirmPassword: "Late-comer-4411",
    })) as Result;
    expect(refused.init?.status).toBe(403);
    expect(refused.data.formError).toBe("auth.errors.registrationClosed");
    const created = await app()
      .db.selectFrom("users")
      .select("id")
      .where("email", "=", email)
      .execute();
    expect(created).toEqual([]);
  });

  it("keeps the shop's country: registration's country select starts on it, and a form without it uses it", async () => {
    const page = async (lang = "en") => (await appFetch(app())(`/register?lang=${lang}`)).text();
    const chosen = (html: string) => {
      const select = /<select[^>]*name="country"[^>]*>([\s\S]*?)<\/select>/.exec(html)?.[1] ?? "";
      return {
        options: select.match(/<option /g)?.length ?? 0,
        selected: /<option[^>]*value="([A-Z]{2})"[^>]*selected=""/.exec(select)?.[1],
      };
    };
    // The shop's country by default: Morocco, among the 249 countries, named in the reader's language.
    const english = await page();
    expect(chosen(english)).toEqual({ options: 249, selected: "MA" });
    expect(english).toContain(">Morocco</option>");
    expect(english).toContain("Your invoices carry the VAT of this country.");
    expect(await page("fr")).toContain(">Maroc</option>");

    const invoicing = {
      intent: "invoicing",
      sellerName: "Hostfront",
      vatEnabled: "on",
      vatRates: "MA 20\nFR 20",
      pricesIncludeVat: "on",
      retentionYears: "10",
    };
    const refused = (await save({ ...invoicing, shopCountry: "XX" })) as Result;
    expect(refused.init?.status).toBe(400);
    expect(refused.data.fieldErrors).toEqual({
      shopCountry: "admin-settings.errors.shopCountryInvalid",
    });
    expect(await save({ ...invoicing, shopCountry: " fr" })).toMatchObject({ ok: true });
    expect((await stored()).invoicing.shopCountry).toBe("FR");
    expect(chosen(await page()).selected).toBe("FR");
    // A post of the form from before the field leaves the country as it is.
    await save({ ...invoicing, vatRates: "MA 20\nFR 5.5" });
    expect((await stored()).invoicing).toMatchObject({
      shopCountry: "FR",
      vatRates: { MA: 2000, FR: 550 },
    });

    const countryOf = async (email: string) =>
      (
        await app()
          .db.selectFrom("users")
          .select("billing_country")
          .where("email", "=", email)
          .executeTakeFirstOrThrow()
      ).billing_country;
    const registered = async (fields: Record<string, string>) => {
      const email = `country${Date.now()}${Math.random().toString(36).slice(2)}@example.com`;
      const answer = await run(register as Module, "action", "/register", undefined, {
        name: "Nadia",
        email,
        password: "Nadia-pw-5521",
        confirmPassword: "Nadia-pw-5521",
        ...fields,
      });
      return { email, answer: answer as Result | Response };
    };
    // Chosen on the form; sent without one (a form from before the field), the shop's.
    const chose = await registered({ country: "ma" });
    expect(await countryOf(chose.email)).toBe("MA");
    const none = await registered({});
    expect(await countryOf(none.email)).toBe("FR");
    // A code that is no country is refused on its field, the rest kept; no account is made.
    const bad = await registered({ country: "ZZ" });
    expect((bad.answer as Result).init?.status).toBe(400);
    expect((bad.answer as Result).data).toMatchObject({
      fieldErrors: { country: "auth.errors.countryInvalid" },
      values: { name: "Nadia", country: "ZZ" },
    });
    expect(
      await app().db.selectFrom("users").select("id").where("email", "=", bad.email).execute(),
    ).toEqual([]);
  });

  it("says on the invoicing settings how many customers have no billing country", async () => {
    const cookie = await admin();
    const count = async () =>
      (
        (await run(adminSettings as Module, "loader", "/admin/settings", cookie)) as {
          customersWithoutCountry: number;
        }
      ).customersWithoutCountry;
    const before = await count();
    // A customer made without a country (as before registration asked), another with one.
    const without = await customerWithCoins(app(), 0);
    const withCountry = await customerWithCoins(app(), 0);
    await saveBillingDetails(app().db, {
      userId: withCountry,
      billingName: "",
      billingAddress: "",
      billingCountry: "MA",
    });
    expect(await count()).toBe(before + 1);
    const html = await (await appFetch(app())("/admin/settings", { cookie })).text();
    const line = /data-testid="customers-without-country">([^<]*)</.exec(html)?.[1];
    expect(line).toBe(
      before + 1 === 1
        ? "1 customer has no billing country, so no VAT applies to their invoices. They can set it on their account tab."
        : `${before + 1} customers have no billing country, so no VAT applies to their invoices. They can set it on their account tab.`,
    );
    // Once they choose one, and for admins (who are not customers), nothing is counted.
    await saveBillingDetails(app().db, {
      userId: without,
      billingName: "",
      billingAddress: "",
      billingCountry: "FR",
    });
    expect(await count()).toBe(before);
    await app()
      .db.updateTable("users")
      .set({ billing_country: null })
      .where("email", "=", TEST_ADMIN.email)
      .execute();
    expect(await count()).toBe(before);
    // Set every customer's country: the line says none is missing.
    await app()
      .db.updateTable("users")
      .set({ billing_country: "MA" })
      .where("role", "=", "user")
      .execute();
    const all = await (await appFetch(app())("/admin/settings?lang=fr", { cookie })).text();
    expect(all).toContain("Chaque client a un pays de facturation.");
  });

  it("tickets off: no new ticket (403, nothing stored), but replies on an open one still work", async () => {
    const { id, cookie } = await customer();
    const opened = await openTicket(app().db, {
      userId: id,
      department: "technical",
      subject: "Lag",
      priority: "medium",
      message: "My server lags",
    });
    if (!opened.ok) throw new Error(opened.error);
    await save({ intent: "features", registration: "on", coinPurchase: "on", livechat: "on" });

    const page = (await run(supportNew as Module, "loader", "/support/new", cookie)) as {
      ticketsOpen: boolean;
    };
    expect(page.ticketsOpen).toBe(false);
    const count = async () =>
      (await app().db.selectFrom("tickets").select("id").where("user_id", "=", id).execute())
        .length;
    const refused = (await run(supportNew as Module, "action", "/support/new", cookie, {
      department: "billing",
      subject: "Coins",
      priority: "low",
      message: "Please",
      idempotencyKey: "tickets-off-new-ticket-key",
    })) as Result;
    expect(refused.init?.status).toBe(403);
    expect(refused.data.formError).toBe("tickets.errors.newTicketsClosed");
    expect(await count()).toBe(1);

    const reply = await settle(async () =>
      supportTicket.action(
        routeArgs({
          request: formRequest(
            `/support/${opened.ticket.id}`,
            { intent: "reply", message: "Still lags", idempotencyKey: "tickets-off-reply-key" },
            cookie,
          ),
          context: await contextFor(app(), { cookie }),
          params: { id: String(opened.ticket.id) },
        }),
      ),
    );
    // A reply sent goes back to the thread (with a toast), as a redirect.
    expect((reply as Response).status).toBe(302);
    expect((reply as Response).headers.get("Location")).toBe(`/support/${opened.ticket.id}`);
    const messages = await app()
      .db.selectFrom("ticket_messages")
      .select("body")
      .where("ticket_id", "=", opened.ticket.id)
      .execute();
    expect(messages.map((m) => m.body)).toContain("Still lags");
  });

  it("coin purchase and live chat off change what the root loader and the contact page tell the page", async () => {
    const rootData = async () =>
      ((await run(root as Module, "loader", "/")) as { data: { settings: Settings } }).data
        .settings;
    expect((await rootData()).features.coinPurchase).toBe(true);
    await save({ intent: "features", registration: "on", tickets: "on" });
    const settings = await rootData();
    expect(settings.features).toMatchObject({ coinPurchase: false, livechat: false });

    const page = (await run(contact as Module, "loader", "/contact")) as {
      contact: { email: string; whatsapp: string | null; community: string | null };
    };
    expect(page.contact).toEqual({
      email: defaultSettings().general.contactEmail,
      whatsapp: null,
      community: null,
    });
  });

  it("runs the entry gate only when both the server and the setting allow it", async () => {
    const gate = async (env: "on" | "off") => {
      const services = { ...app(), env: { ...app().env, ENTRY_GATE: env } };
      const context = await contextFor(services);
      const result = (await home.loader(
        routeArgs({
          request: new Request("http://localhost/"),
          context,
          params: {},
        }),
      )) as { gate: boolean };
      return result.gate;
    };
    expect(await gate("on")).toBe(true);
    expect(await gate("off")).toBe(false);
    await save({ ...valid.general!, siteName: "Atlas" }); // entryGate unticked
    expect(await gate("on")).toBe(false);
    expect(await gate("off")).toBe(false);
  });

  it("puts the SEO settings in the home page's meta and the root's fallbacks", async () => {
    const homeMeta = async () =>
      (
        (await home.loader(
          routeArgs({
            request: new Request("http://localhost/"),
            context: await contextFor(app()),
            params: {},
          }),
        )) as { meta: { fullTitle?: string; description: string } }
      ).meta;
    const rootSeo = async () =>
      (
        (await run(root as Module, "loader", "/")) as {
          data: { seo: { description: string; keywords: string } };
        }
      ).data.seo;
    // Empty settings: the built-in, translated texts.
    expect(await homeMeta()).toMatchObject({ fullTitle: undefined });
    expect((await rootSeo()).description).toMatch(/^Game server hosting for SA-MP/);
    // Then the site description, then the SEO description.
    await save(valid.general!);
    expect((await rootSeo()).description).toBe("Servers for Casablanca gamers");
    await save(valid.seo!);
    expect(await homeMeta()).toMatchObject({
      fullTitle: "Atlas: SA-MP hosting",
      description: "Cheap servers",
    });
    expect(await rootSeo()).toEqual({ description: "Cheap servers", keywords: "samp" });
  });
});
