import { defineConfig, devices } from "@playwright/test";
import { serverArguments, SERVER_ENV } from "./server/command";
import { ADMIN_EMAIL, ADMIN_PASSWORD, AUTH_SECRET, scaled } from "./tests/e2e/fixtures";
import { e2eFolder } from "./tests/support/scratch";

/**
 * Browser tests against the production build (`npm run build` first), served as `npm run serve` does on a
 * fresh SQLite database in a folder of the run's (e2eFolder: on the RAM disk when there is one). E2E_PORT (and BUILD_DIR, which the server reads) allow a second run
 * side by side; each port gets its own database and results folders. Five servers start: E2E_PORT,
 * E2E_PORT + 1 (entry gate on), E2E_PORT + 2 (site-wide settings tests), E2E_PORT + 3 (PostgreSQL) and
 * E2E_PORT + 4 (payment methods switched on).
 */
const port = Number(process.env.E2E_PORT ?? 3210);
const baseURL = `http://localhost:${port}`;
const defaultPort = port === 3210;
// On the RAM disk when the machine has one (tests/support/scratch.ts), else in .tmp.
const dataDir = e2eFolder(defaultPort ? "e2e" : `e2e-${port}`);
// Playwright empties its output folder at start, so a side-by-side run needs its own.
const outputDir = defaultPort ? "test-results" : `.tmp/e2e-results-${port}`;
const ci = Boolean(process.env.CI);

// A second server with the entry gate on, for the gate's own tests (gate.spec.ts); everything else runs
// against the first, with the gate off.
const gatePort = port + 1;
// A third for admin-settings.spec.ts, whose switches (maintenance, registration, colours) change the whole
// site: on the shared server they would hit every test running beside them. It runs two server processes
// (WEB_CONCURRENCY=2), so those tests also prove that a setting saved through one process is what the
// other serves at once (the cluster primary relays the change).
const settingsPort = port + 2;
// A fourth on PostgreSQL, in a throwaway cluster (tests/e2e/postgres-server.ts), for the journey a
// larger host's customers take (postgres-journey.spec.ts); every other test runs on SQLite.
const postgresPort = port + 3;
// A fifth for the specs that switch payment methods on (admin-gateways, top-ups, top-up-proofs): with
// one open, the coin dialog and every "Add coins" lead to the top-up form instead of the team's way,
// which the specs on the first server (the coin dialog's, the support ticket's) expect.
const paymentsPort = port + 4;

function server(serverPort: number, folder: string, entryGate: "on" | "off", processes = 1) {
  const url = `http://localhost:${serverPort}`;
  return {
    // A fresh database on every run: the folder is removed before the server starts (and migrates).
    command: `node -e "require('node:fs').rmSync('${folder}', { recursive: true, force: true })" && node ${serverArguments(process.env.BUILD_DIR).join(" ")}`,
    url: `${url}/healthz`,
    reuseExistingServer: false,
    timeout: 60_000,
    stdout: "ignore" as const,
    stderr: "pipe" as const,
    env: {
      ...SERVER_ENV,
      NODE_ENV: "production",
      PORT: String(serverPort),
      DATABASE_URL: `file:${folder}/hostfront.db`,
      ENTRY_GATE: entryGate,
      ADMIN_EMAIL,
      ADMIN_PASSWORD,
      // The admin signs in with a password alone; admin-two-factor.spec.ts turns the requirement on.
      FIRST_START_TWO_FACTOR_ROLES: "none",
      AUTH_SECRET,
      PUBLIC_URL: url,
      LOGIN_IP_LIMIT_PER_MINUTE: "1000",
      FORM_RATE_LIMIT_PER_MINUTE: "1000",
      LOG_LEVEL: "warn",
      // A provisioned server's install is looked at this often (15 s in production): the fake panel's
      // installs end at once (tests/e2e/provisioning.spec.ts).
      PANEL_POLL_MS: "300",
      WEB_CONCURRENCY: String(processes),
    },
  };
}

export default defineConfig({
  testDir: "tests/e2e",
  outputDir,
  fullyParallel: true,
  forbidOnly: ci,
  retries: 0,
  workers: 2,
  // Generous: the machine has two cores shared by the server, two browsers and the tests; stretched for
  // a slower machine (fixtures.ts, TIMEOUT_SCALE).
  timeout: scaled(30_000),
  expect: { timeout: scaled(5_000) },
  // "list" for people; a JSON summary CI can read, beside the process's exit code (non-zero on failure).
  reporter: [["list"], ["json", { outputFile: `${outputDir}/e2e-results.json` }]],
  use: {
    baseURL,
    // A trace records every step of every test, and cost about a fifth of the browser layer's time
    // even when kept only for failures; E2E_TRACE=1 turns it on to look into a failure.
    trace: process.env.E2E_TRACE ? "retain-on-failure" : "off",
    screenshot: "only-on-failure",
    locale: "en-US",
  },
  projects: [
    {
      name: "chromium",
      use: {
        ...devices["Desktop Chrome"],
        launchOptions: {
          // Chromium's headless shell (Debian's chromium-headless-shell, the build of Chromium that
          // Playwright runs by default for headless tests): the browser layer took a quarter less time
          // than with the full browser in headless mode (docs/testing.md). E2E_CHROMIUM names another.
          executablePath: process.env.E2E_CHROMIUM ?? "/usr/bin/chromium-headless-shell",
          args: [
            "--headless",
            "--no-sandbox",
            "--disable-gpu",
            "--disable-quic",
            "--no-first-run",
            "--disable-background-networking",
            "--disable-component-update",
            "--disable-sync",
          ],
        },
      },
    },
  ],
  webServer: [
    server(port, dataDir, "off"),
    server(gatePort, `${dataDir}-gate`, "on"),
    server(settingsPort, `${dataDir}-settings`, "off", 2),
    server(paymentsPort, `${dataDir}-payments`, "off"),
    {
      ...server(postgresPort, `${dataDir}-postgres`, "off"),
      command: "node --import tsx tests/e2e/postgres-server.ts",
      // Its cluster is stopped and removed once the server has gone (postgres-server.ts).
      gracefulShutdown: { signal: "SIGTERM" as const, timeout: 15_000 },
    },
  ],
});
