import { readFileSync } from "node:fs";
import { readZip } from "../support/zip-reader";
import { expect, newCustomerSignedIn, test, visit } from "./fixtures";

// A customer's archive of their data (docs/self-service.md#a-customers-data), on a phone: asked for
// from the account tab, made by the server's worker, followed by the card until it is ready, downloaded
// by its link as a ZIP whose files are read back. The link opens for nobody else and not once
// tampered with; past the day's limit (3 on a new install) the ask is refused and nothing is made.

const PHONE = { viewport: { width: 360, height: 740 } };

test("a customer asks for their data on a phone, the worker makes it, and its link downloads it", async ({
  browser,
}) => {
  test.setTimeout(120_000);
  const { context, page, customer } = await newCustomerSignedIn(
    browser,
    { name: "Nadia Archive" },
    PHONE,
  );
  await visit(page, "/dashboard/account");
  const card = page.locator("#data-export");
  await expect(
    card.getByText("You can ask for 3 archives in 24 hours (0 asked so far)."),
  ).toBeVisible();
  await card.getByRole("button", { name: "Prepare my archive" }).click();
  await expect(
    card.getByText("We are preparing your archive. We will tell you when it is ready."),
  ).toBeVisible();
  // The request only queued it: the worker makes it, and the card follows it without a reload.
  const downloadLink = card.getByRole("link", { name: /^Download \(/ });
  await expect(downloadLink).toBeVisible({ timeout: 30_000 });
  await expect(card.getByTestId("data-exports").getByText("Ready", { exact: true })).toBeVisible();
  // Nothing on the phone's page is wider than its screen.
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360);

  const [download] = await Promise.all([page.waitForEvent("download"), downloadLink.click()]);
  expect(download.suggestedFilename()).toMatch(/^my-data-\d{4}-\d{2}-\d{2}\.zip$/);
  const files = readZip(readFileSync((await download.path())!));
  expect(files.map((file) => file.name)).toEqual([
    "README.txt",
    "account.json",
    "orders.json",
    "services.json",
    "coin-history.json",
    "tickets.json",
    "top-up-requests.json",
    "invoices.json",
  ]);
  const account = JSON.parse(files.find((file) => file.name === "account.json")!.data.toString());
  expect(account.profile).toMatchObject({ name: "Nadia Archive", email: customer.email });
  expect(files[0]!.data.toString()).toContain("What each file holds:");

  // The same link, tampered with: nothing. Another customer with the link as it is: nothing either.
  const href = (await downloadLink.getAttribute("href"))!;
  const token = href.slice(href.lastIndexOf("/") + 1);
  const tampered = `${href.slice(0, -token.length)}${token.startsWith("A") ? "B" : "A"}${token.slice(1)}`;
  const refused = await context.request.get(tampered, { maxRedirects: 0 });
  expect(refused.status()).toBe(404);
  expect(refused.headers()["content-type"]).not.toContain("zip");
  const other = await newCustomerSignedIn(browser, { name: "Someone Else" }, PHONE);
  expect((await other.context.request.get(href, { maxRedirects: 0 })).status()).toBe(404);
  await other.context.close();
  // The owner's link still works.
  expect((await context.request.get(href)).headers()["content-type"]).toBe("application/zip");

  // Two more today, each made in turn; the fourth is refused with the limit, and nothing is made.
  for (const made of [2, 3]) {
    await card.getByRole("button", { name: "Prepare my archive" }).click();
    await expect(card.getByRole("link", { name: /^Download \(/ })).toHaveCount(made, {
      timeout: 30_000,
    });
  }
  await card.getByRole("button", { name: "Prepare my archive" }).click();
  await expect(
    card.getByText(
      "You have already asked for 3 archives in the last 24 hours, the most allowed. Try again later.",
    ),
  ).toBeVisible();
  await expect(card.getByTestId("data-exports").getByRole("listitem")).toHaveCount(3);
  await expect(card.getByText("Being prepared")).toHaveCount(0);
  await visit(page, "/dashboard/account");
  await expect(
    page.locator("#data-export").getByTestId("data-exports").getByRole("listitem"),
  ).toHaveCount(3);

  await context.close();
});
