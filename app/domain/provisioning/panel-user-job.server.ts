import { withOwner } from "~/db/customer-rows";
import type { Db, Tx } from "~/db/transaction";
import { enqueueJob, type JobHandler } from "~/domain/jobs/jobs.server";
import { withPanel, type ProvisioningConfig } from "./panel-job-kit.server";
import { PANEL_USER_JOB } from "./panel-job-types";
import { userExternalId } from "./panel-plan";
import { PanelError, type PanelClient } from "./pterodactyl-client.server";

// The customer's user on the game panel: found or made for their first server, kept up to date with
// their account, and removed once their account and their last server are gone.

/** A panel username from an email: the panel allows letters, digits and `._-`, 1 to 191 characters. */
export function panelUsername(email: string, userId: string): string {
  const local =
    email
      .split("@")[0]!
      .replace(/[^A-Za-z0-9._-]/g, "")
      .slice(0, 20) || "player";
  const suffix = userId
    .replace(/[^A-Za-z0-9]/g, "")
    .slice(0, 8)
    .toLowerCase();
  return `${local}-${suffix}`;
}

function panelNames(name: string): { firstName: string; lastName: string } {
  const parts = name.trim().split(/\s+/).filter(Boolean);
  const firstName = (parts[0] ?? "Player").slice(0, 191);
  const lastName = (parts.slice(1).join(" ") || "-").slice(0, 191);
  return { firstName, lastName };
}

/** Finds the customer's panel user (ours, by external id, then by exact email) or creates one. */
export async function ensurePanelUser(
  db: Db,
  client: PanelClient,
  customer: { id: string; email: string; name: string },
  now: Date,
): Promise<{ id: number }> {
  // Found or made by an earlier job: no call (the user-sync job keeps it up to date).
  const saved = await db
    .selectFrom("panel_accounts")
    .select("panel_user_id")
    .where("user_id", "=", customer.id)
    .executeTakeFirst();
  if (saved) return { id: Number(saved.panel_user_id) };
  const externalId = userExternalId(customer.id);
  let user =
    (await client.findUserByExternalId(externalId)) ??
    (await client.findUserByEmail(customer.email));
  // Created without a password: the panel mails the customer its own link to set one.
  try {
    user ??= await client.createUser({
      externalId,
      email: customer.email,
      username: panelUsername(customer.email, customer.id),
      ...panelNames(customer.name),
    });
  } catch (error) {
    // Another job of the same customer made it meanwhile (two orders approved together), or an
    // earlier answer was lost: the address or our id is taken by the user we want.
    if (!(error instanceof PanelError && error.status === 422)) throw error;
    user =
      (await client.findUserByExternalId(externalId)) ??
      (await client.findUserByEmail(customer.email));
    if (!user) throw error;
  }
  await db
    .insertInto("panel_accounts")
    .values({ user_id: customer.id, panel_user_id: user.id, created_at: now.toISOString() })
    .onConflict((conflict) => conflict.column("user_id").doUpdateSet({ panel_user_id: user.id }))
    .execute();
  return user;
}

export async function isDeletedUser(db: Db, userId: string): Promise<boolean> {
  const row = await db
    .selectFrom("users")
    .select("status")
    .where("id", "=", userId)
    .executeTakeFirst();
  return !row || row.status === "deleted";
}

/**
 * A step: the customer's panel user follows their account (a new email address, or the account deleted).
 * Nothing for a customer the panel does not know.
 */
export async function queuePanelUserSync(trx: Tx, userId: string, now = new Date()) {
  const known = await trx
    .selectFrom("panel_accounts")
    .select("panel_user_id")
    .where("user_id", "=", userId)
    .executeTakeFirst();
  if (!known) return;
  await enqueueJob(trx, { type: PANEL_USER_JOB, payload: { userId }, maxAttempts: 8, now });
}

/**
 * The panel user of a customer: its email and name follow the account's; a deleted account's panel user
 * is removed once no server of theirs is left on the panel (the panel refuses to delete a user who has
 * servers), which the deletion of their last server asks for again.
 */
export function userSyncHandler(config: ProvisioningConfig): JobHandler {
  return async ({ db, now, payload, job }): Promise<Record<string, number>> => {
    const { userId } = payload as { userId: string };
    const account = await withOwner(db, "panel_accounts")
      .select(["panel_accounts.panel_user_id", "users.email", "users.name", "users.status"])
      .where("panel_accounts.user_id", "=", userId)
      .executeTakeFirst();
    if (!account) return { skipped: 1 };
    const panelUserId = Number(account.panel_user_id);
    if (account.status === "deleted") {
      const left = await db
        .selectFrom("hosting_services")
        .select("id")
        .where("user_id", "=", userId)
        .where("panel_state", "in", [
          "pending",
          "creating",
          "installing",
          "ready",
          "suspended",
          "failed",
        ])
        .limit(1)
        .execute();
      if (left.length > 0) return { waiting: 1 };
      await withPanel(db, config, { serviceId: null, job, now }, async (client) => {
        try {
          await client.deleteUser(panelUserId);
        } catch (error) {
          if (!(error instanceof PanelError && error.status === 404)) throw error;
        }
      });
      await db.deleteFrom("panel_accounts").where("user_id", "=", userId).execute();
      return { deleted: 1 };
    }
    await withPanel(db, config, { serviceId: null, job, now }, (client) =>
      client.updateUser(panelUserId, {
        externalId: userExternalId(userId),
        email: account.email,
        username: panelUsername(account.email, userId),
        ...panelNames(account.name),
      }),
    );
    return { updated: 1 };
  };
}
