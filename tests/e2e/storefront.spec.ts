import { expect, test } from "@playwright/test";
import { toast, uniqueEmail, visit } from "./fixtures";

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
    texts: ["SAMP Hosting", "SAMP Starter", "€2.50", "€4.50", "€8.50", "500 player slots"],
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
    description: "Six steps to pay an invoice",
    texts: ["Pay with Orange Money", "Open the Orange Money app on your phone."],
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
  await page.getByLabel("Subject").fill("VPS question");
  await page.getByLabel("Message").fill("Can I upgrade later?");
  await page.getByRole("button", { name: "Send Message" }).click();
  await expect(
    page.getByText("Your message has been sent! We will get back to you soon."),
  ).toBeVisible();
  await expect(page.getByLabel("Name")).toHaveValue("");
});

test("the newsletter thanks a subscriber, also the second time", async ({ page }) => {
  await visit(page, "/about");
  const email = uniqueEmail("news");
  for (let i = 0; i < 2; i++) {
    await page.getByLabel("Email address").fill(email);
    await page.getByRole("button", { name: "Subscribe" }).click();
    await expect(page.getByText("Thanks for subscribing!")).toBeVisible();
    await expect(page.getByLabel("Email address")).toHaveValue("");
  }
});

test("copying the install script shows the toast", async ({ page, context }) => {
  await context.grantPermissions(["clipboard-read", "clipboard-write"]);
  await visit(page, "/phpmyadmin");
  await page.getByRole("button", { name: "Copy script" }).click();
  await expect(toast(page, "Installation script copied to clipboard!")).toBeVisible();
  expect(await page.evaluate(() => navigator.clipboard.readText())).toContain("phpmyadmin");
});

test("the active-server counter starts at 2458 and grows", async ({ page }) => {
  await visit(page, "/");
  await expect(page.getByTestId("active-servers")).toContainText("2458");
});
