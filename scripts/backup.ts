/**
 * npm run backup -- <file>   a consistent copy of the database, safe while the app runs, and beside it
 *                            `<file>.auth-secret` (mode 600): the secret the sessions and the encrypted
 *                            two-factor secrets need, unless AUTH_SECRET comes from the environment.
 */
import { ConfigError, getEnv } from "../app/config/env.server";
import { saveSecretWithBackup } from "../app/config/auth-secret.server";
import { backupDatabase } from "../app/db/backup.server";

const file = process.argv[2];
if (!file) {
  console.error("Usage: npm run backup -- <file>");
  process.exit(2);
}
try {
  const env = getEnv();
  await backupDatabase(env.DATABASE_URL, file);
  console.log(`Backup written to ${file}`);
  // getEnv() read .env into process.env: a secret set there or in the environment is the operator's.
  const secret = saveSecretWithBackup(file, {
    value: env.AUTH_SECRET,
    fromEnvironment: Boolean(process.env.AUTH_SECRET),
  });
  console.log(
    secret.kind === "written"
      ? `Auth secret written to ${secret.file} (mode 600): keep it with the backup and as private; a restore needs it for sessions and two-factor sign-in.`
      : "AUTH_SECRET comes from the environment and is not written beside the backup: keep it, a restore needs the same AUTH_SECRET for sessions and two-factor sign-in.",
  );
} catch (error) {
  console.error(
    error instanceof ConfigError
      ? error.message
      : `Backup failed: ${error instanceof Error ? error.message : String(error)}`,
  );
  process.exit(1);
}
