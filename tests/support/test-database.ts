import { randomBytes } from "node:crypto";
import { mkdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import pg from "pg";
import { afterAll, beforeAll, describe, inject } from "vitest";
import { parseEnv, type Env } from "~/config/env.server";
import { createServices, prepareDatabase, type AppServices } from "~/context.server";
import type { DialectName } from "~/db/database.server";

export const TEST_ADMIN = { email: "admin@hostfront.test", password: "Adm1n-test-password-42" };

async function createPostgresDatabase(): Promise<{ url: string; drop: () => Promise<void> }> {
  const adminUrl = inject("postgresAdminUrl");
  const name = `hf_${randomBytes(6).toString("hex")}`;
  const client = new pg.Client({ connectionString: adminUrl });
  await client.connect();
  await client.query(`create database ${name}`);
  await client.end();
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    drop: async () => {
      const c = new pg.Client({ connectionString: adminUrl });
      await c.connect();
      // A pool that has just ended may still have a backend closing: forcing the drop then sends that
      // client a FATAL (57P01) it no longer listens for, an unhandled error in whichever test file runs.
      // So wait for the backends to go, and force only what a test really left open.
      for (let attempt = 0; attempt < 50; attempt++) {
        const { rows } = await c.query<{ n: string }>(
          "select count(*) as n from pg_stat_activity where datname = $1",
          [name],
        );
        if (Number(rows[0]?.n) === 0) break;
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
      await c.query(`drop database if exists ${name} with (force)`);
      await c.end();
    },
  };
}

function createSqliteDatabase(): { url: string; drop: () => Promise<void> } {
  const dir = path.join(tmpdir(), `hostfront-test-${randomBytes(6).toString("hex")}`);
  mkdirSync(dir, { recursive: true });
  return {
    url: `file:${path.join(dir, "test.db")}`,
    drop: async () => rmSync(dir, { recursive: true, force: true }),
  };
}

export async function createTestDatabaseUrl(dialect: DialectName) {
  return dialect === "postgres" ? createPostgresDatabase() : createSqliteDatabase();
}

export function testEnv(databaseUrl: string, overrides: Partial<Env> = {}): Env {
  return {
    ...parseEnv({ NODE_ENV: "test", DATABASE_URL: databaseUrl }),
    AUTH_SECRET: "test-secret-0123456789abcdef0123456789abcdef",
    ADMIN_EMAIL: TEST_ADMIN.email,
    ADMIN_PASSWORD: TEST_ADMIN.password,
    ...overrides,
  };
}

export const dialects: DialectName[] = ["sqlite", "postgres"];

/**
 * Runs a suite once per database: a fresh SQLite file and a fresh PostgreSQL database, migrated and
 * seeded exactly as at start-up. `app()` returns the services inside tests.
 */
export function describeEachDatabase(
  name: string,
  suite: (app: () => AppServices, dialect: DialectName) => void,
  options: { env?: Partial<Env>; loginIpLimit?: number } = {},
) {
  describe.each(dialects)(`${name} [%s]`, (dialect) => {
    let services: AppServices | undefined;
    let drop: (() => Promise<void>) | undefined;
    beforeAll(async () => {
      const database = await createTestDatabaseUrl(dialect);
      drop = database.drop;
      services = createServices(testEnv(database.url, options.env), {
        loginIpLimit: options.loginIpLimit,
      });
      await prepareDatabase(services);
    });
    afterAll(async () => {
      await services?.database.destroy();
      await drop?.();
    });
    suite(() => {
      if (!services) throw new Error("database not ready");
      return services;
    }, dialect);
  });
}
