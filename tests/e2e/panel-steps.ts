import type { Page } from "@playwright/test";
import type { FakePanel } from "../support/fake-pterodactyl";
import { expect, visit } from "./fixtures";

// The admin's steps that put the game panel to work, as provisioning.spec.ts walks them and
// instant-setup.spec.ts reuses them: connect the (fake) panel, then make a product set up on it.

/**
 * The connection: saved, checked by the worker, the order form's location mapped. The fake panel is on
 * 127.0.0.1, which is refused unless a panel on the local network is allowed.
 */
export async function connectFakePanel(admin: Page, panel: FakePanel) {
  await visit(admin, "/admin/settings/game-panel");
  await admin.getByLabel("Allow a game panel on the local network").check();
  await admin.getByRole("button", { name: "Save the local network setting" }).click();
  await expect(
    admin.getByText(/The local network setting is saved\.|Nothing changed\./),
  ).toBeVisible();
  await expect(admin.getByLabel("Allow a game panel on the local network")).toBeChecked();
  await admin.getByLabel("Panel address").fill(panel.url);
  await admin.getByLabel("Application API key").fill(panel.apiKey);
  await admin.getByRole("button", { name: "Save", exact: true }).click();
  await expect(admin.getByText("Game panel saved.")).toBeVisible();
  await expect(admin.getByLabel("Application API key")).toHaveValue("");
  await expect(
    admin.getByText(`A key ending in ${panel.apiKey.slice(-4)} is saved.`),
  ).toBeVisible();
  await expect(
    admin.getByText("It is only ever sent to the address it was saved with"),
  ).toBeVisible();
  await admin.getByRole("button", { name: "Check connection" }).click();
  // The page looks again by itself until the job has run.
  await expect(admin.getByTestId("panel-snapshot")).toContainText("de-fsn-1", {
    timeout: 15_000,
  });
  await admin
    .getByLabel("Panel location for Frankfurt")
    .selectOption({ label: "de (Germany (Falkenstein))" });
  await admin.getByRole("button", { name: "Save", exact: true }).click();
  await expect(admin.getByText("Game panel saved.")).toBeVisible();
}

/**
 * A SA-MP product at €3.00 a month made on the panel: created, then given the SA-MP egg and its
 * variables; `activateWhenPaid` ticks "Activate as soon as it is paid" in the same save.
 */
export async function createPanelProduct(
  admin: Page,
  name: string,
  options: { activateWhenPaid?: boolean } = {},
) {
  await visit(admin, "/admin/products");
  await admin.getByRole("link", { name: "New product" }).click();
  const form = admin.getByRole("main");
  await form.getByLabel("Name", { exact: true }).fill(name);
  await form.getByLabel("Type", { exact: true }).selectOption("samp");
  await form
    .getByLabel("Description", { exact: true })
    .fill("Made on the panel by the browser test");
  await form.getByLabel("Price per month (€)").fill("3");
  await form.getByRole("button", { name: "Create product" }).click();
  await expect(admin.getByRole("status")).toHaveText("Product created");
  await admin.getByRole("link", { name: `Edit ${name}` }).click();
  await form.getByLabel("Egg", { exact: true }).selectOption({ label: "GTA San Andreas: SA-MP" });
  await form.getByRole("button", { name: "Choose egg" }).click();
  await expect(form.getByLabel("Rcon password (RCON_PASS)")).toBeVisible();
  await form.getByLabel("How servers are set up").selectOption("pterodactyl");
  await form.getByLabel("Memory (MB)").fill("1024");
  await form.getByLabel("Disk (MB)").fill("5120");
  await form.getByLabel("Variable that takes the order's slots").selectOption("MAX_PLAYERS");
  // The RCON password starts drawn for each server: the same one on every server would open each
  // customer's server to the others.
  await expect(form.getByLabel("Rcon password: a new random value for each server")).toBeChecked();
  // The egg's rules are checked on save: VERSION is required.
  await form.getByLabel("Version (VERSION)", { exact: true }).fill("");
  await form.getByRole("button", { name: "Save changes" }).click();
  await expect(form.getByRole("status")).toContainText("not saved");
  await form.getByLabel("Version (VERSION)", { exact: true }).fill("0.3.7");
  if (options.activateWhenPaid) await form.getByLabel("Activate as soon as it is paid").check();
  await form.getByRole("button", { name: "Save changes" }).click();
  await expect(admin.getByRole("status")).toHaveText("Product saved");
  const row = admin.getByRole("row", { name: new RegExp(name) });
  await expect(row).toContainText("Pterodactyl");
  if (options.activateWhenPaid) await expect(row).toContainText("Activates when paid");
}
