import type { Page } from "@playwright/test";
import sharp from "sharp";
import { expect, visit } from "./fixtures";

/**
 * The admin writes where to pay with Inwi Money and switches it on at 11.00 MAD a coin, no fee, through
 * /admin/gateways. Inwi Money rather than Orange Money: admin-gateways.spec.ts, which may run beside
 * these tests on the same database, expects Orange Money disabled when it starts.
 */
export async function openInwiMoney(admin: Page) {
  await visit(admin, "/admin/gateways");
  const inwi = admin.getByRole("row", { name: /Inwi Money/ });
  await inwi.getByRole("link", { name: "Edit Inwi Money" }).click();
  const form = admin.getByRole("main");
  await form
    .getByRole("group", { name: "English" })
    .getByLabel("Instructions")
    .fill("Send to 0700 000 000 (Hostfront SARL), writing your reference.");
  await form.getByLabel("Dirhams per coin (MAD)").fill("11.00");
  await form.getByLabel("Enabled", { exact: true }).check();
  await form.getByRole("button", { name: "Save changes" }).click();
  await expect(admin.getByRole("status")).toHaveText("Payment method saved");
}

/**
 * "I have paid" on the customer's open top-up: the payer's phone, the day (today, already filled in)
 * and a screenshot.
 */
export async function sayPaid(page: Page) {
  await page.getByLabel("Phone number or account that paid").fill("0611 222 333");
  await page.getByLabel("Proof of payment").setInputFiles({
    name: "inwi.png",
    mimeType: "image/png",
    buffer: await sharp({ create: { width: 40, height: 40, channels: 3, background: "#f97316" } })
      .png()
      .toBuffer(),
  });
  await page.getByRole("button", { name: "I have paid" }).click();
  await expect(page.getByRole("main").getByRole("status")).toHaveText(
    "Thank you: an admin will check your payment.",
  );
  await expect(page.getByText("Paid, being checked")).toBeVisible();
}
