/** npm run backup -- <file>   a consistent copy of the database, safe while the app runs. */
import { ConfigError, getEnv } from "../app/config/env.server";
import { backupDatabase } from "../app/db/backup.server";

const file = process.argv[2];
if (!file) {
  console.error("Usage: npm run backup -- <file>");
  process.exit(2);
}
try {
  await backupDatabase(getEnv().DATABASE_URL, file);
  console.log(`Backup written to ${file}`);
} catch (error) {
  console.error(
    error instanceof ConfigError
      ? error.message
      : `Backup failed: ${error instanceof Error ? error.message : String(error)}`,
  );
  process.exit(1);
}
