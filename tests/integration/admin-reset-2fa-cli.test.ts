import { spawn } from "node:child_process";
import { randomUUID } from "node:crypto";
import { sql } from "kysely";
import { describe, expect, it } from "vitest";
import { findUserIdByEmail, provisionAdmin } from "~/domain/accounts/accounts.server";
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

describe("npm run admin -- reset-2fa, given something else", () => {
  it("says what it needs, with a non-zero exit", async () => {
    const [nonsense, missing] = await Promise.all([
      admin(["reset-2fa", "not-an-email"]),
      admin(["reset-2fa"]),
    ]);
    expect(nonsense).toMatchObject({
      code: 2,
      stdout: "",
      stderr: "Not an email address: not-an-email\n",
    });
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain("reset-2fa <email>");
  }, 60_000);
});

// The client page's reset from a shell: for the operator locked out of the only admin account.
describeEachDatabase("npm run admin -- reset-2fa", (app) => {
  it("turns off an admin's two-factor sign-in, audits it as the command line's, mails them, and says so", async () => {
    const db = app().db;
    const email = `reset-2fa-${randomUUID().slice(0, 8)}@example.com`;
    await provisionAdmin(app(), { email, password: "Reset-2fa-admin-pw-47" });
    const id = (await findUserIdByEmail(db, email))!;
    await db
      .insertInto("two_factors")
      .values({
        id: randomUUID(),
        user_id: id,
        secret: "encrypted-secret-placeholder",
        backup_codes: "encrypted-backup-codes-placeholder",
      })
      .execute();
    await db
      .updateTable("users")
      .set({ two_factor_enabled: sql<boolean>`true` })
      .where("id", "=", id)
      .execute();

    const url = app().env.DATABASE_URL;
    const reset = await admin(["reset-2fa", ` ${email.toUpperCase()} `], url);
    expect(reset.stderr).toBe("");
    expect(reset.code).toBe(0);
    expect(reset.stdout).toBe(
      `Two-factor sign-in is off for ${email}: they sign in with their password alone and can set it up again from their account tab (/dashboard/account#two-factor). They are told by email.\n`,
    );
    const user = await db
      .selectFrom("users")
      .select("two_factor_enabled")
      .where("id", "=", id)
      .executeTakeFirstOrThrow();
    expect(Boolean(user.two_factor_enabled)).toBe(false);
    expect(
      await db.selectFrom("two_factors").select("id").where("user_id", "=", id).execute(),
    ).toEqual([]);
    const audit = await db
      .selectFrom("audit_log")
      .selectAll()
      .where("action", "=", "user.two_factor_reset")
      .where("target_id", "=", id)
      .execute();
    expect(audit).toHaveLength(1);
    expect(audit[0]).toMatchObject({
      actor_id: null,
      target_type: "user",
      reason: "Command line: npm run admin -- reset-2fa",
    });
    const mail = await db
      .selectFrom("mail_outbox")
      .select(["kind", "to_address"])
      .where("user_id", "=", id)
      .execute();
    expect(mail).toEqual([{ kind: "twoFactorReset", to_address: email }]);

    // Nothing left to reset, and nobody by that address: errors, nothing changed.
    const again = await admin(["reset-2fa", email], url);
    expect(again).toMatchObject({
      code: 1,
      stdout: "",
      stderr: `${email} has no two-factor sign-in; nothing changed.\n`,
    });
    const nobody = await admin(["reset-2fa", "nobody-2fa@example.com"], url);
    expect(nobody).toMatchObject({
      code: 1,
      stdout: "",
      stderr: "No account with the email nobody-2fa@example.com.\n",
    });
    expect(
      await db
        .selectFrom("audit_log")
        .select("id")
        .where("action", "=", "user.two_factor_reset")
        .where("target_id", "=", id)
        .execute(),
    ).toHaveLength(1);
  }, 60_000);
});
