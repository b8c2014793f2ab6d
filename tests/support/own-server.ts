import { spawn, type ChildProcess } from "node:child_process";
import { once } from "node:events";
import { rmSync } from "node:fs";
import net from "node:net";
import path from "node:path";
import { serverArguments, SERVER_ENV } from "../../server/command";

/** A production server a spec started for itself (its own port, database and settings). */
export interface OwnServer {
  url: string;
  port: number;
  child: ChildProcess;
  /** Its SQLite file. */
  databaseFile: string;
  /** What it printed to stderr so far. */
  stderr: () => string;
  /** SIGTERM, then waits for it (and its cluster's processes) to exit. */
  stop: () => Promise<void>;
}

/**
 * Starts the build (`npm run serve`'s command, BUILD_DIR) on `port` (or a free one) with a fresh SQLite database in
 * `folder`, for a spec whose settings the shared e2e servers cannot have (an SMTP server, a low limit,
 * several processes). The env is production's, with the test admin and throttles high enough for a
 * test; `env` adds or overrides. Resolves once /healthz answers; throws with its stderr if it stops.
 */
export async function startOwnServer(options: {
  /** A free one when not given. */
  port?: number;
  folder: string;
  env: Record<string, string>;
  /** Keep the database in `folder` (a restart of the same server). */
  keepDatabase?: boolean;
}): Promise<OwnServer> {
  const { folder } = options;
  const port = options.port ?? (await freePort());
  if (!options.keepDatabase) rmSync(folder, { recursive: true, force: true });
  const databaseFile = path.join(folder, "hostfront.db");
  const url = `http://localhost:${port}`;
  const child = spawn(process.execPath, serverArguments(process.env.BUILD_DIR), {
    env: {
      ...process.env,
      ...SERVER_ENV,
      NODE_ENV: "production",
      PORT: String(port),
      DATABASE_URL: `file:${databaseFile}`,
      ENTRY_GATE: "off",
      PUBLIC_URL: url,
      LOGIN_IP_LIMIT_PER_MINUTE: "1000",
      FORM_RATE_LIMIT_PER_MINUTE: "1000",
      LOG_LEVEL: "warn",
      WEB_CONCURRENCY: "1",
      // The admin signs in with a password alone, as on the shared servers (playwright.config.ts): a new
      // install would require two-factor of Owner and Billing. A spec about that sets its own.
      FIRST_START_TWO_FACTOR_ROLES: "none",
      ...options.env,
    },
    stdio: ["ignore", "ignore", "pipe"],
  });
  let stderr = "";
  child.stderr!.on("data", (data: Buffer) => (stderr += data.toString()));
  const stop = async () => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    child.kill("SIGTERM");
    await once(child, "exit");
  };
  for (const started = Date.now(); Date.now() - started < 60_000;) {
    if (child.exitCode !== null) throw new ServerStopped(child.exitCode, stderr);
    const up = await fetch(`${url}/healthz`).then(
      (response) => response.ok,
      () => false,
    );
    if (up) return { url, port, child, databaseFile, stderr: () => stderr, stop };
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  await stop();
  throw new Error(`the server did not start: ${stderr}`);
}

/** The server stopped before it answered (a setting refused at start, say): its exit code and stderr. */
export class ServerStopped extends Error {
  constructor(
    readonly exitCode: number,
    readonly stderr: string,
  ) {
    super(`the server stopped (exit code ${exitCode}): ${stderr}`);
  }
}

/** A TCP port nothing listens on now. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = net.createServer();
    probe.unref();
    probe.on("error", reject);
    probe.listen(0, "127.0.0.1", () => {
      const { port } = probe.address() as net.AddressInfo;
      probe.close(() => resolve(port));
    });
  });
}
