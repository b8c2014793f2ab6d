import type { Tx } from "~/db/transaction";

export interface AuditEntry {
  actorId: string | null;
  action: string;
  targetType:
    | "user"
    | "order"
    | "hosting_service"
    | "voucher"
    | "product"
    | "settings"
    | "ticket"
    | "announcement"
    | "login_block"
    | "contact_message"
    | "newsletter_subscriber"
    | "legacy_import"
    | "job"
    | "job_schedule"
    | "payment_method"
    | "top_up_request"
    | "invoice";
  targetId: string | number;
  before?: unknown;
  after?: unknown;
  reason?: string;
}

/** A step: written in the same transaction as the change it records, so neither exists without the other. */
export async function recordAudit(trx: Tx, entry: AuditEntry): Promise<void> {
  await trx
    .insertInto("audit_log")
    .values({
      actor_id: entry.actorId,
      action: entry.action,
      target_type: entry.targetType,
      target_id: String(entry.targetId),
      before: entry.before === undefined ? null : JSON.stringify(entry.before),
      after: entry.after === undefined ? null : JSON.stringify(entry.after),
      reason: entry.reason ?? "",
      created_at: new Date().toISOString(),
    })
    .execute();
}

/**
 * Step: a person's change to their own account, in the audit log: they are its actor and its target (a
 * customer's deletion request, an admin ending their own sessions).
 */
export async function recordOwnChange(
  trx: Tx,
  userId: string,
  entry: Omit<AuditEntry, "actorId" | "targetType" | "targetId">,
): Promise<void> {
  await recordAudit(trx, { actorId: userId, targetType: "user", targetId: userId, ...entry });
}

/**
 * The end of an admin's save of one kind of record (`targetType`), as a step: the record as it now
 * stands (`read` in the same transaction), audited with its `view` before the change (none for a new
 * record) and after.
 */
export function recordSaved<T>(
  targetType: AuditEntry["targetType"],
  record: { read: (trx: Tx, id: number) => Promise<T | undefined>; view: (record: T) => unknown },
) {
  return async (
    trx: Tx,
    id: number,
    entry: { actorId: string; action: string; before?: T },
  ): Promise<T> => {
    const saved = (await record.read(trx, id))!;
    await recordAudit(trx, {
      actorId: entry.actorId,
      action: entry.action,
      targetType,
      targetId: id,
      before: entry.before === undefined ? undefined : record.view(entry.before),
      after: record.view(saved),
    });
    return saved;
  };
}
