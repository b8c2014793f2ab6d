import { spawn } from "node:child_process";
import { existsSync, mkdirSync, readdirSync, renameSync, rmSync } from "node:fs";
import path from "node:path";
import SQLite from "better-sqlite3";
import { dialectOf, sqliteFilePath } from "./database.server";

/** pg_dump and psql from the newest PostgreSQL client installed, or from PATH. */
function pgTool(name: "pg_dump" | "pg_restore"): string {
  const root = "/usr/lib/postgresql";
  if (existsSync(root)) {
    const versions = readdirSync(root)
      .filter((v) => existsSync(path.join(root, v, "bin", name)))
      .sort((a, b) => Number(b) - Number(a));
    if (versions[0]) return path.join(root, versions[0], "bin", name);
  }
  return name;
}

function run(command: string, args: string[]): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { stdio: ["ignore", "ignore", "pipe"] });
    let stderr = "";
    child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
    child.on("error", reject);
    child.on("close", (code) =>
      code === 0
        ? resolve()
        : reject(new Error(`${path.basename(command)} failed: ${stderr.trim()}`)),
    );
  });
}

/**
 * A consistent copy while the app keeps running: SQLite's online backup API (pages copied under a read
 * snapshot), or pg_dump's snapshot in PostgreSQL's custom format.
 */
export async function backupDatabase(databaseUrl: string, file: string): Promise<void> {
  mkdirSync(path.dirname(path.resolve(file)), { recursive: true });
  if (dialectOf(databaseUrl) === "postgres") {
    await run(pgTool("pg_dump"), ["--format=custom", "--no-owner", `--file=${file}`, databaseUrl]);
    return;
  }
  const source = new SQLite(sqliteFilePath(databaseUrl), { readonly: true, fileMustExist: true });
  try {
    // Every page in one step. SQLite starts a backup over whenever another connection writes between two
    // of its steps, and better-sqlite3 copies 100 pages a step by default: on a shop that writes faster
    // than that, the copy never ended. One step reads under one snapshot, which in WAL mode holds up no
    // writer; it blocks this process (the backup command's) until the file is written.
    await source.backup(file, { progress: () => ALL_PAGES });
  } finally {
    source.close();
  }
}

/** The most pages better-sqlite3 lets a backup step copy: every page of any database we hold. */
const ALL_PAGES = 0x7fffffff;

/** Puts a backup back in place of the current database (the server should be stopped). */
export async function restoreDatabase(databaseUrl: string, file: string): Promise<void> {
  if (!existsSync(file)) throw new Error(`No backup file at ${file}`);
  if (dialectOf(databaseUrl) === "postgres") {
    await run(pgTool("pg_restore"), [
      "--clean",
      "--if-exists",
      "--no-owner",
      "--single-transaction",
      `--dbname=${databaseUrl}`,
      file,
    ]);
    return;
  }
  // Check the file is a SQLite database that passes its integrity check before replacing anything.
  const check = new SQLite(file, { readonly: true, fileMustExist: true });
  try {
    const result = check.pragma("integrity_check", { simple: true });
    if (result !== "ok")
      throw new Error(`The backup fails SQLite's integrity check: ${String(result)}`);
  } finally {
    check.close();
  }
  const target = sqliteFilePath(databaseUrl);
  mkdirSync(path.dirname(target), { recursive: true });
  const staging = `${target}.restoring`;
  const copy = new SQLite(file, { readonly: true });
  try {
    await copy.backup(staging);
  } finally {
    copy.close();
  }
  for (const suffix of ["-wal", "-shm"]) rmSync(`${target}${suffix}`, { force: true });
  renameSync(staging, target);
}
