import { symmetricDecrypt, symmetricEncrypt } from "better-auth/crypto";
import { inTransaction, type Db } from "~/db/transaction";
import { record } from "~/domain/events/events.server";
import {
  enqueueJobs,
  PermanentJobError,
  RetryLater,
  type JobHandler,
} from "~/domain/jobs/jobs.server";
import type { ScheduleDefinition } from "~/domain/jobs/schedule-slots";
import { requireStaffPermission, type StaffForbidden } from "~/domain/staff/staff-actor.server";
import {
  DISCORD_PROVIDER,
  DISCORD_RECONCILE_JOB,
  DISCORD_ROLE_JOB,
  discordUrls,
  isSnowflake,
  wantsClientRole,
  type DiscordRoleSettingsRef,
  type DiscordRoleSettingsView,
} from "./discord";

// The "client" role on the company's Discord server (docs/discord.md): its settings (the bot's token
// encrypted with the auth secret, as the payment providers' keys), the worker's job that gives or takes
// it back for one customer, and the nightly run that queues that job for every linked customer.

const SEND_TIMEOUT_MS = 10_000;

/** The role's settings as /admin/settings/discord shows them: never the token. */
export async function readDiscordRoleSettings(db: Db): Promise<DiscordRoleSettingsView> {
  const row = await db.selectFrom("discord_settings").selectAll().executeTakeFirst();
  return {
    guildId: row?.guild_id ?? "",
    roleId: row?.role_id ?? "",
    tokenLast4: row?.bot_token_last4 ?? null,
    updatedAt: row ? new Date(row.updated_at).toISOString() : null,
  };
}

export interface DiscordRoleSettingsInput {
  guildId: string;
  roleId: string;
  /** Null or empty keeps the saved token. */
  botToken: string | null;
  actorId: string;
}

export type SaveDiscordRoleSettingsResult =
  | { ok: true }
  | {
      ok: false;
      kind: "invalid";
      field: "guildId" | "roleId" | "botToken";
      error:
        | "discord.settings.errors.guildId"
        | "discord.settings.errors.roleId"
        | "discord.settings.errors.tokenRequired";
    }
  | StaffForbidden;

/**
 * Saves the server (guild) and role ids, and the bot's token when one is typed (encrypted, never read
 * back: the page shows its last four characters). Refused: an id that is not Discord's (digits), and no
 * token on the first save. Audited without the token. The actor's role holds `settings.manage`.
 */
export async function saveDiscordRoleSettings(
  db: Db,
  input: DiscordRoleSettingsInput,
  { secret, now = new Date() }: { secret: string; now?: Date },
): Promise<SaveDiscordRoleSettingsResult> {
  const guildId = input.guildId.trim();
  const roleId = input.roleId.trim();
  const token = input.botToken?.trim() || null;
  if (!isSnowflake(guildId))
    return {
      ok: false,
      kind: "invalid",
      field: "guildId",
      error: "discord.settings.errors.guildId",
    };
  if (!isSnowflake(roleId))
    return { ok: false, kind: "invalid", field: "roleId", error: "discord.settings.errors.roleId" };
  const encrypted = token ? await symmetricEncrypt({ key: secret, data: token }) : null;
  return inTransaction(db, async (trx): Promise<SaveDiscordRoleSettingsResult> => {
    await requireStaffPermission(trx, input.actorId, "settings.manage");
    const before = await trx.selectFrom("discord_settings").selectAll().executeTakeFirst();
    if (!encrypted && !before?.bot_token_encrypted)
      return {
        ok: false,
        kind: "invalid",
        field: "botToken",
        error: "discord.settings.errors.tokenRequired",
      } as const;
    const values = {
      guild_id: guildId,
      role_id: roleId,
      ...(encrypted ? { bot_token_encrypted: encrypted, bot_token_last4: token!.slice(-4) } : {}),
      updated_by: input.actorId,
      updated_at: now.toISOString(),
    };
    if (before) await trx.updateTable("discord_settings").set(values).where("id", "=", 1).execute();
    else
      await trx
        .insertInto("discord_settings")
        .values({ id: 1, ...values })
        .execute();
    const ref = (row?: { guild_id: string; role_id: string; bot_token_last4: string | null }) =>
      row ? { guildId: row.guild_id, roleId: row.role_id, tokenLast4: row.bot_token_last4 } : null;
    const after: DiscordRoleSettingsRef = {
      guildId,
      roleId,
      tokenLast4: encrypted ? token!.slice(-4) : (before?.bot_token_last4 ?? null),
    };
    await record(
      trx,
      {
        type: "discord.settingsSaved",
        actorId: input.actorId,
        change: { before: ref(before) as DiscordRoleSettingsRef, after },
      },
      now,
    );
    return { ok: true } as const;
  });
}

/** The bot's token decrypted, with the server and role: for the worker's calls, never a page. */
async function readBotConfig(
  db: Db,
  secret: string,
): Promise<{ token: string; guildId: string; roleId: string } | null> {
  const row = await db.selectFrom("discord_settings").selectAll().executeTakeFirst();
  if (!row?.bot_token_encrypted || !row.guild_id || !row.role_id) return null;
  let token: string;
  try {
    token = await symmetricDecrypt({ key: secret, data: row.bot_token_encrypted });
  } catch {
    throw new PermanentJobError(
      "The Discord bot's token cannot be read with this AUTH_SECRET: save it again",
    );
  }
  return { token, guildId: row.guild_id, roleId: row.role_id };
}

/** How long Discord asked us to wait: its JSON body's retry_after, or the Retry-After header (seconds). */
async function retryAfterMs(response: Response): Promise<number> {
  let seconds = Number(response.headers.get("retry-after"));
  try {
    const body = (await response.json()) as { retry_after?: unknown };
    if (typeof body.retry_after === "number") seconds = body.retry_after;
  } catch {
    // Not JSON: the header, or the default below.
  }
  return Number.isFinite(seconds) && seconds > 0 ? Math.ceil(seconds * 1000) : 5000;
}

/** Discord's JSON error code (10007 Unknown Member, 10011 Unknown Role, ...), or null. */
async function errorCode(response: Response): Promise<number | null> {
  try {
    const body = (await response.json()) as { code?: unknown };
    return typeof body.code === "number" ? body.code : null;
  } catch {
    return null;
  }
}

/** Discord's "Unknown Member": the user is not (or no longer) on the server. */
const UNKNOWN_MEMBER = 10007;

export interface DiscordRoleWiring {
  /** The auth secret the bot's token is encrypted with. */
  secret: string;
  /** DISCORD_BASE_URL: Discord's, or a stand-in's. */
  baseUrl: string;
  /** How the request goes out (fetch; tests hand in their own). */
  send?: typeof fetch;
}

/**
 * The role's sync for one customer (payload: `userId`, and the `discordId` it was queued for, which
 * an unlink needs once the account's row is gone). It reads the state when it runs: linked with an
 * active service, the role is given (PUT); otherwise it is taken back (DELETE). Both are idempotent on
 * Discord, so a job run twice does no harm. A 429 comes back after Discord's retry_after; a 401 or 403
 * (a bad token, or a bot without the permission to manage the role) is dead at once, and staff are
 * alerted as for any dead job; a 404 Unknown Member (the person left the server) ends the job: there is
 * nothing to give or take. Without the settings it does nothing.
 */
export function discordRoleHandlerWith(wiring: DiscordRoleWiring): JobHandler {
  const send = wiring.send ?? fetch;
  const urls = discordUrls(wiring.baseUrl);
  return async ({ db, now, payload }): Promise<Record<string, number>> => {
    const { userId, discordId: queuedFor } = payload as { userId: string; discordId?: string };
    const config = await readBotConfig(db, wiring.secret);
    if (!config) return { skipped: 1 };
    const linked = await db
      .selectFrom("accounts")
      .innerJoin("users", "users.id", "accounts.user_id")
      .select(["accounts.account_id", "users.status", "users.role"])
      .where("accounts.user_id", "=", userId)
      .where("accounts.provider_id", "=", DISCORD_PROVIDER)
      .executeTakeFirst();
    const discordId = linked?.account_id ?? queuedFor;
    if (!discordId) return { skipped: 1 };
    let wanted = false;
    if (linked && linked.status === "active") {
      const services = await db
        .selectFrom("hosting_services")
        .select("status")
        .where("user_id", "=", userId)
        .execute();
      wanted = wantsClientRole(services.map((service) => service.status));
    }
    // Taken back from the Discord account it was queued for, when another one is linked now.
    if (queuedFor && linked && queuedFor !== linked.account_id) {
      await callDiscord(send, urls.memberRole(config.guildId, queuedFor, config.roleId), {
        method: "DELETE",
        token: config.token,
        reason: "Hostfront: Discord account unlinked",
        now,
      });
    }
    const outcome = await callDiscord(
      send,
      urls.memberRole(config.guildId, discordId, config.roleId),
      {
        method: wanted ? "PUT" : "DELETE",
        token: config.token,
        reason: wanted ? "Hostfront: an active service" : "Hostfront: no active service",
        now,
      },
    );
    if (outcome === "notMember") return { notMember: 1 };
    return wanted ? { added: 1 } : { removed: 1 };
  };
}

/** One role call to Discord: "done", "notMember", or a throw the job system understands. */
async function callDiscord(
  send: typeof fetch,
  url: string,
  options: { method: "PUT" | "DELETE"; token: string; reason: string; now: Date },
): Promise<"done" | "notMember"> {
  const response = await send(url, {
    method: options.method,
    headers: {
      authorization: `Bot ${options.token}`,
      // Shown in the server's audit log; Discord reads it URL-encoded.
      "x-audit-log-reason": encodeURIComponent(options.reason),
    },
    signal: AbortSignal.timeout(SEND_TIMEOUT_MS),
    redirect: "manual",
  });
  if (response.status === 204 || response.ok) return "done";
  if (response.status === 429) {
    const wait = await retryAfterMs(response);
    throw new RetryLater(
      new Date(options.now.getTime() + wait),
      `Discord asked to wait ${wait} ms (429)`,
    );
  }
  if (response.status === 401 || response.status === 403)
    throw new PermanentJobError(
      `Discord refused the bot (${response.status}): check its token on /admin/settings/discord and that it may manage the role`,
    );
  if (response.status === 404) {
    const code = await errorCode(response);
    if (code === UNKNOWN_MEMBER) return "notMember";
    throw new PermanentJobError(
      `Discord does not know the server or the role (404, code ${code ?? "none"}): check /admin/settings/discord`,
    );
  }
  throw new Error(`Discord answered ${response.status}`);
}

/**
 * The nightly run: queues a role sync for every customer with a linked Discord account, so that a
 * change the events missed (a job that died, a role removed by hand on Discord) is set right.
 */
export const discordReconcileHandler: JobHandler = async ({ db, now }) => {
  const config = await db
    .selectFrom("discord_settings")
    .select("id")
    .where("bot_token_encrypted", "is not", null)
    .executeTakeFirst();
  if (!config) return { queued: 0 };
  const linked = await db
    .selectFrom("accounts")
    .innerJoin("users", "users.id", "accounts.user_id")
    .select(["accounts.user_id", "accounts.account_id"])
    .where("accounts.provider_id", "=", DISCORD_PROVIDER)
    .where("users.role", "=", "user")
    .orderBy("accounts.user_id")
    .execute();
  const queued = await inTransaction(db, (trx) =>
    enqueueJobs(
      trx,
      linked.map((row) => ({
        type: DISCORD_ROLE_JOB,
        payload: { userId: row.user_id, discordId: row.account_id },
        maxAttempts: 8,
        now,
      })),
    ),
  );
  return { queued };
};

/** The role's handlers, made with the auth secret and Discord's address (server/worker.ts, tests). */
export function discordRoleHandlers(wiring: DiscordRoleWiring): Record<string, JobHandler> {
  return {
    [DISCORD_ROLE_JOB]: discordRoleHandlerWith(wiring),
    [DISCORD_RECONCILE_JOB]: discordReconcileHandler,
  };
}

export const discordSchedules: ScheduleDefinition[] = [
  { name: DISCORD_RECONCILE_JOB, cron: "20 4 * * *", jobType: DISCORD_RECONCILE_JOB },
];
