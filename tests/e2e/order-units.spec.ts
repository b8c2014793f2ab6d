import { expect, newCustomerSignedIn, noHorizontalScroll, test, visit } from "./fixtures";

// The order form on a phone, in French and Arabic: the chosen plan's specs in the language's own size
// units ("Go", "غيغابايت", never "GB"), and how long the team's approval usually takes (the setting's
// default, a day).

for (const [lang, units, approval] of [
  [
    "fr",
    ["Go de RAM", "Go de stockage NVMe"],
    "La validation intervient en général sous 24 heures.",
  ],
  ["ar", ["غيغابايت"], "تتم الموافقة عادةً في غضون 24 ساعة."],
] as const)
  test(`the order form says the plan's sizes and the approval time (${lang}, 390 px)`, async ({
    browser,
  }) => {
    const { context, page } = await newCustomerSignedIn(browser, undefined, {
      viewport: { width: 390, height: 844 },
    });
    await visit(page, `/order?lang=${lang}`);
    // The first plan, a game server with memory and storage.
    await page.locator('select[name="productId"]').selectOption({ index: 1 });
    const specs = page.getByTestId("plan-specs");
    for (const unit of units) await expect(specs).toContainText(unit);
    await expect(specs).not.toContainText("GB");
    // Isolates around the number in Arabic are not text a reader sees.
    const said = await page.locator("[data-approval-time]").textContent();
    expect(said?.replace(/[\u2066-\u2069]/g, "")).toBe(approval);
    await expect(page.locator("[data-approval-time]")).toBeVisible();
    expect(await noHorizontalScroll(page)).toBe(true);
    await context.close();
  });
