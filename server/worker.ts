import type { AppServices } from "~/context.server";
import {
  findStaleSchedules,
  notifyAdmins,
  queueAlert,
  raiseStaleAlert,
} from "~/domain/jobs/alerts.server";
import { DISCORD_ALERT_JOB, type StaffEvent } from "~/domain/jobs/discord-posts.server";
import type { JobRow } from "~/domain/jobs/jobs.server";
import { TOP_UP_PROOFS_PATH } from "~/domain/payments/top-ups";
import { jobHandlers, SCHEDULES } from "~/domain/jobs/registry.server";
import type { ScheduleDefinition } from "~/domain/jobs/schedule-slots";
import type { Locale } from "~/i18n/locales";
import { sharedI18n } from "~/i18n/shared-i18n.server";
import { formatCoins } from "~/lib/money";
import { DEPARTMENT_LABELS } from "~/domain/tickets/tickets";
import { ticketsOfSummary } from "~/domain/tickets/staff-ticket-notices.server";
import { dateTimeFormat } from "~/lib/intl-format";
import { startWorker, type Worker } from "~/domain/jobs/runner.server";
import { logger } from "~/lib/logger.server";
import { dataExportWiring } from "./data-exports";
import { mailWiring } from "./mail";

// One background worker per process (docs/automation.md). In development Vite may evaluate the app's
// module again after an edit: the worker already running in this process is kept, not doubled.
const RUNNING = Symbol.for("hostfront.worker");
type WithWorker = typeof globalThis & { [RUNNING]?: Worker };
const WATCHING = Symbol.for("hostfront.stale-watch");
type WithWatch = typeof globalThis & { [WATCHING]?: () => void };

/** Starts this process's worker with every registered job type and schedule, and the env's times. */
export function startBackgroundWorker(services: AppServices): Worker {
  const holder = globalThis as WithWorker;
  if (holder[RUNNING]) return holder[RUNNING];
  const { env } = services;
  const worker = startWorker({
    db: services.db,
    handlers: workerHandlers(services),
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
    onBeat: async (at) => void (await alertStaleSchedules(services, { now: at })),
  });
  holder[RUNNING] = worker;
  return worker;
}

/**
 * Every job type's handler (the registry's), wired to this process: the Discord post writes its texts in
 * the site's default language, mail is written in the recipient's and sent over SMTP_URL or kept
 * (docs/mail.md), the game panel's jobs and the online payments' read their keys with the auth secret. `discordSend` is how the
 * posts go out (fetch; tests give one that reaches their stand-in for Discord).
 */
export function workerHandlers(
  services: AppServices,
  { discordSend }: { discordSend?: typeof fetch } = {},
) {
  return jobHandlers({
    discord: { write: (event) => staffPostText(services, event), send: discordSend },
    mail: mailWiring(services),
    panel: {
      secret: services.env.AUTH_SECRET,
      timeoutMs: services.env.PANEL_TIMEOUT_MS,
      pollMs: services.env.PANEL_POLL_MS,
      installTimeoutMs: services.env.PANEL_INSTALL_TIMEOUT_MS,
    },
    payments: { secret: services.env.AUTH_SECRET, providers: services.paymentProviders },
    dataExports: dataExportWiring(services),
    discordRoles: { secret: services.env.AUTH_SECRET, baseUrl: services.env.DISCORD_BASE_URL },
  });
}

/** A translator of `locale` (the admin namespace first), for texts staff read outside the site. */
async function staffTranslator(locale: Locale) {
  return (await sharedI18n(locale)).getFixedT(null, "admin");
}

function adminLink(services: AppServices, path: string) {
  return `${services.env.PUBLIC_URL.replace(/\/$/, "")}${path}`;
}

/**
 * A new order's or ticket's post, a top-up marked paid: numbers, product, total,
 * department, reference and method; no personal data. A busy window's summary: how many tickets and
 * their numbers (none left to tell: null, no post).
 */
export async function staffPostText(
  services: AppServices,
  event: StaffEvent,
): Promise<string | null> {
  const { general } = await services.settings.get();
  const locale = general.defaultLocale;
  const i18n = await sharedI18n(locale);
  const t = i18n.getFixedT(null, "admin");
  if (event.kind === "ticketsOpened") {
    const { count, tickets } = await ticketsOfSummary(services.db, event);
    if (count === 0) return null;
    const when = (iso: string, options: Intl.DateTimeFormatOptions) =>
      dateTimeFormat(locale, { ...options, timeZone: general.timeZone }).format(new Date(iso));
    const numbers = tickets.map((ticket) => `#${ticket.id}`).join(", ");
    return t("automation.alerts.ticketsOpened", {
      count,
      from: when(event.from, { dateStyle: "medium", timeStyle: "short" }),
      until: when(event.until, { timeStyle: "short" }),
      tickets: count > tickets.length ? `${numbers} …` : numbers,
      link: adminLink(services, "/admin/tickets"),
    });
  }
  if (event.kind === "orderWaiting")
    return t("automation.alerts.orderWaiting", {
      id: event.orderId,
      product: event.product,
      total: formatCoins(event.totalCents, locale),
      link: adminLink(services, "/admin/orders"),
    });
  if (event.kind === "orderApprovedAutomatically")
    return t("automation.alerts.orderApprovedAutomatically", {
      id: event.orderId,
      product: event.product,
      total: formatCoins(event.totalCents, locale),
      link: adminLink(services, `/admin/orders?id=${event.orderId}`),
    });
  if (event.kind === "topUpPaid")
    return t("automation.alerts.topUpPaid", {
      reference: event.reference,
      method: event.method,
      amount: formatCoins(event.amountCents, locale),
      link: adminLink(services, TOP_UP_PROOFS_PATH),
    });
  return t("automation.alerts.ticketOpened", {
    id: event.ticketId,
    department: i18n.getFixedT(null, "common")(DEPARTMENT_LABELS[event.department]),
    link: adminLink(services, `/admin/tickets/${event.ticketId}`),
  });
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
  const t = await staffTranslator(locale);
  const values = {
    type: problem.job.type,
    id: problem.job.id,
    attempts: problem.job.attempts,
    error: problem.error.split("\n")[0],
    link: adminLink(services, "/admin/automation"),
  };
  const text =
    problem.kind === "dead"
      ? t("automation.alerts.dead", values)
      : t("automation.alerts.runFailed", { ...values, schedule: problem.job.schedule ?? "" });
  await queueAlert(services.db, { text });
}

/**
 * The stale-schedule check, run by every process: by the worker on each heartbeat, and by a
 * web process whose worker is off (WORKER=off) on a timer, so a site whose worker process stopped still
 * hears of it. One read of job_schedules; a schedule not queued for longer than twice its interval raises
 * one staff notification per admin and one Discord post (when set) per stale episode. Returns how many
 * alerts this call raised.
 */
export async function alertStaleSchedules(
  services: AppServices,
  {
    now = new Date(),
    schedules = SCHEDULES,
  }: { now?: Date; schedules?: readonly ScheduleDefinition[] } = {},
): Promise<number> {
  const settings = await services.settings.get();
  const stale = await findStaleSchedules(services.db, schedules, {
    now,
    timeZone: settings.general.timeZone,
  });
  if (stale.length === 0) return 0;
  const t = settings.alerts.discordWebhook
    ? await staffTranslator(settings.general.defaultLocale)
    : null;
  let raised = 0;
  for (const { schedule, awaited } of stale) {
    const text = t?.("automation.alerts.stale", {
      schedule: schedule.name,
      due: awaited.toISOString(),
      link: adminLink(services, "/admin/automation"),
    });
    if (await raiseStaleAlert(services.db, { name: schedule.name, awaited, text, now })) raised++;
  }
  return raised;
}

/** In a web process whose worker is off: the stale-schedule check every minute. Returns its stop. */
export function startStaleWatch(services: AppServices, everyMs = 60_000): () => void {
  // Vite may evaluate the app's module again in development: one watch per process, as one worker.
  const holder = globalThis as WithWatch;
  if (holder[WATCHING]) return holder[WATCHING];
  const log = logger.child({ part: "stale-watch" });
  const timer = setInterval(
    () =>
      void alertStaleSchedules(services).catch((error) =>
        log.warn({ err: error }, "could not check for stale schedules"),
      ),
    everyMs,
  );
  timer.unref();
  holder[WATCHING] = () => {
    clearInterval(timer);
    holder[WATCHING] = undefined;
  };
  return holder[WATCHING];
}
