import { randomBytes } from "node:crypto";
import type { Page } from "@playwright/test";
import { startFakeSampServer, type FakeGameServer } from "../support/fake-game-query";
import { startFakePanel, type FakePanel } from "../support/fake-pterodactyl";
import { startOwnServer, type OwnServer } from "../support/own-server";
import { e2eFolder } from "../support/scratch";
import {
  ADMIN_EMAIL,
  ADMIN_PASSWORD,
  AUTH_SECRET,
  expect,
  newCustomerSignedIn,
  noHorizontalScroll,
  signedIn,
  test,
  toast,
  visit,
} from "./fixtures";
import { connectFakePanel, createPanelProduct } from "./panel-steps";

// A provisioned server in its customer's hands, on a phone: its state and players, a restart watched as
// the state moves, a new game panel password, the SFTP details; and what another customer, or the same
// one once the service is suspended, is refused. The server is one of this spec's own (its worker calls
// the fake panel of this process over loopback); the game is a fake SA-MP server answering the query on
// 127.0.0.1, where the panel's only free allocation of the mapped location is, so the order lands there.

test.describe.configure({ mode: "serial" });

const PHONE = { width: 390, height: 844 };

let server: OwnServer | undefined;
let panel: FakePanel | undefined;
let game: FakeGameServer<unknown, string> | undefined;

test.beforeAll(async () => {
  test.setTimeout(120_000);
  game = (await startFakeSampServer({
    name: "Salma Roleplay",
    online: 7,
    max: 50,
  })) as unknown as FakeGameServer<unknown, string>;
  panel = await startFakePanel({ installReads: 1, powerReads: 1 });
  // A location of its own whose one node has one allocation: the fake game's address.
  const location = panel.addLocation("lo", "Loopback");
  const node = panel.addNode({ name: "lo-1", locationId: location.id, memory: 8192, disk: 50_000 });
  panel.addAllocations(node.id, "127.0.0.1", [game.gamePort]);
  server = await startOwnServer({
    folder: e2eFolder(`e2e-server-control-${process.env.E2E_PORT ?? 3210}`),
    env: {
      ADMIN_EMAIL,
      ADMIN_PASSWORD,
      AUTH_SECRET,
      WORKER_POLL_MS: "100",
      PANEL_POLL_MS: "300",
    },
  });
});

test.afterAll(async () => {
  await server?.stop();
  await panel?.close();
  await game?.close();
});

/** The client key beside the application key, and the order form's Frankfurt mapped to the loopback node. */
async function connectForServerControl(admin: Page, fake: FakePanel) {
  await connectFakePanel(admin, fake);
  await visit(admin, "/admin/settings/game-panel");
  await admin.getByLabel("Client API key (optional)").fill(fake.clientApiKey);
  await admin.getByLabel("Panel location for Frankfurt").selectOption({ label: "lo (Loopback)" });
  await admin.getByRole("button", { name: "Save", exact: true }).click();
  await expect(admin.getByText("Game panel saved.")).toBeVisible();
  await expect(
    admin.getByText(`A client key ending in ${fake.clientApiKey.slice(-4)} is saved.`),
  ).toBeVisible();
}

test("a customer on a phone sees their server run with its players, restarts it, sets a panel password and reads SFTP", async ({
  browser,
}) => {
  test.setTimeout(180_000);
  const base = server!.url;
  const tag = randomBytes(3).toString("hex").toUpperCase();
  const product = `Control SA-MP ${tag}`;
  const admin = await signedIn(browser, ADMIN_EMAIL, ADMIN_PASSWORD, { baseURL: base });
  await connectForServerControl(admin.page, panel!);
  await createPanelProduct(admin.page, product);

  // The customer orders it with coins the admin added; the admin approves; the worker makes it.
  const buyer = await newCustomerSignedIn(
    browser,
    { name: "Salma Control" },
    { baseURL: base, viewport: PHONE },
  );
  const page = buyer.page;
  await visit(admin.page, `/admin/clients?q=${encodeURIComponent(buyer.customer.email)}`);
  await admin.page.getByText("Add or remove coins").click();
  await admin.page.getByLabel("Amount (negative removes)").fill("10");
  await admin.page.getByLabel("Reason").fill("Paid by Orange Money");
  await admin.page.getByRole("button", { name: "Save" }).click();
  await expect(admin.page.getByRole("status")).toHaveText("Coins updated successfully");
  await visit(page, "/order");
  await page.getByLabel("Service").selectOption({ label: `${product} — €3.00/month` });
  await page.getByLabel("Server name").fill("Salma RP");
  await page.getByRole("button", { name: "Place order" }).click();
  await expect(
    toast(page, "Order submitted successfully! It's now pending admin approval."),
  ).toBeVisible();
  await visit(admin.page, "/admin/orders?status=pending");
  await admin.page
    .getByRole("row", { name: new RegExp(buyer.customer.email.replace(/[.+]/g, "\\$&")) })
    .getByRole("button", { name: "Approve" })
    .click();
  await expect(admin.page.getByRole("status")).toContainText("approved");

  // Ready: the services tab leads to the server's page.
  await expect(async () => {
    await visit(page, "/dashboard/services");
    await expect(page.getByRole("link", { name: /^Manage server/ })).toBeVisible({
      timeout: 1000,
    });
  }).toPass({ timeout: 30_000 });
  const made = panel!.servers.find((each) => each.name === "Salma RP")!;
  panel!.setPowerState(made.id, "running");
  await page.getByRole("link", { name: /^Manage server/ }).click();
  await expect(page).toHaveURL(/\/dashboard\/services\/\d+$/);
  const serviceUrl = new URL(page.url()).pathname;

  // Its state, read by the worker and refreshed while the page is open, and its players.
  const card = page.getByTestId("server-control");
  await expect(card.getByTestId("server-state")).toHaveText("Running", { timeout: 30_000 });
  await expect(card).toContainText("7 / 50");
  await expect(card).toContainText("Salma Roleplay");
  await expect(card).toContainText(/Updated \d+ s ago/);

  // Restart: the state moves (the fake panel takes one read a step) and comes back to running.
  await page.getByRole("button", { name: "Restart" }).click();
  await expect(page.getByText("Asked: the server does it in a moment.")).toBeVisible();
  await expect(card.getByTestId("server-state")).toHaveText(/Stopping|Starting/, {
    timeout: 30_000,
  });
  await expect(card.getByTestId("server-state")).toHaveText("Running", { timeout: 30_000 });
  await expect(card).toContainText(/Last request: Restart · done/);

  // A new game panel and SFTP password, shown once, set on the panel by the worker.
  await page.getByRole("button", { name: "Set a new game panel and SFTP password" }).click();
  const shown = page.locator("#server-new-password-value");
  await expect(shown).toBeVisible();
  const password = (await shown.textContent())!.trim();
  expect(password).toMatch(/^[A-Za-z0-9]{16,}$/);
  await expect(page.getByText("Copy it now: it will not be shown again.")).toBeVisible();
  await expect.poll(() => panel!.userPassword(made.userId), { timeout: 30_000 }).toBe(password);
  await page.reload();
  await expect(page.getByText(password)).toHaveCount(0);

  // SFTP: the node's address and port, and <panel username>.<short identifier>, each with Copy.
  const access = page.getByTestId("server-sftp");
  await expect(access).toContainText(`.${made.identifier}`, { timeout: 30_000 });
  await expect(page.getByRole("button", { name: "Copy the SFTP username" })).toBeVisible();
  await expect(page.getByRole("link", { name: /Console/ })).toHaveAttribute(
    "href",
    `${panel!.url}/server/${made.identifier}`,
  );

  // The whole page fits the phone, in English and in Arabic (right to left, the figures left to right).
  expect(await noHorizontalScroll(page)).toBe(true);
  await visit(page, `${serviceUrl}?lang=ar`);
  await expect(page.locator("html")).toHaveAttribute("dir", "rtl");
  await expect(card.getByTestId("server-state")).toHaveText("يعمل");
  expect(await noHorizontalScroll(page)).toBe(true);
  await page.screenshot({ path: test.info().outputPath("server-page-ar.png"), fullPage: true });
  await visit(page, `${serviceUrl}?lang=en`);

  // Another customer asks for this server's state and power: not found, and nothing is sent.
  const other = await newCustomerSignedIn(browser, { name: "Other Customer" }, { baseURL: base });
  const status = await other.context.request.get(`${serviceUrl}/status`);
  expect(status.status()).toBe(404);
  const power = await other.context.request.post(serviceUrl, {
    form: { intent: "power", signal: "stop" },
    maxRedirects: 0,
  });
  expect(power.status()).toBe(404);
  expect(panel!.powerState(made.id)).toBe("running");

  // Staff see the same card and access from the service's admin page.
  const serviceId = Number(made.externalId!.slice("hf-svc-".length));
  await visit(admin.page, `/admin/services/${serviceId}/panel`);
  await expect(admin.page.getByTestId("server-state")).toHaveText("Running");
  await expect(admin.page.getByTestId("server-sftp")).toContainText(`.${made.identifier}`);
  await expect(admin.page.getByRole("button", { name: "Restart" })).toBeEnabled();

  // Suspended by the admin, the server's power is refused to its customer.
  await visit(admin.page, `/admin/services?q=${encodeURIComponent(buyer.customer.email)}`);
  await admin.page.getByRole("button", { name: "Suspend", exact: true }).click();
  await expect(admin.page.getByRole("status")).toHaveText("Service suspended successfully");
  await visit(page, serviceUrl);
  await expect(page.getByRole("button", { name: "Restart" })).toBeDisabled();
  await expect(
    page.getByText("This server is suspended: it cannot be started or changed.").first(),
  ).toBeVisible();
  const refused = await buyer.context.request.post(serviceUrl, {
    form: { intent: "power", signal: "start" },
    maxRedirects: 0,
  });
  expect(refused.status()).toBe(409);
  expect(serviceId).toBeGreaterThan(0);

  await other.context.close();
  await admin.context.close();
  await buyer.context.close();
});
