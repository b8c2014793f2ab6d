import type { JobHandler } from "~/domain/jobs/jobs.server";
import type { ScheduleDefinition } from "~/domain/jobs/schedule-slots";
import { createHandler } from "./panel-create-job.server";
import { PANEL_CHECK_JOB } from "./panel-connection.server";
import { installHandler, reinstallHandler } from "./panel-install-job.server";
import { type ProvisioningConfig } from "./panel-job-kit.server";
import {
  PANEL_CREATE_JOB,
  PANEL_INSTALL_JOB,
  PANEL_RECONCILE_JOB,
  PANEL_REINSTALL_JOB,
  PANEL_RELINK_JOB,
  PANEL_RESIZE_JOB,
  PANEL_SYNC_JOB,
  PANEL_USER_JOB,
} from "./panel-job-types";
import { checkHandler, reconcileHandler } from "./panel-reconcile-job.server";
import { resizeHandler } from "./panel-resize-job.server";
import { relinkHandler, syncHandler } from "./panel-sync-job.server";
import { userSyncHandler } from "./panel-user-job.server";

// The panel's side of a service (docs/provisioning.md "Jobs"). Every call to the panel runs
// here, on the worker, never in a request or a transaction. Each handler may run again after a crash or
// a lost answer, so each looks before it makes: the panel user by external id then email, the server by
// its external id. Our side's state changes in its own transactions; the panel catches up through these
// jobs, and `provisioning.sync` brings a server to what the service's status says, whatever came before.
// Each family of handlers has a file of its own (panel-*-job.server.ts); here, each job type with its
// handler, and the schedules.

export function provisioningHandlers(config: ProvisioningConfig): Record<string, JobHandler> {
  return {
    [PANEL_CHECK_JOB]: checkHandler(config),
    [PANEL_CREATE_JOB]: createHandler(config),
    [PANEL_INSTALL_JOB]: installHandler(config),
    [PANEL_SYNC_JOB]: syncHandler(config),
    [PANEL_REINSTALL_JOB]: reinstallHandler(config),
    [PANEL_RELINK_JOB]: relinkHandler(config),
    [PANEL_RECONCILE_JOB]: reconcileHandler(config),
    [PANEL_USER_JOB]: userSyncHandler(config),
    [PANEL_RESIZE_JOB]: resizeHandler(config),
  };
}

export const provisioningSchedules: ScheduleDefinition[] = [
  { name: "provisioning.reconcile", cron: "40 3 * * *", jobType: PANEL_RECONCILE_JOB },
  { name: "provisioning.refresh", cron: "7 * * * *", jobType: PANEL_CHECK_JOB },
];
