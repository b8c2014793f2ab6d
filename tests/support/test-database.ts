import { randomBytes } from "node:crypto";
import { copyFileSync, mkdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import pg from "pg";
import { afterAll, beforeAll, describe, inject } from "vitest";
import type { Env } from "~/config/env.server";
import { createServices, prepareDatabase, type AppServices } from "~/context.server";
import type { DialectName } from "~/db/database.server";
import { testEnv } from "./test-env";

export { recordingClock, TEST_ADMIN, testEnv } from "./test-env";

/**
 * PostgreSQL refuses to copy a template while another session is connected to it, and counts a
 * CREATE DATABASE copying it beside this one among those for a moment: the refusal says so, and a
 * second try finds it free.
 */
async function createDatabaseOn(client: pg.Client, name: string, template: string | null) {
  const statement = template
    ? `create database ${name} template ${template}`
    : `create database ${name}`;
  for (let attempt = 1; ; attempt++) {
    try {
      await client.query(statement);
      return;
    } catch (error) {
      const busy = (error as { code?: string }).code === "55006";
      if (!busy || attempt >= 50) throw error;
      await new Promise((resolve) => setTimeout(resolve, 20 * attempt));
    }
  }
}

async function createPostgresDatabase(
  template: string | null,
): Promise<{ url: string; drop: () => Promise<void> }> {
  const adminUrl = inject("postgresAdminUrl");
  const name = `hf_${randomBytes(6).toString("hex")}`;
  const client = new pg.Client({ connectionString: adminUrl });
  await client.connect();
  try {
    await createDatabaseOn(client, name, template);
  } finally {
    await client.end();
  }
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

function createSqliteDatabase(template: string | null): {
  url: string;
  drop: () => Promise<void>;
} {
  const dir = path.join(tmpdir(), `hostfront-test-${randomBytes(6).toString("hex")}`);
  mkdirSync(dir, { recursive: true });
  const file = path.join(dir, "test.db");
  // The template was closed cleanly: its WAL is folded into the file, which is the whole database.
  if (template) copyFileSync(template, file);
  return {
    url: `file:${file}`,
    drop: async () => rmSync(dir, { recursive: true, force: true }),
  };
}

/** An empty database: for what migrates or seeds itself (migration tests, the start-up's cold path). */
export async function createTestDatabaseUrl(dialect: DialectName) {
  return dialect === "postgres" ? createPostgresDatabase(null) : createSqliteDatabase(null);
}

/**
 * A database as a first start leaves it, migrated and seeded (with TEST_ADMIN as the first admin): a
 * copy of the run's template (postgres-global-setup.ts), a millisecond where migrating and seeding take a
 * tenth of a second or more. The start-up test proves a copy is the database a first start makes.
 */
export async function createPreparedTestDatabase(dialect: DialectName) {
  return dialect === "postgres"
    ? createPostgresDatabase(inject("postgresTemplate"))
    : createSqliteDatabase(inject("sqliteTemplate"));
}

export const dialects: DialectName[] = ["sqlite", "postgres"];

/**
 * The title of a test that sends work at once through one database handle. On SQLite that handle has one
 * writer, which takes the transactions in turn: the SQLite half proves that every order of them ends
 * right (serialisation), not how they interleave. PostgreSQL's half races them on a pool, and
 * cross-process-races.test.ts races SQLite's writers in separate processes.
 */
export function atOnce(dialect: DialectName, title: string) {
  return dialect === "sqlite"
    ? `${title} (SQLite: proves serialisation, one writer in turn)`
    : title;
}

/**
 * Runs a suite once per database: a SQLite file and a PostgreSQL database of its own, migrated and seeded
 * exactly as at start-up (copies of the run's template; `fresh: true` migrates and seeds an empty one,
 * the cold path). `app()` returns the services inside tests.
 */
export function describeEachDatabase(
  name: string,
  suite: (app: () => AppServices, dialect: DialectName) => void,
  options: { env?: Partial<Env>; loginIpLimit?: number; clock?: () => Date; fresh?: boolean } = {},
) {
  describe.each(dialects)(`${name} [%s]`, (dialect) => {
    let services: AppServices | undefined;
    let drop: (() => Promise<void>) | undefined;
    beforeAll(async () => {
      const database = options.fresh
        ? await createTestDatabaseUrl(dialect)
        : await createPreparedTestDatabase(dialect);
      drop = database.drop;
      services = createServices(testEnv(database.url, options.env), {
        loginIpLimit: options.loginIpLimit,
        clock: options.clock,
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
