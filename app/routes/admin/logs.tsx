import { auditLogQuerySchema } from "~/domain/audit/audit-log.schemas";
import { auditLogVocabulary, listAuditLog } from "~/domain/audit/audit-log.server";
import { AuditLogPage } from "~/features/admin-logs/audit-log-page";
import { adminPage, queryOf } from "~/http/route-request.server";
import { metaFor } from "~/lib/route-meta";
import type { Route } from "./+types/logs";
import { requestContext } from "~/context.server";

// The audit log, newest first, filterable; read-only (no action).
export async function loader({ url, context: routerContext }: Route.LoaderArgs) {
  const context = requestContext(routerContext);
  const { t } = adminPage(url, context, "admin");
  const query = queryOf(url, auditLogQuerySchema);
  const db = context.services.db;
  const [{ entries, hasMore }, vocabulary] = await Promise.all([
    listAuditLog(db, query),
    auditLogVocabulary(db),
  ]);
  return {
    meta: { title: t("nav.logs") },
    entries,
    hasMore,
    query,
    vocabulary,
    locale: context.locale,
  };
}

export const meta: Route.MetaFunction = ({ loaderData, matches }) => metaFor(loaderData, matches);

export default function AdminLogs({ loaderData }: Route.ComponentProps) {
  return <AuditLogPage {...loaderData} />;
}
