import type { TestProject } from "vitest/node";
import { startPostgresCluster } from "./postgres-cluster";

declare module "vitest" {
  export interface ProvidedContext {
    postgresAdminUrl: string;
  }
}

/** TEST_POSTGRES_URL points at an existing server (a superuser URL); otherwise we start our own. */
export default async function setup(project: TestProject) {
  if (process.env.TEST_POSTGRES_URL) {
    project.provide("postgresAdminUrl", process.env.TEST_POSTGRES_URL);
    return;
  }
  // fsync off: tests check behaviour, not durability; benchmarks and soaks start theirs durable.
  const cluster = await startPostgresCluster({ durable: false });
  project.provide("postgresAdminUrl", cluster.url);
  return () => cluster.stop();
}
