import { inTransaction, refuse, storeOncePerKey, type Db, type Tx } from "~/db/transaction";
import { payFromCoins, writeLedgerEntry } from "~/domain/coins/coins.server";
import { ledgerReason } from "~/domain/coins/ledger-reason";
import { record } from "~/domain/events/events.server";
import { customerVat, type DocumentKind, type VatTerms } from "~/domain/invoices/invoices";
import {
  invoiceTermsFor,
  type InvoicingContext,
  type IssuedDocument,
} from "~/domain/invoices/issuing.server";
import type { PanelPlan } from "~/domain/provisioning/panel-plan";
import {
  serverBuildFor,
  type OrderOptions,
  type PterodactylProvisioning,
} from "~/domain/provisioning/provisioning";
import { getSettings } from "~/domain/settings/settings.server";
import type { HostingService } from "./hosting-services";
import {
  canChangePlan,
  planChangeQuote,
  type PlanChangeDirection,
  type PlanChangePageData,
  type PlanChangeQuote,
} from "./plan-change";
import { issuePlanChangeCreditNote, issuePlanChangeInvoice } from "./plan-change-documents.server";
import {
  allowedTargets,
  orRefusal,
  planOf,
  readChange,
  type ChangeContext,
  type PlanChangeRefusal,
} from "./plan-change-read.server";
import { SERVICE_COLUMNS, serviceNotFound, serviceRef, toService } from "./service-rows.server";

// A customer's change of plan (docs/self-service.md, ADR 58): the page's choices and confirmation, and
// the change itself, in one transaction: the price (plan-change.ts), the coins through the ledger, the
// invoice or credit note, the service on its new plan, and its event (audit, notice, mail, and the
// server's resize on the game panel as a job).

/** What a change made: its row, the document, and the service as it now stands. */
export interface PlanChangeMade {
  planChangeId: number;
  direction: PlanChangeDirection;
  amountCents: number;
  document: { id: number | null; number: string | null; kind: DocumentKind | null };
  service: HostingService;
}

export type ChangePlanResult =
  { ok: true; change: PlanChangeMade; duplicate: boolean } | PlanChangeRefusal;

/** The VAT on a customer's prices, as their next invoice will carry it. */
function vatOf(terms: { vatRateBp: number; pricesIncludeVat: boolean }): VatTerms {
  return { rateBp: terms.vatRateBp, pricesIncludeVat: terms.pricesIncludeVat };
}

/**
 * The customer moves a service to another plan of its type, along a path the admin allows, paying (an
 * upgrade) or getting back (a downgrade) the difference for the rest of the term; the expiry stays.
 * `shown` is what the confirmation said: a change whose amount or way moved since is refused. The
 * idempotency key makes a doubled post change once (unique per customer).
 */
export async function changePlan(
  db: Db,
  input: {
    userId: string;
    serviceId: number;
    toProductId: number;
    idempotencyKey: string;
    shown?: { amountCents: number; direction: PlanChangeDirection };
    /** The settings the caller has (the request's cache); read in the transaction when not given. */
    settings?: InvoicingContext;
    now?: Date;
  },
): Promise<ChangePlanResult> {
  const earlier = async (): Promise<ChangePlanResult | undefined> => {
    const row = await db
      .selectFrom("plan_changes")
      .leftJoin("invoices", "invoices.id", "plan_changes.document_id")
      .select([
        "plan_changes.id",
        "plan_changes.hosting_service_id",
        "plan_changes.direction",
        "plan_changes.amount_cents",
        "plan_changes.document_id",
        "invoices.number",
        "invoices.kind",
      ])
      .where("plan_changes.user_id", "=", input.userId)
      .where("plan_changes.idempotency_key", "=", input.idempotencyKey)
      .executeTakeFirst();
    if (!row) return undefined;
    const service = await db
      .selectFrom("hosting_services")
      .select(SERVICE_COLUMNS)
      .where("id", "=", row.hosting_service_id)
      .executeTakeFirst();
    // The service was deleted since: the retry finds nothing to change (and must not change again).
    if (!service) return serviceNotFound;
    return {
      ok: true,
      duplicate: true,
      change: {
        planChangeId: Number(row.id),
        direction: row.direction as PlanChangeDirection,
        amountCents: row.amount_cents,
        document: {
          id: row.document_id === null ? null : Number(row.document_id),
          number: row.number,
          kind: row.kind as DocumentKind | null,
        },
        service: toService(service),
      },
    };
  };
  return storeOncePerKey(earlier, () =>
    inTransaction(db, async (trx): Promise<ChangePlanResult> => {
      const now = input.now ?? new Date();
      const terms = await invoiceTermsFor(
        trx,
        input.userId,
        input.settings ?? (await getSettings(trx)),
      );
      const context = await readChange(trx, {
        userId: input.userId,
        serviceId: input.serviceId,
        toProductId: input.toProductId,
        vat: vatOf(terms),
        now,
        shown: input.shown,
      });
      const { quote } = context;
      const reason = ledgerReason("planChange", {
        service: context.service.serverName || context.service.name,
        from: quote.from.name,
        to: quote.to.name,
      });
      const entry = {
        userId: input.userId,
        kind: "plan_change" as const,
        reason,
        actorId: input.userId,
        hostingServiceId: context.service.id,
        now,
      };
      let ledgerEntryId: number | null = null;
      if (quote.amountCents > 0 && quote.direction === "upgrade") {
        ledgerEntryId = (await payFromCoins(trx, quote.amountCents, entry)).entryId;
      } else if (quote.amountCents > 0) {
        const credited = await writeLedgerEntry(trx, { ...entry, amountCents: quote.amountCents });
        if (!credited) refuse<PlanChangeRefusal>("conflict", "coins.errors.balanceTooHigh");
        ledgerEntryId = credited.entryId;
      }
      const resizes = context.panel !== null && context.row.panel_server_id !== null;
      const planChangeId = await insertChange(trx, input, context, {
        ledgerEntryId,
        resizes,
        now,
      });
      const document = await issueDocumentOf(trx, terms, {
        userId: input.userId,
        change: context,
        planChangeId,
        ledgerEntryId,
        now,
      });
      await trx
        .updateTable("plan_changes")
        .set({ document_id: document.id })
        .where("id", "=", planChangeId)
        .execute();
      const service = await moveService(trx, context, now);
      await record(
        trx,
        {
          type: "service.planChanged",
          actorId: input.userId,
          service: serviceRef({
            id: service.id,
            user_id: service.userId,
            name: service.name,
            server_name: service.serverName,
          }),
          planChangeId,
          from: { productId: quote.from.productId, name: quote.from.name },
          to: { productId: quote.to.productId, name: quote.to.name },
          direction: quote.direction,
          amountCents: quote.amountCents,
          previousCyclePriceCents: quote.previousCyclePriceCents,
          newCyclePriceCents: quote.newCyclePriceCents,
          expiresAt: quote.expiresAt,
          ledgerEntryId,
          document: {
            kind: document.kind,
            number: document.number,
            totalCents: document.totalCents,
          },
          resize: resizes ? { serviceId: service.id, planChangeId } : null,
        },
        now,
      );
      return {
        ok: true,
        duplicate: false,
        change: {
          planChangeId,
          direction: quote.direction,
          amountCents: quote.amountCents,
          document: { id: document.id, number: document.number, kind: document.kind },
          service,
        },
      };
    }),
  );
}

/** Step: the change's row, before its document (which names it), its key taken. */
async function insertChange(
  trx: Tx,
  input: { userId: string; idempotencyKey: string },
  { service, quote }: ChangeContext,
  made: { ledgerEntryId: number | null; resizes: boolean; now: Date },
): Promise<number> {
  const at = made.now.toISOString();
  const row = await trx
    .insertInto("plan_changes")
    .values({
      hosting_service_id: service.id,
      user_id: input.userId,
      from_product_id: quote.from.productId,
      to_product_id: quote.to.productId,
      from_name: quote.from.name,
      to_name: quote.to.name,
      billing_cycle: service.billingCycle,
      previous_cycle_price_cents: quote.previousCyclePriceCents,
      new_cycle_price_cents: quote.newCyclePriceCents,
      previous_monthly_price_cents: quote.previousMonthlyPriceCents,
      new_monthly_price_cents: quote.newMonthlyPriceCents,
      amount_cents: quote.amountCents,
      direction: quote.direction,
      ledger_entry_id: made.ledgerEntryId,
      expires_at: quote.expiresAt,
      idempotency_key: input.idempotencyKey,
      resize_state: made.resizes ? "queued" : "none",
      created_at: at,
      updated_at: at,
    })
    .returning("id")
    .executeTakeFirstOrThrow();
  return Number(row.id);
}

/** Step: the upgrade's invoice, or the downgrade's credit note. */
function issueDocumentOf(
  trx: Tx,
  terms: Awaited<ReturnType<typeof invoiceTermsFor>>,
  input: {
    userId: string;
    change: ChangeContext;
    planChangeId: number;
    ledgerEntryId: number | null;
    now: Date;
  },
): Promise<IssuedDocument> {
  const { change, ...rest } = input;
  return change.quote.direction === "upgrade"
    ? issuePlanChangeInvoice(trx, terms, {
        ...rest,
        serviceId: change.service.id,
        quote: change.quote,
      })
    : issuePlanChangeCreditNote(trx, terms, {
        ...rest,
        service: change.service,
        quote: change.quote,
      });
}

/**
 * What an order asked that reaches the panel (its slots and backups), read from the order that made
 * the service; a service an admin added has none, and keeps the defaults (a backup, no slots).
 */
async function orderOptionsOf(trx: Tx, serviceId: number): Promise<OrderOptions> {
  const order = await trx
    .selectFrom("orders")
    .select(["player_slots", "backup", "ddos_protection", "location"])
    .where("hosting_service_id", "=", serviceId)
    .orderBy("id")
    .executeTakeFirst();
  return {
    playerSlots: order?.player_slots ?? null,
    backup: order?.backup ?? "choliba",
    ddosProtection: Number(order?.ddos_protection ?? 0) === 1,
    location: order?.location ?? "",
  };
}

/**
 * The server's plan on the new product: its limits and feature limits from the product's block with the
 * order's options, never fewer allocations than the server was made with (MTA keeps its three ports);
 * its egg, image, environment and ports stay (a resize changes the build, not the game).
 */
export function resizedPlan(
  plan: PanelPlan,
  provisioning: PterodactylProvisioning,
  order: OrderOptions,
): PanelPlan {
  const build = serverBuildFor(provisioning, order);
  return {
    ...plan,
    limits: build.limits,
    featureLimits: {
      ...build.featureLimits,
      allocations: Math.max(build.featureLimits.allocations, plan.featureLimits.allocations),
    },
  };
}

/**
 * Step: the service on its new plan (product, name, prices, and the server's plan on the game panel);
 * its expiry stays. Conditional on the service as it was read: on PostgreSQL another change, a renewal
 * or an admin's edit may have moved it since, and the change is then refused (its coins roll back).
 */
async function moveService(trx: Tx, context: ChangeContext, now: Date): Promise<HostingService> {
  const { row, quote, panel } = context;
  const plan = panel
    ? resizedPlan(panel.plan, panel.provisioning, await orderOptionsOf(trx, context.service.id))
    : null;
  const updated = await trx
    .updateTable("hosting_services")
    .set({
      product_id: quote.to.productId,
      name: quote.to.name,
      cycle_price_cents: quote.newCyclePriceCents,
      monthly_price_cents: quote.newMonthlyPriceCents,
      updated_at: now.toISOString(),
      ...(plan ? { panel_plan: JSON.stringify(plan) } : {}),
    })
    .where("id", "=", context.service.id)
    .where("status", "=", "active")
    .where("product_id", "=", quote.from.productId)
    .where("cycle_price_cents", "=", row.cycle_price_cents)
    .where("expires_at", "=", row.expires_at)
    .returning(SERVICE_COLUMNS)
    .executeTakeFirst();
  if (!updated) refuse<PlanChangeRefusal>("conflict", "services.planChange.errors.cannotChange");
  return toService(updated);
}

// ---------------------------------------------------------------------------------------------------
// The page: the plans a service may change to, and the confirmation of one.

/**
 * What the change-of-plan page shows for one of the customer's services: its plan, the plans the
 * admin allows it to move to (each with what it costs or gives back now), and with `toProductId` the
 * confirmation of that one. Nothing moves.
 */
export async function loadPlanChangePage(
  db: Db,
  input: {
    userId: string;
    serviceId: number;
    toProductId?: number;
    /** The VAT settings the caller has (the request's cache); read when not given. */
    invoicing?: InvoicingContext["invoicing"];
    now: Date;
  },
): Promise<PlanChangePageData> {
  const [row, user, invoicing] = await Promise.all([
    db
      .selectFrom("hosting_services")
      .select(SERVICE_COLUMNS)
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
  const vat = customerVat(invoicing, user.billing_country);
  const fromRow =
    row.product_id === null
      ? undefined
      : await db
          .selectFrom("products")
          .select([
            "id",
            "name",
            "type",
            "status",
            "price_cents",
            "ram_gb",
            "storage_gb",
            "cpu_cores",
            "slots",
            "provisioning",
          ])
          .where("id", "=", row.product_id)
          .executeTakeFirst();
  const current = fromRow ? planOf(fromRow) : null;
  const canChange = canChangePlan(service.status, service.expiresAt, input.now);
  const targets = fromRow && canChange ? await allowedTargets(db, fromRow.id, fromRow.type) : [];
  const choices = current
    ? targets.map((target) => {
        const quote = planChangeQuote({
          service,
          from: current,
          to: planOf(target),
          balanceCents: user.coin_balance_cents,
          vat,
          now: input.now,
        });
        return {
          ...quote.to,
          direction: quote.direction,
          amountCents: quote.amountCents,
          newCyclePriceCents: quote.newCyclePriceCents,
        };
      })
    : [];
  const confirmation =
    input.toProductId === undefined
      ? undefined
      : await orRefusal<{ ok: true; quote: PlanChangeQuote }, PlanChangeRefusal>(async () => ({
          ok: true as const,
          quote: (
            await readChange(db, {
              userId: input.userId,
              serviceId: input.serviceId,
              toProductId: input.toProductId!,
              vat,
              now: input.now,
            })
          ).quote,
        }));
  return {
    ok: true,
    service,
    current,
    canChange,
    choices,
    balanceCents: user.coin_balance_cents,
    ...(confirmation ? { confirmation } : {}),
  };
}
