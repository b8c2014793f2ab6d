import { sql } from "kysely";
import { recordAudit } from "~/domain/audit/audit.server";
import { canTakeBackTerm, type RenewalTerm } from "~/domain/invoices/invoices";
import { autoRenewalKey } from "~/domain/lifecycle/lifecycle";
import { notify } from "~/domain/notifications/notifications.server";
import type { Tx } from "~/db/transaction";

/**
 * Step, for the refund of a renewal's invoice (recordRefund): the term the renewal paid for is taken
 * back, the service's expiry set back to the term's start, and its automatic renewal switched off (a
 * customer refunded for a renewal did not want it; the lifecycle would otherwise charge it again at the
 * next expiry). The service is not suspended here: when its expiry is now past, the lifecycle suspends
 * it after the grace period like any other, with its own notice and mail.
 *
 * Only while the service still runs to the end of that very term and is not terminated: false when a
 * later renewal or an admin's edit moved the expiry since, or the service is gone (the caller refuses,
 * and the refund is not recorded).
 */
export async function takeBackRenewalTerm(
  trx: Tx,
  input: {
    term: RenewalTerm;
    userId: string;
    actorId: string;
    /** The refunded invoice, named in the audit entry. */
    invoiceNumber: string;
    reason: string;
    now?: Date;
  },
): Promise<boolean> {
  const { term } = input;
  const service = await trx
    .selectFrom("hosting_services")
    .select(["id", "name", "status", "expires_at", "auto_renew"])
    .where("id", "=", term.serviceId)
    .where("user_id", "=", input.userId)
    .executeTakeFirst();
  if (!service || !canTakeBackTerm(term, { expiresAt: service.expires_at, status: service.status }))
    return false;
  const now = input.now ?? new Date();
  const updated = await trx
    .updateTable("hosting_services")
    .set({ expires_at: term.from, auto_renew: 0, updated_at: now.toISOString() })
    .where("id", "=", service.id)
    // What was read: a renewal or an edit committed in between leaves this row alone.
    .where("expires_at", "=", service.expires_at)
    .where("status", "=", service.status)
    .executeTakeFirst();
  if (Number(updated.numUpdatedRows) !== 1) return false;
  await freeLifecycleRenewalKey(trx, term);
  await recordAudit(trx, {
    actorId: input.actorId,
    action: "service.renewal_refund",
    targetType: "hosting_service",
    targetId: service.id,
    before: { expiresAt: service.expires_at, autoRenew: service.auto_renew === 1 },
    after: { expiresAt: term.from, autoRenew: false, invoice: input.invoiceNumber },
    reason: input.reason,
  });
  await notify(trx, {
    userId: input.userId,
    kind: "service_renewal_refunded",
    params: { service: service.name, expires: term.from },
    link: "/dashboard?tab=services",
    now,
  });
  return true;
}

/**
 * The lifecycle renews a service once per expiry date (its key `autoRenewalKey(service, expiry)` in
 * `service_renewals`). When the term taken back was that automatic renewal, the service's expiry is
 * that date again: its key is renamed (the row stays, as the history of what was charged), so that the
 * lifecycle may renew the service again if the customer turns its automatic renewal back on. A
 * customer's own key is random and blocks nothing.
 */
async function freeLifecycleRenewalKey(trx: Tx, term: RenewalTerm): Promise<void> {
  await trx
    .updateTable("service_renewals")
    // The row's id keeps the new key unique, whatever is refunded later.
    .set({ idempotency_key: sql<string>`'refunded:' || id || ':' || idempotency_key` })
    .where("idempotency_key", "=", autoRenewalKey(term.serviceId, term.from))
    .execute();
}
