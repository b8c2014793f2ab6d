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
    | "invoice"
    | "canned_reply"
    | "referral"
    | "kb_category"
    | "kb_article"
    | "mail_campaign";
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
