import { afterEach, beforeAll, expect, it } from "vitest";
import { deleteService } from "~/domain/hosting-services/admin-changes.server";
import { approveOrder } from "~/domain/orders/orders.server";
import { defaultSettings } from "~/domain/settings/settings";
import { getSettings, updateSettingsSection } from "~/domain/settings/settings.server";
import { appFetch, type AppFetch } from "../support/app-harness";
import { readPdf } from "../support/pdf-text";
import { signedInCookie } from "../support/account-fixtures";
import {
  adminId,
  approvedOrder,
  customerWithCoins,
  expectLedgerIntactAfterEach,
  placedOrder,
  productId,
} from "../support/money-fixtures";
import { describeEachDatabase, TEST_ADMIN } from "../support/test-database";

/**
 * The invoices as people reach them through the app: the account tab's billing details, the
 * billing tab's list, a document's page in each language, /admin/invoices and the refund on a
 * document's page, and the invoicing part of /admin/settings.
 */
describeEachDatabase("invoice pages", (app) => {
  expectLedgerIntactAfterEach(app);
  let fetchApp: AppFetch;
  let adminCookie: string;
  beforeAll(async () => {
    fetchApp = appFetch(app());
    adminCookie = await signedInCookie(app(), TEST_ADMIN, { ip: "10.61.0.1" });
  });
  afterEach(async () => {
    await updateSettingsSection(app().db, "invoicing", defaultSettings().invoicing);
    app().settings.invalidate();
  });

  /** A fresh customer with 1000 coins, signed in: their id, email and cookie. */
  async function customer() {
    const id = await customerWithCoins(app(), 100_000);
    const { email } = await app()
      .db.selectFrom("users")
      .select("email")
      .where("id", "=", id)
      .executeTakeFirstOrThrow();
    const cookie = await signedInCookie(
      app(),
      { email, password: "Buyer-pw-8842" },
      { ip: "10.61.0.2" },
    );
    return { id, email, cookie };
  }

  const billing = (cookie: string, fields: Record<string, string>) =>
    fetchApp("/dashboard/account", {
      cookie,
      form: { intent: "billing-details", ...fields },
    });

  async function invoiceOf(orderId: number) {
    return app()
      .db.selectFrom("invoices")
      .select(["number", "total_cents"])
      .where("order_id", "=", orderId)
      .where("kind", "=", "invoice")
      .executeTakeFirstOrThrow();
  }

  it("saves the billing details of the account tab, refusing what is not valid", async () => {
    const { id, cookie } = await customer();
    const page = await fetchApp("/dashboard/account", { cookie });
    expect(await page.text()).toContain("Billing details");
    for (const [fields, text] of [
      [{ billingCountry: "XX" }, "Choose a country from the list."],
      [{ billingName: "n".repeat(101) }, "The name can be at most 100 characters."],
      [{ billingAddress: "a".repeat(301) }, "The address can be at most 300 characters."],
    ] as const) {
      const refused = await billing(cookie, fields);
      expect(refused.status, JSON.stringify(fields)).toBe(400);
      expect(await refused.text()).toContain(text);
    }
    const saved = await billing(cookie, {
      billingName: " Atlas SARL ",
      billingAddress: "12 rue des Oudayas\nRabat",
      billingCountry: "ma",
    });
    expect(saved.status).toBe(200);
    expect(await saved.text()).toContain("Billing details saved.");
    const row = await app()
      .db.selectFrom("users")
      .select(["billing_name", "billing_address", "billing_country"])
      .where("id", "=", id)
      .executeTakeFirstOrThrow();
    expect(row).toEqual({
      billing_name: "Atlas SARL",
      billing_address: "12 rue des Oudayas\nRabat",
      billing_country: "MA",
    });
    // Emptied again, nothing is kept.
    await billing(cookie, { billingName: "", billingAddress: "", billingCountry: "" });
    expect(
      await app()
        .db.selectFrom("users")
        .select(["billing_name", "billing_country"])
        .where("id", "=", id)
        .executeTakeFirstOrThrow(),
    ).toEqual({ billing_name: null, billing_country: null });
  });

  it("lists a customer's invoice in the billing tab and opens it in their language", async () => {
    const { id, cookie } = await customer();
    await billing(cookie, {
      billingName: "Atlas SARL",
      billingAddress: "Rabat",
      billingCountry: "MA",
    });
    const order = await placedOrder(app(), id, { productId: await productId(app(), "mta-pro") });
    const { number } = await invoiceOf(order.id);
    const tab = await (await fetchApp("/dashboard/billing", { cookie })).text();
    expect(tab).toContain("Invoices and receipts");
    expect(tab).toContain(`href="/invoices/${number}"`);

    const english = await fetchApp(`/invoices/${number}`, { cookie });
    expect(english.status).toBe(200);
    const page = await english.text();
    for (const text of ["Invoice", number, "Atlas SARL", "Morocco", "VAT 20%", "Paid"])
      expect(page, text).toContain(text);
    expect(page).toContain(`Order #${order.id}: MTA Pro (monthly), server Test server`);

    const french = await (await fetchApp(`/invoices/${number}?lang=fr`, { cookie })).text();
    for (const text of [
      "Facture",
      "Maroc",
      "TVA 20",
      `Commande n° ${order.id} : MTA Pro (mensuel)`,
    ])
      expect(french, text).toContain(text);
    const arabic = await (await fetchApp(`/invoices/${number}?lang=ar`, { cookie })).text();
    for (const text of ["فاتورة", "المغرب", "مدفوعة"]) expect(arabic, text).toContain(text);

    // A number that is no document, or written as none, is the 404 page.
    for (const path of ["/invoices/HF-1999-000001", "/invoices/not-a-number"])
      expect((await fetchApp(path, { cookie })).status, path).toBe(404);
  });

  it("downloads a document as a PDF in its reader's language, to its owner and admins only", async () => {
    const { id, cookie } = await customer();
    await billing(cookie, {
      billingName: "Atlas SARL",
      billingAddress: "Rabat",
      billingCountry: "MA",
    });
    const order = await placedOrder(app(), id, { productId: await productId(app(), "mta-pro") });
    const { number } = await invoiceOf(order.id);
    const path = `/invoices/${number}/pdf`;

    // The page links to it.
    expect(await (await fetchApp(`/invoices/${number}`, { cookie })).text()).toContain(
      `href="${path}"`,
    );

    const owner = await fetchApp(path, { cookie });
    expect(owner.status).toBe(200);
    expect(Object.fromEntries(owner.headers)).toMatchObject({
      "content-type": "application/pdf",
      "content-disposition": `attachment; filename="${number}.pdf"`,
      "x-content-type-options": "nosniff",
      "cache-control": "private, no-store",
    });
    const bytes = new Uint8Array(await owner.arrayBuffer());
    expect(owner.headers.get("content-length")).toBe(String(bytes.length));
    const english = await readPdf(bytes);
    for (const text of [`Invoice ${number}`, "Atlas SARL", "Morocco", "VAT 20%", "Paid"])
      expect(english.text, text).toContain(text);
    expect(english.text).toContain(`Order #${order.id}: MTA Pro (monthly), server Test`);

    // In the reader's language: the one the request asks for, or the one their account keeps.
    const arabic = await readPdf(
      new Uint8Array(await (await fetchApp(`${path}?lang=ar`, { cookie })).arrayBuffer()),
    );
    for (const text of ["فاتورة", "المغرب", "مدفوعة", number, "Atlas SARL"])
      expect(arabic.text, text).toContain(text);
    await app().db.updateTable("users").set({ locale: "fr" }).where("id", "=", id).execute();
    const french = await readPdf(
      new Uint8Array(await (await fetchApp(path, { cookie })).arrayBuffer()),
    );
    for (const text of [`Facture ${number}`, "Maroc", "TVA 20 %"])
      expect(french.text, text).toContain(text);

    // An admin gets it too, by the number in any case; the file keeps the number as it is written.
    const admin = await fetchApp(`/invoices/${number.toLowerCase()}/pdf`, { cookie: adminCookie });
    expect(admin.status).toBe(200);
    expect(admin.headers.get("content-disposition")).toBe(`attachment; filename="${number}.pdf"`);
    expect((await readPdf(new Uint8Array(await admin.arrayBuffer()))).text).toContain(number);

    // Another customer, a number that is no document or not written as one: 404, and no PDF.
    const stranger = await customer();
    for (const [who, url] of [
      [stranger.cookie, path],
      [cookie, "/invoices/HF-1999-000001/pdf"],
      [cookie, "/invoices/not-a-number/pdf"],
      [cookie, "/invoices/HF-2026-12/pdf"],
    ] as const) {
      const refused = await fetchApp(url, { cookie: who });
      expect(refused.status, url).toBe(404);
      expect(refused.headers.get("content-type"), url).not.toContain("pdf");
      expect(await refused.text(), url).not.toContain(number);
    }
    // Signed out: the sign-in page, and back to the file after.
    const anonymous = await fetchApp(path);
    expect(anonymous.status).toBe(302);
    expect(anonymous.headers.get("location")).toBe(`/login?redirectTo=${encodeURIComponent(path)}`);
  });

  it("lists every document for admins, filtered and searched, each linked to its page", async () => {
    const { id, email } = await customer();
    const order = await placedOrder(app(), id, { productId: await productId(app(), "mta-pro") });
    const { number } = await invoiceOf(order.id);
    const list = async (query: string) =>
      (await fetchApp(`/admin/invoices${query}`, { cookie: adminCookie })).text();
    expect(await list("")).toContain(`href="/invoices/${number}"`);
    expect(await list(`?q=${encodeURIComponent(email)}`)).toContain(number);
    expect(await list(`?q=${number.toLowerCase()}`)).toContain(number);
    const receipts = await list(`?kind=receipt&q=${encodeURIComponent(email)}`);
    expect(receipts).not.toContain(number);
    expect(receipts).toContain("No document matches these filters.");
    // A value that does not parse is ignored.
    expect(await list("?kind=bogus&state=nope&page=x")).toContain(number);
  });

  it("records an admin's refund on the document's page", async () => {
    const { id } = await customer();
    const order = await placedOrder(app(), id, { productId: await productId(app(), "mta-pro") });
    await approveOrder(app().db, { orderId: order.id, actorId: await adminId(app()) });
    const { number } = await invoiceOf(order.id);
    const page = await (await fetchApp(`/invoices/${number}`, { cookie: adminCookie })).text();
    expect(page).toContain("Record a refund");
    // An order's server stays as it is: the form says so and leads to it.
    const { hosting_service_id: serviceId } = await app()
      .db.selectFrom("orders")
      .select("hosting_service_id")
      .where("id", "=", order.id)
      .executeTakeFirstOrThrow();
    expect(page).toContain("The refund leaves the service this order created as it is");
    expect(page).toContain(`href="/admin/services?edit=${serviceId}"`);
    expect(page).not.toContain('name="takeBackTerm"');
    // Deleted since, the form says the refund only returns the money, and links nowhere.
    await deleteService(app().db, { actorId: await adminId(app()), serviceId: serviceId! });
    const gone = await (await fetchApp(`/invoices/${number}`, { cookie: adminCookie })).text();
    expect(gone).toContain(
      "The service this order created no longer exists: the refund only returns the money.",
    );
    expect(gone).not.toContain("/admin/services?edit=");
    const refused = await fetchApp(`/invoices/${number}`, {
      cookie: adminCookie,
      form: { intent: "refund", method: "coins", reason: " " },
    });
    expect(refused.status).toBe(400);
    expect(await refused.text()).toContain("Give the reason for the refund.");
    const refunded = await fetchApp(`/invoices/${number}`, {
      cookie: adminCookie,
      form: { intent: "refund", method: "outside", reason: "Sent back by bank transfer" },
    });
    expect(refunded.status).toBe(200);
    const credit = await app()
      .db.selectFrom("invoices")
      .select("number")
      .where("order_id", "=", order.id)
      .where("kind", "=", "credit_note")
      .executeTakeFirstOrThrow();
    const text = await refunded.text();
    expect(text).toContain(`Refund recorded: credit note ${credit.number}.`);
    // The outcome is marked as the form's: brought into view and focused where the admin pressed it.
    expect(text).toMatch(
      new RegExp(
        `role="status" data-form-result="" tabindex="-1"[^>]*>Refund recorded: credit note ${credit.number}`,
      ),
    );
    expect(text).toContain(`Credited by ${credit.number}`);
    // Once only.
    const again = await fetchApp(`/invoices/${number}`, {
      cookie: adminCookie,
      form: { intent: "refund", method: "coins", reason: "Again" },
    });
    expect(again.status).toBe(409);
    const note = await (
      await fetchApp(`/invoices/${credit.number}`, { cookie: adminCookie })
    ).text();
    for (const text of ["Credit note", `Credit note for ${number}`, "Money sent back outside"])
      expect(note, text).toContain(text);
  });

  it("takes back a refunded renewal's term when the admin leaves the box ticked", async () => {
    const { id, cookie } = await customer();
    const { approved } = await approvedOrder(app(), id, {
      productId: await productId(app(), "mta-pro"),
    });
    const serviceId = approved.hostingServiceId!;
    // It renews automatically: the form offers to switch that off too.
    await app()
      .db.updateTable("hosting_services")
      .set({ auto_renew: 1 })
      .where("id", "=", serviceId)
      .execute();
    const expiry = async () =>
      (
        await app()
          .db.selectFrom("hosting_services")
          .select("expires_at")
          .where("id", "=", serviceId)
          .executeTakeFirstOrThrow()
      ).expires_at;
    const before = await expiry();
    const renewed = await fetchApp("/dashboard/services", {
      cookie,
      form: { intent: "renew", serviceId: String(serviceId), idempotencyKey: crypto.randomUUID() },
    });
    expect(renewed.status).toBeLessThan(400);
    expect(Date.parse(await expiry())).toBeGreaterThan(Date.parse(before));
    const { number } = await app()
      .db.selectFrom("invoices")
      .select("number")
      .where("hosting_service_id", "=", serviceId)
      .where("kind", "=", "invoice")
      .executeTakeFirstOrThrow();
    const page = await (await fetchApp(`/invoices/${number}`, { cookie: adminCookie })).text();
    expect(page).toContain("Take back the time this renewal added");
    const box = (html: string) => /<input id="refund-takeBackTerm"[^>]*>/.exec(html)?.[0];
    expect(box(page)).toContain('checked=""');
    // The customer renewed, far from its expiry: switching the automatic renewal off is offered, unticked.
    const stop = /<input id="refund-stopAutoRenew"[^>]*>/.exec(page)?.[0];
    expect(stop).toContain('name="stopAutoRenew"');
    expect(stop).not.toContain("checked");
    // Refused for its reason, the box stays as the admin left it (unticked).
    const refused = await fetchApp(`/invoices/${number}`, {
      cookie: adminCookie,
      form: { intent: "refund", method: "coins", reason: "" },
    });
    expect(refused.status).toBe(400);
    const unticked = box(await refused.text());
    expect(unticked).toContain('name="takeBackTerm"');
    expect(unticked).not.toContain("checked");
    const refunded = await fetchApp(`/invoices/${number}`, {
      cookie: adminCookie,
      form: {
        intent: "refund",
        method: "coins",
        reason: "Renewed by mistake",
        takeBackTerm: "on",
        stopAutoRenew: "on",
      },
    });
    expect(refunded.status).toBe(200);
    expect(Date.parse(await expiry())).toBe(Date.parse(before));
    expect(await refunded.text()).toMatch(
      /Refund recorded: credit note HFC-\d{4}-\d{6}\. MTA Pro now runs until [^<]+\. Its automatic renewal is off\./,
    );
    expect(
      await app()
        .db.selectFrom("hosting_services")
        .select("auto_renew")
        .where("id", "=", serviceId)
        .executeTakeFirstOrThrow(),
    ).toEqual({ auto_renew: 0 });
  });

  it("saves the invoicing settings from /admin/settings", async () => {
    const save = (fields: Record<string, string>) =>
      fetchApp("/admin/settings", {
        cookie: adminCookie,
        form: {
          intent: "invoicing",
          sellerName: "Hostfront SARL",
          sellerAddress: "Casablanca",
          sellerTaxId: "ICE 001234567000089",
          vatEnabled: "on",
          vatRates: "MA 20\nFR 5.5",
          retentionYears: "10",
          ...fields,
        },
      });
    const refused = await save({ vatRates: "Morocco" });
    expect(refused.status).toBe(400);
    expect(await refused.text()).toContain("Write one country code and its rate a line");
    const saved = await save({});
    expect(saved.status).toBe(200);
    expect((await getSettings(app().db)).invoicing).toEqual({
      sellerName: "Hostfront SARL",
      sellerAddress: "Casablanca",
      sellerTaxId: "ICE 001234567000089",
      vatEnabled: true,
      vatRates: { MA: 2000, FR: 550 },
      pricesIncludeVat: false,
      retentionYears: 10,
      // Not on the form posted: the shop's country as it was.
      shopCountry: "MA",
    });
    const page = await (await fetchApp("/admin/settings", { cookie: adminCookie })).text();
    expect(page).toContain("Invoices and VAT");
    expect(page).toContain("FR 5.5");
    // The storefront says its prices do not include VAT.
    const order = await (await fetchApp("/order", { cookie: adminCookie })).text();
    expect(order).toContain("Prices exclude VAT");
  });
});
