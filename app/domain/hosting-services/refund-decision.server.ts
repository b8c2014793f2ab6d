import { inTransaction, refuse, type Db, type Tx } from "~/db/transaction";
import { record } from "~/domain/events/events.server";
import { refundInvoiceRemainder } from "~/domain/invoices/credit-notes.server";
import { DOCUMENT_COLUMNS, type DocumentRow } from "~/domain/invoices/documents.server";
import type { IssuedDocument } from "~/domain/invoices/issuing.server";
import { panelLinkOf } from "~/domain/provisioning/panel-link.server";
import { getSettings } from "~/domain/settings/settings.server";
import {
  requireStaffPermission,
  requireStaffPermissionOrSystem,
  type StaffForbidden,
} from "~/domain/staff/staff-actor.server";
import {
  remainingCents,
  REFUND_WINDOW_DAYS,
  type CancellationSummary,
  type PaidPart,
} from "./cancellation";
import { serviceRef } from "./service-rows.server";

// A refund's decision (docs/self-service.md, ADR 59): what a service's refund gives back (every paid
// invoice of it, less what credit notes of it gave back already), and its approval or refusal by an
// admin or, under the ceiling, by the system. The customer's side is cancellation.server.ts.

/** The order a service was made from (its refund window counts from it), or none (added by hand). */
export async function serviceOrderOf(
  db: Db | Tx,
  serviceId: number,
): Promise<{ id: number; createdAt: string } | null> {
  const row = await db
    .selectFrom("orders")
    .select(["id", "created_at"])
    .where("hosting_service_id", "=", serviceId)
    .where("status", "=", "approved")
    .orderBy("id")
    .limit(1)
    .executeTakeFirst();
  return row ? { id: Number(row.id), createdAt: new Date(row.created_at).toISOString() } : null;
}

/** A paid invoice of a service, what credit notes of it gave back, and what is left to give back. */
export interface RefundablePart extends PaidPart {
  row: DocumentRow;
  remainingCents: number;
}

/**
 * Every paid invoice of a service (its order's, its renewals', its plan changes'), oldest first, each
 * with what is left of it: its total less the credit notes pointing at it (a downgrade credits part of
 * the invoice paying the term and leaves it paid). An invoice credited whole is not paid any more.
 */
export async function refundableParts(
  db: Db | Tx,
  serviceId: number,
  orderId: number | null,
): Promise<RefundablePart[]> {
  const rows = await db
    .selectFrom("invoices")
    .select(DOCUMENT_COLUMNS)
    .select((eb) =>
      eb
        .selectFrom("invoices as credit")
        .select((inner) =>
          inner.fn.coalesce(inner.fn.sum<number>("credit.total_cents"), inner.lit(0)).as("n"),
        )
        .whereRef("credit.credits_invoice_id", "=", "invoices.id")
        .where("credit.kind", "=", "credit_note")
        .as("credited"),
    )
    .where("invoices.kind", "=", "invoice")
    .where("invoices.state", "=", "paid")
    .where((eb) =>
      orderId === null
        ? eb("invoices.hosting_service_id", "=", serviceId)
        : eb.or([
            eb("invoices.hosting_service_id", "=", serviceId),
            eb("invoices.order_id", "=", orderId),
          ]),
    )
    .orderBy("invoices.id")
    .execute();
  return rows.map(({ credited, ...row }) => {
    // Credit notes are negative: what they gave back is the sum's opposite.
    const part = { totalCents: row.total_cents, creditedCents: -Number(credited ?? 0) };
    return { row, ...part, remainingCents: remainingCents(part) };
  });
}

export type DecisionResult =
  | { ok: true; amountCents: number; creditNotes: string[] }
  | { ok: false; kind: "notFound"; error: "services.refunds.errors.notFound" }
  /** Approved, refused or withdrawn already: a second click, or another admin first. */
  | { ok: false; kind: "conflict"; error: "services.refunds.errors.alreadyDecided" }
  /** The coins would take the balance past its ceiling. */
  | { ok: false; kind: "conflict"; error: "coins.errors.balanceTooHigh" }
  /** An invoice of it was refunded by hand meanwhile, between the read and the claim. */
  | { ok: false; kind: "conflict"; error: "invoices.errors.notRefundable" }
  | StaffForbidden;

/**
 * Step: the request moved from requested to `state` by `actorId` (null: the system), only while it is
 * requested: the first of two admins deciding at once wins, the second waits on the row (PostgreSQL)
 * and finds it decided. Its service and amount, or the refusal.
 */
async function claimDecision(
  trx: Tx,
  input: {
    id: number;
    state: "approved" | "refused";
    actorId: string | null;
    reason?: string;
    now: Date;
  },
) {
  const at = input.now.toISOString();
  const claimed = await trx
    .updateTable("service_cancellations")
    .set({
      state: input.state,
      decided_by: input.actorId,
      decided_at: at,
      decision_reason: input.reason ?? null,
      updated_at: at,
    })
    .where("id", "=", input.id)
    .where("kind", "=", "refund")
    .where("state", "=", "requested")
    .returning(["hosting_service_id", "refund_cents"])
    .executeTakeFirst();
  if (claimed) return claimed;
  const exists = await trx
    .selectFrom("service_cancellations")
    .select("id")
    .where("id", "=", input.id)
    .where("kind", "=", "refund")
    .executeTakeFirst();
  return refuse<DecisionResult>(
    exists ? "conflict" : "notFound",
    exists ? "services.refunds.errors.alreadyDecided" : "services.refunds.errors.notFound",
  );
}

/**
 * A refund approved, by an admin whose role refunds invoices (`invoices.refund`, checked in the
 * transaction) or by the system (`actorId` null, under the ceiling), in one transaction: the request
 * claimed, every paid invoice of the service given back as coins with a credit note of what is left of
 * it, the service terminated (its server deleted on the game panel by the sync job a termination
 * queues) and `cancellation.refundApproved` recorded. Exactly once whatever replays or races: the claim
 * is conditional on the request's state, and each invoice's on its own.
 */
export async function approveRefund(
  db: Db,
  input: { id: number; actorId: string | null; now?: Date },
): Promise<DecisionResult> {
  const now = input.now ?? new Date();
  return inTransaction(db, async (trx): Promise<DecisionResult> => {
    await requireStaffPermissionOrSystem(trx, input.actorId, "invoices.refund");
    const claimed = await claimDecision(trx, { ...input, state: "approved", now });
    const serviceId = Number(claimed.hosting_service_id);
    const service = await trx
      .selectFrom("hosting_services")
      .select(["id", "user_id", "name", "server_name", "status"])
      .where("id", "=", serviceId)
      .executeTakeFirstOrThrow();
    const order = await serviceOrderOf(trx, serviceId);
    const parts = await refundableParts(trx, serviceId, order?.id ?? null);
    const { general } = await getSettings(trx);
    const reason = `Cancelled within ${REFUND_WINDOW_DAYS} days of the order (request #${input.id})`;
    const notes: IssuedDocument[] = [];
    let amountCents = 0;
    for (const part of parts) {
      if (part.remainingCents <= 0) continue;
      notes.push(
        await refundInvoiceRemainder(trx, part.row, {
          cents: part.remainingCents,
          reason,
          actorId: input.actorId,
          timeZone: general.timeZone,
          now,
        }),
      );
      amountCents += part.remainingCents;
    }
    await trx
      .updateTable("service_cancellations")
      .set({
        refund_cents: amountCents,
        credit_notes: JSON.stringify(notes.map((note) => note.number)),
      })
      .where("id", "=", input.id)
      .execute();
    await trx
      .updateTable("hosting_services")
      .set({
        status: "terminated",
        auto_renew: 0,
        ends_at_expiry: 0,
        updated_at: now.toISOString(),
      })
      .where("id", "=", serviceId)
      .where("status", "!=", "terminated")
      .execute();
    await record(
      trx,
      {
        type: "cancellation.refundApproved",
        actorId: input.actorId,
        service: serviceRef(service),
        cancellationId: input.id,
        amountCents,
        creditNotes: notes.map(({ kind, number, totalCents }) => ({ kind, number, totalCents })),
        statusBefore: service.status,
        panel: await panelLinkOf(trx, serviceId),
      },
      now,
    );
    return { ok: true, amountCents, creditNotes: notes.map((note) => note.number) };
  });
}

/**
 * An admin refuses a refund with a reason the customer is told (`invoices.refund`, checked in the
 * transaction): nothing moves, the service runs on. Once, as an approval is.
 */
export async function refuseRefund(
  db: Db,
  input: { id: number; actorId: string; reason: string; now?: Date },
): Promise<DecisionResult> {
  const now = input.now ?? new Date();
  return inTransaction(db, async (trx): Promise<DecisionResult> => {
    await requireStaffPermission(trx, input.actorId, "invoices.refund");
    const claimed = await claimDecision(trx, { ...input, state: "refused", now });
    const service = await trx
      .selectFrom("hosting_services")
      .select(["id", "user_id", "name", "server_name"])
      .where("id", "=", Number(claimed.hosting_service_id))
      .executeTakeFirstOrThrow();
    await record(
      trx,
      {
        type: "cancellation.refundRefused",
        actorId: input.actorId,
        service: serviceRef(service),
        cancellationId: input.id,
        amountCents: claimed.refund_cents,
        reason: input.reason,
      },
      now,
    );
    return { ok: true, amountCents: 0, creditNotes: [] };
  });
}

/** A request's row as its summary (the customer's page, the admins' queue). */
export function toSummary(row: {
  id: number;
  kind: string;
  state: string;
  reason: string;
  reason_text: string | null;
  refund_cents: number;
  ends_at: string | null;
  decided_at: string | null;
  decided_by: string | null;
  decision_reason: string | null;
  credit_notes: string;
  created_at: string;
}): CancellationSummary {
  const iso = (value: string | null) => (value ? new Date(value).toISOString() : null);
  let creditNotes: string[] = [];
  try {
    const parsed: unknown = JSON.parse(row.credit_notes);
    if (Array.isArray(parsed)) creditNotes = parsed.map(String);
  } catch {
    // A row written by hand: no credit notes to name.
  }
  return {
    id: Number(row.id),
    kind: row.kind as CancellationSummary["kind"],
    state: row.state as CancellationSummary["state"],
    reason: row.reason as CancellationSummary["reason"],
    reasonText: row.reason_text,
    refundCents: row.refund_cents,
    endsAt: iso(row.ends_at),
    decidedAt: iso(row.decided_at),
    decidedBySystem: row.decided_at !== null && row.decided_by === null,
    decisionReason: row.decision_reason,
    creditNotes,
    createdAt: new Date(row.created_at).toISOString(),
  };
}

/** The columns toSummary reads. */
export const SUMMARY_COLUMNS = [
  "service_cancellations.id",
  "service_cancellations.kind",
  "service_cancellations.state",
  "service_cancellations.reason",
  "service_cancellations.reason_text",
  "service_cancellations.refund_cents",
  "service_cancellations.ends_at",
  "service_cancellations.decided_at",
  "service_cancellations.decided_by",
  "service_cancellations.decision_reason",
  "service_cancellations.credit_notes",
  "service_cancellations.created_at",
] as const;
