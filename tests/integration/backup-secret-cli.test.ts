import { spawn } from "node:child_process";
import { randomUUID } from "node:crypto";
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
} from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { symmetricDecrypt, symmetricEncrypt } from "better-auth/crypto";
import { sql } from "kysely";
import { afterAll, beforeAll, expect, it } from "vitest";
import { writeSecretFile } from "~/config/auth-secret.server";
import { createServices } from "~/context.server";
import { getCurrentSession } from "~/domain/accounts/accounts.server";
import { registeredCustomer, signedInCookie } from "../support/account-fixtures";
import { createTestDatabaseUrl, describeEachDatabase, testEnv } from "../support/test-database";

const root = process.cwd();
const tsx = pathToFileURL(path.join(root, "node_modules/tsx/dist/loader.mjs")).href;

/**
 * Runs `npm run backup` or `npm run restore` as an operator would, in `cwd`: a machine of its own, whose
 * `data/` folder (where the generated secret lives) is that folder's. No AUTH_SECRET unless `env` sets it.
 */
function script(
  name: "backup" | "restore",
  args: string[],
  options: { cwd: string; databaseUrl: string; env?: Record<string, string> },
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const env: NodeJS.ProcessEnv = { ...process.env };
  delete env.AUTH_SECRET;
  Object.assign(env, {
    NODE_ENV: "production",
    DATABASE_URL: options.databaseUrl,
    LOG_LEVEL: "warn",
    TSX_TSCONFIG_PATH: path.join(root, "tsconfig.json"),
    ...options.env,
  });
  return new Promise((resolve, reject) => {
    const child = spawn(
      process.execPath,
      ["--import", tsx, path.join(root, "scripts", `${name}.ts`), ...args],
      { cwd: options.cwd, env, stdio: ["ignore", "pipe", "pipe"] },
    );
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
    child.on("error", reject);
    child.on("close", (code) => resolve({ code, stdout, stderr }));
  });
}

const mode = (file: string) => statSync(file).mode & 0o777;
const TOTP_SECRET = "JBSWY3DPEHPK3PXP";

describeEachDatabase("npm run backup and restore carry the auth secret", (app, dialect) => {
  let dir: string;
  /** Each a working folder: the machine backed up, a new one, one holding another secret. */
  let machines: { old: string; fresh: string; other: string; env: string };
  let target: { url: string; drop: () => Promise<void> };
  beforeAll(async () => {
    dir = mkdtempSync(path.join(tmpdir(), "hostfront-backup-secret-"));
    machines = {
      old: path.join(dir, "old"),
      fresh: path.join(dir, "fresh"),
      other: path.join(dir, "other"),
      env: path.join(dir, "env"),
    };
    for (const folder of Object.values(machines)) mkdirSync(folder);
    target = await createTestDatabaseUrl(dialect);
  });
  afterAll(async () => {
    await target.drop();
    rmSync(dir, { recursive: true, force: true });
  });

  it("backs the secret up beside the database, restores it on a new machine where sessions and second factors still work, and never overwrites another without a flag", async () => {
    const secret = app().env.AUTH_SECRET;
    // The machine backed up generated its secret into data/auth-secret: the one this database was written with.
    writeSecretFile(path.join(machines.old, "data", "auth-secret"), secret);
    const email = `backup-secret-${randomUUID().slice(0, 8)}@example.com`;
    const userId = await registeredCustomer(app(), {
      name: "Backed Up",
      email,
      password: "Backup-secret-pw-29",
    });
    const cookie = await signedInCookie(
      app(),
      { email, password: "Backup-secret-pw-29" },
      { ip: "10.66.0.1" },
    );
    // A second factor as better-auth's plugin stores it: encrypted with a key from the auth secret.
    await app()
      .db.insertInto("two_factors")
      .values({
        id: randomUUID(),
        user_id: userId,
        secret: await symmetricEncrypt({ key: secret, data: TOTP_SECRET }),
        backup_codes: await symmetricEncrypt({ key: secret, data: "[]" }),
        verified: sql<boolean>`true`,
      })
      .execute();

    const file = path.join(dir, "backups", dialect === "postgres" ? "site.dump" : "site.db");
    const backup = await script("backup", [file], {
      cwd: machines.old,
      databaseUrl: app().env.DATABASE_URL,
    });
    expect(backup.stderr).toBe("");
    expect(backup.code).toBe(0);
    expect(backup.stdout).toContain(`Backup written to ${file}\n`);
    expect(backup.stdout).toContain(`Auth secret written to ${file}.auth-secret (mode 600)`);
    expect(readFileSync(`${file}.auth-secret`, "utf8")).toBe(secret);
    expect(mode(`${file}.auth-secret`)).toBe(0o600);

    // A new machine: no data/ at all. The restore puts the secret back, mode 600.
    const restored = await script("restore", [file, "--yes"], {
      cwd: machines.fresh,
      databaseUrl: target.url,
    });
    expect(restored.stderr).toBe("");
    expect(restored.code).toBe(0);
    const placed = path.join(machines.fresh, "data", "auth-secret");
    expect(restored.stdout).toContain(`Restored the auth secret to ${placed} (mode 600).`);
    expect(readFileSync(placed, "utf8")).toBe(secret);
    expect(mode(placed)).toBe(0o600);

    // With that secret, the restored database keeps the session and can read the second factor.
    const services = createServices(
      testEnv(target.url, { AUTH_SECRET: readFileSync(placed, "utf8") }),
    );
    try {
      expect((await getCurrentSession(services, cookie))?.user.email).toBe(email);
      const row = await services.db
        .selectFrom("two_factors")
        .select("secret")
        .where("user_id", "=", userId)
        .executeTakeFirstOrThrow();
      expect(row.secret).not.toContain(TOTP_SECRET);
      expect(await symmetricDecrypt({ key: readFileSync(placed, "utf8"), data: row.secret })).toBe(
        TOTP_SECRET,
      );
    } finally {
      await services.database.destroy();
    }

    // A machine with a secret of its own: refused, nothing changed; then replaced on request, the old kept.
    const own = path.join(machines.other, "data", "auth-secret");
    writeSecretFile(own, "another-secret-0123456789abcdef0123456789");
    const refused = await script("restore", [file, "--yes"], {
      cwd: machines.other,
      databaseUrl: target.url,
    });
    expect(refused.code).toBe(2);
    expect(refused.stdout).toBe("");
    expect(refused.stderr).toContain(
      `${own} holds another secret than the one this backup was made with`,
    );
    expect(refused.stderr).toContain("--replace-secret");
    expect(refused.stderr).toMatch(/Nothing was changed\.\n$/);
    expect(readFileSync(own, "utf8")).toBe("another-secret-0123456789abcdef0123456789");

    const replaced = await script("restore", [file, "--yes", "--replace-secret"], {
      cwd: machines.other,
      databaseUrl: target.url,
    });
    expect(replaced.stderr).toBe("");
    expect(replaced.code).toBe(0);
    expect(replaced.stdout).toContain(`Replaced ${own} with the backup's auth secret (mode 600)`);
    expect(readFileSync(own, "utf8")).toBe(secret);
    expect(mode(own)).toBe(0o600);
    const aside = readdirSync(path.dirname(own)).filter((name) =>
      name.startsWith("auth-secret.replaced-"),
    );
    expect(aside).toHaveLength(1);
    expect(readFileSync(path.join(path.dirname(own), aside[0]!), "utf8")).toBe(
      "another-secret-0123456789abcdef0123456789",
    );
    expect(mode(path.join(path.dirname(own), aside[0]!))).toBe(0o600);
  }, 120_000);

  it("says the operator keeps AUTH_SECRET when it comes from the environment, and checks it at restore", async () => {
    const file = path.join(dir, "backups", dialect === "postgres" ? "env.dump" : "env.db");
    const secret = "environment-secret-0123456789abcdef012345";
    const backup = await script("backup", [file], {
      cwd: machines.env,
      databaseUrl: app().env.DATABASE_URL,
      env: { AUTH_SECRET: secret },
    });
    expect(backup.stderr).toBe("");
    expect(backup.code).toBe(0);
    expect(backup.stdout).toContain("AUTH_SECRET comes from the environment and is not written");
    expect(existsSync(`${file}.auth-secret`)).toBe(false);
    expect(existsSync(path.join(machines.env, "data", "auth-secret"))).toBe(false);

    // A secret beside the backup that AUTH_SECRET contradicts is refused before anything changes.
    writeSecretFile(`${file}.auth-secret`, "what-the-backup-was-made-with-0123456789");
    const refused = await script("restore", [file, "--yes"], {
      cwd: machines.env,
      databaseUrl: target.url,
      env: { AUTH_SECRET: secret },
    });
    expect(refused.code).toBe(2);
    expect(refused.stderr).toMatch(
      /^AUTH_SECRET in the environment is not the secret this backup was made with/,
    );
    expect(existsSync(path.join(machines.env, "data", "auth-secret"))).toBe(false);
  }, 120_000);
});
