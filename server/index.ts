import cluster from "node:cluster";
import { randomBytes } from "node:crypto";
import path from "node:path";
import os from "node:os";
import { pathToFileURL } from "node:url";
import express from "express";
import helmet from "helmet";
import pino from "pino";
import { ConfigError, getEnv, type Env } from "../app/config/env.server";
import { loggerRedactPaths } from "../app/lib/logger.server";
import { logDestination } from "./log-destination";
import { nodeVersionProblem } from "./node-version";
import { ROLE_VARIABLE, runPrimary, WORKER_READY_MESSAGE } from "./primary";
import { requestLog } from "./request-log";
import { responseCompression } from "./response-compression";
import { insecurePublicUrlWarning, isConfigError, listenHost } from "./start-checks";

// Before anything else runs: on the machine's own (older) Node the site would start on an unsupported runtime.
const versionProblem = nodeVersionProblem();
if (versionProblem) {
  console.error(versionProblem);
  process.exit(1);
}

let env: Env;
try {
  env = getEnv();
} catch (error) {
  if (error instanceof ConfigError) {
    console.error(error.message);
    process.exit(1);
  }
  throw error;
}

// Unset means production (only npm run dev asks for development); React, Express and the app's own
// checks read process.env, so they are told the same mode.
process.env.NODE_ENV = env.NODE_ENV;
const production = env.NODE_ENV === "production";
const logger = pino(
  {
    level: env.LOG_LEVEL,
    redact: { paths: loggerRedactPaths, censor: "[redacted]" },
  },
  logDestination(),
);

/**
 * How much lower the worker process's CPU priority is than the server processes' (a nice value). Its
 * jobs (mail, staff posts, the lifecycle) can wait a few seconds; a customer's request cannot. On a busy
 * machine the kernel then runs the server processes first, and the jobs catch up when the load eases
 * (docs/automation.md, ADR 39).
 */
// Declared before the code below runs work(): the compiled module reads it at the top level.
const WORKER_NICENESS = 10;

if (cluster.isPrimary) logger.info(`Hostfront starting on Node.js ${process.version}`);
const insecure = cluster.isPrimary ? insecurePublicUrlWarning(env) : null;
if (insecure) logger.warn(insecure);

if (production && env.WEB_CONCURRENCY > 1 && cluster.isPrimary) {
  // This process only starts the server processes (and the worker's) and relays messages between them
  // (server/primary.ts).
  runPrimary({ workers: env.WEB_CONCURRENCY, logger, backgroundWorker: env.WORKER === "on" });
} else if (cluster.isWorker && process.env[ROLE_VARIABLE] === "worker") {
  await work();
} else {
  try {
    await serve();
  } catch (error) {
    // A setting found wrong while the app starts (a refused ADMIN_PASSWORD): its message, no stack.
    if (!isConfigError(error)) throw error;
    console.error(error.message);
    process.exit(1);
  }
}

/**
 * The cluster's worker process: the app's module (server/app.ts in the build) boots the services, migrates
 * if needed and starts the background worker (WORKER=on here); nothing listens on the port.
 */
async function work() {
  try {
    os.setPriority(Math.min(19, os.getPriority() + WORKER_NICENESS));
  } catch (error) {
    // A platform that refuses it: the worker runs at the server's priority, as before.
    logger.warn({ err: error }, "could not lower the worker process's priority");
  }
  const build = path.resolve(env.BUILD_DIR);
  const serverBuild = await import(pathToFileURL(path.join(build, "server/index.js")).href);
  logger.info("worker process running");
  process.send?.(WORKER_READY_MESSAGE);
  async function stop(signal: string) {
    logger.info(`${signal} received, letting running jobs finish`);
    await serverBuild.shutdown().catch(() => {});
    process.exit(0);
  }
  process.on("SIGTERM", () => void stop("SIGTERM"));
  process.on("SIGINT", () => void stop("SIGINT"));
}

async function serve() {
  const app = express();
  app.disable("x-powered-by");
  // The client's address (req.ip: the limits, the login throttle, the logs) comes from X-Forwarded-For
  // only when the connection is from a proxy TRUST_PROXY names (docs/security.md).
  try {
    app.set("trust proxy", env.TRUST_PROXY);
  } catch (error) {
    console.error(`Invalid configuration:\n  TRUST_PROXY: ${(error as Error).message}`);
    process.exit(1);
  }

  app.use(requestLog(logger));
  app.use(responseCompression());
  app.use((_req, res, next) => {
    res.locals.cspNonce = randomBytes(16).toString("base64");
    next();
  });
  app.use(
    helmet({
      contentSecurityPolicy: {
        directives: {
          // React Router's inline hydration scripts carry the per-request nonce; nothing else inline runs.
          scriptSrc: [
            "'self'",
            (_req, res) => `'nonce-${(res as express.Response).locals.cspNonce}'`,
          ],
          connectSrc: production ? ["'self'"] : ["'self'", "ws:"],
          frameSrc: ["https://www.google.com", "https://maps.google.com"],
          imgSrc: ["'self'", "data:"],
          // "Sign in with Discord" and "Link Discord" are posts that end in a redirect to Discord's
          // authorize page, which the browser checks against form-action too (docs/discord.md).
          formAction:
            env.DISCORD_CLIENT_ID && env.DISCORD_CLIENT_SECRET
              ? ["'self'", new URL(env.DISCORD_BASE_URL).origin]
              : ["'self'"],
          upgradeInsecureRequests: env.PUBLIC_URL.startsWith("https://") ? [] : null,
        },
      },
      strictTransportSecurity: env.PUBLIC_URL.startsWith("https://"),
      // Browsers then send our own Origin on form posts (no-referrer would make it "null").
      referrerPolicy: { policy: "strict-origin-when-cross-origin" },
      crossOriginEmbedderPolicy: false,
    }),
  );

  let shutdownApp: () => Promise<void> = async () => {};

  if (production) {
    const build = path.resolve(env.BUILD_DIR);
    app.use(
      "/assets",
      express.static(path.join(build, "client/assets"), { immutable: true, maxAge: "1y" }),
    );
    // The files beside assets/ (favicon.svg) all have an extension; a page's path skips the disk lookup
    // the static handler would make on every request.
    const publicFiles = express.static(path.join(build, "client"), { maxAge: "1h" });
    app.use((req, res, next) => (path.extname(req.path) ? publicFiles(req, res, next) : next()));
    const serverBuild = await import(pathToFileURL(path.join(build, "server/index.js")).href);
    app.use(serverBuild.app);
    shutdownApp = serverBuild.shutdown;
  } else {
    const vite = await import("vite");
    const viteDevServer = await vite.createServer({ server: { middlewareMode: true } });
    app.use(viteDevServer.middlewares);
    // Load the app once at start so migrations, seeding and configuration errors show up immediately.
    await viteDevServer.ssrLoadModule("./server/app.ts");
    app.use(async (req, res, next) => {
      try {
        const source = await viteDevServer.ssrLoadModule("./server/app.ts");
        return source.app(req, res, next);
      } catch (error) {
        if (error instanceof Error) viteDevServer.ssrFixStacktrace(error);
        next(error);
      }
    });
  }

  // Last resort: an error that escaped everything gets a plain page, never a stack trace.
  app.use(
    (error: unknown, _req: express.Request, res: express.Response, _next: express.NextFunction) => {
      logger.error({ err: error }, "unhandled error");
      if (res.headersSent) return;
      res.status(500).type("text/plain").send("Unexpected Application Error!");
    },
  );

  // Development (npm run dev: Vite's middleware, stack traces) is reachable from this machine only.
  const host = listenHost(env);
  const listening = () =>
    logger.info(
      `Hostfront listening on http://${host ?? "localhost"}:${env.PORT} (${production ? "production" : "development"})`,
    );
  const server = host ? app.listen(env.PORT, host, listening) : app.listen(env.PORT, listening);

  async function stop(signal: string) {
    logger.info(`${signal} received, shutting down`);
    server.close();
    await shutdownApp().catch(() => {});
    process.exit(0);
  }
  process.on("SIGTERM", () => void stop("SIGTERM"));
  process.on("SIGINT", () => void stop("SIGINT"));
}
