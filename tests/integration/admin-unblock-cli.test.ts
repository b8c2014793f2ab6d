import { spawn } from "node:child_process";
import { describe, expect, it } from "vitest";
import { LOGIN_EMAIL_FAILURE_CEILING } from "~/domain/accounts/accounts";
import { provisionAdmin, signIn } from "~/domain/accounts/accounts.server";
import { pairKey } from "~/domain/accounts/login-throttle";
import { recordLoginAttempt } from "~/domain/accounts/login-throttle.server";
import { describeEachDatabase } from "../support/test-database";

function admin(
  args: string[],
  databaseUrl = "file:/nonexistent/never-opened.db",
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ["--import", "tsx", "scripts/admin.ts", ...args], {
      cwd: process.cwd(),
      env: {
        ...process.env,
        NODE_ENV: "production",
        DATABASE_URL: databaseUrl,
        AUTH_SECRET: "cli-test-secret-0123456789abcdef0123456789",
        LOG_LEVEL: "warn",
      },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
    child.on("error", reject);
    child.on("close", (code) => resolve({ code, stdout, stderr }));
  });
}

describe("npm run admin -- unblock, given something else", () => {
  it("says it is neither an email nor an address, and what the usage is, with a non-zero exit", async () => {
    const [nonsense, missing] = await Promise.all([
      admin(["unblock", "not-an-address"]),
      admin(["unblock"]),
    ]);
    expect(nonsense).toMatchObject({
      code: 2,
      stdout: "",
      stderr: "Not an email address or an IP address: not-an-address\n",
    });
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain("unblock <email|address>");
  }, 60_000);
});

// The same lift as /admin/security's (liftLoginBlock), from a shell: for an admin locked out of the panel.
describeEachDatabase("npm run admin -- unblock", (app) => {
  it("lifts an email's and an address's blocks, audits them as the command line's, and says so", async () => {
    const db = app().db;
    const email = `unblock-${Date.now()}@example.com`;
    await provisionAdmin(app(), { email, password: "Unblock-admin-pw-61" });
    // The email at its ceiling (5 failures from each of 10 addresses), and one more pair elsewhere.
    for (let a = 0; a < LOGIN_EMAIL_FAILURE_CEILING / 5; a++)
      for (let i = 0; i < 5; i++)
        await recordLoginAttempt(db, { email, ip: `10.91.0.${a}`, succeeded: false });
    const other = "other-unblock@example.com";
    for (let i = 0; i < 5; i++)
      await recordLoginAttempt(db, { email: other, ip: "10.91.1.1", succeeded: false });
    const login = (ip: string) => signIn(app(), { email, password: "Unblock-admin-pw-61" }, { ip });
    expect(await login("10.91.2.1")).toMatchObject({ error: "errors.tooManyAttempts" });

    const url = app().env.DATABASE_URL;
    const byEmail = await admin(["unblock", ` ${email.toUpperCase()} `], url);
    expect(byEmail.stderr).toBe("");
    expect(byEmail.code).toBe(0);
    const lines = byEmail.stdout.trim().split("\n");
    expect(lines[0]).toBe(`Lifted 11 login block(s) on ${email}:`);
    expect(
      lines.filter((line) => line.startsWith(`  email ${email} from every address, until `)),
    ).toHaveLength(1);
    expect(
      lines.filter((line) => line.startsWith(`  email ${email} from address 10.91.0.`)),
    ).toHaveLength(10);
    expect((await login("10.91.2.1")).ok).toBe(true);

    const audit = await db
      .selectFrom("audit_log")
      .selectAll()
      .where("action", "=", "login_block.lift")
      .where("target_id", "=", email)
      .execute();
    expect(audit).toHaveLength(1);
    expect(audit[0]).toMatchObject({
      actor_id: null,
      target_type: "login_block",
      reason: "Command line: npm run admin -- unblock",
    });
    expect(JSON.parse(audit[0]!.before!)).toMatchObject({ kind: "email", key: email });

    // An address in another of its forms; then nothing is left to lift, which is an error.
    const byAddress = await admin(["unblock", "::ffff:10.91.1.1"], url);
    expect(byAddress).toMatchObject({ code: 0, stderr: "" });
    expect(byAddress.stdout).toMatch(
      new RegExp(
        `^Lifted 1 login block\\(s\\) on 10\\.91\\.1\\.1:\\n  email ${other} from address 10\\.91\\.1\\.1, until \\S+\\n$`,
      ),
    );
    const lifted = await db
      .selectFrom("login_throttle_lifts")
      .select(["kind", "key", "lifted_by"])
      .where("key", "in", [email, "10.91.1.1", pairKey(other, "10.91.1.1")])
      .orderBy("id")
      .execute();
    expect(lifted).toEqual([
      { kind: "email", key: email, lifted_by: null },
      { kind: "address", key: "10.91.1.1", lifted_by: null },
    ]);
    const again = await admin(["unblock", "10.91.1.1"], url);
    expect(again).toMatchObject({
      code: 1,
      stdout: "",
      stderr: "No login block is in force on 10.91.1.1; nothing was lifted.\n",
    });
  }, 60_000);
});
