/**
 * npm run migrate-to-postgres -- postgres://user:pass@host:5432/db
 * Copies the SQLite database named by DATABASE_URL (default ./data/hostfront.db) into an empty PostgreSQL
 * database, checks the ledger there, and tells you to point DATABASE_URL at it. Stop the server first.
 */
import { ConfigError, getEnv } from "../app/config/env.server";
import { copyDatabase } from "../app/db/copy-database.server";
import { createDatabase, dialectOf } from "../app/db/database.server";
import { findLedgerDiscrepancies } from "../app/domain/coins/coins.server";

const target = process.argv[2];
if (!target || dialectOf(target) !== "postgres") {
  console.error("Usage: npm run migrate-to-postgres -- postgres://user:pass@host:5432/db");
  process.exit(2);
}
try {
  const sourceUrl = getEnv().DATABASE_URL;
  if (dialectOf(sourceUrl) !== "sqlite")
    throw new Error("DATABASE_URL already points at PostgreSQL; nothing to move.");
  const from = createDatabase(sourceUrl);
  const to = createDatabase(target);
  try {
    const counts = await copyDatabase(from, to);
    for (const [table, n] of Object.entries(counts)) console.log(`${table.padEnd(18)} ${n}`);
    const problems = await findLedgerDiscrepancies(to.db);
    if (problems.length)
      throw new Error(`ledger check failed on the copy for ${problems.length} user(s)`);
    console.log(
      `Done, ledger check passed. Set DATABASE_URL=${target.replace(/:[^:@/]*@/, ":***@")} and restart.`,
    );
  } finally {
    await Promise.all([from.destroy(), to.destroy()]);
  }
} catch (error) {
  console.error(
    error instanceof ConfigError
      ? error.message
      : `Move failed, nothing was changed in SQLite: ${error instanceof Error ? error.message : String(error)}`,
  );
  process.exit(1);
}
