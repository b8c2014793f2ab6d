import { spawn } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { createDatabase } from "~/db/database.server";
import { findLedgerDiscrepancies } from "~/domain/coins/coins.server";

const dir = mkdtempSync(path.join(tmpdir(), "hostfront-import-cli-"));
const databaseUrl = `file:${path.join(dir, "hostfront.db")}`;
const fixture = path.resolve("tests/fixtures/legacy/local-storage.json");

function run(args: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(
      process.execPath,
      ["--import", "tsx", "scripts/import-legacy.ts", ...args],
      {
        cwd: process.cwd(),
        env: {
          ...process.env,
          NODE_ENV: "production",
          DATABASE_URL: databaseUrl,
          AUTH_SECRET: "cli-test-secret-0123456789abcdef0123456789",
          ADMIN_EMAIL: "owner@hostfront.test",
          ADMIN_PASSWORD: "Owner-pass-7731",
          LOG_LEVEL: "warn",
        },
        stdio: ["ignore", "pipe", "pipe"],
      },
    );
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
    child.on("error", reject);
    child.on("close", (code) => resolve({ code, stdout, stderr }));
  });
}

afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe("npm run import:legacy", () => {
  // Four runs of a TypeScript script on a busy two-core machine: more than one test's usual 30 s.
  it("imports a file, imports nothing the second time, refuses a bad file and explains its usage", async () => {
    const first = await run([fixture]);
    expect(first.stderr).toBe("");
    expect(first.code).toBe(0);
    expect(first.stdout).toContain(
      'Read a localStorage dump: the database document under "hosting_db".',
    );
    expect(first.stdout).toMatch(/^users\s+7\s+0\s+0\s+0$/m);
    expect(first.stdout).toMatch(/^services \(products\)\s+1\s+2\s+0\s+0$/m);
    expect(first.stdout).toMatch(/^orders\s+4\s+0\s+1\s+0$/m);
    expect(first.stdout).toContain("its user (id 999) is not in the file");
    expect(first.stdout).toMatch(/^ {2}admin@gamehost\.ma: [A-Za-z0-9]{20}$/m);
    expect(first.stdout).not.toContain("Atlas-Rif-2024!");

    const second = await run([fixture]);
    expect(second.code).toBe(0);
    expect(second.stdout).toMatch(/^users\s+0\s+0\s+0\s+7$/m);
    expect(second.stdout).toMatch(/^orders\s+0\s+0\s+1\s+4$/m);
    expect(second.stdout).not.toContain("One-time passwords");

    const bad = path.join(dir, "bad.json");
    writeFileSync(
      bad,
      JSON.stringify({
        users: [{ email: "new@example.com" }, { email: "broken@", password: "Hidden-pw-4410" }],
      }),
    );
    const refused = await run([bad]);
    expect(refused.code).toBe(1);
    expect(refused.stdout).toBe("");
    expect(refused.stderr).toContain("nothing was imported");
    expect(refused.stderr).toContain('users[1].email: "broken@" is not an email address');
    expect(refused.stderr).not.toContain("Hidden-pw-4410");

    const usage = await run([]);
    expect(usage.code).toBe(2);
    expect(usage.stderr).toContain("Usage: npm run import:legacy -- <file.json> [--dry-run]");

    const database = createDatabase(databaseUrl);
    try {
      expect(await findLedgerDiscrepancies(database.db)).toEqual([]);
      const fresh = await database.db
        .selectFrom("users")
        .select("id")
        .where("email", "=", "new@example.com")
        .executeTakeFirst();
      expect(fresh).toBeUndefined();
    } finally {
      await database.destroy();
    }
  }, 180_000);
});
