import { filterParam, pageParam, textParam } from "~/lib/query-params";
import { z } from "~/lib/zod";
import { AUDIT_TARGET_TYPES } from "./audit-log";

// Schemas only: actions, loaders, *.server.ts and tests import this file, never a page's code, so zod
// never reaches the browser (docs/architecture.md).

/** /admin/logs' query string: a value that does not parse is ignored, never an error. */
export const auditLogQuerySchema = z.object({
  actor: textParam(254),
  action: z
    .string()
    .regex(/^[a-z_]+(\.[a-z_]*)?$/)
    .max(100)
    .optional()
    .catch(undefined),
  targetType: filterParam(AUDIT_TARGET_TYPES),
  target: textParam(254),
  page: pageParam,
});
export type AuditLogQuery = z.infer<typeof auditLogQuerySchema>;
