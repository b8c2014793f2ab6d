import { record } from "~/domain/events/events.server";
import { payFromCoins, type InsufficientCoins } from "~/domain/coins/coins.server";
import { customerVat } from "~/domain/invoices/invoices";
import {
  invoiceTermsFor,
  issueRenewalInvoice,
  type InvoicingContext,
} from "~/domain/invoices/issuing.server";
import { getSettings } from "~/domain/settings/settings.server";
import { ledgerReason } from "~/domain/coins/ledger-reason";
import type { ExpressionBuilder } from "kysely";
import type { Database } from "~/db/schema";
import { BILLING_CYCLES, type BillingCycle } from "~/domain/orders/orders";
import { inTransaction, storeOncePerKey, refuse, type Db } from "~/db/transaction";
import {
  canRenew,
  suspensionReasonOf,
  renewalAmounts,
  renewalExpiry,
  renewalQuote,
  renewalTermStart,
  type HostingService,
  type RenewalQuote,
  type ServiceStatus,
} from "./hosting-services";
import { panelLinkOf } from "~/domain/provisioning/panel-link.server";
import { keepOnRenewal } from "./cancellation.server";
import {
  findServiceOrRefuse,
  SERVICE_COLUMNS,
  serviceNotFound,
  serviceRef,
  toService,
} from "./service-rows.server";

// A customer's renewal from coins (the lifecycle's automatic one too) and the quote they confirm first.

/**
 * A condition that a column of the service is still as it was read: equal to the value, or null as it
 * was (SQL's = is never true of a null).
 */
function sameAs(column: "suspension_reason" | "suspended_at", value: string | null) {
  return (eb: ExpressionBuilder<Database, "hosting_services">) =>
    value === null ? eb(column, "is", null) : eb(column, "=", value);
}

export type RenewResult =
  | { ok: true; service: HostingService; duplicate: boolean }
  | { ok: false; kind: "notFound"; error: "services.errors.notFound" }
  /** The form's key was made for another customer: a stale form. */
  | { ok: false; kind: "invalid"; error: "orders.errors.expired" }
  /** Only an active service renews; the balance, as it is now, must cover the cycle (its price is `totalCents`). */
  | { ok: false; kind: "conflict"; error: "services.errors.cannotRenew" }
  /** The renewal's price is not the one the confirmation showed (`shownPriceCents`). */
  | { ok: false; kind: "conflict"; error: "services.errors.renewalPriceChanged" }
  | InsufficientCoins;

/**
 * A customer pays one cycle from coins; the expiry moves on by the cycle's calendar months from the later
 * of now and the current expiry (`renewalExpiry`). The idempotency key makes a retried or doubled request
 * count once.
 */
export async function renewService(
  db: Db,
  input: {
    userId: string;
    serviceId: number;
    idempotencyKey: string;
    /** The time of the renewal (the lifecycle's clock); now by default. */
    now?: Date;
    /**
     * The lifecycle renews from coins as the customer asked: the same charge and ledger entry,
     * with the system as its actor, an audit entry and a notification in the same transaction.
     */
    automatic?: boolean;
    /** The settings the caller has (the request's cache); read in the transaction when not given. */
    settings?: InvoicingContext;
    /**
     * What the confirmation showed the customer (`renewalQuote`'s `priceCents`): a renewal whose price
     * changed since (the service's price, the VAT settings, their billing country) is refused, not
     * charged at the new price.
     */
    shownPriceCents?: number;
  },
): Promise<RenewResult> {
  const existing = async () => {
    const renewal = await db
      .selectFrom("service_renewals")
      .select(["hosting_service_id", "user_id"])
      .where("idempotency_key", "=", input.idempotencyKey)
      .executeTakeFirst();
    if (!renewal) return undefined;
    // Another customer's key (unique in the table) is a stale form, not a way to their renewal.
    if (renewal.user_id !== input.userId)
      return { ok: false, kind: "invalid", error: "orders.errors.expired" } as const;
    const row = await db
      .selectFrom("hosting_services")
      .select(SERVICE_COLUMNS)
      .where("id", "=", renewal.hosting_service_id)
      .executeTakeFirst();
    // The service was deleted since: the retry finds nothing to renew (and must not insert the key again).
    if (!row) return serviceNotFound;
    return { ok: true, service: toService(row), duplicate: true } as const;
  };
  return storeOncePerKey(existing, () =>
    inTransaction(db, async (trx): Promise<RenewResult> => {
      const service = await findServiceOrRefuse(trx, input.serviceId, input.userId);
      const status = service.status as ServiceStatus;
      const suspension = suspensionReasonOf(service.suspension_reason);
      // The lifecycle renews only a running service whose switch is still on (read here: a refund or the
      // customer may have turned it off since the run planned it); a customer may also renew one
      // suspended for expiry.
      if (
        !canRenew(status, suspension) ||
        (input.automatic && (status !== "active" || Number(service.auto_renew) !== 1))
      ) {
        refuse<RenewResult>("conflict", "services.errors.cannotRenew");
      }
      const cycle = (
        service.billing_cycle in BILLING_CYCLES ? service.billing_cycle : "monthly"
      ) as BillingCycle;
      const now = input.now ?? new Date();
      const newExpiry = renewalExpiry(service.expires_at, cycle, now);
      // What is charged: the one renewal price, the cycle's with the VAT added when prices do not
      // include it (ADR 36), as the confirmation and the lifecycle's plan priced it.
      const terms = await invoiceTermsFor(
        trx,
        input.userId,
        input.settings ?? (await getSettings(trx)),
      );
      const amounts = renewalAmounts(service.cycle_price_cents, {
        rateBp: terms.vatRateBp,
        pricesIncludeVat: terms.pricesIncludeVat,
      });
      const amount = amounts.totalCents;
      if (input.shownPriceCents !== undefined && input.shownPriceCents !== amount)
        refuse<RenewResult>("conflict", "services.errors.renewalPriceChanged");
      const actorId = input.automatic ? null : input.userId;
      let ledgerEntryId: number | null = null;
      if (amount > 0) {
        const paid = await payFromCoins(trx, amount, {
          userId: input.userId,
          kind: "renewal",
          reason: ledgerReason("renewal", { service: service.name }),
          actorId,
          hostingServiceId: service.id,
        });
        ledgerEntryId = paid.entryId;
      }
      const reactivated = status === "suspended";
      // What a refund of this renewal restores (takeBackRenewalTerm): the suspension it lifted.
      const suspendedAt = reactivated ? service.suspended_at : null;
      const renewal = await trx
        .insertInto("service_renewals")
        .values({
          hosting_service_id: service.id,
          user_id: input.userId,
          idempotency_key: input.idempotencyKey,
          amount_cents: amount,
          previous_expires_at: service.expires_at,
          new_expires_at: newExpiry,
          reactivated_suspended_at: suspendedAt,
          created_at: now.toISOString(),
        })
        .returning("id")
        .executeTakeFirstOrThrow();
      const row = await trx
        .updateTable("hosting_services")
        .set({
          expires_at: newExpiry,
          updated_at: now.toISOString(),
          ...(reactivated ? { status: "active", suspension_reason: null, suspended_at: null } : {}),
        })
        .where("id", "=", service.id)
        .where("status", "=", status)
        // The suspension it lifts, as read: on PostgreSQL an admin may have reactivated the service and
        // suspended it again, for their own reason, since; the lifecycle never lifts theirs, nor may this.
        .where(sameAs("suspension_reason", service.suspension_reason))
        .where(sameAs("suspended_at", service.suspended_at))
        // The expiry it renews from: on PostgreSQL (read committed) another renewal, a refund taking a
        // term back or an admin's edit may have moved it since it was read; renewing from the old one
        // would charge a term and add none (refused instead: the payment rolls back).
        .where("expires_at", "=", service.expires_at)
        .returning(SERVICE_COLUMNS)
        .executeTakeFirst();
      if (!row) refuse<RenewResult>("conflict", "services.errors.cannotRenew");
      // The customer renews a service they had set to end at its term: they are keeping it.
      if (!input.automatic) await keepOnRenewal(trx, service, now);
      await record(
        trx,
        {
          type: "service.renewed",
          actorId,
          automatic: input.automatic === true,
          service: serviceRef(service),
          renewalId: Number(renewal.id),
          ledgerEntryId,
          amountCents: amount,
          previousExpiresAt: service.expires_at,
          expiresAt: newExpiry,
          reactivated: reactivated ? { status, suspensionReason: suspension } : null,
          panel: await panelLinkOf(trx, service.id),
        },
        now,
      );
      // Its invoice; on PostgreSQL numbered as the transaction commits (ADR 37).
      await issueRenewalInvoice(trx, terms, {
        userId: input.userId,
        service: { id: Number(service.id), name: service.name, billingCycle: cycle },
        renewalId: Number(renewal.id),
        priceCents: service.cycle_price_cents,
        from: renewalTermStart(service.expires_at, now),
        until: newExpiry,
        amounts,
        ledgerEntryId,
        actorId,
        now,
      });
      return { ok: true, service: toService(row), duplicate: false };
    }),
  );
}

export type QuoteRenewalResult =
  | { ok: true; quote: RenewalQuote }
  | { ok: false; kind: "notFound"; error: "services.errors.notFound" }
  | { ok: false; kind: "conflict"; error: "services.errors.cannotRenew" };

/**
 * What renewing one of the customer's services would do, charging nothing: the price, the new expiry and
 * the balance after (or what it lacks). The customer confirms this before renewService charges.
 */
export async function quoteRenewal(
  db: Db,
  input: {
    userId: string;
    serviceId: number;
    /** The VAT settings the caller has (the request's cache); read when not given. */
    invoicing?: InvoicingContext["invoicing"];
  },
  now = new Date(),
): Promise<QuoteRenewalResult> {
  const [row, user, invoicing] = await Promise.all([
    db
      .selectFrom("hosting_services")
      .select([...SERVICE_COLUMNS, "ends_at_expiry"])
      .where("id", "=", input.serviceId)
      .where("user_id", "=", input.userId)
      .executeTakeFirst(),
    db
      .selectFrom("users")
      .select(["coin_balance_cents", "billing_country"])
      .where("id", "=", input.userId)
      .executeTakeFirst(),
    input.invoicing ?? getSettings(db).then((settings) => settings.invoicing),
  ]);
  if (!row || !user) return serviceNotFound;
  const service = toService(row);
  if (!canRenew(service.status, service.suspensionReason))
    return { ok: false, kind: "conflict", error: "services.errors.cannotRenew" };
  return {
    ok: true,
    quote: renewalQuote(
      service,
      user.coin_balance_cents,
      now,
      customerVat(invoicing, user.billing_country),
      Number(row.ends_at_expiry) === 1,
    ),
  };
}
