/**
 * node --import tsx scripts/referral-rewards.ts --now=2026-12-01T00:00:00.000Z — runs the referral
 * reward job once (docs/referrals.md) on DATABASE_URL at the moment given (now by default) and prints
 * its counts as JSON. The worker runs it every hour at its own clock; this runs it at another, as the
 * browser test does to pass the refund window without waiting 14 days. Safe to run any number of times:
 * a referral is paid once.
 */
import { getEnv } from "../app/config/env.server";
import { createDatabase } from "../app/db/database.server";
import { migrateToLatest } from "../app/db/migrate.server";
import { runReferralRewards } from "../app/domain/referrals/referrals.server";

async function main(): Promise<number> {
  const given = process.argv.find((arg) => arg.startsWith("--now="))?.slice("--now=".length);
  const now = given ? new Date(given) : new Date();
  if (Number.isNaN(now.getTime())) {
    console.error(`Not a moment: ${given}`);
    return 2;
  }
  const database = createDatabase(getEnv().DATABASE_URL);
  try {
    await migrateToLatest(database.db);
    console.log(JSON.stringify(await runReferralRewards(database.db, { now })));
    return 0;
  } finally {
    await database.destroy();
  }
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    console.error(error);
    process.exit(1);
  },
);
