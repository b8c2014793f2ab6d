import { sql } from "kysely";
import { afterAll, beforeAll, expect, it } from "vitest";
import { listActiveProducts } from "~/domain/catalogue/catalogue.server";
import { setProductStatus, updateProduct } from "~/domain/catalogue/catalogue-admin.server";
import { runPanelCheck, savePanelConnection } from "~/domain/provisioning/panel-connection.server";
import { saveSettingsForm } from "~/domain/settings/settings-form.server";
import { registeredCustomer, signedInCookie } from "../support/account-fixtures";
import { appFetch } from "../support/app-harness";
import { productForm } from "../support/catalogue-fixtures";
import { startFakePanel, type FakePanel } from "../support/fake-pterodactyl";
import { adminId, customerWithCoins } from "../support/money-fixtures";
import { allowLocalPanel } from "../support/panel-snapshot";
import { describeEachDatabase, TEST_ADMIN } from "../support/test-database";
import { openTopUp } from "../support/top-up-fixtures";

// /admin as the server renders it: the setup checklist of a new shop, each item linking to where it is
// done, in English and in Arabic, the top-ups waiting among the counts, and no checklist once the shop
// is set up.
describeEachDatabase("/admin", (app) => {
  let cookie: string;
  let panel: FakePanel;
  beforeAll(async () => {
    cookie = await signedInCookie(app(), TEST_ADMIN, { ip: "10.63.0.1" });
    panel = await startFakePanel();
  });
  afterAll(async () => {
    await panel.close();
  });

  /** The page's HTML, from a server with SMTP_URL set or not. */
  const page = async (path = "/admin", { mailEnabled = false } = {}) => {
    const response = await appFetch({ ...app(), mailEnabled })(path, { cookie });
    expect(response.status).toBe(200);
    return response.text();
  };
  /** The notice that Owner or Billing go without two-factor, to its link's end (empty when none). */
  const noticeOf = (html: string) => {
    const start = html.indexOf('data-testid="two-factor-rule"');
    return start < 0 ? "" : html.slice(start, html.indexOf("</a>", start) + 4);
  };
  /** Saves the roles that must use two-factor, the caps as they are. */
  const requireOf = async (twoFactorRoles: ("owner" | "billing" | "support" | "technician")[]) =>
    saveSettingsForm(app(), {
      intent: "security",
      ...(await app().settings.get()).security,
      twoFactorRoles,
      actorId: await adminId(app()),
    });
  /** The checklist's part of the page (empty when there is none). */
  const checklistOf = (html: string) => {
    const start = html.indexOf('data-testid="setup-checklist"');
    return start < 0 ? "" : html.slice(start, html.indexOf("</ul>", start));
  };

  it("shows a new shop what to set up, each item with a link to where it is done", async () => {
    const checklist = checklistOf(await page());
    expect(checklist).toContain("Set up your shop");
    expect(checklist).toContain("0 of 6 done");
    for (const [title, href, action] of [
      ["Company details for invoices", "/admin/settings#invoicing", "Fill in company details"],
      ["A payment method", "/admin/gateways", "Open payment methods"],
      ["Outgoing mail", "/admin/mail", "See the outbox"],
      ["The game panel", "/admin/settings/game-panel", "Connect the game panel"],
      ["Two-factor sign-in for staff", "/admin/settings#security", "Open sign-in security"],
      ["Your products&#x27; prices", "/admin/products", "Review products"],
    ]) {
      expect(checklist).toContain(title);
      expect(checklist).toContain(`href="${href}"`);
      expect(checklist).toContain(`${action}</a>`);
    }
    expect(checklist.match(/data-done="false"/g)).toHaveLength(6);
    expect(checklist).toContain("Set SMTP_URL to send them.");
    expect(checklist).toContain("12 sample plans are still at their sample price.");
    expect(checklist).toContain("Two-factor sign-in is not required of Owner or Billing.");
  });

  it("is right to left and translated in Arabic", async () => {
    const html = await page("/admin?lang=ar");
    expect(html).toContain('dir="rtl"');
    const checklist = checklistOf(html);
    expect(checklist).toContain("جهّز متجرك");
    expect(checklist).toContain("بيانات الشركة للفواتير");
    expect(checklist).toContain("ربط لوحة الألعاب");
    expect(checklist).not.toContain("Set up your shop");
  });

  it("counts the top-ups waiting for a decision, linking to them", async () => {
    await openTopUp(app(), await customerWithCoins(app(), 0), 10, { paid: true });
    const html = await page();
    const card = html.slice(html.indexOf('href="/admin/top-ups?state=proof_sent"'));
    expect(card).toMatch(
      /^href="\/admin\/top-ups\?state=proof_sent"[^]*?Top-ups to check<\/p><p[^>]*>1<\/p>/,
    );
    // The top-up's payment method ticks its item.
    const checklist = checklistOf(html);
    expect(checklist).toContain("1 of 6 done");
    expect(checklist).toContain('data-testid="setup-payments" data-done="true"');
  });

  it("tells a shop that lets Owner or Billing in without two-factor, with a link to the setting, in each language", async () => {
    // The suite starts as an install from before roles whose switch was off: no role required.
    const english = noticeOf(await page());
    expect(english).toContain("Require two-factor sign-in of Owner and Billing");
    expect(english).toContain("Owners and Billing members move money and change secrets");
    expect(english).toContain(
      'href="/admin/settings#security" class="font-medium underline">Choose the roles in the sign-in security settings</a>',
    );
    const french = noticeOf(await page("/admin?lang=fr"));
    expect(french).toContain(
      "Exigez la connexion en deux étapes des rôles Propriétaire et Facturation",
    );
    expect(french).toContain("Choisir les rôles dans les paramètres de sécurité de la connexion");
    const arabic = noticeOf(await page("/admin?lang=ar"));
    expect(arabic).toContain("ألزِم دورَي المالك والفوترة بتسجيل الدخول بخطوتين");
    expect(arabic).toContain("اختيار الأدوار في إعدادات أمان تسجيل الدخول");

    // A Billing member cannot change the setting: their dashboard does not tell them.
    const email = "dashboard-billing@example.com";
    const password = "Billing-dashboard-pw-41";
    const billingId = await registeredCustomer(app(), { name: "Billing", email, password });
    await app()
      .db.updateTable("users")
      .set({ role: "admin", staff_role: "billing" })
      .where("id", "=", billingId)
      .execute();
    const billingCookie = await signedInCookie(app(), { email, password }, { ip: "10.63.0.2" });
    const billingPage = await appFetch(app())("/admin", { cookie: billingCookie });
    expect(billingPage.status).toBe(200);
    const billingHtml = await billingPage.text();
    expect(billingHtml).toContain("Top-ups to check");
    expect(noticeOf(billingHtml)).toBe("");
    // Nor the audit trail (logs.view) or the setup list (settings.manage), which the owner's shows.
    const ownerHtml = await page();
    for (const card of ["Recent activity", "Two-factor sign-in for staff"]) {
      expect(ownerHtml).toContain(card);
      expect(billingHtml).not.toContain(card);
    }

    // One of the two missing: the notice says which.
    await requireOf(["billing", "support"]);
    expect(noticeOf(await page())).toContain("Owners can do everything in the admin panel");
    await app()
      .db.updateTable("users")
      .set({ two_factor_enabled: sql<boolean>`true` })
      .where("email", "=", TEST_ADMIN.email)
      .execute();
    await requireOf(["owner", "technician"]);
    expect(noticeOf(await page())).toContain("Billing members approve top-ups");
    // Both required: no notice.
    await requireOf(["owner", "billing"]);
    const html = await page();
    expect(html).toContain("Top-ups to check");
    expect(noticeOf(html)).toBe("");

    // Back as the suite began: the Billing member a customer again, no role required.
    await app()
      .db.updateTable("users")
      .set({ role: "user", staff_role: null })
      .where("id", "=", billingId)
      .execute();
    await requireOf([]);
    await app()
      .db.updateTable("users")
      .set({ two_factor_enabled: sql<boolean>`false` })
      .where("email", "=", TEST_ADMIN.email)
      .execute();
  });

  it("has no checklist once everything is set up", async () => {
    const actorId = await adminId(app());
    const { invoicing } = await app().settings.get();
    await saveSettingsForm(app(), {
      intent: "invoicing",
      ...invoicing,
      sellerAddress: "12 Rue Allal Ben Abdallah, Casablanca",
      sellerTaxId: "001234567000089",
      actorId,
    });
    await allowLocalPanel(app());
    const secret = { secret: app().env.AUTH_SECRET };
    await savePanelConnection(
      app().db,
      { url: panel.url, apiKey: panel.apiKey, locationMap: {}, actorId },
      secret,
    );
    await runPanelCheck(app().db, secret, new Date());
    await app()
      .db.updateTable("users")
      .set({ two_factor_enabled: sql<boolean>`true` })
      .where("id", "=", actorId)
      .execute();
    await requireOf(["owner", "billing"]);
    const [kept, ...others] = await listActiveProducts(app().db);
    await updateProduct(app().db, {
      actorId,
      id: kept!.id,
      product: productForm({ name: kept!.name, slug: kept!.slug, type: kept!.type, price: "7.50" }),
    });
    for (const other of others)
      await setProductStatus(app().db, { actorId, id: other.id, status: "hidden" });

    // Mail is the one item left on a server without SMTP_URL.
    const almost = checklistOf(await page());
    expect(almost).toContain("5 of 6 done");
    expect(almost.match(/data-done="false"/g)).toHaveLength(1);
    expect(almost).toContain('data-testid="setup-mail" data-done="false"');

    const html = await page("/admin", { mailEnabled: true });
    expect(html).toContain("Top-ups to check");
    expect(checklistOf(html)).toBe("");
    expect(html).not.toContain("Set up your shop");
    expect(noticeOf(html)).toBe("");
  });
});
