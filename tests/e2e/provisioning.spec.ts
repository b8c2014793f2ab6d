import { randomBytes } from "node:crypto";
import { startFakePanel, type FakePanel } from "../support/fake-pterodactyl";
import {
  ADMIN_EMAIL,
  ADMIN_PASSWORD,
  newCustomerSignedIn,
  signedIn,
  toast,
  visit,
  expect,
  test,
} from "./fixtures";

// The game panel as people meet it: the admin connects the game panel and checks it, gives a product a
// provisioning block, a customer orders it on a phone-sized page, the admin approves, and the customer
// sees the server's address and the panel's link once the (fake) panel says it is installed. The fake
// panel runs in this test's process; the server's worker calls it over loopback.

let panel: FakePanel;
test.beforeAll(async () => {
  panel = await startFakePanel({ installReads: 1 });
});
test.afterAll(async () => {
  await panel.close();
});

test("an approved order becomes a server on the game panel, and the customer sees its address", async ({
  browser,
}) => {
  test.setTimeout(120_000);
  const tag = randomBytes(3).toString("hex").toUpperCase();
  const name = `Panel SA-MP ${tag}`;
  const admin = await signedIn(browser, ADMIN_EMAIL, ADMIN_PASSWORD);

  // The connection: saved, checked by the worker, the order form's location mapped. The fake panel
  // is on 127.0.0.1, which is refused unless a panel on the local network is allowed.
  await visit(admin.page, "/admin/settings/game-panel");
  await admin.page.getByLabel("Allow a game panel on the local network").check();
  await admin.page.getByRole("button", { name: "Save the local network setting" }).click();
  await expect(
    admin.page.getByText(/The local network setting is saved\.|Nothing changed\./),
  ).toBeVisible();
  await expect(admin.page.getByLabel("Allow a game panel on the local network")).toBeChecked();
  await admin.page.getByLabel("Panel address").fill(panel.url);
  await admin.page.getByLabel("Application API key").fill(panel.apiKey);
  await admin.page.getByRole("button", { name: "Save", exact: true }).click();
  await expect(admin.page.getByText("Game panel saved.")).toBeVisible();
  await expect(admin.page.getByLabel("Application API key")).toHaveValue("");
  await expect(
    admin.page.getByText(`A key ending in ${panel.apiKey.slice(-4)} is saved.`),
  ).toBeVisible();
  await expect(
    admin.page.getByText("It is only ever sent to the address it was saved with"),
  ).toBeVisible();
  await admin.page.getByRole("button", { name: "Check connection" }).click();
  // The page looks again by itself until the job has run.
  await expect(admin.page.getByTestId("panel-snapshot")).toContainText("de-fsn-1", {
    timeout: 15_000,
  });
  await admin.page
    .getByLabel("Panel location for Frankfurt")
    .selectOption({ label: "de (Germany (Falkenstein))" });
  await admin.page.getByRole("button", { name: "Save", exact: true }).click();
  await expect(admin.page.getByText("Game panel saved.")).toBeVisible();

  // A product made on the panel: created, then given the SA-MP egg and its variables.
  await visit(admin.page, "/admin/products");
  await admin.page.getByRole("link", { name: "New product" }).click();
  const form = admin.page.getByRole("main");
  await form.getByLabel("Name", { exact: true }).fill(name);
  await form.getByLabel("Type", { exact: true }).selectOption("samp");
  await form
    .getByLabel("Description", { exact: true })
    .fill("Made on the panel by the browser test");
  await form.getByLabel("Price per month (€)").fill("3");
  await form.getByRole("button", { name: "Create product" }).click();
  await expect(admin.page.getByRole("status")).toHaveText("Product created");
  await admin.page.getByRole("link", { name: `Edit ${name}` }).click();
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
  await form.getByRole("button", { name: "Save changes" }).click();
  await expect(admin.page.getByRole("status")).toHaveText("Product saved");
  await expect(admin.page.getByRole("row", { name: new RegExp(name) })).toContainText(
    "Pterodactyl",
  );

  // A customer on a phone orders it with coins the admin added.
  const buyer = await newCustomerSignedIn(
    browser,
    { name: "Yassine Panel" },
    { viewport: { width: 390, height: 844 } },
  );
  const { customer } = buyer;
  await visit(admin.page, `/admin/clients?q=${encodeURIComponent(customer.email)}`);
  await admin.page.getByText("Add or remove coins").click();
  await admin.page.getByLabel("Amount (negative removes)").fill("10");
  await admin.page.getByLabel("Reason").fill("Paid by Orange Money");
  await admin.page.getByRole("button", { name: "Save" }).click();
  await expect(admin.page.getByRole("status")).toHaveText("Coins updated successfully");

  await visit(buyer.page, "/order");
  await buyer.page.getByLabel("Service").selectOption({ label: `${name} — €3.00/month` });
  await buyer.page.getByLabel("Server name").fill("Yassine RP");
  await buyer.page.getByRole("button", { name: "Place order" }).click();
  await expect(
    toast(buyer.page, "Order submitted successfully! It's now pending admin approval."),
  ).toBeVisible();

  await visit(admin.page, "/admin/orders?status=pending");
  await admin.page
    .getByRole("row", { name: new RegExp(customer.email.replace(/[.+]/g, "\\$&")) })
    .getByRole("button", { name: "Approve" })
    .click();
  await expect(admin.page.getByRole("status")).toContainText("approved");

  // The worker makes the server and watches its install; the dashboard shows it when ready.
  await expect(async () => {
    await visit(buyer.page, "/dashboard?tab=services");
    await expect(buyer.page.getByText("Open game panel")).toBeVisible({ timeout: 1000 });
  }).toPass({ timeout: 30_000 });
  const server = panel.servers.find((each) => each.name === "Yassine RP")!;
  expect(server.externalId).toMatch(/^hf-svc-\d+$/);
  expect(server.memory).toBe(1024);
  expect(server.environment.RCON_PASS).toMatch(/^[A-Za-z0-9]{16}$/);
  const [allocation] = panel.allocationsOf(server.id);
  const address = `${allocation!.alias ?? allocation!.ip}:${allocation!.port}`;
  await expect(buyer.page.getByText(address, { exact: true })).toBeVisible();
  await expect(buyer.page.getByRole("link", { name: "Open game panel" })).toHaveAttribute(
    "href",
    `${panel.url}/server/${server.identifier}`,
  );
  // The panel is another site: a new tab. The footer's "Game Panel" goes there too.
  await expect(buyer.page.getByRole("link", { name: "Open game panel" })).toHaveAttribute(
    "target",
    "_blank",
  );
  await expect(buyer.page.getByText("The first time, choose your password")).toBeVisible();
  await expect(
    buyer.page.locator("footer").getByRole("link", { name: "Game Panel" }),
  ).toHaveAttribute("href", panel.url);
  await expect(
    buyer.page.getByRole("button", { name: `Copy the address ${address}` }),
  ).toBeVisible();

  // The admin's view of it: ready, with the calls made.
  const serviceId = Number(server.externalId!.slice("hf-svc-".length));
  await visit(admin.page, `/admin/services/${serviceId}/panel`);
  await expect(admin.page.getByTestId("panel-state")).toHaveText("Ready");
  await expect(admin.page.getByTestId("panel-calls")).toContainText(
    "POST /api/application/servers",
  );
  await expect(admin.page.getByTestId("panel-calls")).not.toContainText(panel.apiKey);

  await admin.context.close();
  await buyer.context.close();
});
