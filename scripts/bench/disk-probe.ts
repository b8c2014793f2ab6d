import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import SQLite from "better-sqlite3";
import { percentile } from "./lib";

export interface CommitLatency {
  commits: number;
  p50: number;
  p99: number;
  max: number;
}

/**
 * How long this machine's disk makes a SQLite commit wait, with the settings the app uses (WAL,
 * synchronous=FULL: each commit waits until the log is on disk). better-sqlite3 waits on the thread that
 * serves requests, so a slow commit holds up every request of its process; printed beside the server
 * benchmark's figures, it tells the disk's share of SQLite's tail latency from the app's.
 */
export function probeCommitLatency(
  options: { dir?: string; commits?: number } = {},
): CommitLatency {
  const dir = mkdtempSync(path.join(options.dir ?? tmpdir(), "hostfront-disk-"));
  const db = new SQLite(path.join(dir, "probe.db"));
  try {
    db.pragma("journal_mode = WAL");
    db.pragma("synchronous = FULL");
    db.exec("create table probe (id integer primary key, body text not null)");
    const insert = db.prepare("insert into probe (body) values (?)");
    const times: number[] = [];
    const body = "x".repeat(800); // about an order with its ledger entry
    for (let i = 0; i < (options.commits ?? 2000); i++) {
      const start = performance.now();
      db.exec("begin immediate");
      insert.run(body);
      db.exec("commit");
      times.push(performance.now() - start);
    }
    times.sort((a, b) => a - b);
    const round = (ms: number) => Math.round(ms * 100) / 100;
    return {
      commits: times.length,
      p50: round(percentile(times, 0.5)),
      p99: round(percentile(times, 0.99)),
      max: round(times.at(-1)!),
    };
  } finally {
    db.close();
    rmSync(dir, { recursive: true, force: true });
  }
}
