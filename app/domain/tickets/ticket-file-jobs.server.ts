import type { JobHandler } from "~/domain/jobs/jobs.server";
import type { ScheduleDefinition } from "~/domain/jobs/schedule-slots";
import { purgeExpiredTicketFiles } from "./ticket-files.server";

// Files sent with tickets are kept `selfService.ticketFileRetentionDays` (docs/self-service.md), then
// emptied by this schedule, once a night, at the job's clock: each message keeps saying a file was there.
// Its run log counts the files it removed; a second run the same night finds none.

export const TICKET_FILE_RETENTION_JOB = "tickets.file-retention";

export const ticketFileHandlers: Record<string, JobHandler> = {
  [TICKET_FILE_RETENTION_JOB]: async ({ db, now }) => ({
    ticketFiles: await purgeExpiredTicketFiles(db, { now }),
  }),
};

export const ticketFileSchedules: ScheduleDefinition[] = [
  { name: TICKET_FILE_RETENTION_JOB, cron: "40 4 * * *", jobType: TICKET_FILE_RETENTION_JOB },
];
