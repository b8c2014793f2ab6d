import { execFileSync, spawnSync } from "node:child_process";
import {
  chmodSync,
  chownSync,
  existsSync,
  mkdtempSync,
  readdirSync,
  rmSync,
  writeFileSync,
} from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";

export interface PostgresCluster {
  url: string;
  stop(): void;
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

/**
 * Starts a throwaway PostgreSQL cluster on a free loopback port (as in the machine notes): initdb into a
 * temporary directory, run it as the postgres user when we are root, and remove it all on stop.
 */
export async function startPostgresCluster(): Promise<PostgresCluster> {
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
  run("pg_ctl", [
    "-D",
    path.join(dir, "data"),
    "-l",
    path.join(dir, "log"),
    "-w",
    "-o",
    `-p ${port} -c listen_addresses=127.0.0.1 -k ${dir} -c fsync=off -c max_connections=200`,
    "start",
  ]);
  const url = `postgres://app:secret@127.0.0.1:${port}/postgres`;
  return {
    url,
    stop() {
      try {
        run("pg_ctl", ["-D", path.join(dir, "data"), "-m", "immediate", "-w", "stop"]);
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    },
  };
}
