/**
 * First step of `npm test`: checks for what npm cannot install and the tests need.
 *
 * - Debian's Chromium headless shell at /usr/bin/chromium-headless-shell, for the browser tests (not
 *   needed when SKIP_E2E=1). The benchmarks use the full browser, Debian's `chromium`.
 * - The PostgreSQL server binaries (initdb and pg_ctl under /usr/lib/postgresql/<version>/bin), for the
 *   integration tests' throwaway cluster (not needed when TEST_POSTGRES_URL points at a server).
 * - openssl, for the certificate of the mail tests' TLS server.
 *
 * When something is missing and we run as root with apt-get, it is installed; otherwise the script stops
 * with a message that says what to install. When everything is there it does nothing, quickly.
 */
import { spawnSync } from "node:child_process";
import { existsSync, readdirSync } from "node:fs";
import path from "node:path";

const CHROMIUM = "/usr/bin/chromium-headless-shell";
const POSTGRES_ROOT = "/usr/lib/postgresql";
const POSTGRES_PACKAGE = "postgresql-15";

interface Requirement {
  what: string;
  /** The Debian package(s) to try, in order; the first one apt knows is installed. */
  packages: string[];
  present: () => boolean;
}

function hasPostgresServer(): boolean {
  if (!existsSync(POSTGRES_ROOT)) return false;
  return readdirSync(POSTGRES_ROOT).some((version) =>
    ["initdb", "pg_ctl"].every((tool) =>
      existsSync(path.join(POSTGRES_ROOT, version, "bin", tool)),
    ),
  );
}

const requirements: Requirement[] = [];
if (process.env.SKIP_E2E !== "1") {
  requirements.push({
    what: `Chromium's headless shell for the browser tests (${CHROMIUM})`,
    packages: ["chromium-headless-shell"],
    present: () => existsSync(CHROMIUM),
  });
}
if (!process.env.TEST_POSTGRES_URL) {
  requirements.push({
    what: `the PostgreSQL server for the integration tests (initdb and pg_ctl in ${POSTGRES_ROOT}/<version>/bin)`,
    packages: [POSTGRES_PACKAGE, "postgresql"],
    present: hasPostgresServer,
  });
}
requirements.push({
  what: "openssl, which makes the mail tests' throwaway TLS certificate",
  packages: ["openssl"],
  present: () => commandExists("openssl"),
});

const missing = requirements.filter((requirement) => !requirement.present());
if (missing.length === 0) process.exit(0);

function commandExists(command: string): boolean {
  return spawnSync("sh", ["-c", `command -v ${command}`], { stdio: "ignore" }).status === 0;
}

function installHint(requirement: Requirement): string {
  return `  ${requirement.what}: sudo apt-get install -y ${requirement.packages[0]}`;
}

const isRoot = process.getuid?.() === 0;
if (!isRoot || !commandExists("apt-get")) {
  console.error(
    [
      "Missing test dependencies that npm cannot install:",
      ...missing.map(installHint),
      process.env.SKIP_E2E === "1"
        ? ""
        : "(Set SKIP_E2E=1 to run without the browser tests, which need Chromium.)",
    ]
      .filter(Boolean)
      .join("\n"),
  );
  process.exit(1);
}

function run(command: string, args: string[]): boolean {
  const result = spawnSync(command, args, {
    stdio: ["ignore", "ignore", "inherit"],
    env: { ...process.env, DEBIAN_FRONTEND: "noninteractive" },
  });
  return result.status === 0;
}

/** Whether apt has an installation candidate for a package (after `apt-get update`). */
function aptKnows(pkg: string): boolean {
  const result = spawnSync("apt-cache", ["policy", pkg], { encoding: "utf8" });
  const candidate = /Candidate:\s*(\S+)/.exec(result.stdout ?? "")?.[1];
  return result.status === 0 && candidate !== undefined && candidate !== "(none)";
}

console.log(
  `Installing what the tests need with apt-get (update, then install): ${missing.map((r) => r.what).join("; ")}`,
);
if (!run("apt-get", ["update"])) {
  console.error("apt-get update failed; install by hand:\n" + missing.map(installHint).join("\n"));
  process.exit(1);
}

for (const requirement of missing) {
  const pkg = requirement.packages.find(aptKnows) ?? requirement.packages[0]!;
  if (!run("apt-get", ["install", "-y", pkg]) || !requirement.present()) {
    console.error(
      `apt-get install -y ${pkg} failed; install it by hand:\n${installHint(requirement)}`,
    );
    process.exit(1);
  }
}
