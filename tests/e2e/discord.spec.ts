import Database from "better-sqlite3";
import type { Page } from "@playwright/test";
import { startFakeDiscordApi, type FakeDiscordApi } from "../support/fake-discord-api";
import { startOwnServer, type OwnServer } from "../support/own-server";
import { e2eFolder } from "../support/scratch";
import {
  ADMIN_EMAIL,
  ADMIN_PASSWORD,
  AUTH_SECRET,
  expect,
  expectAccessible,
  newCustomerSignedIn,
  noHorizontalScroll,
  signedIn,
  test,
  visit,
  waitForPage,
} from "./fixtures";

// Discord on a phone (docs/discord.md): a customer links Discord from the account tab through the
// stand-in's authorize page, signs out and back in with Discord into the same account; a Discord user
// whose address is registered already is refused and no second account is made; the client role
// follows the service (approved: given; suspended: taken back), the server's own worker running the
// jobs against the stand-in. The server is the spec's own: it is the only one configured for Discord.

test.describe.configure({ mode: "serial" });

const PHONE = { width: 360, height: 740 };
const GUILD = "910000000000000001";
const ROLE = "910000000000000002";

let server: OwnServer | undefined;
let discord: FakeDiscordApi | undefined;

test.beforeAll(async () => {
  test.setTimeout(120_000);
  discord = await startFakeDiscordApi();
  server = await startOwnServer({
    folder: e2eFolder(`e2e-discord-${process.env.E2E_PORT ?? 3210}`),
    env: {
      ADMIN_EMAIL,
      ADMIN_PASSWORD,
      AUTH_SECRET,
      WORKER_POLL_MS: "100",
      DISCORD_CLIENT_ID: discord.clientId,
      DISCORD_CLIENT_SECRET: discord.clientSecret,
      DISCORD_BASE_URL: discord.url,
    },
  });
});

test.afterAll(async () => {
  await server?.stop();
  await discord?.close();
});

/** Accounts with `email` in the server's database. */
function accountsWith(email: string): number {
  const db = new Database(server!.databaseFile, { readonly: true });
  try {
    const row = db.prepare("select count(*) as n from users where email = ?").get(email) as {
      n: number;
    };
    return row.n;
  } finally {
    db.close();
  }
}

/** On the stand-in's authorize page, the person authorizes as `username`. */
async function authorizeAs(page: Page, username: string) {
  await expect(page).toHaveURL(new RegExp(`^${discord!.url}/oauth2/authorize`));
  await page.getByRole("link", { name: `Authorize as ${username}` }).click();
}

test("a customer links Discord, signs in with it, and holds the role while their service is active", async ({
  browser,
}) => {
  test.setTimeout(180_000);
  const base = server!.url;
  const admin = await signedIn(browser, ADMIN_EMAIL, ADMIN_PASSWORD, { baseURL: base });

  // The staff save the role's bot, server and role.
  await visit(admin.page, "/admin/settings/discord");
  await admin.page.getByLabel("Server (guild) ID").fill(GUILD);
  await admin.page.getByLabel("Role ID").fill(ROLE);
  await admin.page.getByLabel("Bot token", { exact: true }).fill(discord!.botToken);
  await admin.page.getByRole("button", { name: "Save" }).click();
  await expect(admin.page.getByText("Discord role settings saved.")).toBeVisible();

  // A customer with a password links Discord from the account tab, on a phone.
  const buyer = await newCustomerSignedIn(
    browser,
    { name: "Imane Discord" },
    { baseURL: base, viewport: PHONE },
  );
  const { page, customer } = buyer;
  const gamer = {
    id: "710000000000000001",
    username: "imane_rp",
    global_name: "Imane",
    email: "imane.discord@example.com",
    verified: true,
  };
  discord!.addUser(gamer);
  discord!.addMember(GUILD, gamer.id);
  await visit(page, "/dashboard/account");
  const card = page.getByTestId("discord-card");
  await expect(card).toContainText("No Discord account is linked.");
  await card.getByRole("button", { name: "Link Discord" }).click();
  await authorizeAs(page, gamer.username);
  await waitForPage(page);
  await expect(page).toHaveURL(/\/dashboard\/account\?discord=linked$/);
  await expect(card).toContainText("Discord is linked. You can now sign in with it.");
  await expect(card).toContainText(gamer.id);
  expect(await noHorizontalScroll(page)).toBe(true);
  await expectAccessible(page);

  // Signed out, they sign in with Discord and land in their own account.
  await page.goto(`${base}/login`);
  await buyer.context.clearCookies();
  await visit(page, "/login");
  await page.getByRole("button", { name: "Sign in with Discord" }).click();
  await authorizeAs(page, gamer.username);
  await waitForPage(page);
  await expect(page).toHaveURL(/\/dashboard$/);
  await visit(page, "/dashboard/account");
  await expect(page.getByLabel("Email", { exact: true })).toHaveValue(customer.email);
  expect(accountsWith(gamer.email)).toBe(0);

  // The role follows the service: ordered and approved, given; suspended, taken back.
  await visit(admin.page, `/admin/clients?q=${encodeURIComponent(customer.email)}`);
  await admin.page.getByText("Add or remove coins").click();
  await admin.page.getByLabel("Amount (negative removes)").fill("20");
  await admin.page.getByLabel("Reason").fill("Discord test");
  await admin.page.getByRole("button", { name: "Save" }).click();
  await expect(admin.page.getByRole("status")).toHaveText("Coins updated successfully");
  await visit(page, "/order?product=1");
  await page.getByLabel("Server name").fill("Imane RP");
  await page.getByRole("button", { name: "Place order" }).click();
  await expect(page).toHaveURL(/\/dashboard\/billing/);
  await visit(admin.page, "/admin/orders?status=pending");
  await admin.page
    .getByRole("row", { name: new RegExp(customer.email.replace(/[.+]/g, "\\$&")) })
    .getByRole("button", { name: "Approve" })
    .click();
  await expect(admin.page.getByRole("status")).toContainText("approved");
  await expect.poll(() => discord!.roles(GUILD, gamer.id)).toEqual([ROLE]);

  await visit(admin.page, `/admin/services?q=${encodeURIComponent(customer.email)}`);
  await admin.page.getByRole("button", { name: "Suspend", exact: true }).click();
  await expect(admin.page.getByRole("status")).toHaveText("Service suspended successfully");
  await expect.poll(() => discord!.roles(GUILD, gamer.id)).toEqual([]);
});

test("a Discord user whose address is registered but not linked is refused, with no second account", async ({
  browser,
}) => {
  const base = server!.url;
  const owner = await newCustomerSignedIn(browser, { name: "Yassine" }, { baseURL: base });
  await owner.context.close();
  const gamer = {
    id: "710000000000000002",
    username: "yassine_mta",
    global_name: null,
    email: owner.customer.email,
    verified: true,
  };
  discord!.addUser(gamer);
  const context = await browser.newContext({ baseURL: base, viewport: PHONE });
  const page = await context.newPage();
  await visit(page, "/login");
  await page.getByRole("button", { name: "Sign in with Discord" }).click();
  await authorizeAs(page, gamer.username);
  await waitForPage(page);
  await expect(page).toHaveURL(/\/login\?discord=emailTaken$/);
  await expect(page.getByRole("alert")).toContainText(
    "Sign in with your password, then link Discord from the Account tab of your dashboard.",
  );
  expect(accountsWith(owner.customer.email)).toBe(1);
  expect(await noHorizontalScroll(page)).toBe(true);
  await expectAccessible(page);
  await context.close();
});
