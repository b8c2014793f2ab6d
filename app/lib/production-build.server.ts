import { readEnvEarly } from "~/config/env.server";

export interface ProductionBuild {
  /** Whether this process serves the production build (not the development server). */
  production: boolean;
  /** Where the build is (BUILD_DIR), when not in "build". */
  buildDir?: string;
}

let read: ProductionBuild | undefined;

/**
 * Whether the process serves a production build, and from where. Read once: the environment does not
 * change while the process runs, and reading it validates every variable (zod), which on every page
 * was 3% of a signed-in page's CPU. Read from the environment rather than the server's
 * settings, because the test harness imports entry.server with no server (nor .env) behind it.
 */
export function productionBuild(): ProductionBuild {
  if (!read) {
    const { NODE_ENV, BUILD_DIR } = readEnvEarly(["NODE_ENV", "BUILD_DIR"]);
    read = { production: NODE_ENV === "production", buildDir: BUILD_DIR };
  }
  return read;
}
