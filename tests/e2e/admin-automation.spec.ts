import path from "node:path";
import { randomBytes } from "node:crypto";
import Database from "better-sqlite3";
import {
  ADMIN_EMAIL,
  ADMIN_PASSWORD,
  expectAccessible,
  signedIn,
  visit,
  expect,
  test,
} from "./fixtures";
import { e2eFolder } from "../support/scratch";

// The e2e server's SQLite file (playwright.config.ts: one data folder per E2E_PORT).
const port = Number(process.env.E2E_PORT ?? 3210);
const databaseFile = path.join(e2eFolder(port === 3210 ? "e2e" : `e2e-${port}`), "hostfront.db");

/**
 * Queues a job no handler knows, as a broken integration would: the server's worker runs it, and with
 * one attempt allowed it is dead at once with the worker's error. Written straight into the server's
 * database (WAL: the server keeps working meanwhile), so the server needs no test-only job type.
 */
function queueJobWithoutHandler(type: string): number {
  const db = new Database(databaseFile, { fileMustExist: true });
  db.pragma("busy_timeout = 5000");
  try {
    const now = new Date().toISOString();
    const result = db
      .prepare(
        `insert into jobs (type, payload, state, run_at, attempts, max_attempts, created_at, updated_at)
         values (?, ?, 'queued', ?, 0, 1, ?, ?)`,
      )
      .run(type, JSON.stringify({ server: "eu-7" }), now, now, now);
    return Number(result.lastInsertRowid);
  } finally {
    db.close();
  }
}

/** The job as the server's database has it. */
function jobRow(id: number) {
  const db = new Database(databaseFile, { readonly: true, fileMustExist: true });
  try {
    return db.prepare("select state, attempts, finished_at from jobs where id = ?").get(id) as {
      state: string;
      attempts: number;
      finished_at: string | null;
    };
  } finally {
    db.close();
  }
}

function audited(action: string, targetId: string): number {
  const db = new Database(databaseFile, { readonly: true, fileMustExist: true });
  try {
    const row = db
      .prepare("select count(*) as n from audit_log where action = ? and target_id = ?")
      .get(action, targetId) as { n: number };
    return row.n;
  } finally {
    db.close();
  }
}

test("an admin runs a schedule now, sees its run, a dead job's error, and retries the job", async ({
  browser,
}) => {
  test.setTimeout(60_000);
  const { page, context } = await signedIn(browser, ADMIN_EMAIL, ADMIN_PASSWORD);
  await visit(page, "/admin/automation");
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Automation");
  await expectAccessible(page);

  // Run now: queued at once, then the server's own worker runs it and the run log shows it.
  await page.getByRole("button", { name: "Run now: Prune the worker's history" }).click();
  await expect(page.getByRole("status")).toHaveText(
    "Prune the worker's history is queued to run now.",
  );
  const runs = page.getByRole("table", { name: "Run log" });
  await expect(async () => {
    await page.reload();
    await expect(
      runs
        .getByRole("row")
        .filter({ hasText: "Prune the worker's history" })
        .filter({ hasText: "Succeeded" }),
    ).not.toHaveCount(0);
  }).toPass({ timeout: 20_000 });

  // A job that fails for good: dead, with the worker's error and its payload.
  const type = `e2e.no-handler-${randomBytes(3).toString("hex")}`;
  const id = queueJobWithoutHandler(type);
  const problems = page.getByRole("table", { name: "Failed and dead jobs" });
  const row = problems.getByRole("row").filter({ hasText: type });
  await expect(async () => {
    await page.reload();
    await expect(row).toHaveCount(1);
  }).toPass({ timeout: 20_000 });
  await expect(row).toContainText("Dead");
  await expect(row.getByTestId("job-error")).toContainText(`No handler for the job type "${type}"`);
  await expect(row).toContainText('"server":"eu-7"');

  // Every admin's own notification list tells of it; opening the list marks it read.
  const bell = page.getByRole("button", { name: /^Notifications: \d+ unread$/ });
  await expect(bell).toBeVisible();
  await bell.click();
  await expect(
    page.getByRole("menuitem", { name: new RegExp(`Job ${type} #${id} is dead`) }),
  ).toHaveAttribute("href", "/admin/automation");
  await page.keyboard.press("Escape");

  const firstDeath = jobRow(id);
  expect(firstDeath).toMatchObject({ state: "dead", attempts: 1 });
  expect(firstDeath.finished_at).not.toBeNull();
  await row.getByRole("button", { name: `Retry job ${id}` }).click();
  await expect(page.getByRole("status")).toHaveText(`Job ${id} is queued again.`);
  expect(audited("automation.job_retry", String(id))).toBe(1);
  // Still without a handler, it runs again and is dead again, its attempt counted afresh: a second
  // end, not the first one still shown.
  await expect
    .poll(() => {
      const job = jobRow(id);
      return job.state === "dead" && job.finished_at !== firstDeath.finished_at ? job : null;
    })
    .toMatchObject({ state: "dead", attempts: 1 });
  await page.reload();
  await expect(row).toContainText("Dead");
  await context.close();
});
