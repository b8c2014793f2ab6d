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
import { connectFakePanel, createPanelProduct } from "./panel-steps";

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

  // The connection (panel-steps.ts): saved, checked by the worker, the order form's location mapped.
  await connectFakePanel(admin.page, panel);

  // A product made on the panel: created, then given the SA-MP egg and its variables.
  await createPanelProduct(admin.page, name);

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
