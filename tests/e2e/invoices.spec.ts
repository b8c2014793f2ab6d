import { readPdf } from "../support/pdf-text";
import {
  ADMIN_EMAIL,
  ADMIN_PASSWORD,
  downloadPdf,
  expect,
  newCustomerSignedIn,
  signedIn,
  test,
  visit,
} from "./fixtures";

test("a customer's order gets an invoice they open from the billing tab; an admin finds it and refunds it", async ({
  browser,
}) => {
  test.setTimeout(90_000);
  // Registered and signed in over HTTP now; the customer's pages come once the admin has given coins.
  const buyer = await newCustomerSignedIn(browser, { name: "Salma Invoice" });
  const customer = buyer.customer;

  // The admin gives the customer coins to spend.
  const admin = await signedIn(browser, ADMIN_EMAIL, ADMIN_PASSWORD);
  await visit(admin.page, `/admin/clients?q=${encodeURIComponent(customer.email)}`);
  await admin.page.getByText("Add or remove coins").click();
  await admin.page.getByLabel("Amount (negative removes)").fill("50");
  await admin.page.getByLabel("Reason").fill("Paid by Orange Money");
  await admin.page.getByRole("button", { name: "Save" }).click();
  await expect(admin.page.getByRole("status")).toHaveText("Coins updated successfully");

  // The customer fills in their billing details: Morocco, so the invoice carries its VAT.
  await visit(buyer.page, "/dashboard?tab=account");
  await buyer.page.getByLabel("Name on invoices").fill("Atlas Gaming SARL");
  await buyer.page.getByLabel("Billing address").fill("12 rue des Oudayas\nRabat");
  await buyer.page.getByLabel("Country").selectOption("MA");
  await buyer.page.getByRole("button", { name: "Save billing details" }).click();
  await expect(buyer.page.getByText("Billing details saved.")).toBeVisible();

  await visit(buyer.page, "/order");
  await buyer.page.getByLabel("Service").selectOption({ label: "VPS Business — €12.00/month" });
  await expect(buyer.page.getByTestId("vat-note")).toHaveText(
    "Prices include VAT where it applies.",
  );
  // Morocco's 20% inside the €12.00, as the invoice will write it.
  await expect(buyer.page.getByTestId("vat-included")).toHaveText("Including €2.00 VAT (20%).");
  await expect(buyer.page.getByTestId("order-total")).toHaveText("€12.00");
  await buyer.page.getByLabel("Server name").fill("Salma's VPS");
  await buyer.page.getByRole("button", { name: "Place order" }).click();
  await expect(buyer.page).toHaveURL(/\/dashboard\/billing$/);

  const invoices = buyer.page.getByRole("table", { name: "Invoices and receipts" });
  const link = invoices.getByRole("link", { name: /^HF-\d{4}-\d{6}$/ });
  await expect(link).toHaveCount(1);
  const number = (await link.textContent())!;
  await expect(invoices.getByText("Paid", { exact: true })).toBeVisible();
  await link.click();
  await expect(buyer.page).toHaveURL(new RegExp(`/invoices/${number}$`));
  const invoice = buyer.page.getByTestId("document");
  await expect(invoice.getByRole("heading", { level: 1 })).toHaveText(`Invoice ${number}`);
  await expect(invoice.getByText("Atlas Gaming SARL")).toBeVisible();
  await expect(invoice.getByText("Morocco")).toBeVisible();
  // €12.00 including 20% VAT: 10.00 + 2.00.
  await expect(invoice.getByText("VAT 20%")).toBeVisible();
  await expect(invoice.getByTestId("document-total")).toHaveText("€12.00");
  await expect(invoice.getByText("Subtotal (excl. VAT)")).toBeVisible();

  // The same invoice as a PDF, read back by a parser (pdf.js), not by the browser.
  const pdf = await downloadPdf(buyer.page, "Download PDF");
  expect(pdf.name).toBe(`${number}.pdf`);
  expect(pdf.bytes.subarray(0, 5).toString("latin1")).toBe("%PDF-");
  const english = await readPdf(new Uint8Array(pdf.bytes));
  for (const text of [`Invoice ${number}`, "Atlas Gaming SARL", "Morocco", "VAT 20%", "€12.00"])
    expect(english.text, text).toContain(text);
  // In Arabic once the customer reads the site in Arabic: its words come back as typed, right to left.
  await visit(buyer.page, `/invoices/${number}?lang=ar`);
  const arabic = await readPdf(
    new Uint8Array((await downloadPdf(buyer.page, "تنزيل ملف PDF")).bytes),
  );
  const items = arabic.items.map((item) => item.text.normalize("NFKC"));
  for (const text of ["فاتورة", "المغرب", "الضريبة على القيمة المضافة", "12,00 €", number])
    expect(items, text).toContain(text);
  expect(arabic.text).toContain("VPS Business");
  const title = arabic.items.find((item) => item.text === "فاتورة")!;
  const titleNumber = arabic.items.find((item) => item.text === number)!;
  expect(title.x).toBeGreaterThan(titleNumber.x);

  // The admin approves the order, then finds the invoice by the customer's email, opens it and records
  // the money sent back (a pending order is rejected instead, which credits its invoice by itself).
  await visit(admin.page, "/admin/orders?status=pending");
  await admin.page
    .getByRole("row", { name: new RegExp(customer.email.replace(/[.+]/g, "\\$&")) })
    .getByRole("button", { name: "Approve" })
    .click();
  await expect(admin.page.getByRole("status")).toContainText("approved");
  // The admin finds it by the customer's email, opens it and records the money sent back.
  await visit(admin.page, `/admin/invoices?q=${encodeURIComponent(customer.email)}`);
  const row = admin.page.getByRole("row", { name: new RegExp(number) });
  await expect(row).toBeVisible();
  await row.getByRole("link", { name: number }).click();
  await expect(admin.page).toHaveURL(new RegExp(`/invoices/${number}$`));
  await admin.page.getByLabel("How the money goes back").selectOption("outside");
  await admin.page.getByLabel("Reason").fill("Sent back by bank transfer");
  await admin.page.getByRole("button", { name: "Record the refund" }).click();
  await expect(
    admin.page.getByText(/^Refund recorded: credit note HFC-\d{4}-\d{6}\.$/),
  ).toBeVisible();

  // The customer sees the invoice credited, and its credit note beside it (back in English: the
  // Arabic page above made Arabic their saved language).
  await visit(buyer.page, "/dashboard?tab=billing&lang=en");
  await expect(invoices.getByText("Credited", { exact: true })).toBeVisible();
  await expect(invoices.getByRole("link", { name: /^HFC-\d{4}-\d{6}$/ })).toHaveCount(1);

  // Another customer is shown no such page.
  const outsider = await newCustomerSignedIn(browser, { name: "Someone Else" });
  const response = await outsider.page.goto(`/invoices/${number}`);
  expect(response?.status()).toBe(404);

  await outsider.context.close();
  await admin.context.close();
  await buyer.context.close();
});
