import { auditLogQuerySchema } from "~/domain/audit/audit-log.schemas";
import { auditLogVocabulary, listAuditLog } from "~/domain/audit/audit-log.server";
import { AuditLogPage } from "~/features/admin-logs/audit-log-page";
import { adminLoader } from "~/http/admin-route.server";
import { metaFor } from "~/lib/route-meta";
import type { Route } from "./+types/logs";
import { requestContext } from "~/context.server";

// The audit log, newest first, filterable; read-only (no action).
export const loader = adminLoader(requestContext, {
  title: "admin.nav.logs",
  permission: "logs.view",
  query: auditLogQuerySchema,
  load: async ({ db, query }) => {
    const [list, vocabulary] = await Promise.all([listAuditLog(db, query), auditLogVocabulary(db)]);
    return { ...list, vocabulary };
  },
});

export const meta: Route.MetaFunction = ({ loaderData, matches }) => metaFor(loaderData, matches);

export default function AdminLogs({ loaderData }: Route.ComponentProps) {
  return <AuditLogPage {...loaderData} />;
}
