import type { Db } from "~/db/transaction";
import { containsAny } from "~/db/like-pattern";
import { fetchPage, pageWindow, type PageRequest } from "~/db/paging";
import { AUDIT_PAGE_SIZE, type AuditLogRow } from "./audit-log";

/**
 * What every list of audit entries shows of one (the audit page, a client's page), the acting admin's
 * email included: a query joining `users as actor` selects these.
 */
export const AUDIT_ENTRY_COLUMNS = [
  "audit_log.id",
  "audit_log.created_at",
  "audit_log.action",
  "audit_log.target_type",
  "audit_log.target_id",
  "audit_log.reason",
  "actor.email as actor_email",
] as const;

export interface AuditLogFilter extends PageRequest {
  /** Part of the acting admin's email or name. */
  actor?: string;
  /** An exact action, e.g. "coins.adjust", or a prefix ending in a dot, e.g. "order.". */
  action?: string;
  targetType?: string;
  /** A target id, or part of a target user's email or name. */
  target?: string;
}

/** The audit log for admins, newest first, filtered on the server; read-only. */
export async function listAuditLog(db: Db, filter: AuditLogFilter) {
  let query = db
    .selectFrom("audit_log")
    .leftJoin("users as actor", "actor.id", "audit_log.actor_id")
    .leftJoin("users as target_user", (join) =>
      join
        .onRef("target_user.id", "=", "audit_log.target_id")
        .on("audit_log.target_type", "=", "user"),
    );
  const actor = filter.actor?.trim().toLowerCase();
  if (actor) query = query.where(containsAny(["actor.email", "lower(actor.name)"], actor));
  const action = filter.action?.trim();
  if (action) {
    query = action.endsWith(".")
      ? query.where("audit_log.action", "like", `${action.replace(/[\\%_]/g, "")}%`)
      : query.where("audit_log.action", "=", action);
  }
  if (filter.targetType) query = query.where("audit_log.target_type", "=", filter.targetType);
  const target = filter.target?.trim();
  if (target) {
    query = query.where((eb) =>
      eb.or([
        eb("audit_log.target_id", "=", target.replace(/^#/, "")),
        containsAny(["target_user.email", "lower(target_user.name)"], target.toLowerCase()),
      ]),
    );
  }
  const { rows, hasMore } = await fetchPage(
    query
      .select([
        ...AUDIT_ENTRY_COLUMNS,
        "audit_log.before",
        "audit_log.after",
        "actor.name as actor_name",
        "target_user.email as target_email",
        "target_user.name as target_name",
      ])
      .orderBy("audit_log.id", "desc"),
    pageWindow(filter, AUDIT_PAGE_SIZE),
  );
  return {
    entries: rows.map((row): AuditLogRow => ({
      id: Number(row.id),
      at: row.created_at,
      actorEmail: row.actor_email,
      actorName: row.actor_name,
      action: row.action,
      targetType: row.target_type,
      targetId: row.target_id,
      targetName: row.target_name,
      targetEmail: row.target_email,
      before: row.before,
      after: row.after,
      reason: row.reason,
    })),
    hasMore,
  };
}

/** The actions and target types that occur in the log, for the filter's choices. */
export async function auditLogVocabulary(db: Db) {
  const [actions, targetTypes] = await Promise.all([
    db.selectFrom("audit_log").select("action").distinct().orderBy("action").execute(),
    db.selectFrom("audit_log").select("target_type").distinct().orderBy("target_type").execute(),
  ]);
  return {
    actions: actions.map((row) => row.action),
    targetTypes: targetTypes.map((row) => row.target_type),
  };
}
