import type { Browser, Page } from "@playwright/test";
import {
  ADMIN_EMAIL,
  ADMIN_PASSWORD,
  SETTINGS_BASE_URL,
  registerOverHttp,
  signInOverHttp,
  visit,
  waitForPage,
  expect,
  test,
} from "./fixtures";

// These switches change the whole site, so this file has a server of its own (E2E_PORT + 2, see
// playwright.config.ts): no other spec runs against it. Its tests share that server, so they run one after
// another and each puts back what it switched in a finally block.
test.use({ baseURL: SETTINGS_BASE_URL });
test.describe.configure({ mode: "serial" });

const DEFAULT_PRIMARY = "#2563eb";

async function newPage(browser: Browser, viewport?: { width: number; height: number }) {
  const context = await browser.newContext({ baseURL: SETTINGS_BASE_URL, viewport });
  return { context, page: await context.newPage() };
}

/** An admin signed in over HTTP (no page loaded): the page is blank, each test visits what it needs. */
async function adminPage(browser: Browser, viewport?: { width: number; height: number }) {
  const { context, page } = await newPage(browser, viewport);
  expect(await signInOverHttp(context, ADMIN_EMAIL, ADMIN_PASSWORD)).toBe("/admin");
  return { context, page };
}

/** Puts a form back without the UI, so it works whatever state a failed test left the page in. */
async function restore(admin: Page, fields: Record<string, string>) {
  const response = await admin.request.post("/admin/settings", { form: fields });
  expect(response.status(), `restoring ${fields.intent}`).toBe(200);
}

const ALL_FEATURES = {
  intent: "features",
  registration: "on",
  coinPurchase: "on",
  livechat: "on",
  tickets: "on",
};

test("the settings page works on a 375 px phone without horizontal scrolling", async ({
  browser,
}) => {
  const { context, page } = await adminPage(browser, { width: 375, height: 800 });
  try {
    await visit(page, "/admin/settings");
    await expect(page.getByRole("heading", { level: 1, name: "Settings" })).toBeVisible();
    for (const part of ["General", "Links", "Maintenance", "Theme", "Features", "SEO"])
      await expect(page.getByRole("form", { name: part })).toBeVisible();
    const fits = () =>
      page.evaluate(
        () => document.documentElement.scrollWidth <= document.documentElement.clientWidth,
      );
    expect(await fits()).toBe(true);

    // A refused save keeps what was typed and says why.
    const links = page.getByRole("form", { name: "Links" });
    await links.getByLabel("Community chat (Discord)").fill("javascript:alert(1)");
    await links.getByRole("button", { name: "Save" }).click();
    await expect(links.getByRole("alert")).toHaveText(
      "Enter a full web address starting with https:// or http://, or leave it empty",
    );
    await expect(links.getByRole("status")).toHaveText(
      "The settings were not saved. Check the fields marked below.",
    );
    await expect(links.getByLabel("Community chat (Discord)")).toHaveValue("javascript:alert(1)");
    expect(await fits()).toBe(true);
  } finally {
    await context.close();
  }
});

test("maintenance mode: a visitor gets the maintenance page, the admin keeps working", async ({
  browser,
}) => {
  // Two people, three languages of pages, a client-side navigation and a page reload: more than most.
  test.setTimeout(60_000);
  const { context: adminContext, page: admin } = await adminPage(browser);
  const { context: visitorContext, page: visitor } = await newPage(browser);
  try {
    // A page a visitor opened before maintenance began.
    await visit(visitor, "/about");

    await visit(admin, "/admin/settings");
    const form = admin.getByRole("form", { name: "Maintenance" });
    await form.getByLabel("Maintenance mode").check();
    await form.getByLabel("Message").fill("Back at 18:00, with faster disks.");
    await form.getByRole("button", { name: "Save" }).click();
    await expect(form.getByRole("status")).toHaveText("Settings saved");
    await expect(admin.getByText("Maintenance mode is on: visitors and customers")).toBeVisible();

    // The open page's next navigation loads a document, which is the maintenance page.
    await visitor.getByRole("banner").getByRole("link", { name: "Contact" }).click();
    await expect(visitor).toHaveURL(/\/contact$/);
    await expect(visitor.getByRole("heading", { name: "We'll be back soon" })).toBeVisible();

    const response = await visitor.goto("/services/samp");
    expect(response?.status()).toBe(503);
    expect(response?.headers()["retry-after"]).toBe("600");
    await expect(visitor.getByRole("heading", { name: "We'll be back soon" })).toBeVisible();
    await expect(visitor.getByText("Back at 18:00, with faster disks.")).toBeVisible();
    await expect(visitor.getByText("Hostfront", { exact: true })).toBeVisible();

    // In the visitor's language, from the page's own language links.
    await visitor.getByRole("link", { name: "Français" }).click();
    await expect(visitor.getByRole("heading", { name: "On revient très vite" })).toBeVisible();
    await expect(visitor.locator("html")).toHaveAttribute("lang", "fr");

    // /login stays open, and says why.
    const login = await visitor.goto("/login?lang=en");
    expect(login?.status()).toBe(200);
    await expect(visitor.getByText("Only staff can sign in right now.")).toBeVisible();

    // The admin sees the site as usual.
    const home = await admin.goto("/");
    expect(home?.status()).toBe(200);
    await expect(
      admin.getByRole("heading", { name: "Game servers that stay online" }),
    ).toBeVisible();
  } finally {
    await restore(admin, { intent: "maintenance", maintenanceMessage: "" });
    await visitorContext.close();
    await adminContext.close();
  }
  // Off again: the visitor gets the site.
  const { context, page } = await newPage(browser);
  expect((await page.goto("/services/samp"))?.status()).toBe(200);
  await context.close();
});

test("registration switched off: no Register link, and /register says it is closed", async ({
  browser,
}) => {
  test.setTimeout(45_000); // two people, as in admin.spec.ts
  const { context: adminContext, page: admin } = await adminPage(browser);
  const { context: visitorContext, page: visitor } = await newPage(browser);
  try {
    await visit(visitor, "/");
    await expect(
      visitor.getByRole("link", { name: "Register", exact: true }).first(),
    ).toBeVisible();

    await visit(admin, "/admin/settings");
    const form = admin.getByRole("form", { name: "Features" });
    await form.getByLabel("Registration").uncheck();
    await form.getByRole("button", { name: "Save" }).click();
    await expect(form.getByRole("status")).toHaveText("Settings saved");

    await visit(visitor, "/");
    await expect(visitor.getByRole("link", { name: "Register", exact: true })).toHaveCount(0);
    await expect(visitor.getByRole("link", { name: "Create an account" })).toHaveCount(0);
    await visit(visitor, "/login");
    await expect(visitor.getByRole("link", { name: "Register", exact: true })).toHaveCount(0);
    await visit(visitor, "/register");
    await expect(visitor.getByRole("heading", { name: "Registration is closed" })).toBeVisible();
    await expect(visitor.getByLabel("Full name")).toHaveCount(0);
  } finally {
    await restore(admin, ALL_FEATURES);
    await visitorContext.close();
    await adminContext.close();
  }
});

test("a theme colour changes the storefront's primary buttons", async ({ browser }) => {
  test.setTimeout(45_000); // two people, as in admin.spec.ts
  const { context: adminContext, page: admin } = await adminPage(browser);
  const { context: visitorContext, page: visitor } = await newPage(browser);
  try {
    await visit(admin, "/admin/settings");
    const form = admin.getByRole("form", { name: "Theme" });
    const primary = form.getByLabel("Primary colour", { exact: true });
    await primary.fill("#16A34A");
    // The preview follows before anything is saved.
    await expect(admin.getByTestId("theme-preview").getByText("Order Now")).toHaveCSS(
      "background-color",
      "rgb(22, 163, 74)",
    );
    await form.getByRole("button", { name: "Save" }).click();
    await expect(form.getByRole("status")).toHaveText("Settings saved");

    await visitor.goto("/");
    await waitForPage(visitor);
    const button = visitor.getByRole("link", { name: "See the plans" });
    await expect(button).toHaveCSS("background-color", "rgb(22, 163, 74)");
    // White on this green is under 4.5:1, so the text turns dark.
    await expect(button).toHaveCSS("color", "rgb(15, 23, 42)");
  } finally {
    await restore(admin, {
      intent: "theme",
      primaryColor: DEFAULT_PRIMARY,
      secondaryColor: "#0f172a",
      accentColor: "#f59e0b",
    });
    await visitorContext.close();
    await adminContext.close();
  }
});

/** An amount as the English pages write it ("€14.40", "85.60 coins"), in cents. */
function cents(text: string | null): number {
  const match = /(\d[\d,]*\.\d{2})/.exec(text ?? "");
  if (!match) throw new Error(`no amount in ${text}`);
  return Math.round(Number(match[1]!.replace(/,/g, "")) * 100);
}

/** The signed-in customer of `page` gives Morocco as their billing country (20 % VAT by default). */
async function billedInMorocco(page: Page) {
  await visit(page, "/dashboard?tab=account");
  await page.getByLabel("Country").selectOption("MA");
  await page.getByRole("button", { name: "Save billing details" }).click();
  await expect(page.getByText("Billing details saved.")).toBeVisible();
}

const INVOICING_DEFAULTS = {
  intent: "invoicing",
  sellerName: "Hostfront",
  sellerAddress: "",
  sellerTaxId: "",
  vatEnabled: "on",
  vatRates: "MA 20",
  pricesIncludeVat: "on",
  retentionYears: "10",
};

test("prices without VAT: a renewal on a phone shows the VAT, charges the total shown, and asks again when it changed", async ({
  browser,
}) => {
  test.setTimeout(120_000); // two people, an order approved, two renewals asked
  const { context: adminContext, page: admin } = await adminPage(browser);
  const { context: buyerContext, page: buyer } = await newPage(browser, {
    width: 390,
    height: 844,
  });
  try {
    const { pricesIncludeVat: _included, ...excluded } = INVOICING_DEFAULTS;
    await restore(admin, excluded);
    const customer = await registerOverHttp(buyerContext, { name: "Salma Renouvelle" });
    await signInOverHttp(buyerContext, customer.email, customer.password);
    await billedInMorocco(buyer);
    await visit(admin, `/admin/clients?q=${encodeURIComponent(customer.email)}`);
    await admin.getByText("Add or remove coins").click();
    await admin.getByLabel("Amount (negative removes)").fill("100");
    await admin.getByLabel("Reason").fill("Renewal with VAT");
    await admin.getByRole("button", { name: "Save" }).click();
    await expect(admin.getByRole("status")).toHaveText("Coins updated successfully");

    // A €12.00 plan: €14.40 with Morocco's 20 % added, at the order and at each renewal.
    await visit(buyer, "/order");
    await buyer.getByLabel("Service").selectOption({ label: "VPS Business — €12.00/month" });
    await buyer.getByLabel("Server name").fill("Salma VPS");
    await expect(buyer.getByTestId("order-total")).toHaveText("€14.40");
    await buyer.getByRole("button", { name: "Place order" }).click();
    await expect(buyer).toHaveURL(/\/dashboard\/billing/);
    await visit(admin, "/admin/orders?status=pending");
    await admin
      .getByRole("row", { name: new RegExp(customer.email.replace(/[.+]/g, "\\$&")) })
      .getByRole("button", { name: "Approve" })
      .click();
    await expect(admin.getByRole("status")).toContainText("approved");

    await visit(buyer, "/dashboard?tab=services");
    await buyer.getByRole("link", { name: "Renew for €14.40" }).click();
    const confirmation = buyer.getByRole("region", { name: /Renew this service\?/ });
    const value = (term: string) =>
      confirmation.locator("div", { has: buyer.locator("dt", { hasText: term }) }).locator("dd");
    await expect(value("Price")).toContainText("€12.00");
    await expect(value("VAT (20%)")).toHaveText("€2.40");
    await expect(value("Total")).toHaveText("€14.40");
    const balance = cents(await value("Your balance").textContent());
    expect(balance).toBe(10_000 - 1_440);
    expect(cents(await value("Balance after renewal").textContent())).toBe(balance - 1_440);
    await confirmation.getByRole("button", { name: "Confirm renewal" }).click();
    await expect(buyer.getByText("Your service has been renewed.")).toBeVisible();
    // The admin turns prices back to including the VAT while the next confirmation is open: the
    // renewal is refused rather than charged at a price the customer did not see, and shown again.
    await visit(buyer, "/dashboard?tab=services");
    await buyer.getByRole("link", { name: "Renew for €14.40" }).click();
    await expect(value("Total")).toHaveText("€14.40");
    // The first renewal took the total shown.
    expect(cents(await value("Your balance").textContent())).toBe(balance - 1_440);
    await restore(admin, INVOICING_DEFAULTS);
    await confirmation.getByRole("button", { name: "Confirm renewal" }).click();
    await expect(buyer.getByText("The renewal's price changed since you saw it")).toBeVisible();
    await expect(buyer.getByText("The renewal's price changed since you saw it")).toBeInViewport();
    await expect(value("Price")).toContainText("€12.00");
    await expect(value("Total")).toHaveCount(0);
    await confirmation.getByRole("button", { name: "Confirm renewal" }).click();
    await expect(buyer.getByText("Your service has been renewed.")).toBeVisible();
    const fits = await buyer.evaluate(
      () => document.documentElement.scrollWidth <= document.documentElement.clientWidth,
    );
    expect(fits).toBe(true);
  } finally {
    await restore(admin, INVOICING_DEFAULTS);
    await buyerContext.close();
    await adminContext.close();
  }
});

test("prices without VAT: the order form adds the customer's VAT and shows the total charged", async ({
  browser,
}) => {
  test.setTimeout(60_000); // two people, a registration and a settings change
  const { context: adminContext, page: admin } = await adminPage(browser);
  const { context: buyerContext, page: buyer } = await newPage(browser);
  try {
    await visit(admin, "/admin/settings");
    const form = admin.getByRole("form", { name: "Invoices and VAT" });
    await form.getByLabel("Prices include VAT").uncheck();
    await form.getByRole("button", { name: "Save" }).click();
    await expect(form.getByRole("status")).toHaveText("Settings saved");

    // A customer whose billing country is Morocco (20% by default).
    const customer = await registerOverHttp(buyerContext, { name: "Yassine Vat" });
    await signInOverHttp(buyerContext, customer.email, customer.password);
    await billedInMorocco(buyer);

    await visit(buyer, "/order");
    await buyer.getByLabel("Service").selectOption({ label: "VPS Business — €12.00/month" });
    await expect(buyer.getByTestId("vat-note")).toHaveText(
      "Prices exclude VAT: where it applies, it is added when you pay.",
    );
    // €12.00 and its 20%: the total the order will charge, and what the balance lacks for it.
    await expect(buyer.getByTestId("summary-vat")).toHaveText(/^VAT \(20%\)\s*€2\.40$/);
    await expect(buyer.getByTestId("order-total")).toHaveText("€14.40");
    await expect(buyer.getByTestId("order-shortfall")).toContainText("needs 14.40 coins more");
  } finally {
    await restore(admin, INVOICING_DEFAULTS);
    await buyerContext.close();
    await adminContext.close();
  }
});
