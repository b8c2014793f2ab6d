import { idField } from "~/lib/id-field";
import { pageParam } from "~/lib/query-params";
import { rowActions } from "~/lib/save-actions";
import { z } from "~/lib/zod";
import { alertsFormSchema, timeZoneFormSchema } from "~/domain/settings/settings.schemas";

// Schemas only: actions, loaders, *.server.ts and tests import this file, never a page's code, so zod
// never reaches the browser (docs/architecture.md).

export const automationQuerySchema = z.object({ page: pageParam });
export type AutomationQuery = z.infer<typeof automationQuerySchema>;

const jobId = idField("admin.automation.errors.jobNotFound", Number.MAX_SAFE_INTEGER);

export const automationActionSchema = z.discriminatedUnion(
  "intent",
  [
    z.object({
      intent: z.literal("run-now"),
      schedule: z.string({ error: "admin.automation.errors.scheduleNotFound" }).min(1).max(100),
    }),
    ...rowActions(jobId, ["retry", "discard"]),
    // The site's time zone, in which the schedules are read (checked by the settings' own schema).
    timeZoneFormSchema.extend({ intent: z.literal("time-zone") }),
    alertsFormSchema.extend({ intent: z.literal("alerts") }),
  ],
  { error: "admin.automation.errors.unknownAction" },
);
export type AutomationAction = z.infer<typeof automationActionSchema>;
