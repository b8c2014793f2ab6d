import { randomUUID } from "node:crypto";
import type { BrowserContext } from "@playwright/test";
import {
  ADMIN_EMAIL,
  ADMIN_PASSWORD,
  expect,
  expectAccessible,
  newCustomerSignedIn,
  noHorizontalScroll,
  signedIn,
  test,
  visit,
  waitForReactOn,
} from "./fixtures";

// The knowledge base (docs/knowledgebase.md): the owner writes an article in English with a French
// title but no French text and publishes it; a visitor without scripts, reading French, finds it by a
// French word and reads it with the English text marked as such; a draft is neither found nor
// reachable. The public pages fit a 360 px phone in the three languages and pass axe. The new-ticket
// page suggests a seeded guide from the subject typed.

const PHONE = { viewport: { width: 360, height: 740 } };

async function readIn(context: BrowserContext, lang: "en" | "fr" | "ar") {
  const answer = await context.request.post("/language", {
    form: { lang, redirectTo: "/knowledgebase" },
    maxRedirects: 0,
  });
  expect(answer.status()).toBe(302);
}

test("staff publish an article; a visitor without scripts finds it in French and reads the English fallback; a draft stays hidden", async ({
  browser,
}) => {
  test.setTimeout(180_000);
  const stamp = randomUUID().replace(/-/g, "").slice(0, 8);
  const word = `zorglub${stamp}`;
  const slug = `open-ports-${stamp}`;
  const englishBody = `Open UDP port 7777 in your firewall. ${word}`;

  const owner = await signedIn(browser, ADMIN_EMAIL, ADMIN_PASSWORD);
  const page = owner.page;
  await visit(page, "/admin/knowledgebase");
  await expect(page.getByRole("heading", { level: 1, name: "Knowledgebase" })).toBeVisible();
  const add = page.getByRole("button", { name: "New article" });
  await waitForReactOn(add);
  await add.click();
  const dialog = page.getByRole("dialog", { name: "New article" });
  await dialog.getByLabel("Category").selectOption({ label: "Game servers" });
  await dialog.getByLabel("State").selectOption("published");
  await dialog.getByLabel("Address (slug)").fill(slug);
  await dialog.getByLabel("Title in English").fill(`Opening the ports ${stamp}`);
  await dialog.getByLabel("Title in French").fill(`Ouvrir les ports ${stamp}`);
  // Without an English text it is refused, said in the dialog, and what was typed stays.
  await dialog.getByRole("button", { name: "Create" }).click();
  await expect(
    dialog.getByText("Write the English text: it is shown when a language has none."),
  ).toBeVisible();
  await expect(dialog.getByLabel("Title in French")).toHaveValue(`Ouvrir les ports ${stamp}`);
  await dialog.getByLabel("Text in English").fill(`## Ports\n${englishBody}\n\n<script>x</script>`);
  await dialog.getByRole("button", { name: "Create" }).click();
  await expect(dialog).toBeHidden();
  await expect(page.getByRole("status")).toHaveText(
    `Article “Opening the ports ${stamp}” created.`,
  );

  // A draft, written over HTTP as the form posts it.
  const draftSlug = `draft-${stamp}`;
  const categoryId = await dialogCategoryId(owner.context);
  const draft = await owner.context.request.post("/admin/knowledgebase", {
    form: {
      intent: "article-create",
      categoryId,
      status: "draft",
      slug: draftSlug,
      position: "0",
      titleEn: `Unpublished ${word}`,
      bodyEn: `Secret ${word}`,
    },
  });
  expect(draft.status()).toBe(200);
  await owner.context.close();

  // A visitor without scripts, reading French.
  const visitor = await browser.newContext({ javaScriptEnabled: false, ...PHONE });
  await readIn(visitor, "fr");
  const reader = await visitor.newPage();
  await reader.goto("/knowledgebase");
  await reader.getByRole("searchbox").fill(`ouvrir ${stamp}`);
  await reader.getByRole("button", { name: "Rechercher" }).click();
  await expect(reader).toHaveURL(/\/knowledgebase\?q=/);
  const results = reader.getByTestId("kb-results");
  await expect(results.getByRole("link", { name: `Ouvrir les ports ${stamp}` })).toBeVisible();
  await results.getByRole("link", { name: `Ouvrir les ports ${stamp}` }).click();
  await expect(reader).toHaveURL(new RegExp(`/knowledgebase/game-servers/${slug}$`));
  await expect(reader.getByRole("heading", { level: 1 })).toHaveText(`Ouvrir les ports ${stamp}`);
  await expect(reader.getByTestId("kb-in-english")).toBeVisible();
  const body = reader.getByTestId("kb-article-body");
  await expect(body).toContainText(englishBody);
  // The body is English, said so to the browser and read left to right; the script is text.
  await expect(body.locator("xpath=..")).toHaveAttribute("lang", "en");
  await expect(body.locator("xpath=..")).toHaveAttribute("dir", "ltr");
  await expect(body).toContainText("<script>x</script>");
  expect(await noHorizontalScroll(reader)).toBe(true);

  // The draft: its word finds only the published article (whose text holds it too), and its address
  // is 404.
  await reader.goto(`/knowledgebase?q=${word}`);
  const found = reader.getByTestId("kb-results");
  await expect(found.getByRole("listitem")).toHaveCount(1);
  await expect(found.getByRole("link", { name: `Ouvrir les ports ${stamp}` })).toBeVisible();
  await expect(found).not.toContainText("Unpublished");
  const missing = await reader.goto(`/knowledgebase/game-servers/${draftSlug}`);
  expect(missing?.status()).toBe(404);
  await visitor.close();
});

/** The seeded "Game servers" category's id, as the article editor offers it. */
async function dialogCategoryId(context: BrowserContext): Promise<string> {
  const page = await context.newPage();
  await visit(page, "/admin/knowledgebase");
  const add = page.getByRole("button", { name: "New article" });
  await waitForReactOn(add);
  await add.click();
  const select = page.getByRole("dialog", { name: "New article" }).getByLabel("Category");
  const value = await select.locator("option", { hasText: "Game servers" }).getAttribute("value");
  await page.close();
  return value ?? "";
}

for (const lang of ["en", "fr", "ar"] as const) {
  test(`the public knowledge base fits a 360 px phone and passes axe in ${lang}`, async ({
    browser,
  }) => {
    test.setTimeout(120_000);
    const context = await browser.newContext(PHONE);
    await readIn(context, lang);
    const page = await context.newPage();
    for (const path of [
      "/knowledgebase",
      "/knowledgebase?q=port",
      "/knowledgebase/game-servers",
      "/knowledgebase/game-servers/connect-mta-server",
      "/knowledgebase/coins-and-payments/buy-coins-orange-money",
    ]) {
      await visit(page, path);
      await expect(page.locator("html")).toHaveAttribute("lang", lang);
      expect(await noHorizontalScroll(page), `${path} in ${lang}`).toBe(true);
      await expectAccessible(page);
    }
    await context.close();
  });
}

test("the new-ticket page suggests a seeded guide from the subject typed, keeping what was typed", async ({
  browser,
}) => {
  test.setTimeout(120_000);
  const customer = await newCustomerSignedIn(browser, {}, PHONE);
  const page = customer.page;
  await visit(page, "/support/new");
  const subject = page.getByLabel("Subject");
  await waitForReactOn(subject);
  await page.getByLabel("Department").selectOption("technical");
  await subject.fill("I cannot connect to my MTA server");
  const suggestions = page.getByTestId("kb-suggestions");
  const link = suggestions.getByRole("link", { name: /Connecting to your MTA:SA server/ });
  await expect(link).toBeVisible();
  await expect(link).toHaveAttribute("href", "/knowledgebase/game-servers/connect-mta-server");
  await expect(subject).toHaveValue("I cannot connect to my MTA server");
  expect(await noHorizontalScroll(page)).toBe(true);
  await expectAccessible(page);
  await customer.context.close();
});
