import type { ScheduleDefinition } from "./schedule-slots";
import type { JobHandler } from "./jobs.server";
import { DISCORD_ALERT_JOB, discordAlertHandler } from "./alerts.server";
import { housekeepingHandlers, housekeepingSchedules } from "./housekeeping.server";
import { lifecycleHandlers, lifecycleSchedules } from "~/domain/lifecycle/lifecycle-jobs.server";
import { provisioningSchedules } from "~/domain/provisioning/provisioning-jobs.server";
import {
  proofRetentionHandlers,
  proofRetentionSchedules,
} from "~/domain/payments/proof-retention-jobs.server";
import { proofThumbnailHandlers } from "~/domain/payments/proof-thumbnail-jobs.server";

// Every job type the worker runs and every recurring schedule, in one place: a new area (the service
// lifecycle, email, provisioning) adds its handlers and schedules here.
// Three kinds of handlers need the process's configuration and so are built in server/worker.ts's
// workerHandlers(): the Discord post's writer, email's send job (mail.send: templates and SMTP,
// docs/mail.md), and the game panel's jobs (the auth secret their key is encrypted with, the panel's
// timeouts; docs/provisioning.md).

export const JOB_HANDLERS: Readonly<Record<string, JobHandler>> = {
  ...housekeepingHandlers,
  ...lifecycleHandlers,
  ...proofRetentionHandlers,
  ...proofThumbnailHandlers,
  [DISCORD_ALERT_JOB]: discordAlertHandler,
};

export const SCHEDULES: readonly ScheduleDefinition[] = [
  ...housekeepingSchedules,
  ...lifecycleSchedules,
  ...proofRetentionSchedules,
  ...provisioningSchedules,
];

export function scheduleNamed(name: string): ScheduleDefinition | undefined {
  return SCHEDULES.find((schedule) => schedule.name === name);
}
