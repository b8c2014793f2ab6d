/**
 * npm run admin -- create <email>          make <email> an admin (a new account gets a one-time password;
 *                                          an existing customer's sessions end, and it is audited)
 * npm run admin -- reset-password <email>  give <email> a one-time password and end their sessions
 */
import { z } from "~/lib/zod";
import { ConfigError, getEnv } from "../app/config/env.server";
import { createServices } from "../app/context.server";
import { migrateToLatest } from "../app/db/migrate.server";
import { provisionAdmin, resetPassword } from "../app/domain/accounts/accounts.server";

const usage = "Usage: npm run admin -- create <email> | reset-password <email>";

async function main(argv: string[]): Promise<number> {
  const [command, rawEmail] = argv;
  if (!command || !rawEmail || !["create", "reset-password"].includes(command)) {
    console.error(usage);
    return 2;
  }
  const email = z.email().safeParse(rawEmail.trim().toLowerCase());
  if (!email.success) {
    console.error(`Not an email address: ${rawEmail}`);
    return 2;
  }
  const services = createServices(getEnv());
  try {
    await migrateToLatest(services.db);
    if (command === "create") {
      const result = await provisionAdmin(services, {
        email: email.data,
        via: "npm run admin -- create",
      });
      if (result.status === "already") {
        console.log(`${result.email} is already an admin; nothing changed.`);
      } else if (result.status === "promoted") {
        console.log(
          `${result.email} already had an account and is now an admin. Their sessions were ended (${result.sessionsEnded}): they sign in again and get an admin's session.`,
        );
      } else {
        console.log(`Created admin ${result.email}.`);
        console.log(
          `One-time password: ${result.generatedPassword} (it must be changed at first login)`,
        );
      }
      return 0;
    }
    const password = await resetPassword(services, email.data);
    if (!password) {
      console.error(`No account with the email ${email.data}.`);
      return 1;
    }
    console.log(
      `New one-time password for ${email.data}: ${password} (it must be changed at next login)`,
    );
    return 0;
  } finally {
    await services.database.destroy();
  }
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (error: unknown) => {
    console.error(error instanceof ConfigError ? error.message : `Failed: ${String(error)}`);
    process.exit(1);
  },
);
