import { randomBytes } from "node:crypto";
import type { Page } from "@playwright/test";
import { ADMIN_EMAIL, ADMIN_PASSWORD, signedIn, visit, expect, test } from "./fixtures";

/** The plan card of this name on a storefront page. */
function plan(page: Page, name: string) {
  return page.locator("article").filter({ has: page.getByRole("heading", { name, exact: true }) });
}

// A plan's name, description and features in the reader's language (ADR 19).
test("the French and Arabic plan cards show the plans' own translated texts", async ({ page }) => {
  await visit(page, "/services/mta?lang=fr");
  const french = plan(page, "MTA Essentiel");
  await expect(french).toContainText("Un petit serveur MTA:SA pour bien démarrer.");
  await expect(french).toContainText("Protection anti-DDoS");
  await expect(french).toContainText("Support 24h/24, 7j/7");
  await expect(french).not.toContainText("24/7 support");
  await expect(page.getByText("A small MTA:SA server to start with.")).toHaveCount(0);

  await visit(page, "/services/mta?lang=ar");
  await expect(page.locator("html")).toHaveAttribute("dir", "rtl");
  const arabic = plan(page, "باقة MTA المبتدئة");
  await expect(arabic).toContainText("خادم MTA:SA صغير لتبدأ به.");
  await expect(arabic).toContainText("حماية من هجمات DDoS");
  await expect(arabic).toContainText("دعم فني 24/7");
  await expect(arabic).not.toContainText("DDoS protection");
  await expect(page.getByText("24/7 support")).toHaveCount(0);

  // English readers keep the English texts.
  await visit(page, "/services/mta?lang=en");
  await expect(plan(page, "MTA Starter")).toContainText("A small MTA:SA server to start with.");
});

test("an admin edits a plan's French description and the French page shows it at once", async ({
  browser,
}) => {
  const admin = await signedIn(browser, ADMIN_EMAIL, ADMIN_PASSWORD);
  const visitor = await (await browser.newContext()).newPage();
  const description = `Le serveur MTA des grosses communautés ${randomBytes(3).toString("hex")}`;

  await visit(admin.page, "/admin/products?type=mta");
  await admin.page
    .getByRole("row", { name: /MTA Pro/ })
    .getByRole("link", { name: "Edit MTA Pro" })
    .click();
  await expect(admin.page.getByRole("heading", { level: 1 })).toHaveText("Edit MTA Pro");
  const form = admin.page.getByRole("main");
  // Each language's fields, grouped, typed in that language, saying they fall back to English.
  const frenchGroup = form.getByRole("group", { name: "French (optional)" });
  const arabicGroup = form.getByRole("group", { name: "Arabic (optional)" });
  const frenchDescription = frenchGroup.getByLabel("Description in French");
  await expect(frenchDescription).toHaveAttribute("lang", "fr");
  await expect(frenchDescription).toHaveAccessibleDescription(
    "Empty: the English description is shown.",
  );
  await expect(arabicGroup.getByLabel("Name in Arabic")).toHaveAttribute("dir", "rtl");
  await expect(arabicGroup.getByLabel("Name in Arabic")).toHaveAttribute("lang", "ar");
  await expect(arabicGroup.getByLabel("Name in Arabic")).toHaveValue("باقة MTA الاحترافية");
  await expect(form.getByLabel("Description", { exact: true })).toHaveValue(
    "For large MTA:SA communities and heavy gamemodes.",
  );

  // Over the English limits (13 lines; a field's length is capped by its maxlength in the browser):
  // refused with the French field's own message, what was typed kept.
  const frenchFeatures = frenchGroup.getByLabel("Features in French, one per line");
  const thirteen = Array.from({ length: 13 }, (_, i) => `Atout ${i + 1}`).join("\n");
  await frenchFeatures.fill(thirteen);
  await form.getByRole("button", { name: "Save changes" }).click();
  await expect(form.getByText("At most 12 French features, one per line")).toBeVisible();
  await expect(frenchFeatures).toHaveAttribute("aria-invalid", "true");
  await expect(frenchFeatures).toHaveValue(thirteen);
  await frenchFeatures.fill("");

  await frenchDescription.fill(description);
  await form.getByRole("button", { name: "Save changes" }).click();
  await expect(admin.page.getByRole("status")).toHaveText("Product saved");

  await visit(visitor, "/services/mta?lang=fr");
  const card = plan(visitor, "MTA Pro");
  await expect(card).toContainText(description);
  // Its French features were emptied: the English ones show.
  await expect(card).toContainText("24/7 support");
  await expect(card).not.toContainText("Support 24h/24, 7j/7");
  await visit(visitor, "/services/mta?lang=en");
  await expect(plan(visitor, "MTA Pro")).toContainText(
    "For large MTA:SA communities and heavy gamemodes.",
  );
  await expect(visitor.getByText(description)).toHaveCount(0);

  await admin.context.close();
  await visitor.context().close();
});
