import type { JobHandler } from "~/domain/jobs/jobs.server";
import type { ScheduleDefinition } from "~/domain/jobs/schedule-slots";
import { deleteExpiredProofs } from "./top-up-proofs.server";

// Proof files are accounting records (docs/payments.md#proof-files): kept as long as the
// settings' `invoicing.retentionYears`, then deleted by this schedule, once a night, at the job's clock.
// Its run log counts the files it deleted; a second run the same night finds none.

export const PROOF_RETENTION_JOB = "payments.proof-retention";

export const proofRetentionHandlers: Record<string, JobHandler> = {
  [PROOF_RETENTION_JOB]: async ({ db, now }) => ({
    proofFiles: await deleteExpiredProofs(db, { now }),
  }),
};

export const proofRetentionSchedules: ScheduleDefinition[] = [
  { name: PROOF_RETENTION_JOB, cron: "20 4 * * *", jobType: PROOF_RETENTION_JOB },
];
