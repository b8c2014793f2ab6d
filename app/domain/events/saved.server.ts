import type { AuditEntry } from "~/domain/audit/audit.server";

/** An admin's save of one record: as it was (none when it is new) and as it now stands. */
export interface Saved<T> {
  actorId: string;
  before?: T;
  after: T;
}

/**
 * The audit entry of a save of one kind of record (`targetType`): what the audit log keeps of it (`view`)
 * before the change, none for a new record, and after; `action` names the change (`product.create`).
 */
export function auditSaved<T extends { id: number }>(
  targetType: AuditEntry["targetType"],
  view: (record: T) => unknown,
) {
  return (event: Saved<T>, action: string): AuditEntry => ({
    actorId: event.actorId,
    action,
    targetType,
    targetId: event.after.id,
    before: event.before === undefined ? undefined : view(event.before),
    after: view(event.after),
  });
}
