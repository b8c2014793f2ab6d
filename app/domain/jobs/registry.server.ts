import type { ScheduleDefinition } from "./schedule-slots";
import type { JobHandler } from "./jobs.server";
import { DISCORD_ALERT_JOB, discordAlertHandler } from "./alerts.server";
import { housekeepingHandlers, housekeepingSchedules } from "./housekeeping.server";

// Every job type the worker runs and every recurring schedule, in one place: a new area (the service
// lifecycle, email, provisioning) adds its handlers and schedules here.

export const JOB_HANDLERS: Readonly<Record<string, JobHandler>> = {
  ...housekeepingHandlers,
  [DISCORD_ALERT_JOB]: discordAlertHandler,
};

export const SCHEDULES: readonly ScheduleDefinition[] = [...housekeepingSchedules];

export function scheduleNamed(name: string): ScheduleDefinition | undefined {
  return SCHEDULES.find((schedule) => schedule.name === name);
}
