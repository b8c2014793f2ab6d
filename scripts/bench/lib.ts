import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import { existsSync, rmSync } from "node:fs";
import path from "node:path";

export const BENCH_SECRET = "bench-secret-0123456789abcdef0123456789abcdef";
export const BENCH_BUILD = ".tmp/bench-build";

/** A production build of our own for benchmarks, so a developer's build folder is never touched. */
export function ensureBuild(): void {
  if (existsSync(path.join(BENCH_BUILD, "server/index.js")) && !process.argv.includes("--rebuild"))
    return;
  console.log("Building the app for the benchmark...");
  const result = spawnSync("node", ["node_modules/.bin/react-router", "build"], {
    env: { ...process.env, BUILD_DIR: BENCH_BUILD },
    stdio: "inherit",
  });
  if (result.status !== 0) throw new Error("build failed");
}

export interface RunningServer {
  url: string;
  stop(): Promise<void>;
}

/** Starts the production server on loopback with its own database; waits for /healthz. */
export async function startServer(options: {
  port: number;
  databaseUrl: string;
  env?: Record<string, string>;
}): Promise<RunningServer> {
  if (options.databaseUrl.startsWith("file:"))
    rmSync(path.dirname(options.databaseUrl.slice(5)), { recursive: true, force: true });
  const child: ChildProcess = spawn("node", ["--import", "tsx", "server/index.ts"], {
    env: {
      ...process.env,
      NODE_ENV: "production",
      BUILD_DIR: BENCH_BUILD,
      PORT: String(options.port),
      DATABASE_URL: options.databaseUrl,
      AUTH_SECRET: BENCH_SECRET,
      PUBLIC_URL: `http://127.0.0.1:${options.port}`,
      ADMIN_EMAIL: "admin@bench.test",
      ADMIN_PASSWORD: "Bench-admin-pass-991",
      ENTRY_GATE: "off",
      LOG_LEVEL: "error",
      LOGIN_IP_LIMIT_PER_MINUTE: "1000000",
      FORM_RATE_LIMIT_PER_MINUTE: "1000000",
      ...options.env,
    },
    stdio: ["ignore", "ignore", "inherit"],
  });
  const url = `http://127.0.0.1:${options.port}`;
  const deadline = Date.now() + 60_000;
  for (;;) {
    try {
      if ((await fetch(`${url}/healthz`)).ok) break;
    } catch {
      // not up yet
    }
    if (Date.now() > deadline || child.exitCode !== null)
      throw new Error("the server did not start");
    await new Promise((r) => setTimeout(r, 250));
  }
  return {
    url,
    stop: () =>
      new Promise((resolve) => {
        child.once("exit", () => resolve());
        child.kill("SIGTERM");
        setTimeout(() => child.kill("SIGKILL"), 5000).unref();
      }),
  };
}

export function printTable(title: string, rows: Record<string, string | number>[]): void {
  console.log(`\n${title}`);
  if (rows.length === 0) return;
  const columns = Object.keys(rows[0]!);
  const widths = columns.map((c) =>
    Math.max(c.length, ...rows.map((r) => String(r[c] ?? "").length)),
  );
  const line = (cells: string[]) =>
    `| ${cells.map((cell, i) => cell.padEnd(widths[i]!)).join(" | ")} |`;
  console.log(line(columns));
  console.log(`|${widths.map((w) => "-".repeat(w + 2)).join("|")}|`);
  for (const row of rows) console.log(line(columns.map((c) => String(row[c] ?? ""))));
}
