import type { AppServices } from "~/context.server";
import { DISCORD_ALERT_JOB, notifyAdmins, queueAlert } from "~/domain/jobs/alerts.server";
import type { JobRow } from "~/domain/jobs/jobs.server";
import { JOB_HANDLERS, SCHEDULES } from "~/domain/jobs/registry.server";
import { createI18n } from "~/i18n/i18n";
import { loadResources } from "~/i18n/resources";
import { startWorker, type Worker } from "~/domain/jobs/runner.server";
import { logger } from "~/lib/logger.server";

// One background worker per process (docs/automation.md). In development Vite may evaluate the app's
// module again after an edit: the worker already running in this process is kept, not doubled.
const RUNNING = Symbol.for("hostfront.worker");
type WithWorker = typeof globalThis & { [RUNNING]?: Worker };

/** Starts this process's worker with every registered job type and schedule, and the env's times. */
export function startBackgroundWorker(services: AppServices): Worker {
  const holder = globalThis as WithWorker;
  if (holder[RUNNING]) return holder[RUNNING];
  const { env } = services;
  const worker = startWorker({
    db: services.db,
    handlers: JOB_HANDLERS,
    schedules: SCHEDULES,
    config: {
      leaseMs: env.WORKER_LEASE_MS,
      pollMs: env.WORKER_POLL_MS,
      backoffMs: env.WORKER_BACKOFF_MS,
      concurrency: env.WORKER_CONCURRENCY,
    },
    timeZone: async () => (await services.settings.get()).general.timeZone,
    log: logger.child({ part: "worker" }),
    onProblem: (problem) => alertStaff(services, problem),
  });
  holder[RUNNING] = worker;
  return worker;
}

/** SIGTERM: no new job is taken; the running ones may finish, up to WORKER_STOP_TIMEOUT_MS. */
export async function stopBackgroundWorker(services: AppServices): Promise<void> {
  const holder = globalThis as WithWorker;
  const worker = holder[RUNNING];
  if (!worker) return;
  holder[RUNNING] = undefined;
  await worker.stop(services.env.WORKER_STOP_TIMEOUT_MS);
}

/**
 * A dead job or a failed scheduled run: each admin's notification list, and the Discord webhook when
 * one is set (in the site's default language). An alert that could not be sent raises none (no loop).
 */
export async function alertStaff(
  services: AppServices,
  problem: { kind: "dead" | "runFailed"; job: JobRow; error: string },
) {
  if (problem.job.type === DISCORD_ALERT_JOB) return;
  await notifyAdmins(services.db, problem);
  const settings = await services.settings.get();
  if (!settings.alerts.discordWebhook) return;
  const locale = settings.general.defaultLocale;
  const t = (await createI18n(locale, await loadResources(locale))).getFixedT(null, "admin");
  const values = {
    type: problem.job.type,
    id: problem.job.id,
    attempts: problem.job.attempts,
    error: problem.error.split("\n")[0],
    link: `${services.env.PUBLIC_URL.replace(/\/$/, "")}/admin/automation`,
  };
  const text =
    problem.kind === "dead"
      ? t("automation.alerts.dead", values)
      : t("automation.alerts.runFailed", { ...values, schedule: problem.job.schedule ?? "" });
  await queueAlert(services.db, { text });
}
