import { execFileSync } from "node:child_process";
import Database from "better-sqlite3";
import type { Page } from "@playwright/test";
import { startOwnServer, type OwnServer } from "../support/own-server";
import { e2eFolder } from "../support/scratch";
import {
  ADMIN_EMAIL,
  ADMIN_PASSWORD,
  AUTH_SECRET,
  expect,
  expectAccessible,
  fillRegisterForm,
  newCustomerSignedIn,
  noHorizontalScroll,
  signedIn,
  submitLogin,
  test,
  uniqueEmail,
  USER_PASSWORD,
  visit,
} from "./fixtures";

// Referrals (docs/referrals.md) from a phone: a customer copies their link, a friend visits it,
// registers and is counted; the friend's first order passes its refund window and the reward job, run at
// a clock the test gives it (scripts/referral-rewards.ts), pays the referrer once. The server is one of
// this spec's own, its worker off, so nothing but the test runs the job.

test.describe.configure({ mode: "serial" });

const PHONE = { width: 360, height: 740 };
const DAY = 86_400_000;

let server: OwnServer | undefined;

test.beforeAll(async () => {
  test.setTimeout(120_000);
  server = await startOwnServer({
    folder: e2eFolder(`e2e-referrals-${process.env.E2E_PORT ?? 3210}`),
    env: { ADMIN_EMAIL, ADMIN_PASSWORD, AUTH_SECRET, WORKER: "off" },
  });
});

test.afterAll(async () => {
  await server?.stop();
});

/** The reward job, run once at `now` on the server's database: its counts. */
function runRewardJob(now: Date): Record<string, number> {
  const output = execFileSync(
    process.execPath,
    ["--import", "tsx", "scripts/referral-rewards.ts", `--now=${now.toISOString()}`],
    {
      env: { ...process.env, DATABASE_URL: `file:${server!.databaseFile}`, AUTH_SECRET },
      encoding: "utf8",
    },
  );
  return JSON.parse(output.trim().split("\n").at(-1)!) as Record<string, number>;
}

function read<T>(query: string, ...params: unknown[]): T[] {
  const db = new Database(server!.databaseFile, { readonly: true, fileMustExist: true });
  try {
    return db.prepare(query).all(...params) as T[];
  } finally {
    db.close();
  }
}

async function addCoins(admin: Page, email: string, amount: string) {
  await visit(admin, `/admin/clients?q=${encodeURIComponent(email)}`);
  await admin.getByText("Add or remove coins").click();
  await admin.getByLabel("Amount (negative removes)").fill(amount);
  await admin.getByLabel("Reason").fill("Referral test");
  await admin.getByRole("button", { name: "Save" }).click();
  await expect(admin.getByRole("status")).toHaveText("Coins updated successfully");
}

test("a friend registers through a customer's link, orders, and the referrer is paid once after the window", async ({
  browser,
}) => {
  test.setTimeout(240_000);
  const base = server!.url;

  // The referrer's page on a phone: the link in a field, with a copy button.
  const referrer = await newCustomerSignedIn(
    browser,
    { name: "Rania Referrer" },
    { baseURL: base, viewport: PHONE, permissions: ["clipboard-read", "clipboard-write"] },
  );
  await visit(referrer.page, "/dashboard/referrals");
  // No link until it is asked for: opening the page writes nothing.
  await expect(referrer.page.getByLabel("Your referral link")).toHaveCount(0);
  await referrer.page.getByRole("button", { name: "Get my link" }).click();
  const field = referrer.page.getByLabel("Your referral link");
  const link = await field.inputValue();
  expect(link).toMatch(/\/\?ref=[A-Z0-9]{8}$/);
  await referrer.page.getByRole("button", { name: "Copy link" }).click();
  await expect(referrer.page.getByText("Link copied")).toBeVisible();
  expect(await referrer.page.evaluate(() => navigator.clipboard.readText())).toBe(link);
  expect(await noHorizontalScroll(referrer.page)).toBe(true);
  await expectAccessible(referrer.page);
  await expect(
    referrer.page.getByText("No one has registered through your link yet."),
  ).toBeVisible();

  // The friend follows the link: the address loses its ref, a cookie keeps it.
  const friendContext = await browser.newContext({ baseURL: base, viewport: PHONE });
  const friend = await friendContext.newPage();
  const code = new URL(link).searchParams.get("ref")!;
  await visit(friend, `/?ref=${code}`);
  await expect(friend).toHaveURL(`${base}/`);
  const cookie = (await friendContext.cookies()).find((c) => c.name === "hf_ref");
  expect(cookie).toMatchObject({ value: code, httpOnly: true, sameSite: "Lax" });

  const email = uniqueEmail("friend");
  await visit(friend, "/register");
  await fillRegisterForm(friend, { name: "Fatima Friend", email, password: USER_PASSWORD });
  await friend.getByRole("button", { name: "Create Account" }).click();
  await expect(friend).toHaveURL(/\/login$/);
  expect((await friendContext.cookies()).some((c) => c.name === "hf_ref")).toBe(false);

  // Counted on the referrer's page, masked.
  await visit(referrer.page, "/dashboard/referrals");
  const row = referrer.page.getByRole("row", { name: /Fati\*\*\* F\*\*\*/ });
  await expect(row).toBeVisible();
  await expect(row).toContainText("Waiting");
  await expect(row).not.toContainText(email);

  // The friend orders the first plan; the admin approves it.
  const admin = await signedIn(browser, ADMIN_EMAIL, ADMIN_PASSWORD, { baseURL: base });
  await addCoins(admin.page, email, "20");
  await submitLogin(friend, email, USER_PASSWORD);
  await visit(friend, "/order?product=1");
  await friend.getByLabel("Server name").fill("Friend server");
  await friend.getByRole("button", { name: "Place order" }).click();
  await expect(friend).toHaveURL(/\/dashboard\/billing/);
  await visit(admin.page, "/admin/orders?status=pending");
  await admin.page
    .getByRole("row", { name: new RegExp(email.replace(/[.+]/g, "\\$&")) })
    .getByRole("button", { name: "Approve" })
    .click();
  await expect(admin.page.getByRole("status")).toContainText("approved");

  const [order] = read<{ created_at: string; total_cents: number }>(
    "select orders.created_at, orders.total_cents from orders join users on users.id = orders.user_id where users.email = ?",
    email,
  );
  const windowEnd = Date.parse(order!.created_at) + 14 * DAY;
  const rewards = () =>
    read<{ amount_cents: number }>(
      "select amount_cents from coin_ledger where kind = 'referral_reward'",
    );

  // Before the window ends, and at its last moment: nothing.
  expect(runRewardJob(new Date(windowEnd - DAY))).toMatchObject({ paid: 0 });
  expect(runRewardJob(new Date(windowEnd))).toMatchObject({ paid: 0 });
  expect(rewards()).toEqual([]);
  // A millisecond after: paid, once; again, nothing more.
  expect(runRewardJob(new Date(windowEnd + 1))).toMatchObject({ paid: 1 });
  expect(runRewardJob(new Date(windowEnd + 2 * DAY))).toMatchObject({ paid: 0 });
  const paid = rewards();
  expect(paid).toHaveLength(1);
  // The default settings: 10 % of the order's price, rounded to the cent.
  expect(paid[0]!.amount_cents).toBe(Math.floor((order!.total_cents * 1000 + 5000) / 10_000));

  // The referrer sees the coins: on their page, and in their coin history as a referral reward.
  await visit(referrer.page, "/dashboard/referrals");
  const coins = (paid[0]!.amount_cents / 100).toFixed(2);
  const paidRow = referrer.page.getByRole("row", { name: /Fati\*\*\* F\*\*\*/ });
  await expect(paidRow).toContainText("Paid");
  await expect(paidRow).toContainText(coins);
  await expect(referrer.page.getByRole("main")).toContainText(`Coins earned${coins}`);
  await visit(referrer.page, "/dashboard/billing");
  await expect(referrer.page.getByText("Referral reward").first()).toBeVisible();

  // The admin's page lists the referral as paid, on a phone too.
  await admin.page.setViewportSize(PHONE);
  await visit(admin.page, "/admin/affiliates");
  await expect(admin.page.getByRole("heading", { name: "Affiliates" })).toBeVisible();
  await expect(admin.page.getByText("Fatima Friend").first()).toBeVisible();
  expect(await noHorizontalScroll(admin.page)).toBe(true);
  await expectAccessible(admin.page);

  await friendContext.close();
  await referrer.context.close();
  await admin.context.close();
});
