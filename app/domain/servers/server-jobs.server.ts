import type { JobHandler } from "~/domain/jobs/jobs.server";
import type { ScheduleDefinition } from "~/domain/jobs/schedule-slots";
import type { ProvisioningConfig } from "~/domain/provisioning/panel-job-kit.server";
import { serverActionHandlers } from "./server-action-jobs.server";
import { detailsHandler } from "./server-details-job.server";
import { SERVER_DETAILS_JOB, SERVER_STATUS_JOB, SERVER_WATCH_JOB } from "./server-job-types";
import { statusHandler, watchHandler } from "./server-status-job.server";

// Server control's jobs (docs/server-control.md), each type with its handler, and the schedules. Every
// call to the panel or the game runs here, on the worker; each family of handlers has a file of its own.

/** What the handlers are made with: the panel's (the worker's JobWiring.panel) and the game query's. */
export interface ServerControlConfig extends Pick<
  ProvisioningConfig,
  "secret" | "timeoutMs" | "fetch"
> {
  /** How long the game's query waits (default GAME_QUERY_TIMEOUT_MS). */
  gameQueryTimeoutMs?: number;
}

export function serverControlHandlers(config: ServerControlConfig): Record<string, JobHandler> {
  return {
    [SERVER_STATUS_JOB]: statusHandler(config),
    [SERVER_DETAILS_JOB]: detailsHandler(config),
    [SERVER_WATCH_JOB]: watchHandler,
    // What a customer or an admin asked of a server: power, a variable, a new panel password.
    ...serverActionHandlers(config),
  };
}

export const serverControlSchedules: ScheduleDefinition[] = [
  // The offline notice's reads: a status read each of the servers whose customer asked for it.
  { name: "servers.watch", cron: "*/2 * * * *", jobType: SERVER_WATCH_JOB, maxAttempts: 1 },
];
