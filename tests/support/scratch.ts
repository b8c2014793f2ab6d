import { accessSync, constants, statSync } from "node:fs";
import path from "node:path";

/**
 * A RAM disk for the tests' temporary files (SQLite files, the test PostgreSQL cluster, uploads, the
 * browser tests' servers' databases) when the machine has one: a SQLite commit there costs no fsync.
 */
export function ramDisk(): string | undefined {
  try {
    if (!statSync("/dev/shm").isDirectory()) return undefined;
    accessSync("/dev/shm", constants.W_OK);
    return "/dev/shm";
  } catch {
    return undefined;
  }
}

/**
 * Where a test run keeps its temporary files: TEST_TMPDIR when set, else the RAM disk, else the system's
 * temporary folder (undefined: leave TMPDIR as it is).
 */
export function testTemporaryFolder(): string | undefined {
  return process.env.TEST_TMPDIR ?? ramDisk();
}

/**
 * A folder of the browser tests' own (a server's database, uploads) by its name: in the test run's
 * temporary folder, else in the project's .tmp. The name carries the run's port, so that two runs side
 * by side (E2E_PORT) and two clones do not share one.
 */
export function e2eFolder(name: string): string {
  const root = testTemporaryFolder();
  return root ? path.join(root, `hostfront-${name}`) : path.resolve(".tmp", name);
}
