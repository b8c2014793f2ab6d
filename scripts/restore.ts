/**
 * npm run restore -- <file> [--yes]   replaces the current database with a backup, after confirmation.
 * Stop the server first; start it again afterwards (it migrates the restored copy if it is older).
 */
import { createInterface } from "node:readline/promises";
import { ConfigError, getEnv } from "../app/config/env.server";
import { restoreDatabase } from "../app/db/backup.server";
import { createDatabase } from "../app/db/database.server";
import { migrateToLatest } from "../app/db/migrate.server";
import { findLedgerDiscrepancies } from "../app/domain/coins/coins.server";

const args = process.argv.slice(2);
const file = args.find((a) => !a.startsWith("--"));
if (!file) {
  console.error("Usage: npm run restore -- <file> [--yes]");
  process.exit(2);
}
try {
  const { DATABASE_URL } = getEnv();
  if (!args.includes("--yes")) {
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
} catch (error) {
  console.error(
    error instanceof ConfigError
      ? error.message
      : `Restore failed: ${error instanceof Error ? error.message : String(error)}`,
  );
  process.exit(1);
}
