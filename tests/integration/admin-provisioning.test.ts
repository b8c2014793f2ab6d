import { spawn } from "node:child_process";
import { createServer } from "node:net";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { ConfigError } from "~/config/env.server";
import { createServices, prepareDatabase, type AppServices } from "~/context.server";
import {
  getCurrentSession,
  provisionAdmin,
  registerCustomer,
  signIn,
} from "~/domain/accounts/accounts.server";
import { cookieHeader } from "../support/request-context";
import {
  createTestDatabaseUrl,
  describeEachDatabase,
  dialects,
  testEnv,
} from "../support/test-database";

const PASSWORD = "Promote-pw-8812";
let n = 0;
const uniqueEmail = () => `promote${Date.now()}${n++}@example.com`;

async function signedInCustomer(services: AppServices) {
  const email = uniqueEmail();
  const registered = await registerCustomer(
    services,
    { name: "Soon Admin", email, password: PASSWORD, confirmPassword: PASSWORD },
    { registrationOpen: true },
  );
  if (!registered.ok) throw new Error(registered.error);
  const session = await signIn(services, { email, password: PASSWORD }, { ip: "10.40.0.1" });
  if (!session.ok) throw new Error(session.error);
  return { email, userId: registered.userId, cookie: cookieHeader(session.setCookies) };
}

describeEachDatabase("making an existing customer an admin (npm run admin -- create)", (app) => {
  it("ends the customer's sessions and audits the role change, once", async () => {
    const customer = await signedInCustomer(app());
    expect(await getCurrentSession(app(), customer.cookie)).not.toBeNull();

    const result = await provisionAdmin(app(), {
      email: customer.email,
      via: "npm run admin -- create",
    });
    expect(result).toEqual({ status: "promoted", email: customer.email, sessionsEnded: 1 });
    // The 30-day customer session is gone: they sign in again and get an admin's.
    expect(await getCurrentSession(app(), customer.cookie)).toBeNull();
    const audit = () =>
      app()
        .db.selectFrom("audit_log")
        .select(["actor_id", "action", "before", "after", "reason"])
        .where("target_id", "=", customer.userId)
        .execute();
    const entries = await audit();
    expect(entries).toHaveLength(1);
    expect(entries[0]).toMatchObject({
      actor_id: null,
      action: "user.update",
      reason: "npm run admin -- create",
    });
    expect(JSON.parse(entries[0]!.before!)).toEqual({ role: "user" });
    expect(JSON.parse(entries[0]!.after!)).toEqual({ role: "admin" });
    const user = await app()
      .db.selectFrom("users")
      .select("role")
      .where("id", "=", customer.userId)
      .executeTakeFirstOrThrow();
    expect(user.role).toBe("admin");

    // Again: already an admin, nothing ended, nothing audited.
    const again = await signIn(
      app(),
      { email: customer.email, password: PASSWORD },
      { ip: "10.40.0.2" },
    );
    if (!again.ok) throw new Error(again.error);
    expect(await provisionAdmin(app(), { email: customer.email })).toEqual({
      status: "already",
      email: customer.email,
    });
    expect(await getCurrentSession(app(), cookieHeader(again.setCookies))).not.toBeNull();
    expect(await audit()).toHaveLength(1);
  });
});

describe.each(dialects)("ADMIN_PASSWORD for the first admin [%s]", (dialect) => {
  const drops: (() => Promise<void>)[] = [];
  const opened: AppServices[] = [];
  afterAll(async () => {
    for (const services of opened) await services.database.destroy();
    for (const drop of drops) await drop();
  });
  async function install(url: string, env: Parameters<typeof testEnv>[1]) {
    const services = createServices(testEnv(url, env));
    opened.push(services);
    return services;
  }

  it("refuses a common password like the register form, creating nothing and naming the variable", async () => {
    const database = await createTestDatabaseUrl(dialect);
    drops.push(database.drop);
    const services = await install(database.url, {
      ADMIN_EMAIL: "first@hostfront.test",
      ADMIN_PASSWORD: "Password1",
    });
    const refused = await prepareDatabase(services).then(
      () => null,
      (error: unknown) => error,
    );
    expect(refused).toBeInstanceOf(ConfigError);
    expect((refused as Error).message).toMatch(/^Invalid configuration:\n {2}ADMIN_PASSWORD: /);
    expect((refused as Error).message).toContain("most common passwords");
    const users = await services.db.selectFrom("users").select("email").execute();
    expect(users).toEqual([]);

    // Fixed, the same install starts and creates the admin.
    const fixed = await install(database.url, {
      ADMIN_EMAIL: "first@hostfront.test",
      ADMIN_PASSWORD: "Uncommon-first-admin-77",
    });
    await prepareDatabase(fixed);
    const admins = await fixed.db
      .selectFrom("users")
      .select("email")
      .where("role", "=", "admin")
      .execute();
    expect(admins).toEqual([{ email: "first@hostfront.test" }]);

    // An install whose admin exists is not stopped by a password it no longer uses.
    await prepareDatabase(
      await install(database.url, {
        ADMIN_EMAIL: "first@hostfront.test",
        ADMIN_PASSWORD: "Password1",
      }),
    );
  });

  it("does not look at the password when ADMIN_EMAIL is an existing customer to promote", async () => {
    const database = await createTestDatabaseUrl(dialect);
    drops.push(database.drop);
    // A first start with an admin, then that admin gone, leaving a customer to promote.
    const first = await install(database.url, {});
    await prepareDatabase(first);
    const customer = await signedInCustomer(first);
    await first.db.updateTable("users").set({ role: "user" }).where("role", "=", "admin").execute();

    const services = await install(database.url, {
      ADMIN_EMAIL: customer.email,
      ADMIN_PASSWORD: "Password1",
    });
    await prepareDatabase(services);
    const promoted = await services.db
      .selectFrom("users")
      .select("role")
      .where("email", "=", customer.email)
      .executeTakeFirstOrThrow();
    expect(promoted.role).toBe("admin");
    expect(await getCurrentSession(services, customer.cookie)).toBeNull();
  });
});

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

/**
 * server/index.ts as `npm run serve` runs it, minus NODE_ENV, over a stand-in server build that fails the
 * way the real one does when prepareDatabase refuses ADMIN_PASSWORD (a ConfigError of the build's own copy
 * of the class). Unset NODE_ENV must mean production: development would start Vite instead of importing
 * the build.
 */
describe("a configuration error while the server starts", () => {
  const dir = mkdtempSync(path.join(tmpdir(), "hostfront-start-"));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it("stops the server with its message alone, in production when NODE_ENV is unset", async () => {
    mkdirSync(path.join(dir, "build/server"), { recursive: true });
    writeFileSync(
      path.join(dir, "build/server/index.js"),
      [
        "class ConfigError extends Error { name = 'ConfigError'; }",
        "throw new ConfigError(`Invalid configuration:\\n  ADMIN_PASSWORD: refused (NODE_ENV=${process.env.NODE_ENV})`);",
      ].join("\n"),
    );
    const port = await freePort();
    const env: NodeJS.ProcessEnv = {
      ...process.env,
      BUILD_DIR: path.join(dir, "build"),
      PORT: String(port),
      DATABASE_URL: `file:${path.join(dir, "hostfront.db")}`,
      AUTH_SECRET: "start-test-secret-0123456789abcdef01234567",
      LOG_LEVEL: "warn",
    };
    delete env.NODE_ENV;
    const { code, stderr } = await new Promise<{ code: number | null; stderr: string }>(
      (resolve, reject) => {
        const child = spawn(process.execPath, ["--import", "tsx", "server/index.ts"], {
          cwd: process.cwd(),
          env,
          stdio: ["ignore", "ignore", "pipe"],
        });
        // A server that starts instead of stopping is the failure: it is not left running.
        const timer = setTimeout(() => child.kill("SIGKILL"), 20_000);
        let stderr = "";
        child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
        child.on("error", reject);
        child.on("close", (code) => {
          clearTimeout(timer);
          resolve({ code, stderr });
        });
      },
    );
    expect(code).toBe(1);
    expect(stderr).toBe(
      "Invalid configuration:\n  ADMIN_PASSWORD: refused (NODE_ENV=production)\n",
    );
  });
});
