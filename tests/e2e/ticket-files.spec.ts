import sharp from "sharp";
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

// Files with tickets and internal notes (docs/self-service.md), on a phone: a customer opens a ticket
// with a screenshot; it opens for them and for the staff, and another customer is refused it; the staff
// add an internal note that the customer's page never shows.

const PHONE = { viewport: { width: 360, height: 740 }, isMobile: true, hasTouch: true };

test("a ticket's screenshot opens for its customer and the staff, not another customer; a staff note stays internal", async ({
  browser,
}) => {
  test.setTimeout(90_000);
  const screenshot = await sharp({
    create: { width: 160, height: 90, channels: 3, background: "#b91c1c" },
  })
    .png()
    .toBuffer();

  const customer = await newCustomerSignedIn(browser, { name: "Salma Screenshot" }, PHONE);
  const page = customer.page;
  await visit(page, "/support/new");
  await page.getByLabel("Subject").fill("Server crashes at start");
  await page.getByLabel("Message").fill("It stops with the error in the screenshot.");
  const files = page.getByLabel("Files (optional)");
  // What the browser can tell before sending is said at once, and what was typed stays.
  await files.setInputFiles(
    [1, 2, 3, 4, 5, 6].map((n) => ({
      name: `${n}.png`,
      mimeType: "image/png",
      buffer: screenshot,
    })),
  );
  await expect(
    page.getByText("At most 5 files per message. Your message is kept: choose fewer files."),
  ).toBeVisible();
  // A page saved under an image's name: refused by the server, by its name, the message kept.
  await files.setInputFiles({
    name: "error.png",
    mimeType: "image/png",
    buffer: Buffer.from("<!doctype html><title>not an image</title>"),
  });
  const open = page.getByRole("button", { name: "Open ticket" });
  await waitForReactOn(open);
  await open.click();
  await expect(
    page.getByText("error.png is not what its name says: its content is not a .png file."),
  ).toBeVisible();
  await expect(page.getByLabel("Message")).toHaveValue(
    "It stops with the error in the screenshot.",
  );
  await files.setInputFiles({ name: "crash.png", mimeType: "image/png", buffer: screenshot });
  await open.click();
  await expect(page).toHaveURL(/\/support\/\d+\?opened=1$/);
  const ticketPath = new URL(page.url()).pathname;

  // The customer's thread shows the screenshot, which opens the file itself.
  const picture = page.getByRole("img", { name: "crash.png" });
  await expect(picture).toBeVisible();
  await expect.poll(() => picture.evaluate((img: HTMLImageElement) => img.naturalWidth)).toBe(160);
  const filePath = await picture.getAttribute("src");
  expect(filePath).toMatch(new RegExp(`^${ticketPath}/files/\\d+$`));
  expect(await noHorizontalScroll(page)).toBe(true);
  await expectAccessible(page);
  const own = await page.request.get(filePath!);
  expect(own.status()).toBe(200);
  expect(own.headers()["content-type"]).toBe("image/png");
  expect(own.headers()["x-content-type-options"]).toBe("nosniff");
  expect(own.headers()["cache-control"]).toBe("private, no-store");
  expect(own.headers()["content-security-policy"]).toMatch(/^default-src 'none'/);
  expect(own.headers()["content-disposition"]).toBe('inline; filename="crash.png"');

  // Another customer is refused it, as a file that does not exist.
  const stranger = await newCustomerSignedIn(browser, { name: "Other Customer" }, PHONE);
  const refused = await stranger.page.request.get(filePath!);
  expect(refused.status()).toBe(404);
  expect(await refused.text()).toBe("Page not found");
  expect((await stranger.page.request.get(ticketPath)).status()).toBe(404);

  // The staff open it from the ticket's page, and add an internal note.
  const admin = await signedIn(browser, ADMIN_EMAIL, ADMIN_PASSWORD, PHONE);
  await visit(admin.page, ticketPath.replace("/support/", "/admin/tickets/"));
  const staffPicture = admin.page.getByRole("img", { name: "crash.png" });
  await expect(staffPicture).toBeVisible();
  await expect
    .poll(() => staffPicture.evaluate((img: HTMLImageElement) => img.naturalWidth))
    .toBe(160);
  expect((await admin.page.request.get(filePath!)).status()).toBe(200);

  await admin.page
    .getByLabel("Reply", { exact: true })
    .fill("Node 3 runs hot at night: move this server on Monday.");
  await admin.page.getByLabel("Internal note: only the staff see it").check();
  const add = admin.page.getByRole("button", { name: "Add internal note" });
  await waitForReactOn(add);
  await add.click();
  await expect(admin.page.getByText("Internal note added.")).toBeVisible();
  const note = admin.page.locator("li[data-internal]");
  await expect(note).toContainText("Internal note");
  await expect(note).toContainText("Node 3 runs hot at night");
  // The ticket still waits on the staff: a note is no answer.
  await expect(admin.page.getByText("Open", { exact: true }).first()).toBeVisible();
  await expectAccessible(admin.page);

  // The customer's page never shows it.
  await visit(page, ticketPath);
  await expect(page.getByText("It stops with the error in the screenshot.")).toBeVisible();
  await expect(page.getByText("Node 3")).toHaveCount(0);
  await expect(page.getByText("Internal note")).toHaveCount(0);

  for (const context of [customer.context, stranger.context, admin.context]) await context.close();
});
