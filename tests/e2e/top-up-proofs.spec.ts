import sharp from "sharp";
import { readPdf } from "../support/pdf-text";
import {
  ADMIN_EMAIL,
  ADMIN_PASSWORD,
  PAYMENTS_BASE_URL,
  downloadPdf,
  expect,
  expectAccessible,
  newCustomerSignedIn,
  signedIn,
  test,
  visit,
} from "./fixtures";

// Proof files (docs/payments.md#proof-files): a customer asks for coins with cashPlus, attaches
// a screenshot of the receipt with the payer's details, the admin sees its preview in the queue and
// approves, and the customer's balance and payment receipt show the coins. cashPlus rather than Inwi
// Money (top-ups.spec.ts) or Orange Money (admin-gateways.spec.ts), which may run beside it on the same
// database.

// On the server of their own where payment methods are switched on (PAYMENTS_BASE_URL): the other
// servers keep none open, so their coin dialog says how to buy coins off-site.
test.use({ baseURL: PAYMENTS_BASE_URL });

test("a customer's screenshot of the payment reaches the admin's queue as a preview, and the approval credits the coins", async ({
  browser,
}) => {
  test.setTimeout(90_000);
  const admin = await signedIn(browser, ADMIN_EMAIL, ADMIN_PASSWORD);
  await visit(admin.page, "/admin/gateways");
  await admin.page
    .getByRole("row", { name: /cashPlus/ })
    .getByRole("link", { name: "Edit cashPlus" })
    .click();
  const form = admin.page.getByRole("main");
  await form
    .getByRole("group", { name: "English" })
    .getByLabel("Instructions")
    .fill("Pay at any cashPlus agency to Hostfront SARL, writing your reference.");
  await form.getByLabel("Enabled", { exact: true }).check();
  await form.getByRole("button", { name: "Save changes" }).click();
  await expect(admin.page.getByRole("status")).toHaveText("Payment method saved");

  const buyer = await newCustomerSignedIn(browser, { name: "Youssef Proof" });
  const page = buyer.page;
  await visit(page, "/dashboard/top-up");
  await page.getByRole("button", { name: "10", exact: true }).click();
  await page.getByRole("radio", { name: /cashPlus/ }).check();
  await page.getByRole("button", { name: "Request the top-up" }).click();
  await expect(page.getByRole("main").getByRole("status")).toHaveText(
    "Top-up requested: send the amount with the reference below.",
  );
  const reference = (await page.locator("[data-reference]").textContent())!.trim();

  // "I have paid" with the screenshot: a PNG of 120 × 80 pixels.
  const screenshot = await sharp({
    create: { width: 120, height: 80, channels: 3, background: "#16a34a" },
  })
    .png()
    .toBuffer();
  await page.getByLabel("Phone number or account that paid").fill("0611 987 654");
  // What the browser can tell before sending is said at once: four files, or one over 5 MB.
  const input = page.getByLabel("Proof of payment");
  await input.setInputFiles(
    [1, 2, 3, 4].map((n) => ({ name: `${n}.png`, mimeType: "image/png", buffer: screenshot })),
  );
  await expect(page.getByText("At most 3 files per request.")).toBeVisible();
  await input.setInputFiles({
    name: "scan.png",
    mimeType: "image/png",
    buffer: Buffer.alloc(6 * 1024 * 1024),
  });
  await expect(
    page.getByText("scan.png is larger than 5 MB: send a screenshot or a smaller photo."),
  ).toBeVisible();
  await page
    .getByLabel("Proof of payment")
    .setInputFiles({ name: "cashplus-receipt.png", mimeType: "image/png", buffer: screenshot });
  await expect(page.getByText("scan.png is larger than 5 MB")).toHaveCount(0);
  await page.getByRole("button", { name: "I have paid" }).click();
  await expect(page.getByRole("main").getByRole("status")).toHaveText(
    "Thank you: an admin will check your payment.",
  );
  const attached = page.getByRole("region", { name: "Attached files" });
  await expect(attached.getByRole("link", { name: "cashplus-receipt.png" })).toBeVisible();
  await expect(attached).toContainText("kB");
  // The form is drawn again: the file just sent is no longer picked.
  await expect(page.getByLabel("Proof of payment")).toHaveValue("");
  // The pointer leaves the button it clicked (a hovered button is lighter).
  await page.mouse.move(0, 400);
  await expectAccessible(page);

  // The admin's queue shows it by its preview, a small WebP of its own (never the file: a queue of
  // phone photos would load megabytes each), which opens the file itself.
  await visit(admin.page, "/admin/top-ups?state=proof_sent");
  const row = admin.page.getByRole("row", { name: new RegExp(`^${reference}`) });
  await expect(row).toContainText("Paid from 0611 987 654");
  const preview = row.getByRole("img", { name: "cashplus-receipt.png" });
  await expect(preview).toBeVisible();
  await expectAccessible(admin.page);
  await expect.poll(() => preview.evaluate((img: HTMLImageElement) => img.naturalWidth)).toBe(120);
  const original = await row
    .getByRole("link", { name: "Open cashplus-receipt.png full size" })
    .getAttribute("href");
  expect(original).toMatch(/^\/dashboard\/top-up\/proofs\/\d+$/);
  expect(await preview.getAttribute("src")).toBe(`${original}/thumbnail`);
  expect(await preview.getAttribute("loading")).toBe("lazy");
  expect([await preview.getAttribute("width"), await preview.getAttribute("height")]).toEqual([
    "120",
    "80",
  ]);
  // What the browser loaded for it is the preview.
  const loaded = await preview.evaluate((img: HTMLImageElement) => img.currentSrc);
  expect(new URL(loaded).pathname).toBe(`${original}/thumbnail`);
  const thumbnail = await admin.page.request.get(`${original}/thumbnail`);
  expect(thumbnail.headers()["content-type"]).toBe("image/webp");
  expect(thumbnail.headers()["x-content-type-options"]).toBe("nosniff");
  expect(thumbnail.headers()["cache-control"]).toBe("private, no-store");
  // The file itself, served as the file it is, never as a page of the site.
  const served = await admin.page.request.get(original!);
  expect(served.headers()["content-type"]).toBe("image/png");
  expect(served.headers()["x-content-type-options"]).toBe("nosniff");
  // Its own policy alone (not the pages' as well): nothing in it runs, in a sandbox of its own origin.
  expect(served.headers()["content-security-policy"]).toBe(
    "default-src 'none'; img-src 'self'; style-src 'unsafe-inline'; sandbox; frame-ancestors 'self'",
  );
  expect(served.headers()["content-disposition"]).toBe('inline; filename="cashplus-receipt.png"');

  await row.getByRole("button", { name: `Approve ${reference}` }).click();
  await expect(admin.page.getByRole("status")).toHaveText(
    `Top-up ${reference} approved: coins credited.`,
  );

  // The customer has the coins, and the payment receipt in the billing tab.
  await visit(page, "/dashboard?tab=billing");
  await expect(page.getByRole("button", { name: /^Coin balance: 10\.00 coins/ })).toBeVisible();
  const documents = page.getByRole("table", { name: "Invoices and receipts" });
  const receipt = documents.getByRole("link", { name: /^HFR-\d{4}-\d{6}$/ });
  await expect(receipt).toHaveCount(1);
  const number = (await receipt.textContent())!;
  await receipt.click();
  await expect(page).toHaveURL(new RegExp(`/invoices/${number}$`));
  const document = page.getByTestId("document");
  await expect(document.getByRole("heading", { level: 1 })).toHaveText(`Payment receipt ${number}`);
  await expect(document.getByTestId("document-total")).toHaveText("€10.00");
  await expect(document).toContainText(reference);
  // Beside the coins, the money as it was sent: 10 coins at 11.00 MAD, from the payer's phone.
  const payment = document.getByTestId("document-payment");
  for (const text of ["Amount sent", "MAD 110.00", "cashPlus", "0611 987 654", "Coins credited"])
    await expect(payment, text).toContainText(text);
  // The receipt downloads as a PDF, read back by a parser (pdf.js).
  const pdf = await downloadPdf(page, "Download PDF");
  expect(pdf.name).toBe(`${number}.pdf`);
  const text = (await readPdf(new Uint8Array(pdf.bytes))).text;
  for (const expected of [`Payment receipt ${number}`, reference, "€10.00"])
    expect(text, expected).toContain(expected);

  // In Arabic on a 390 px phone: right to left, nothing wider than the screen, the number on one line.
  await page.setViewportSize({ width: 390, height: 800 });
  await visit(page, `/invoices/${number}?lang=ar`);
  await expect(page.locator("html")).toHaveAttribute("dir", "rtl");
  await expect(document.getByTestId("document-payment")).toContainText("المبلغ المرسل");
  const sideways = await page.evaluate(() => {
    const root = window.document.documentElement;
    return root.scrollWidth - root.clientWidth;
  });
  expect(sideways).toBe(0);
  const numberBox = (await document
    .getByRole("heading", { level: 1 })
    .getByText(number)
    .boundingBox())!;
  const lineHeight = await document
    .getByRole("heading", { level: 1 })
    .evaluate((heading) => parseFloat(getComputedStyle(heading).lineHeight));
  expect(numberBox.height).toBeLessThan(lineHeight * 1.5);
  await page.screenshot({ path: "/tmp/hr/receipt-ar-390.png", fullPage: true });

  // Another customer asking for the file or its preview gets nothing.
  const outsider = await newCustomerSignedIn(browser, { name: "Not The Owner" });
  expect((await outsider.page.request.get(original!)).status()).toBe(404);
  expect((await outsider.page.request.get(`${original}/thumbnail`)).status()).toBe(404);

  await outsider.context.close();
  await admin.context.close();
  await buyer.context.close();
});
