import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import { existsSync, rmSync } from "node:fs";
import path from "node:path";
import type { AppServices } from "../../app/context.server";
import { registerCustomer, signIn } from "../../app/domain/accounts/accounts.server";
import { adjustCoins } from "../../app/domain/coins/coins.server";

export const BENCH_SECRET = "bench-secret-0123456789abcdef0123456789abcdef";
export const BENCH_BUILD = ".tmp/bench-build";
export const BENCH_ADMIN = { email: "admin@bench.test", password: "Bench-admin-pass-991" };

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
  /** SIGKILL, as a power cut or the OOM killer would: no shutdown code runs. */
  kill(): Promise<void>;
}

/**
 * Starts the production server on loopback with its own database (a fresh SQLite file unless
 * keepDatabase, e.g. to restart on the same file after a crash); waits for /healthz.
 */
export async function startServer(options: {
  port: number;
  databaseUrl: string;
  env?: Record<string, string>;
  keepDatabase?: boolean;
}): Promise<RunningServer> {
  if (options.databaseUrl.startsWith("file:") && !options.keepDatabase)
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
      ADMIN_EMAIL: BENCH_ADMIN.email,
      ADMIN_PASSWORD: BENCH_ADMIN.password,
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
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  return {
    url,
    stop: async () => {
      if (child.exitCode !== null || child.signalCode !== null) return;
      child.kill("SIGTERM");
      setTimeout(() => child.kill("SIGKILL"), 5000).unref();
      await exited;
    },
    kill: async () => {
      if (child.exitCode !== null || child.signalCode !== null) return;
      child.kill("SIGKILL");
      await exited;
    },
  };
}

export interface BenchCustomer {
  userId: string;
  email: string;
  /** A signed-in session's Cookie header. */
  cookie: string;
}

/** Customers registered, given coins through the ledger and signed in, as a real customer would be. */
export async function createCustomers(
  services: AppServices,
  count: number,
  coinsCents = 1_000_000,
): Promise<BenchCustomer[]> {
  const admin = await services.db
    .selectFrom("users")
    .select("id")
    .where("role", "=", "admin")
    .executeTakeFirstOrThrow();
  const customers: BenchCustomer[] = [];
  for (let i = 0; i < count; i++) {
    const email = `bench${i}-${Date.now()}@example.com`;
    const created = await registerCustomer(
      services,
      {
        name: `Bench ${i}`,
        email,
        password: "Bench-pass-4471",
        confirmPassword: "Bench-pass-4471",
      },
      { registrationOpen: true },
    );
    if (!created.ok) throw new Error(created.error);
    await adjustCoins(services.db, {
      userId: created.userId,
      amountCents: coinsCents,
      reason: "bench",
      actorId: admin.id,
    });
    customers.push({ userId: created.userId, email, cookie: await signInCookie(services, email) });
  }
  return customers;
}

/** A session cookie for an account (the bench admin by default). */
export async function signInCookie(
  services: AppServices,
  email = BENCH_ADMIN.email,
  password = email === BENCH_ADMIN.email ? BENCH_ADMIN.password : "Bench-pass-4471",
): Promise<string> {
  const session = await signIn(
    services,
    { email, password },
    { ip: "127.0.0.1" },
    { ipPerMinute: 1_000_000 },
  );
  if (!session.ok) throw new Error(`sign in failed for ${email}`);
  return session.setCookies.map((c) => c.split(";")[0]).join("; ");
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
