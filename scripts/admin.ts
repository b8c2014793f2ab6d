/**
 * npm run admin -- create <email>          make <email> an admin (a new account gets a one-time password;
 *                                          an existing customer's sessions end, and it is audited)
 * npm run admin -- reset-password <email>  give <email> a one-time password and end their sessions
 * npm run admin -- unblock <email|address> lift the login blocks on an email or an IP address
 * npm run admin -- reset-2fa <email>       turn off <email>'s two-factor sign-in (audited, mailed): for
 *                                          the operator locked out of the only admin account
 */
import { z } from "~/lib/zod";
import { ConfigError, getEnv } from "../app/config/env.server";
import { createServices } from "../app/context.server";
import { migrateToLatest } from "../app/db/migrate.server";
import type { Db } from "../app/db/transaction";
import {
  findUserIdByEmail,
  provisionAdmin,
  resetPassword,
} from "../app/domain/accounts/accounts.server";
import { resetTwoFactor } from "../app/domain/accounts/two-factor-reset.server";
import {
  liftLoginBlock,
  unblockTarget,
  type BlockInForce,
} from "../app/domain/accounts/login-blocks.server";

const usage =
  "Usage: npm run admin -- create <email> | reset-password <email> | unblock <email|address> | reset-2fa <email>";

async function main(argv: string[]): Promise<number> {
  const [command, rawEmail] = argv;
  if (command === "unblock" && rawEmail) return unblock(rawEmail);
  if (!command || !rawEmail || !["create", "reset-password", "reset-2fa"].includes(command)) {
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
    if (command === "reset-2fa") return await resetTwoFactorOf(services.db, email.data);
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

/** The same lift as the security page's, recorded in the audit log as done from the command line. */
async function unblock(raw: string): Promise<number> {
  const target = unblockTarget(raw);
  if (!target) {
    console.error(`Not an email address or an IP address: ${raw}`);
    return 2;
  }
  const services = createServices(getEnv());
  try {
    await migrateToLatest(services.db);
    const result = await liftLoginBlock(services.db, {
      actorId: null,
      kind: target.kind,
      key: target.key,
      addressLimit: services.loginIpLimit,
      reason: "Command line: npm run admin -- unblock",
    });
    if (!result.ok) {
      console.error(`No login block is in force on ${target.key}; nothing was lifted.`);
      return 1;
    }
    console.log(`Lifted ${result.lifted.length} login block(s) on ${target.key}:`);
    for (const block of result.lifted) console.log(`  ${describeBlock(block)}`);
    return 0;
  } finally {
    await services.database.destroy();
  }
}

/**
 * The client page's reset (resetTwoFactor), from a shell: for an operator whose only admin account has
 * lost its authenticator and its backup codes. Audited with no actor, the command as its reason, and
 * the account's owner is told by email, as when an admin does it.
 */
async function resetTwoFactorOf(db: Db, email: string): Promise<number> {
  const userId = await findUserIdByEmail(db, email);
  if (!userId) {
    console.error(`No account with the email ${email}.`);
    return 1;
  }
  const result = await resetTwoFactor(db, {
    userId,
    actorId: null,
    reason: "Command line: npm run admin -- reset-2fa",
  });
  if (!result.ok) {
    console.error(
      result.error === "admin-clients.twoFactor.errors.notOn"
        ? `${email} has no two-factor sign-in; nothing changed.`
        : result.error === "admin-clients.twoFactor.errors.deleted"
          ? `The account ${email} was deleted; nothing changed.`
          : `No account with the email ${email}.`,
    );
    return 1;
  }
  console.log(
    `Two-factor sign-in is off for ${email}: they sign in with their password alone and can set it up again from their account tab (/dashboard/account#two-factor). They are told by email.`,
  );
  return 0;
}

function describeBlock(block: BlockInForce): string {
  const until = `until ${block.endsAt}`;
  if (block.kind === "address") return `address ${block.address} (attempts a minute), ${until}`;
  if (block.kind === "email") return `email ${block.email} from every address, ${until}`;
  return `email ${block.email} from address ${block.address}, ${until}`;
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (error: unknown) => {
    console.error(error instanceof ConfigError ? error.message : `Failed: ${String(error)}`);
    process.exit(1);
  },
);
