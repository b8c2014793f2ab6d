import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import {
  closeSync,
  existsSync,
  mkdirSync,
  openSync,
  readdirSync,
  readFileSync,
  rmSync,
} from "node:fs";
import { createServer } from "node:net";
import { availableParallelism } from "node:os";
import path from "node:path";
import { parseEnv } from "../../app/config/env.server";
import { createServices, type AppServices } from "../../app/context.server";
import { keepMailUnsent } from "../../app/domain/mail/outbox-mode.server";
import { SERVER_ENTRY, SERVER_ENV, serverArguments } from "../../server/command";
import { registerCustomer, signIn } from "../../app/domain/accounts/accounts.server";
import { verifySignInCode } from "../../app/domain/accounts/two-factor.server";
import { verifiedFlag } from "../../app/domain/accounts/email-verification.server";
import { totpCode } from "../../tests/support/totp";
import { inTransaction } from "../../app/db/transaction";
import { adjustCoins, postLedgerEntry } from "../../app/domain/coins/coins.server";
import { orderFormSchema } from "../../app/domain/orders/orders.schemas";
import { approveOrder, placeOrder } from "../../app/domain/orders/orders.server";
import { openTicket, staffReply } from "../../app/domain/tickets/tickets.server";

export const BENCH_SECRET = "bench-secret-0123456789abcdef0123456789abcdef";
export const BENCH_BUILD = ".tmp/bench-build";
/**
 * Server processes the benchmarks start (WEB_CONCURRENCY): one per core, as the README advises for
 * production; WEB_CONCURRENCY in the environment overrides it (1 measures a single process).
 */
export const SERVER_PROCESSES = Number(process.env.WEB_CONCURRENCY ?? availableParallelism());
/**
 * `--quick`: the smallest run a script offers, to prove it works (seconds, not minutes). Its figures are
 * not measures of anything and its verdicts are printed all the same.
 */
export const QUICK = process.argv.includes("--quick");

/** Where benchmark servers write their logs (LOG_LEVEL=info, as production): a file, never a terminal. */
export const BENCH_LOGS = ".tmp/bench-logs";

/**
 * What a browser sends with a page request: compressed answers accepted (so the compression middleware
 * runs, as it does for every visitor), a language, and a browser's User-Agent (not a crawler's: a
 * crawler's page is rendered whole rather than streamed, and kept apart).
 */
export const BROWSER_HEADERS: Readonly<Record<string, string>> = {
  accept: "text/html,application/xhtml+xml,application/xml;q=0.9,image/avif,image/webp,*/*;q=0.8",
  "accept-encoding": "gzip, deflate, br",
  "accept-language": "en-US,en;q=0.9",
  "user-agent":
    "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36",
};

/** A browser's form post on our own site (the server refuses cross-site posts), signed in. */
export function browserFormHeaders(cookie: string): Record<string, string> {
  return {
    ...BROWSER_HEADERS,
    cookie,
    "content-type": "application/x-www-form-urlencoded",
    "sec-fetch-site": "same-origin",
  };
}

/** One line of a verdict table: what was measured, the figure, the budget, and whether it was met. */
export interface Verdict {
  measure: string;
  figure: string;
  budget: string;
  met: boolean;
}

const formatFigure = (value: number, unit: string) =>
  Number.isFinite(value) ? `${Math.round(value * 100) / 100}${unit}` : "none";

/** A figure that must stay below a limit (a p95 < 50 ms). No figure (NaN) is a miss. */
export function below(measure: string, value: number, limit: number, unit = ""): Verdict {
  return {
    measure,
    figure: formatFigure(value, unit),
    budget: `< ${limit}${unit}`,
    met: value < limit,
  };
}

/** A figure that must not exceed a limit (a ratio <= 1.5). No figure (NaN) is a miss. */
export function atMost(measure: string, value: number, limit: number, unit = ""): Verdict {
  return {
    measure,
    figure: formatFigure(value, unit),
    budget: `<= ${limit}${unit}`,
    met: value <= limit,
  };
}

/** A count that must be 0 (errors, lost changes), with what they were when there are any. */
export function none(measure: string, count: number, detail = ""): Verdict {
  return {
    measure,
    figure: count === 0 ? "0" : `${count}${detail ? ` (${detail})` : ""}`,
    budget: "0",
    met: count === 0,
  };
}

/** A check that must pass (the ledger check, an integrity check). */
export function passes(measure: string, ok: boolean, figure = ok ? "passed" : "FAILED"): Verdict {
  return { measure, figure, budget: "passes", met: ok };
}

/** The verdict table as markdown rows (measure, figure, budget, met/missed), as docs/performance.md copies it. */
export function verdictTable(verdicts: Verdict[]): string[] {
  const rows = verdicts.map((v) =>
    [v.measure, v.figure, v.budget, v.met ? "met" : "missed"].map((cell) =>
      cell.replaceAll("|", "\\|"),
    ),
  );
  const header = ["measure", "figure", "budget", "verdict"];
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length)));
  const line = (cells: string[]) =>
    `| ${cells.map((cell, i) => cell.padEnd(widths[i]!)).join(" | ")} |`;
  return [line(header), `|${widths.map((w) => "-".repeat(w + 2)).join("|")}|`, ...rows.map(line)];
}

/**
 * Prints the verdict table and, when any budget was missed (or there is no verdict at all, which proves
 * nothing), says so and sets a non-zero exit code. Returns whether every budget was met.
 */
export function reportVerdicts(title: string, verdicts: Verdict[]): boolean {
  console.log(`\nVerdict: ${title}`);
  for (const row of verdictTable(verdicts)) console.log(row);
  const missed = verdicts.filter((v) => !v.met);
  const ok = verdicts.length > 0 && missed.length === 0;
  console.log(
    ok
      ? `\nEvery budget met (${verdicts.length}).`
      : `\n${verdicts.length ? `${missed.length} of ${verdicts.length} budgets missed` : "No verdict"}: exit code 1.`,
  );
  if (!ok) process.exitCode = 1;
  return ok;
}

/** The first admin of every benchmark database (created at start when there is none). */
export const BENCH_ADMIN = { email: "admin@bench.test", password: "Bench-admin-pass-991" };

/**
 * A production build of our own for benchmarks, so a developer's build folder is never touched. Built on
 * every run, so the figures describe the code as it is; --reuse-build keeps an existing one (npm run bench
 * builds once for its three parts).
 */
export function ensureBuild(): void {
  if (existsSync(path.join(BENCH_BUILD, SERVER_ENTRY)) && process.argv.includes("--reuse-build"))
    return;
  console.log("Building the app for the benchmark...");
  const result = spawnSync("npm", ["run", "build"], {
    env: { ...process.env, BUILD_DIR: BENCH_BUILD },
    stdio: "inherit",
  });
  if (result.status !== 0) throw new Error("build failed");
}

export interface RunningServer {
  url: string;
  /** The process started (the cluster primary, or the one server process with WEB_CONCURRENCY=1). */
  pid: number;
  /** The file its log (LOG_LEVEL=info unless told otherwise) and its stderr go to. */
  logFile: string;
  /**
   * CPU time the server process has used so far, in ms (from /proc, so Linux only; null elsewhere). Per
   * request, it is a figure a busy shared machine hardly changes, unlike latency.
   */
  cpuMs(): number | null;
  /** The server processes under the cluster primary now (to tell when one was replaced). */
  workerPids(): number[];
  /** Whether the server (its cluster primary) is still running. */
  isRunning(): boolean;
  /** Throws when the server has exited (a crash, or another process ending it) since it started. */
  assertRunning(): void;
  stop(): Promise<void>;
  /** SIGKILL, as a power cut or the OOM killer would: no shutdown code runs. */
  kill(): Promise<void>;
}

/** The fields of /proc/<pid>/stat after the command name, or null when the process is gone. */
function procStat(pid: number | string): string[] | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    return stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  } catch {
    return null;
  }
}

/** The processes whose parent is `pid` (the server processes under a cluster primary). */
export function childPids(pid: number): number[] {
  let entries: string[];
  try {
    entries = readdirSync("/proc").filter((name) => /^\d+$/.test(name));
  } catch {
    return [];
  }
  return entries.filter((name) => procStat(name)?.[1] === String(pid)).map(Number);
}

/**
 * utime + stime in ms (clock ticks of 10 ms on Linux) of a process and its children, so a cluster
 * primary counts with its server processes; null when /proc cannot tell (not Linux).
 */
export function processCpuMs(pid: number | undefined): number | null {
  if (!pid) return null;
  let total = 0;
  for (const each of [pid, ...childPids(pid)]) {
    const fields = procStat(each);
    if (!fields) {
      if (each === pid) return null;
      continue;
    }
    total += (Number(fields[11]) + Number(fields[12])) * 10;
  }
  return total;
}

/**
 * Starts the production server on loopback with its own database (a SQLite database's folder is emptied
 * first unless keepDatabase is set, e.g. to restart on the same file after a crash); waits for /healthz.
 * It logs as production does (LOG_LEVEL=info, a line per request) into a file under BENCH_LOGS, appended
 * to when the same port is started again.
 */
/**
 * The benchmark server's command line: production's (serverArguments), with an experiment's flags after
 * production's own and before the entry, so that one of them can change a production flag (the last of a
 * V8 flag given wins).
 */
export function benchServerArguments(buildDir: string, extraFlags: string[]): string[] {
  return withExtraFlags(serverArguments(buildDir), extraFlags);
}

/** A node command line (flags, then the entry last) with an experiment's flags after its own. */
export function withExtraFlags(args: string[], extraFlags: string[]): string[] {
  return [...args.slice(0, -1), ...extraFlags, ...args.slice(-1)];
}

export async function startServer(options: {
  port: number;
  databaseUrl: string;
  env?: Record<string, string>;
  keepDatabase?: boolean;
  /** Node flags for this server alone, after BENCH_NODE_FLAGS (the dashboard probe's PROBE_FLAGS). */
  nodeFlags?: string[];
  /** Another build than BENCH_BUILD (the dashboard probe compares two). */
  buildDir?: string;
}): Promise<RunningServer> {
  const buildDir = options.buildDir ?? BENCH_BUILD;
  if (options.databaseUrl.startsWith("file:") && !options.keepDatabase)
    rmSync(path.dirname(options.databaseUrl.slice(5)), { recursive: true, force: true });
  mkdirSync(BENCH_LOGS, { recursive: true });
  const logFile = path.join(BENCH_LOGS, `server-${options.port}.log`);
  const logFd = openSync(logFile, options.keepDatabase ? "a" : "w");
  // BENCH_NODE_FLAGS adds Node flags to the server (e.g. "--cpu-prof --cpu-prof-dir=.tmp/prof" to profile a
  // run; node:cluster hands them to every server process). Node refuses --cpu-prof in NODE_OPTIONS. They
  // come after production's own flags, so an experiment can change one of those (the last one given wins,
  // e.g. "--max-semi-space-size=16"); a run with them is not an official run.
  const extraFlags = [
    ...(process.env.BENCH_NODE_FLAGS ?? "").split(" ").filter(Boolean),
    ...(options.nodeFlags ?? []),
  ];
  if (extraFlags.length > 0)
    console.log(`server started with the extra flags ${extraFlags.join(" ")}: not an official run`);
  const child: ChildProcess = spawn(process.execPath, benchServerArguments(buildDir, extraFlags), {
    env: {
      ...process.env,
      ...SERVER_ENV,
      NODE_ENV: "production",
      BUILD_DIR: buildDir,
      PORT: String(options.port),
      DATABASE_URL: options.databaseUrl,
      AUTH_SECRET: BENCH_SECRET,
      PUBLIC_URL: `http://127.0.0.1:${options.port}`,
      ADMIN_EMAIL: BENCH_ADMIN.email,
      ADMIN_PASSWORD: BENCH_ADMIN.password,
      // The bench signs its admin in with a password alone (a new install would ask an owner for two-factor).
      FIRST_START_TWO_FACTOR_ROLES: "none",
      ENTRY_GATE: "off",
      LOG_LEVEL: "info",
      LOGIN_IP_LIMIT_PER_MINUTE: "1000000",
      FORM_RATE_LIMIT_PER_MINUTE: "1000000",
      WEB_CONCURRENCY: String(SERVER_PROCESSES),
      ...options.env,
    },
    stdio: ["ignore", logFd, logFd],
  });
  closeSync(logFd);
  const url = `http://127.0.0.1:${options.port}`;
  let exited: string | null = null;
  child.once("exit", (code, signal) => (exited = signal ?? `exit code ${code}`));
  const deadline = Date.now() + 60_000;
  for (;;) {
    try {
      if ((await fetch(`${url}/healthz`)).ok) break;
    } catch {
      // not up yet
    }
    if (Date.now() > deadline || child.exitCode !== null)
      throw new Error(`the server did not start (its log: ${logFile})`);
    await new Promise((r) => setTimeout(r, 250));
  }
  // With several server processes the first answers while the others still start: wait until they all
  // exist, then long enough for one to boot (about a second here), so none is measured cold.
  const workers = Number(options.env?.WEB_CONCURRENCY ?? SERVER_PROCESSES);
  while (workers > 1 && childPids(child.pid!).length < workers) {
    if (Date.now() > deadline || child.exitCode !== null)
      throw new Error("the server processes did not all start");
    await new Promise((r) => setTimeout(r, 250));
  }
  if (workers > 1) await new Promise((r) => setTimeout(r, 3000));
  return {
    url,
    pid: child.pid!,
    logFile,
    cpuMs: () => processCpuMs(child.pid),
    workerPids: () => childPids(child.pid!),
    isRunning: () => !exited && child.exitCode === null,
    assertRunning: () => {
      if (exited) throw new Error(`the server on ${url} stopped (${exited}) during the benchmark`);
    },
    stop: () =>
      new Promise((resolve) => {
        // Already gone: waiting for its exit would wait forever.
        if (exited || child.exitCode !== null) return resolve();
        child.once("exit", () => resolve());
        child.kill("SIGTERM");
        setTimeout(() => child.kill("SIGKILL"), 5000).unref();
      }),
    // The primary and every server process at once, as a power cut would, and back only once all are gone.
    kill: async () => {
      if (exited || child.exitCode !== null) return;
      const workers = childPids(child.pid!);
      const primaryGone = new Promise((resolve) => child.once("exit", resolve));
      for (const pid of workers) {
        try {
          process.kill(pid, "SIGKILL");
        } catch {
          // already gone
        }
      }
      child.kill("SIGKILL");
      await primaryGone;
      while (workers.some((pid) => procStat(pid) !== null && procStat(pid)?.[0] !== "Z"))
        await new Promise((r) => setTimeout(r, 20));
    },
  };
}

/**
 * The services a benchmark seeds its data through, on the server's database. The benchmark's process never
 * boots, so without `keepMailUnsent` each message its seeding mails (a customer with history has about
 * 120) would get a send job, which the server's worker would then write during the first measured phase.
 * `mailSent`: whether the server under test has an SMTP_URL; without one it keeps its mail unsent too.
 */
export function benchServices(databaseUrl: string, { mailSent = false } = {}): AppServices {
  keepMailUnsent(!mailSent);
  return createServices({ ...parseEnv({ DATABASE_URL: databaseUrl }), AUTH_SECRET: BENCH_SECRET });
}

export interface BenchCustomer {
  userId: string;
  email: string;
  /** A signed-in session's Cookie header. */
  cookie: string;
}

/** The password of every benchmark customer (a throwaway database's, never a real account's). */
export const BENCH_CUSTOMER_PASSWORD = "Bench-pass-4471";

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
        password: BENCH_CUSTOMER_PASSWORD,
        confirmPassword: BENCH_CUSTOMER_PASSWORD,
      },
      { registrationOpen: true },
    );
    if (!created.ok) throw new Error(created.error);
    // A confirmed address, as a customer of a site with SMTP_URL has (its setting may require one to
    // order: `--with-smtp`); without SMTP_URL it changes nothing.
    await services.db
      .updateTable("users")
      .set({ email_verified: verifiedFlag(services.db, true) })
      .where("id", "=", created.userId)
      .execute();
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

/** What a customer with history has (the server benchmark's dashboards). */
export const HISTORY = { services: 20, ledgerEntries: 1_000, tickets: 30, notifications: 50 };

/**
 * Gives a customer made by createCustomers (one credit on the ledger, one notification) a history, all
 * through the domain so the ledger stays consistent: HISTORY.services orders placed and approved (a
 * payment on the ledger and a notification each, and a running service), HISTORY.tickets tickets of
 * which all but one were answered by staff (a notification each), and admin adjustments on the ledger up
 * to HISTORY.ledgerEntries entries. That makes 1 + 20 + 29 = 50 notifications.
 */
export async function giveHistory(
  services: AppServices,
  customer: BenchCustomer,
  productId: number,
): Promise<void> {
  const db = services.db;
  const admin = await db
    .selectFrom("users")
    .select("id")
    .where("role", "=", "admin")
    .executeTakeFirstOrThrow();
  for (let i = 0; i < HISTORY.services; i++) {
    const placed = await placeOrder(
      db,
      customer.userId,
      orderFormSchema.parse({
        productId,
        serverName: `history ${i}`,
        idempotencyKey: `history-${customer.userId}-${i}`,
      }),
    );
    if (!placed.ok) throw new Error(`history order: ${placed.error}`);
    const approved = await approveOrder(db, { orderId: placed.order.id, actorId: admin.id });
    if (!approved.ok) throw new Error(`history approval: ${approved.error}`);
  }
  const answered = HISTORY.notifications - 1 - HISTORY.services;
  for (let i = 0; i < HISTORY.tickets; i++) {
    const opened = await openTicket(db, {
      userId: customer.userId,
      department: "sales",
      subject: `Question ${i} about my server`,
      priority: "low",
      message: `Hello, a question about my server (${i}).`,
    });
    if (!opened.ok) throw new Error(`history ticket: ${opened.error}`);
    if (i < answered) {
      const reply = await staffReply(db, {
        actorId: admin.id,
        ticketId: opened.ticket.id,
        message: "Done, thank you for waiting.",
      });
      if (!reply.ok) throw new Error(`history reply: ${reply.error}`);
    }
  }
  // The rest of the ledger: small credits and debits in turn, written as any ledger entry is (the
  // balance and its row together), without the notification an admin's form would add to each.
  const entries = HISTORY.ledgerEntries - 1 - HISTORY.services;
  for (let done = 0; done < entries; done += 100)
    await inTransaction(db, async (trx) => {
      for (let i = done; i < Math.min(entries, done + 100); i++)
        if (
          (await postLedgerEntry(trx, {
            userId: customer.userId,
            amountCents: i % 2 ? -300 : 500,
            kind: "admin_adjustment",
            reason: `history ${i}`,
            actorId: admin.id,
          })) === null
        )
          throw new Error("history ledger entry refused");
    });
}

/**
 * A session cookie for an account (the bench admin by default). An account with two-factor sign-in on
 * answers its password with a code step: give `totpSecret` (the setup key its account tab showed) and the
 * code is computed from it, as an authenticator app would (tests/support/totp.ts).
 */
export async function signInCookie(
  services: AppServices,
  email = BENCH_ADMIN.email,
  password = email === BENCH_ADMIN.email ? BENCH_ADMIN.password : BENCH_CUSTOMER_PASSWORD,
  totpSecret?: string,
): Promise<string> {
  const limits = { ipPerMinute: 1_000_000 };
  const session = await signIn(services, { email, password }, { ip: "127.0.0.1" }, limits);
  const cookies = (setCookies: string[]) => setCookies.map((c) => c.split(";")[0]).join("; ");
  if (session.ok) return cookies(session.setCookies);
  if (session.kind !== "two-factor" || !totpSecret) throw new Error(`sign in failed for ${email}`);
  const coded = await verifySignInCode(
    services,
    { code: totpCode(totpSecret), method: "totp", trustDevice: false },
    { ip: "127.0.0.1", cookie: cookies(session.setCookies) },
    limits,
  );
  if (!coded.ok) throw new Error(`two-factor sign in failed for ${email}: ${coded.error}`);
  return cookies(coded.setCookies);
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

/**
 * Warm-up before a measured run: `count` requests, `parallel` at a time. The server's processes share
 * the listening socket connection by connection, so requests one after the other on one keep-alive
 * connection would all reach one process and leave the others cold (compiling code, loading a language)
 * for the measured run.
 */
export async function warmUp(
  count: number,
  send: (i: number) => Promise<unknown>,
  parallel = 8,
): Promise<void> {
  let next = 0;
  await Promise.all(
    Array.from({ length: parallel }, async () => {
      while (next < count) await send(next++);
    }),
  );
}

/** The q-th percentile (0..1) of sorted values, nearest rank. */
export function percentile(sorted: number[], q: number): number {
  if (sorted.length === 0) return NaN;
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1))]!;
}

/** Whether nothing listens on this loopback port (a server left running would answer in our place). */
export async function portIsFree(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const probe = createServer();
    probe.once("error", () => resolve(false));
    probe.listen(port, "127.0.0.1", () => probe.close(() => resolve(true)));
  });
}

/**
 * Ports for benchmark servers: from BENCH_PORT upwards when set (one range per developer on a shared
 * machine), skipping ports in use; otherwise any free port.
 */
export function benchPorts(free: () => Promise<number>): () => Promise<number> {
  let next = process.env.BENCH_PORT ? Number(process.env.BENCH_PORT) : 0;
  return async () => {
    if (!next) return free();
    while (!(await portIsFree(next))) next++;
    return next++;
  };
}

/** A page as plain HTML: every script (inline or not) and module preload removed, stylesheets kept. */
export function withoutJavaScript(html: string): string {
  return html
    .replace(/<script\b[^>]*>[\s\S]*?<\/script>/gi, "")
    .replace(/<link\b[^>]*rel="modulepreload"[^>]*\/?>/gi, "");
}

/** Kilobytes of a process's resident memory now (VmRSS) or at its highest (VmHWM); 0 when it is gone. */
function memoryKb(pid: number, field: "VmRSS" | "VmHWM"): number {
  try {
    const status = readFileSync(`/proc/${pid}/status`, "utf8");
    return Number(new RegExp(`${field}:\\s+(\\d+)`).exec(status)?.[1] ?? 0);
  } catch {
    return 0;
  }
}

function parentOf(pid: string): string | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    return stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1] ?? null;
  } catch {
    return null;
  }
}

/** A process and all its descendants. */
export function processTree(root: number): number[] {
  const all = readdirSync("/proc").filter((name) => /^\d+$/.test(name));
  const tree = [String(root)];
  for (let index = 0; index < tree.length; index++)
    for (const pid of all) if (parentOf(pid) === tree[index]) tree.push(pid);
  return tree.map(Number);
}

/** Megabytes of a process and its descendants, added up (see memoryKb). */
export function treeMemoryMb(root: number, field: "VmRSS" | "VmHWM"): number {
  return processTree(root).reduce((sum, pid) => sum + memoryKb(pid, field), 0) / 1024;
}
