/**
 * npm run restore -- <file> [--yes] [--replace-secret | --keep-secret]
 * Replaces the current database with a backup, after confirmation, and puts back the auth secret saved
 * beside it (`<file>.auth-secret`) as data/auth-secret (mode 600). A different secret already in place
 * is never overwritten without --replace-secret (it is then kept aside) or kept without --keep-secret.
 * Stop the server first; start it again afterwards (it migrates the restored copy if it is older).
 */
import { existsSync } from "node:fs";
import { createInterface } from "node:readline/promises";
import {
  applySecretRestore,
  planSecretRestore,
  secretRestoreRefusal,
} from "../app/config/auth-secret.server";
import { ConfigError, parseEnv } from "../app/config/env.server";
import { restoreDatabase } from "../app/db/backup.server";
import { createDatabase } from "../app/db/database.server";
import { migrateToLatest } from "../app/db/migrate.server";
import { findLedgerDiscrepancies } from "../app/domain/coins/coins.server";

const usage = "Usage: npm run restore -- <file> [--yes] [--replace-secret | --keep-secret]";
const args = process.argv.slice(2);
const file = args.find((a) => !a.startsWith("--"));
const flags = new Set(args.filter((a) => a.startsWith("--")));
const known = ["--yes", "--replace-secret", "--keep-secret"];
if (
  !file ||
  [...flags].some((flag) => !known.includes(flag)) ||
  (flags.has("--replace-secret") && flags.has("--keep-secret"))
) {
  console.error(usage);
  process.exit(2);
}
try {
  // Not getEnv(): without AUTH_SECRET it generates a new data/auth-secret, which would stand in the way
  // of the backup's. The environment and .env are read the same way, without that.
  if (existsSync(".env")) process.loadEnvFile(".env");
  const { DATABASE_URL } = parseEnv(process.env);
  // Decided before anything changes: a refusal leaves the database and the secret as they are.
  const secret = planSecretRestore({
    backupFile: file,
    environmentSecret: process.env.AUTH_SECRET || undefined,
    replace: flags.has("--replace-secret"),
    keep: flags.has("--keep-secret"),
  });
  const refusal = secretRestoreRefusal(secret);
  if (refusal) {
    console.error(`${refusal}\nNothing was changed.`);
    process.exit(2);
  }
  if (!flags.has("--yes")) {
    if (!process.stdin.isTTY) {
      console.error(
        "Refusing to restore without confirmation: run it in a terminal, or add --yes.",
      );
      process.exit(2);
    }
    const rl = createInterface({ input: process.stdin, output: process.stdout });
    const answer = await rl.question(
      `This replaces every row of ${DATABASE_URL.replace(/:[^:@/]*@/, ":***@")} with ${file}. Type "restore" to go on: `,
    );
    rl.close();
    if (answer.trim() !== "restore") {
      console.log("Nothing was changed.");
      process.exit(1);
    }
  }
  await restoreDatabase(DATABASE_URL, file);
  const database = createDatabase(DATABASE_URL);
  try {
    await migrateToLatest(database.db);
    const problems = await findLedgerDiscrepancies(database.db);
    console.log(
      `Restored ${file}. Ledger check: ${problems.length === 0 ? "passed" : `${problems.length} difference(s)`}.`,
    );
  } finally {
    await database.destroy();
  }
  console.log(applySecretRestore(secret));
} catch (error) {
  console.error(
    error instanceof ConfigError
      ? error.message
      : `Restore failed: ${error instanceof Error ? error.message : String(error)}`,
  );
  process.exit(1);
}
