import path from "node:path";
import Database from "better-sqlite3";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { signInOverHttp, toast, uniqueEmail, visit, expect, test } from "./fixtures";
import { e2eFolder } from "../support/scratch";

// The e2e server's SQLite file (playwright.config.ts: one data folder per E2E_PORT), read to prove that
// what a visitor sent was stored. Opened read-only for each question; the server keeps writing.
const port = Number(process.env.E2E_PORT ?? 3210);
const databaseFile = path.join(e2eFolder(port === 3210 ? "e2e" : `e2e-${port}`), "hostfront.db");
function count(sql: string, ...params: string[]): number {
  const db = new Database(databaseFile, { readonly: true, fileMustExist: true });
  try {
    return (db.prepare(sql).get(...params) as { n: number }).n;
  } finally {
    db.close();
  }
}
const SENT = "Your message has been sent! We will get back to you soon.";

// Each public page: key texts in the server HTML, its own title, and a description of its own (not the
// site-wide SEO description), which search engines and link previews show.
const pages: { path: string; title: string; description: string; texts: (string | RegExp)[] }[] = [
  {
    path: "/",
    title: "Game server and VPS hosting in Frankfurt",
    description: "SA-MP and MTA servers, game servers and VPS",
    texts: [
      "Our services",
      "SAMP Hosting",
      "99.9% uptime",
      "Frankfurt, Germany data center",
      "Most Popular",
      "€4.50",
      "2458 active servers",
    ],
  },
  {
    path: "/services/samp",
    title: "SA-MP server hosting",
    description: "San Andreas Multiplayer servers",
    // The recommended plan carries the home page's word for it.
    texts: [
      "SAMP Hosting",
      "SAMP Starter",
      "€2.50",
      "€4.50",
      "€8.50",
      "500 player slots",
      "Most Popular",
    ],
  },
  {
    path: "/services/mta",
    title: "MTA:SA server hosting",
    description: "Multi Theft Auto",
    texts: ["MTA Hosting", "MTA Starter", "€3.00", "€9.50"],
  },
  {
    path: "/services/vps",
    title: "VPS hosting",
    description: "Virtual private servers",
    texts: ["VPS Hosting", "VPS Entry", "€7.00", "€12.00", "€20.00"],
  },
  {
    path: "/game-hosting",
    title: "Game server hosting",
    description: "Servers for Minecraft",
    texts: ["Game Hosting", "Game Basic", "€3.99", "€7.99", "€14.99"],
  },
  {
    path: "/about",
    title: "About us",
    description: "Give every community",
    texts: ["Our mission", "Our story", "Why choose us", "Excellence", "Reliability", "Community"],
  },
  {
    path: "/contact",
    title: "Contact",
    description: "Questions about a plan",
    texts: ["Contact us", "Support email", "WhatsApp", "Send Message"],
  },
  {
    path: "/service-terms",
    title: "Service terms",
    description: "Accepted payment methods: cashPlus, PayPal",
    texts: [
      "cashPlus",
      "PayPal",
      "Orange Money",
      "Inwi Money",
      "every 90 days, 5% discount",
      "every 365 days, 15% discount",
      "14-day money-back guarantee",
      "5-7 business days",
      "VAT",
    ],
  },
  {
    path: "/orange-money",
    title: "Pay with Orange Money",
    description: "Six steps to buy coins with Orange Money",
    texts: [
      "Pay with Orange Money",
      "Open the Orange Money app on your phone",
      'href="/dashboard/top-up"',
      "attach the proof of payment",
    ],
  },
  {
    path: "/phpmyadmin",
    title: "phpMyAdmin installer",
    description: "Run this script as root",
    texts: ["Install phpMyAdmin on your VPS", "apt-get install"],
  },
  {
    path: "/bot-detected",
    title: "Automated browser detected",
    description: "Your browser looks automated",
    texts: ["Automated browser detected", "Try again"],
  },
  {
    path: "/verification-failed",
    title: "Verification failed",
    description: "Something went wrong while checking your browser",
    texts: ["Verification failed", "Try again"],
  },
];

for (const { path, title, description, texts } of pages) {
  test(`${path} renders its texts in the server HTML and fits a phone`, async ({
    page,
    request,
  }) => {
    const html = await (await request.get(path)).text();
    for (const text of texts)
      if (typeof text === "string")
        expect(html.includes(text), `"${text}" in the HTML of ${path}`).toBe(true);
    await page.setViewportSize({ width: 375, height: 800 });
    await visit(page, path);
    expect(
      await page.evaluate(
        () => document.documentElement.scrollWidth <= document.documentElement.clientWidth,
      ),
    ).toBe(true);
    await expect(page).toHaveTitle(`${title} | Hostfront`);
    const content = await page.locator('meta[name="description"]').getAttribute("content");
    expect(content?.startsWith(description), `description of ${path}: ${content}`).toBe(true);
  });
}

test("the Orange Money guide's first step leads to Add coins, through sign-in", async ({
  page,
}) => {
  await visit(page, "/orange-money");
  const first = page.getByRole("listitem").filter({ hasText: "In your dashboard, open Add coins" });
  await first.getByRole("link", { name: "Add coins" }).click();
  // A visitor signs in first, and comes back to the page.
  await expect(page).toHaveURL(/\/login\?redirectTo=%2Fdashboard%2Ftop-up$/);
});

test("Order Now opens the order form with that plan chosen", async ({ page }) => {
  await visit(page, "/services/vps");
  await page.getByRole("link", { name: "Order Now: VPS Business" }).click();
  await expect(page).toHaveURL(/\/order\?product=\d+$/);
  await expect(page.getByLabel("Service")).toHaveValue(/\d+/);
  await expect(page.getByTestId("order-total")).toHaveText("€12.00");
});

test("the contact form keeps what was typed on a refusal and clears on success", async ({
  page,
}) => {
  await visit(page, "/contact");
  await page.getByLabel("Name").fill("Imane");
  await page.getByLabel("Email").first().fill("not-an-email");
  await page.getByRole("button", { name: "Send Message" }).click();
  await expect(page.getByText("Please enter a valid email address")).toBeVisible();
  await expect(page.getByLabel("Name")).toHaveValue("Imane");
  await page.getByLabel("Email").first().fill("imane@example.com");
  const subject = `VPS question ${uniqueEmail("subject")}`;
  await page.getByLabel("Subject").fill(subject);
  await page.getByLabel("Message").fill("Can I upgrade later?");
  await page.getByRole("button", { name: "Send Message" }).click();
  await expect(page.getByText(SENT)).toBeVisible();
  await expect(page.getByLabel("Name")).toHaveValue("");
  await expect(page.getByLabel("Subject")).toHaveValue("");
  // Stored once, for an admin to read later (unread).
  expect(
    count(
      "select count(*) as n from contact_messages where subject = ? and email = ? and read_at is null",
      subject,
      "imane@example.com",
    ),
  ).toBe(1);
});

test("the newsletter thanks a subscriber, also the second time, and stores the address once", async ({
  page,
}) => {
  await visit(page, "/about");
  const email = uniqueEmail("news");
  for (const typed of [email, email.toUpperCase()]) {
    await page.getByLabel("Email address").fill(typed);
    await page.getByRole("button", { name: "Subscribe" }).click();
    await expect(page.getByRole("status").getByText("Thanks for subscribing!")).toBeVisible();
    await expect(page.getByLabel("Email address")).toHaveValue("");
  }
  expect(count("select count(*) as n from newsletter_subscribers where email = ?", email)).toBe(1);
});

test("the newsletter box shows the server's refusal and keeps what was typed", async ({ page }) => {
  await visit(page, "/about");
  // The browser's own email check lets an address without a dotted domain through; the server's does not.
  await page.getByLabel("Email address").fill("fan@localhost");
  await page.getByRole("button", { name: "Subscribe" }).click();
  await expect(
    page.getByRole("status").getByText("Please enter a valid email address"),
  ).toBeVisible();
  await expect(page.getByLabel("Email address")).toHaveValue("fan@localhost");
  expect(
    count("select count(*) as n from newsletter_subscribers where email = ?", "fan@localhost"),
  ).toBe(0);
});

test("copying the install script shows the toast", async ({ page, context }) => {
  await context.grantPermissions(["clipboard-read", "clipboard-write"]);
  await visit(page, "/phpmyadmin");
  await page.getByRole("button", { name: "Copy script" }).click();
  await expect(toast(page, "Installation script copied to clipboard!")).toBeVisible();
  expect(await page.evaluate(() => navigator.clipboard.readText())).toContain("phpmyadmin");
});

test("the active-server counter starts at 2458 and grows by 0 to 2 every 5 s", async ({ page }) => {
  // A fake clock and a fixed random number (every step is +2) make the growth exact.
  await page.clock.install();
  await page.addInitScript(() => {
    Math.random = () => 0.99;
  });
  await visit(page, "/");
  const counter = page.getByTestId("active-servers");
  await expect(counter).toHaveText("2458 active servers");
  // The installed clock still follows real time; pause it, then any 5 s holds exactly one tick.
  await page.clock.pauseAt(await page.evaluate(() => Date.now() + 1000));
  const before = Number(/\d+/.exec((await counter.textContent()) ?? "")?.[0]);
  await page.clock.runFor(5_000);
  await expect(counter).toHaveText(`${before + 2} active servers`);
  await page.clock.runFor(50_000);
  await expect(counter).toHaveText(`${before + 22} active servers`);
});

/**
 * The chunks only signed-in pages use (admin, dashboard, order, support), from the build's full route
 * manifest: chunk names follow file names (admin's services page is services-….js like the public one),
 * and the browser only ever sees the routes it has discovered.
 */
function privateChunks(): string[] {
  const assets = join(process.env.BUILD_DIR ?? "build", "client", "assets");
  const file = readdirSync(assets).find((name) => /^manifest-.*\.js$/.test(name));
  if (!file) throw new Error(`no route manifest in ${assets}`);
  const text = readFileSync(join(assets, file), "utf8");
  const manifest = JSON.parse(text.slice(text.indexOf("{"), text.lastIndexOf("}") + 1)) as {
    routes: Record<string, { module: string; imports?: string[] }>;
  };
  const isPrivate = (id: string) =>
    /^(routes\/admin\/|admin-|routes\/dashboard|routes\/order|routes\/support\/)/.test(id);
  const chunks = (ids: string[]) =>
    new Set(
      ids.flatMap((id) => [manifest.routes[id]!.module, ...(manifest.routes[id]!.imports ?? [])]),
    );
  const ids = Object.keys(manifest.routes);
  const shared = chunks(ids.filter((id) => !isPrivate(id)));
  return [...chunks(ids.filter(isPrivate))].filter((chunk) => !shared.has(chunk));
}

// An anonymous visitor's public pages load no script file at all (ADR 13, public-pages.spec.ts); a
// signed-in customer's are hydrated, and must still load nothing of the admin, dashboard or order pages.
test("a signed-in customer's public pages load no admin, dashboard or order code", async ({
  page,
  customer,
}) => {
  const forbidden = privateChunks();
  expect(forbidden.length).toBeGreaterThan(5);
  expect(await signInOverHttp(page, customer.email, customer.password)).toBe("/dashboard");
  const loaded = new Set<string>();
  page.on("request", (request) => {
    if (request.resourceType() === "script") loaded.add(new URL(request.url()).pathname);
  });
  for (const path of ["/", "/services/samp", "/services/vps", "/contact", "/about", "/phpmyadmin"])
    await visit(page, path);
  expect(loaded.size).toBeGreaterThan(0);
  expect([...loaded].filter((chunk) => forbidden.includes(chunk))).toEqual([]);
});

test.describe("without JavaScript", () => {
  test.use({ javaScriptEnabled: false });

  test("the contact form keeps what was typed on a refusal, then sends and clears", async ({
    page,
  }) => {
    await page.goto("/contact");
    await page.getByLabel("Name").fill("Omar");
    await page.getByLabel("Email", { exact: true }).fill("omar@example.com");
    await page.getByRole("button", { name: "Send Message" }).click();
    await expect(page.getByText("This field is required").first()).toBeVisible();
    await expect(page.getByLabel("Name")).toHaveValue("Omar");
    await expect(page.getByLabel("Email", { exact: true })).toHaveValue("omar@example.com");
    const subject = `No script ${uniqueEmail("subject")}`;
    await page.getByLabel("Subject").fill(subject);
    await page.getByLabel("Message").fill("Sent without JavaScript");
    await page.getByRole("button", { name: "Send Message" }).click();
    await expect(page.getByText(SENT)).toBeVisible();
    await expect(page.getByLabel("Name")).toHaveValue("");
    expect(count("select count(*) as n from contact_messages where subject = ?", subject)).toBe(1);
  });

  test("the newsletter box thanks a subscriber on the page they were on", async ({ page }) => {
    await page.goto("/services/mta");
    const email = uniqueEmail("nojs");
    await page.getByLabel("Email address").fill(email);
    await page.getByRole("button", { name: "Subscribe" }).click();
    await expect(page).toHaveURL(/\/services\/mta\?newsletter=thanks#newsletter$/);
    await expect(page.getByRole("status").getByText("Thanks for subscribing!")).toBeVisible();
    await expect(page.getByText("MTA Starter")).toBeVisible();
    expect(count("select count(*) as n from newsletter_subscribers where email = ?", email)).toBe(
      1,
    );
  });
});
