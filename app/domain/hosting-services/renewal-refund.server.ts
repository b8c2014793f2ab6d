import { sql } from "kysely";
import { record } from "~/domain/events/events.server";
import {
  canTakeBackTerm,
  suspensionToRestore,
  type RenewalTerm,
  type TermTakenBack,
} from "~/domain/invoices/invoices";
import { autoRenewalKey } from "~/domain/lifecycle/lifecycle";
import { panelLinkOf } from "~/domain/provisioning/panel-link.server";
import type { Db, Tx } from "~/db/transaction";
import { switchAutoRenew } from "./auto-renew.server";

/** The renewal a renewal's invoice paid for, as a refund of it needs it. */
export interface RenewalOfTerm {
  id: number;
  /** The expiry it renewed from, which taking it back restores (the term's start, unless it had expired). */
  previousExpiresAt: string;
  /** The lifecycle made it, not the customer. */
  automatic: boolean;
  /** The suspension it lifted (since when), if it reactivated the service. */
  reactivatedSuspendedAt: string | null;
  /** When it was made. */
  renewedAt: string;
}

/**
 * The renewal behind a term: the one its invoice line names (`renewalId`); for a line from before lines
 * named it, the newest of the service's renewals that gave the expiry `until` (a term taken back and
 * bought again is renewed anew). Undefined for none (data from before renewals were kept).
 */
export async function findRenewalOfTerm(
  db: Db | Tx,
  term: RenewalTerm,
): Promise<RenewalOfTerm | undefined> {
  const row = await db
    .selectFrom("service_renewals")
    .select([
      "id",
      "idempotency_key",
      "previous_expires_at",
      "reactivated_suspended_at",
      "created_at",
    ])
    .where("hosting_service_id", "=", term.serviceId)
    // Named by its invoice's line; an older invoice's is the latest renewal that gave its expiry (an
    // admin who set an expiry back by hand, then a renewal to the same day, would make that ambiguous).
    .where((eb) =>
      term.renewalId === null
        ? eb("new_expires_at", "=", term.until)
        : eb("id", "=", term.renewalId),
    )
    .orderBy("id", "desc")
    .limit(1)
    .executeTakeFirst();
  if (!row) return undefined;
  return {
    id: Number(row.id),
    previousExpiresAt: row.previous_expires_at,
    automatic: row.idempotency_key === autoRenewalKey(term.serviceId, row.previous_expires_at),
    reactivatedSuspendedAt: row.reactivated_suspended_at
      ? new Date(row.reactivated_suspended_at).toISOString()
      : null,
    renewedAt: new Date(row.created_at).toISOString(),
  };
}

/** The expiry taking a term back restores: the one the renewal renewed from (its invoice's line names
 * the term it billed, which starts later when the service had expired). */
export function expiryBeforeRenewal(term: RenewalTerm, renewal: RenewalOfTerm | undefined): string {
  return renewal?.previousExpiresAt ?? term.from;
}

/** A service's row as its events name it (its owner is the refund's customer). */
function serviceRefOf(
  service: { id: number | bigint; name: string; server_name: string },
  userId: string,
) {
  return { id: Number(service.id), userId, name: service.name, serverName: service.server_name };
}

/**
 * Step, for the refund of a renewal's invoice (recordRefund): what the renewal did is undone. The
 * service's expiry is set back to the term's start; when the renewal had reactivated it from a
 * suspension for expiry, it is suspended again from that moment (the termination countdown it had, the
 * game panel told by a job); and, when asked (`stopAutoRenew`: the lifecycle would otherwise charge it
 * again once the date is due, which a customer who did not want an automatic renewal does not want
 * either), its automatic renewal is switched off. A service that was running is not suspended here: when
 * its expiry is now past, the lifecycle suspends it after the grace period like any other.
 *
 * Only while the service still runs to the end of that very term and is not terminated: null when a
 * later renewal or an admin's edit moved the expiry since, or the service is gone (the caller refuses,
 * and the refund is not recorded).
 */
export async function takeBackRenewalTerm(
  trx: Tx,
  input: {
    term: RenewalTerm;
    userId: string;
    actorId: string;
    /** Also switch its automatic renewal off. */
    stopAutoRenew: boolean;
    /** The refunded invoice, named in the audit entry. */
    invoiceNumber: string;
    reason: string;
    now?: Date;
  },
): Promise<Omit<TermTakenBack, "service"> | null> {
  const { term } = input;
  const service = await trx
    .selectFrom("hosting_services")
    .select(["id", "name", "server_name", "status", "expires_at", "auto_renew"])
    .where("id", "=", term.serviceId)
    .where("user_id", "=", input.userId)
    .executeTakeFirst();
  if (!service || !canTakeBackTerm(term, { expiresAt: service.expires_at, status: service.status }))
    return null;
  const renewal = await findRenewalOfTerm(trx, term);
  const expiresAt = expiryBeforeRenewal(term, renewal);
  const now = input.now ?? new Date();
  const suspendedAt = suspensionToRestore(renewal, service.status, now);
  const autoRenewOff = input.stopAutoRenew && Number(service.auto_renew) === 1;
  const updated = await trx
    .updateTable("hosting_services")
    .set({
      expires_at: expiresAt,
      updated_at: now.toISOString(),
      ...(autoRenewOff ? { auto_renew: 0 } : {}),
      ...(suspendedAt
        ? { status: "suspended", suspension_reason: "expired", suspended_at: suspendedAt }
        : {}),
    })
    .where("id", "=", service.id)
    // What was read: a renewal or an edit committed in between leaves this row alone.
    .where("expires_at", "=", service.expires_at)
    .where("status", "=", service.status)
    .executeTakeFirst();
  if (Number(updated.numUpdatedRows) !== 1) return null;
  await freeLifecycleRenewalKey(trx, term, renewal);
  const autoRenew = Number(service.auto_renew) === 1;
  await record(
    trx,
    {
      type: "service.renewalRefunded",
      actorId: input.actorId,
      service: serviceRefOf(service, input.userId),
      change: {
        before: { expiresAt: service.expires_at, autoRenew, status: service.status },
        after: {
          expiresAt,
          autoRenew: autoRenew && !autoRenewOff,
          status: suspendedAt ? "suspended" : service.status,
          ...(suspendedAt ? { suspensionReason: "expired", suspendedAt } : {}),
          invoice: input.invoiceNumber,
        },
      },
      reason: input.reason,
      expiresAt,
      suspended: suspendedAt !== null,
      autoRenewOff,
      // A service suspended again: the game panel follows.
      panel: suspendedAt ? await panelLinkOf(trx, service.id) : null,
    },
    now,
  );
  return { expiresAt, autoRenewOff, suspended: suspendedAt !== null };
}

/**
 * Step, for the refund of a renewal's invoice that keeps its term (a goodwill refund): the service's
 * automatic renewal switched off when the admin asked, and the customer told. Nothing when it was off
 * already, or the service is terminated or gone. True when it was switched off.
 */
export async function stopAutoRenewForRefund(
  trx: Tx,
  input: {
    term: RenewalTerm;
    userId: string;
    actorId: string;
    invoiceNumber: string;
    reason: string;
    now?: Date;
  },
): Promise<boolean> {
  const now = input.now ?? new Date();
  const service = await switchAutoRenew(trx, {
    serviceId: input.term.serviceId,
    userId: input.userId,
    on: false,
    exceptTerminated: true,
    now,
  });
  if (!service) return false;
  await record(
    trx,
    {
      type: "service.renewalRefunded",
      actorId: input.actorId,
      service: serviceRefOf(service, input.userId),
      change: {
        before: { autoRenew: true },
        after: { autoRenew: false, invoice: input.invoiceNumber },
      },
      reason: input.reason,
      expiresAt: service.expires_at,
      suspended: false,
      autoRenewOff: true,
      panel: null,
    },
    now,
  );
  return true;
}

/**
 * The lifecycle renews a service once per expiry date (its key `autoRenewalKey(service, expiry)` in
 * `service_renewals`). When the term taken back was that automatic renewal, the service's expiry is
 * that date again: its key is renamed (the row stays, as the history of what was charged), so that the
 * lifecycle may renew the service again if its automatic renewal is (or is turned back) on. A customer's
 * own key is random and blocks nothing.
 */
async function freeLifecycleRenewalKey(
  trx: Tx,
  term: RenewalTerm,
  renewal: RenewalOfTerm | undefined,
): Promise<void> {
  await trx
    .updateTable("service_renewals")
    // The row's id keeps the new key unique, whatever is refunded later.
    .set({ idempotency_key: sql<string>`'refunded:' || id || ':' || idempotency_key` })
    .where(
      "idempotency_key",
      "=",
      autoRenewalKey(term.serviceId, expiryBeforeRenewal(term, renewal)),
    )
    .execute();
}
