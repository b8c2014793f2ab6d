import type { Tx } from "~/db/transaction";
import { enqueueJob } from "~/domain/jobs/jobs.server";
import { DISCORD_PROVIDER, DISCORD_ROLE_JOB } from "./discord";

// Kept apart from discord-roles.server.ts, which records events: the reactions' table calls this, and
// the events call the reactions (no import cycle).

/**
 * A step: queues the role's sync for `userId` in the caller's transaction, when they have a linked
 * Discord account (none: nothing to do, nothing queued). The job reads the services when it runs, so
 * several changes in a row end with the last one's state.
 */
export async function queueDiscordRoleSync(trx: Tx, userId: string, now?: Date): Promise<boolean> {
  const linked = await trx
    .selectFrom("accounts")
    .select("account_id")
    .where("user_id", "=", userId)
    .where("provider_id", "=", DISCORD_PROVIDER)
    .executeTakeFirst();
  if (!linked) return false;
  await enqueueJob(trx, {
    type: DISCORD_ROLE_JOB,
    payload: { userId, discordId: linked.account_id },
    maxAttempts: 8,
    now,
  });
  return true;
}
