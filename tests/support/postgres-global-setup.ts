import { randomBytes } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import pg from "pg";
import type { TestProject } from "vitest/node";
import { createServices, prepareDatabase } from "~/context.server";
import { startPostgresCluster } from "./postgres-cluster";
import { testEnv } from "./test-env";

declare module "vitest" {
  export interface ProvidedContext {
    postgresAdminUrl: string;
    /** A PostgreSQL database migrated and seeded once for the run, copied by CREATE DATABASE … TEMPLATE. */
    postgresTemplate: string;
    /** A SQLite file migrated and seeded once for the run, copied per test database. */
    sqliteTemplate: string;
  }
}

/**
 * Migrates and seeds a database exactly as a start does, then closes it: what every test database starts
 * from. Doing it once a run and copying costs a millisecond a database where migrating and seeding each
 * cost a tenth of a second or more (tests/support/test-database.ts).
 */
async function prepareTemplate(url: string) {
  const services = createServices(testEnv(url));
  try {
    await prepareDatabase(services);
  } finally {
    await services.database.destroy();
  }
}

async function onServer(adminUrl: string, statement: string) {
  const client = new pg.Client({ connectionString: adminUrl });
  await client.connect();
  try {
    await client.query(statement);
  } finally {
    await client.end();
  }
}

async function createPostgresTemplate(adminUrl: string): Promise<string> {
  // Its own name, so that runs sharing a server (TEST_POSTGRES_URL) do not share a template.
  const name = `hf_template_${randomBytes(4).toString("hex")}`;
  await onServer(adminUrl, `create database ${name}`);
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  await prepareTemplate(url.toString());
  return name;
}

interface Resources {
  adminUrl: string;
  postgresTemplate: string;
  sqliteTemplate: string;
  release(): Promise<void>;
}

async function startResources(): Promise<Resources> {
  const templates = mkdtempSync(path.join(tmpdir(), "hostfront-templates-"));
  const sqliteTemplate = path.join(templates, "template.db");
  await prepareTemplate(`file:${sqliteTemplate}`);
  let stopCluster = () => {};
  let adminUrl = process.env.TEST_POSTGRES_URL;
  if (!adminUrl) {
    // fsync off: tests check behaviour, not durability; benchmarks and soaks start theirs durable.
    const cluster = await startPostgresCluster({ durable: false });
    adminUrl = cluster.url;
    stopCluster = () => cluster.stop();
  }
  const postgresTemplate = await createPostgresTemplate(adminUrl);
  return {
    adminUrl,
    postgresTemplate,
    sqliteTemplate,
    async release() {
      try {
        if (process.env.TEST_POSTGRES_URL)
          await onServer(adminUrl, `drop database if exists ${postgresTemplate} with (force)`);
        stopCluster();
      } finally {
        rmSync(templates, { recursive: true, force: true });
      }
    },
  };
}

/**
 * Both integration projects (the files that share modules and those that mock) set this up; they share
 * one cluster and one pair of templates, kept on globalThis because each project may load this module
 * anew, and released when the last of them is done.
 */
const SHARED = Symbol.for("hostfront.integration-resources");
type Shared = { resources: Promise<Resources>; users: number };
const registry = globalThis as unknown as Record<symbol, Shared | undefined>;

/**
 * One throwaway PostgreSQL cluster for the run (TEST_POSTGRES_URL points at an existing server instead, a
 * superuser URL), and the two template databases the test files copy.
 */
export default async function setup(project: TestProject) {
  const shared = (registry[SHARED] ??= { resources: startResources(), users: 0 });
  shared.users++;
  const resources = await shared.resources;
  project.provide("sqliteTemplate", resources.sqliteTemplate);
  project.provide("postgresAdminUrl", resources.adminUrl);
  project.provide("postgresTemplate", resources.postgresTemplate);
  return async () => {
    if (--shared.users > 0) return;
    registry[SHARED] = undefined;
    await resources.release();
  };
}
