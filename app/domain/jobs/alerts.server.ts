import { inTransaction, type Db } from "~/db/transaction";
import { record } from "~/domain/events/events.server";
import { getSettings } from "~/domain/settings/settings.server";
import { isDiscordWebhookUrl } from "~/domain/settings/settings";
import {
  DISCORD_MAX_LENGTH,
  enqueueDiscordPost,
  type StaffEvent,
  type StaffPostWriter,
} from "./discord-posts.server";
import { RetryLater, type JobHandler, type JobRow } from "./jobs.server";
import { staleKey, staleSlot, type ScheduleDefinition } from "./schedule-slots";

// Staff alerts posted to a Discord webhook: a dead job, a scheduled run that failed, a stale
// schedule (no process ran it), and new orders waiting for approval and new tickets. The post
// is itself a job, so a Discord outage is retried like any other; its own failures raise no alert.

const SEND_TIMEOUT_MS = 10_000;

/** Queues an alert when a webhook is set (read from the settings now); returns whether it was queued. */
export async function queueAlert(db: Db, { text, now = new Date() }: { text: string; now?: Date }) {
  const { alerts } = await getSettings(db);
  if (!alerts.discordWebhook) return false;
  await inTransaction(db, (trx) => enqueueDiscordPost(trx, { text, now }));
  return true;
}

/** The schedules that are stale at `now` (one read of job_schedules), each with the slot it awaits. */
export async function findStaleSchedules(
  db: Db,
  schedules: readonly ScheduleDefinition[],
  { now, timeZone }: { now: Date; timeZone: string },
): Promise<{ schedule: ScheduleDefinition; awaited: Date }[]> {
  if (schedules.length === 0) return [];
  const rows = await db.selectFrom("job_schedules").select(["name", "next_run_at"]).execute();
  const states = new Map(rows.map((row) => [row.name, new Date(row.next_run_at).toISOString()]));
  const stale: { schedule: ScheduleDefinition; awaited: Date }[] = [];
  for (const schedule of schedules) {
    const nextRunAt = states.get(schedule.name);
    if (!nextRunAt) continue;
    const awaited = staleSlot(schedule, nextRunAt, now, timeZone);
    if (awaited) stale.push({ schedule, awaited });
  }
  return stale;
}

/**
 * Raises the alert of one stale episode: each active admin's notification and, when `text` is given
 * (a webhook is set), one Discord post. Once per episode whichever processes see it, and however often:
 * the notifications' dedupe keys and the post's unique key are written in one transaction, and the post
 * is queued only by the transaction that wrote the notifications (a later or concurrent one writes
 * nothing). Returns whether this call raised it.
 */
export async function raiseStaleAlert(
  db: Db,
  {
    name,
    awaited,
    text,
    now = new Date(),
  }: { name: string; awaited: Date; text?: string; now?: Date },
): Promise<boolean> {
  const key = staleKey(name, awaited);
  return inTransaction(db, async (trx) => {
    const { staffTold: told } = await record(
      trx,
      { type: "schedule.missed", schedule: name, due: awaited.toISOString(), key },
      now,
    );
    let raised = told!.written > 0;
    if (told!.admins === 0) {
      // Nobody to tell in the app: the post's own key (kept once sent) says whether it was raised.
      const sent = await trx
        .selectFrom("jobs")
        .select("id")
        .where("unique_key", "=", key)
        .executeTakeFirst();
      raised = sent === undefined;
    }
    if (raised && text) await enqueueDiscordPost(trx, { text, uniqueKey: key, now });
    return raised;
  });
}

/** How long Discord asked us to wait, from its JSON body's retry_after or the Retry-After header (seconds). */
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

/**
 * Discord says the webhook is gone (404) or not ours (401). It is emptied in the
 * settings (only if it is still the one that failed) and the change is audited with the reason, which
 * /admin/automation shows; alerts stop until an admin sets a webhook again.
 */
async function disableWebhook(db: Db, url: string, status: number) {
  await inTransaction(db, async (trx) => {
    const row = await trx
      .selectFrom("settings")
      .select("value")
      .where("key", "=", "alerts")
      .executeTakeFirst();
    const alerts = row ? (JSON.parse(row.value) as Record<string, unknown>) : {};
    if (alerts.discordWebhook !== url) return;
    const value = JSON.stringify({ ...alerts, discordWebhook: "" });
    await trx
      .updateTable("settings")
      .set({ value, updated_at: new Date().toISOString() })
      .where("key", "=", "alerts")
      .execute();
    await record(trx, { type: "discordWebhook.disabled", status });
  });
}

/**
 * Posts one alert. Nobody is mentioned whatever the text says (allowed_mentions empty). A 429 comes back
 * after Discord's retry_after; a 401 or 404 turns the webhook off (said on /admin/automation and in the
 * audit log) rather than failing for ever; anything else, a redirect included (never followed: the post
 * goes to Discord's webhook address or nowhere), is retried with the usual backoff. `write` writes the
 * text of a post that carries an event (a new order or ticket); `send` is how the request goes out
 * (fetch; tests hand in one that reaches their stand-in for Discord).
 */
export function discordAlertHandlerWith(
  write?: StaffPostWriter,
  { send = fetch }: { send?: typeof fetch } = {},
): JobHandler {
  return async ({ db, now, payload }): Promise<Record<string, number>> => {
    const posted = payload as { text?: string; event?: StaffEvent };
    const url = (await getSettings(db)).alerts.discordWebhook;
    // The stored setting is read as none unless it is Discord's; checked again where it is used.
    if (!url || !isDiscordWebhookUrl(url)) return { skipped: 1 };
    let text: string | null | undefined = posted.text;
    if (text === undefined && posted.event) {
      // A process started without the server's writer (none in this codebase) retries rather than drops.
      if (!write) throw new Error("This process cannot write a staff post's text");
      text = await write(posted.event);
      if (text === null) return { skipped: 1 };
    }
    return sendToDiscord(db, send, url, (text ?? "").slice(0, DISCORD_MAX_LENGTH), now);
  };
}

async function sendToDiscord(
  db: Db,
  send: typeof fetch,
  url: string,
  text: string,
  now: Date,
): Promise<Record<string, number>> {
  const response = await send(url, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ content: text, allowed_mentions: { parse: [] } }),
    signal: AbortSignal.timeout(SEND_TIMEOUT_MS),
    // Discord's webhooks do not redirect: one that does leads elsewhere, and the post is not sent there.
    redirect: "manual",
  });
  if (response.ok) return { sent: 1 };
  if (response.status === 429) {
    const wait = await retryAfterMs(response);
    throw new RetryLater(new Date(now.getTime() + wait), `Discord asked to wait ${wait} ms (429)`);
  }
  if (response.status === 401 || response.status === 404) {
    await disableWebhook(db, url, response.status);
    return { disabled: 1 };
  }
  throw new Error(`Discord answered ${response.status}`);
}

/** When the webhook was last turned off by a refusal, and why (null when it never was). */
export async function lastWebhookDisabled(db: Db) {
  const row = await db
    .selectFrom("audit_log")
    .select(["created_at", "reason"])
    .where("action", "=", "automation.webhook_disabled")
    .orderBy("id", "desc")
    .limit(1)
    .executeTakeFirst();
  return row ? { at: row.created_at, reason: row.reason } : null;
}

/**
 * Tells every active admin, in their own notification list (the admin bell), that a job died or a
 * scheduled run failed. Once per job and attempt: the same failure seen again adds nothing.
 */
export async function notifyAdmins(
  db: Db,
  problem: { kind: "dead" | "runFailed"; job: JobRow; error: string },
) {
  const { staffTold } = await inTransaction(db, (trx) =>
    record(trx, {
      type: problem.kind === "dead" ? "job.died" : "schedule.runFailed",
      job: problem.job,
      error: problem.error,
    }),
  );
  return staffTold!.admins;
}
