import { spawn } from "node:child_process";
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { nodeVersionProblem, PINNED_NODE_VERSION } from "../../server/node-version";

const folders: string[] = [];
afterAll(() => folders.forEach((folder) => rmSync(folder, { recursive: true, force: true })));

/** Starts the server entry as `node --import tsx server/index.ts` would, with extra Node arguments. */
function start(nodeArguments: string[], env: Record<string, string>) {
  const folder = mkdtempSync(path.join(tmpdir(), "hostfront-runtime-"));
  folders.push(folder);
  const database = path.join(folder, "hostfront.db");
  return new Promise<{ code: number | null; stdout: string; stderr: string; database: string }>(
    (resolve, reject) => {
      const child = spawn(
        process.execPath,
        [...nodeArguments, "--import", "tsx", "server/index.ts"],
        {
          env: {
            PATH: process.env.PATH ?? "",
            DATABASE_URL: `file:${database}`,
            AUTH_SECRET: "runtime-test-secret-0123456789abcdef0123456789",
            LOG_LEVEL: "info",
            ...env,
          },
          stdio: ["ignore", "pipe", "pipe"],
        },
      );
      // A server that starts instead of stopping is the failure: it is not left running.
      const timer = setTimeout(() => child.kill("SIGKILL"), 20_000);
      let stdout = "";
      let stderr = "";
      child.stdout.on("data", (chunk: Buffer) => (stdout += chunk.toString()));
      child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
      child.on("error", reject);
      child.on("close", (code) => {
        clearTimeout(timer);
        resolve({ code, stdout, stderr, database });
      });
    },
  );
}

describe("the runtime the server starts on", () => {
  it("refuses a Node older than the pinned one before touching anything, and says how to start", async () => {
    // The machine's own Node (20) started by hand, as `node server/...` would: its version, this code.
    const olderNode =
      'data:text/javascript,Object.defineProperty(process,"version",{value:"v20.20.2"})';
    const result = await start(["--import", olderNode], { NODE_ENV: "production" });
    expect(result.code).toBe(1);
    expect(result.stderr).toBe(`${nodeVersionProblem("v20.20.2")}\n`);
    expect(result.stderr).toContain("npm start");
    expect(result.stdout).toBe("");
    expect(existsSync(result.database)).toBe(false);
  });

  it("logs the Node version it runs on when it starts", async () => {
    // A build folder that does not exist: the start is logged, then loading the build fails.
    const result = await start([], { NODE_ENV: "production", BUILD_DIR: "does-not-exist" });
    const lines = result.stdout
      .split("\n")
      .filter(Boolean)
      .map((line) => JSON.parse(line) as { msg?: string });
    expect(lines.map((line) => line.msg)).toContain(
      `Hostfront starting on Node.js ${process.version}`,
    );
    expect(process.versions.node).toBe(PINNED_NODE_VERSION);
  });
});
