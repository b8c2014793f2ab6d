import { execFileSync, spawnSync } from "node:child_process";
import {
  appendFileSync,
  chmodSync,
  chownSync,
  existsSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";

export interface PostgresCluster {
  url: string;
  /** Whether the cluster commits durably (see startPostgresCluster). */
  durable: boolean;
  /**
   * SIGKILL to the postmaster and every backend at once, as a crash of the database server would be (not
   * a power cut: what the kernel had accepted from a write stays in its page cache). Resolves once all are
   * gone.
   */
  kill(): Promise<void>;
  /** Starts the cluster again on the same data directory and port (crash recovery runs first). */
  start(): void;
  stop(): void;
}

/** The settings a commit's durability depends on, as the server reports them. */
export interface DurabilitySettings {
  fsync: string;
  synchronous_commit: string;
  full_page_writes: string;
}

/** SHOW fsync, synchronous_commit and full_page_writes on a running server. */
export async function durabilitySettings(url: string): Promise<DurabilitySettings> {
  const { default: pg } = await import("pg");
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const show = async (name: keyof DurabilitySettings) =>
      String((await client.query<Record<string, string>>(`show ${name}`)).rows[0]![name]);
    return {
      fsync: await show("fsync"),
      synchronous_commit: await show("synchronous_commit"),
      full_page_writes: await show("full_page_writes"),
    };
  } finally {
    await client.end();
  }
}

/** "fsync=on synchronous_commit=on full_page_writes=on", to print beside a figure. */
export function describeDurability(settings: DurabilitySettings): string {
  return Object.entries(settings)
    .map(([name, value]) => `${name}=${value}`)
    .join(" ");
}

/** Whether a server runs as production would: every commit flushed to disk, torn pages guarded. */
export function isDurable(settings: DurabilitySettings): boolean {
  return (
    settings.fsync === "on" &&
    settings.synchronous_commit === "on" &&
    settings.full_page_writes === "on"
  );
}

export function findPostgresBin(): string | null {
  const root = "/usr/lib/postgresql";
  if (!existsSync(root)) return null;
  const versions = readdirSync(root)
    .filter((v) => existsSync(path.join(root, v, "bin", "initdb")))
    .sort((a, b) => Number(b) - Number(a));
  return versions[0] ? path.join(root, versions[0], "bin") : null;
}

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.unref();
    server.on("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const address = server.address();
      const port = typeof address === "object" && address ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

/** The processes whose parent is `pid` (a postmaster's backends and background workers). */
function childrenOf(pid: number): number[] {
  const children: number[] = [];
  for (const name of readdirSync("/proc").filter((entry) => /^\d+$/.test(entry))) {
    try {
      const stat = readFileSync(`/proc/${name}/stat`, "utf8");
      if (stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1] === String(pid))
        children.push(Number(name));
    } catch {
      // gone meanwhile
    }
  }
  return children;
}

function isAlive(pid: number): boolean {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    return stat.slice(stat.lastIndexOf(")") + 2)[0] !== "Z";
  } catch {
    return false;
  }
}

/**
 * PG_DIAGNOSTICS_LOG=<file>: the cluster logs what makes a latency tail (checkpoints, autovacuum runs,
 * statements over 20 ms, lock waits over 20 ms) and its log is copied to <file> on stop, each cluster's
 * after the last. Off by default; for finding a benchmark's slow seconds, never for an official figure
 * (the logging costs a little itself).
 */
const DIAGNOSTICS_LOG = process.env.PG_DIAGNOSTICS_LOG ?? "";
const DIAGNOSTICS = DIAGNOSTICS_LOG
  ? " -c log_checkpoints=on -c log_autovacuum_min_duration=0 -c log_min_duration_statement=20" +
    " -c log_lock_waits=on -c deadlock_timeout=20ms -c log_line_prefix=%m_[%p]_"
  : "";

function keepLog(from: string, to: string) {
  try {
    appendFileSync(to, readFileSync(from, "utf8"));
  } catch {
    // no log to keep
  }
}

/**
 * Starts a throwaway PostgreSQL cluster on a free loopback port (as in the machine notes): initdb into a
 * temporary directory, run it as the postgres user when we are root, and remove it all on stop.
 *
 * `durable: true` runs it as production would: fsync, synchronous_commit and full_page_writes on (each
 * passed explicitly, so a changed default cannot turn them off), so a commit the app acknowledges is on
 * disk. Every benchmark and soak passes it: a figure taken without it measures a database that does not
 * keep its word, and cannot be set beside SQLite's, which is measured with synchronous=FULL.
 *
 * Without it (the default, used by the test suite through postgres-global-setup.ts) the cluster runs
 * with fsync=off: tests check behaviour, not durability or speed, and a commit that waits for the disk
 * would only make `npm test` slower. Nothing measured or crash-tested may use such a cluster.
 */
export async function startPostgresCluster(
  options: { durable?: boolean } = {},
): Promise<PostgresCluster> {
  const durable = options.durable ?? false;
  const bin = findPostgresBin();
  if (!bin) {
    throw new Error(
      "PostgreSQL server binaries not found under /usr/lib/postgresql: install postgresql-15 (scripts/ensure-test-deps.ts does it as root).",
    );
  }
  const dir = mkdtempSync(path.join(tmpdir(), "hostfront-pg-"));
  const asRoot = process.getuid?.() === 0;
  const run = (cmd: string, args: string[]) => {
    const file = path.join(bin, cmd);
    const result = asRoot
      ? spawnSync("runuser", ["-u", "postgres", "--", file, ...args], { encoding: "utf8" })
      : spawnSync(file, args, { encoding: "utf8" });
    if (result.status !== 0) throw new Error(`${cmd} failed: ${result.stderr || result.stdout}`);
  };
  if (asRoot) {
    const uid = Number(execFileSync("id", ["-u", "postgres"], { encoding: "utf8" }).trim());
    const gid = Number(execFileSync("id", ["-g", "postgres"], { encoding: "utf8" }).trim());
    chownSync(dir, uid, gid);
    chmodSync(dir, 0o700);
    writeFileSync(path.join(dir, "pw"), "secret\n");
    chownSync(path.join(dir, "pw"), uid, gid);
  } else {
    writeFileSync(path.join(dir, "pw"), "secret\n");
  }
  const port = await freePort();
  run("initdb", [
    "-D",
    path.join(dir, "data"),
    "-U",
    "app",
    `--pwfile=${path.join(dir, "pw")}`,
    "--auth-host=scram-sha-256",
    "-E",
    "UTF8",
    "--no-locale",
  ]);
  const durability = durable
    ? "-c fsync=on -c synchronous_commit=on -c full_page_writes=on"
    : // Tests only: commits are not flushed, a crash of the machine could lose or corrupt them.
      "-c fsync=off";
  const start = () => {
    try {
      pgCtlStart();
    } catch (error) {
      let log = "";
      try {
        log = readFileSync(path.join(dir, "log"), "utf8").split("\n").slice(-15).join("\n");
      } catch {
        // no log yet
      }
      throw new Error(`${String(error)}\nPostgreSQL's log ends:\n${log}`, { cause: error });
    }
  };
  const pgCtlStart = () =>
    run("pg_ctl", [
      "-D",
      path.join(dir, "data"),
      "-l",
      path.join(dir, "log"),
      "-w",
      "-t",
      "120",
      "-o",
      `-p ${port} -c listen_addresses=127.0.0.1 -k ${dir} ${durability} -c max_connections=200${DIAGNOSTICS}`,
      "start",
    ]);
  start();
  /** The postmaster's pid while it runs (after a kill its pid file stays behind), else null. */
  const runningPostmaster = (): number | null => {
    try {
      const pid = Number(
        readFileSync(path.join(dir, "data", "postmaster.pid"), "utf8").split("\n")[0],
      );
      return pid > 0 && isAlive(pid) ? pid : null;
    } catch {
      return null;
    }
  };
  const url = `postgres://app:secret@127.0.0.1:${port}/postgres`;
  return {
    url,
    durable,
    start,
    async kill() {
      const postmaster = runningPostmaster();
      if (postmaster === null) return;
      const all = [postmaster, ...childrenOf(postmaster)];
      for (const pid of all) {
        try {
          process.kill(pid, "SIGKILL");
        } catch {
          // already gone
        }
      }
      while (all.some(isAlive)) await new Promise((resolve) => setTimeout(resolve, 20));
      // Dead is not gone: until whoever adopted it reaps it, the postmaster is a zombie, and PostgreSQL,
      // finding its pid alive, would refuse to start over its pid file. Wait for the reaper (a
      // container's init can be slow at it); failing that, the stale pid file is removed, as an operator
      // who checked that no postmaster runs would.
      const deadline = Date.now() + 5_000;
      while (existsSync(`/proc/${postmaster}`) && Date.now() < deadline)
        await new Promise((resolve) => setTimeout(resolve, 50));
      if (existsSync(`/proc/${postmaster}`))
        rmSync(path.join(dir, "data", "postmaster.pid"), { force: true });
    },
    stop() {
      try {
        // After kill() without start() there is nothing to stop, and pg_ctl would fail for it.
        if (runningPostmaster() !== null)
          run("pg_ctl", ["-D", path.join(dir, "data"), "-m", "immediate", "-w", "stop"]);
      } finally {
        if (DIAGNOSTICS_LOG) keepLog(path.join(dir, "log"), DIAGNOSTICS_LOG);
        rmSync(dir, { recursive: true, force: true });
      }
    },
  };
}
