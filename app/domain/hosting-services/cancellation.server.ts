import { inTransaction, orWhenTaken, refuse, Refusal, type Db, type Tx } from "~/db/transaction";
import { record } from "~/domain/events/events.server";
import { panelLinkOf } from "~/domain/provisioning/panel-link.server";
import { getSettings } from "~/domain/settings/settings.server";
import {
  cancellationBadge,
  decidedBySystem,
  OPEN_STATES,
  refundableCents,
  refundWindowEnd,
  withinRefundWindow,
  type CancelPageView,
  type CancellationBadge,
  type CancellationReason,
  type CancellationSummary,
} from "./cancellation";
import {
  approveRefund,
  refundableParts,
  serviceOrderOf,
  SUMMARY_COLUMNS,
  toSummary,
} from "./refund-decision.server";
import { serviceNotFound, serviceRef } from "./service-rows.server";

// A customer cancels a service of theirs (docs/self-service.md, ADR 59): at the end of its term, or,
// within 14 days of its order, with a refund of everything paid for it; and withdraws the request until
// it is decided. The refund's decision is refund-decision.server.ts's; the end at the term the
// lifecycle's (`endAtTerm`, called by its run).

export type CancelResult =
  | { ok: true; cancellation: CancellationSummary }
  | typeof serviceNotFound
  /** Only an active service is cancelled. */
  | { ok: false; kind: "conflict"; error: "services.cancel.errors.notActive" }
  /** A request of the service is open already: it is withdrawn first. */
  | { ok: false; kind: "conflict"; error: "services.cancel.errors.alreadyOpen" }
  /** A service added by hand has no order, so no refund window. */
  | { ok: false; kind: "conflict"; error: "services.cancel.errors.noOrder" }
  | { ok: false; kind: "conflict"; error: "services.cancel.errors.windowPassed" }
  /** Nothing open to withdraw (decided, or withdrawn already). */
  | { ok: false; kind: "conflict"; error: "services.cancel.errors.nothingOpen" }
  /** The expiry came: the service ends at the lifecycle's next run. */
  | { ok: false; kind: "conflict"; error: "services.cancel.errors.tooLate" };

const alreadyOpen = {
  ok: false,
  kind: "conflict",
  error: "services.cancel.errors.alreadyOpen",
} as const;

/** Step: the customer's service, or the refusal of one not found. */
async function ownService(trx: Tx, serviceId: number, userId: string) {
  const service = await trx
    .selectFrom("hosting_services")
    .select(["id", "user_id", "name", "server_name", "status", "expires_at", "auto_renew"])
    .where("id", "=", serviceId)
    .where("user_id", "=", userId)
    .executeTakeFirst();
  if (!service) refuse<CancelResult>(serviceNotFound.kind, serviceNotFound.error);
  return service;
}

/** A service's open request, if any. */
async function openRequestOf(db: Db | Tx, serviceId: number) {
  return db
    .selectFrom("service_cancellations")
    .select(SUMMARY_COLUMNS)
    .where("hosting_service_id", "=", serviceId)
    .where("state", "in", OPEN_STATES)
    .executeTakeFirst();
}

/** Step: an active service with no open request, or the refusal. */
async function cancellable(trx: Tx, serviceId: number, userId: string) {
  const service = await ownService(trx, serviceId, userId);
  if (service.status !== "active")
    refuse<CancelResult>("conflict", "services.cancel.errors.notActive");
  if (await openRequestOf(trx, serviceId)) throw new Refusal(alreadyOpen);
  return service;
}

/**
 * Runs a new request's transaction: a second request is one answer, whether the read found the first
 * or the partial unique index refused its insert (two at once).
 */
function once(db: Db, work: (trx: Tx) => Promise<CancelResult>): Promise<CancelResult> {
  return orWhenTaken<CancelResult>(alreadyOpen, () => inTransaction(db, work));
}

/**
 * The customer cancels a service at the end of its term: its automatic renewal switched off (as it was
 * is kept, for "Keep my server"), the reason kept, and the lifecycle told to end it at its expiry
 * (`ends_at_expiry`) without the reminder, renewal and suspension it would send. One open request a
 * service: a second is refused.
 */
export async function scheduleEndOfTerm(
  db: Db,
  input: {
    userId: string;
    serviceId: number;
    reason: CancellationReason;
    reasonText: string | null;
    now?: Date;
  },
): Promise<CancelResult> {
  const now = input.now ?? new Date();
  const at = now.toISOString();
  return once(db, async (trx) => {
    const service = await cancellable(trx, input.serviceId, input.userId);
    const autoRenewWas = Number(service.auto_renew) === 1;
    const row = await trx
      .insertInto("service_cancellations")
      .values({
        hosting_service_id: input.serviceId,
        user_id: input.userId,
        kind: "end_of_term",
        reason: input.reason,
        reason_text: input.reasonText,
        state: "scheduled",
        auto_renew_before: autoRenewWas ? 1 : 0,
        ends_at: service.expires_at,
        created_at: at,
        updated_at: at,
      })
      .returning(SUMMARY_COLUMNS)
      .executeTakeFirstOrThrow();
    await trx
      .updateTable("hosting_services")
      .set({ auto_renew: 0, ends_at_expiry: 1, updated_at: at })
      .where("id", "=", input.serviceId)
      .execute();
    await record(
      trx,
      {
        type: "cancellation.scheduled",
        service: serviceRef(service),
        cancellationId: Number(row.id),
        reason: input.reason,
        endsAt: new Date(service.expires_at).toISOString(),
        autoRenewWas,
      },
      now,
    );
    return { ok: true, cancellation: toSummary(row) };
  });
}

/**
 * The customer asks for their money back within 14 days of the order (the window's last moment is in):
 * a request of everything paid for the service and not given back already, which the system approves
 * at once when it is at most the settings' ceiling (`selfService.autoRefundMaxCoins`, 0: never) and the
 * staff decide otherwise (/admin/refunds). The automatic approval is a transaction of its own after the
 * request's: refused (a balance at its ceiling), the request waits for the staff like any other.
 */
export async function requestRefund(
  db: Db,
  input: {
    userId: string;
    serviceId: number;
    reason: CancellationReason;
    reasonText: string | null;
    now?: Date;
  },
): Promise<CancelResult> {
  const now = input.now ?? new Date();
  const at = now.toISOString();
  const { selfService } = await getSettings(db);
  const asked = await once(db, async (trx) => {
    const service = await cancellable(trx, input.serviceId, input.userId);
    const order = await serviceOrderOf(trx, input.serviceId);
    if (!order) refuse<CancelResult>("conflict", "services.cancel.errors.noOrder");
    if (!withinRefundWindow(order.createdAt, now))
      refuse<CancelResult>("conflict", "services.cancel.errors.windowPassed");
    const amountCents = refundableCents(await refundableParts(trx, input.serviceId, order.id));
    const row = await trx
      .insertInto("service_cancellations")
      .values({
        hosting_service_id: input.serviceId,
        user_id: input.userId,
        kind: "refund",
        reason: input.reason,
        reason_text: input.reasonText,
        state: "requested",
        refund_cents: amountCents,
        created_at: at,
        updated_at: at,
      })
      .returning(SUMMARY_COLUMNS)
      .executeTakeFirstOrThrow();
    await record(
      trx,
      {
        type: "cancellation.refundRequested",
        service: serviceRef(service),
        cancellationId: Number(row.id),
        reason: input.reason,
        amountCents,
        automatic: decidedBySystem(amountCents, selfService.autoRefundMaxCoins),
      },
      now,
    );
    return { ok: true, cancellation: toSummary(row) };
  });
  if (!asked.ok || !decidedBySystem(asked.cancellation.refundCents, selfService.autoRefundMaxCoins))
    return asked;
  await approveRefund(db, { id: asked.cancellation.id, actorId: null, now });
  const row = await db
    .selectFrom("service_cancellations")
    .select(SUMMARY_COLUMNS)
    .where("id", "=", asked.cancellation.id)
    .executeTakeFirstOrThrow();
  return { ok: true, cancellation: toSummary(row) };
}

/**
 * The customer withdraws the open request of their service until it is decided: a refund not decided
 * yet, or an end of term before the expiry ("Keep my server": the lifecycle treats the service as any
 * other again, and its automatic renewal is back as it was).
 */
export async function withdrawCancellation(
  db: Db,
  input: { userId: string; serviceId: number; now?: Date },
): Promise<CancelResult> {
  const now = input.now ?? new Date();
  return inTransaction(db, async (trx): Promise<CancelResult> => {
    const service = await ownService(trx, input.serviceId, input.userId);
    const open = await openRequestOf(trx, input.serviceId);
    if (!open) refuse<CancelResult>("conflict", "services.cancel.errors.nothingOpen");
    if (open.kind === "end_of_term" && Date.parse(service.expires_at) <= now.getTime())
      refuse<CancelResult>("conflict", "services.cancel.errors.tooLate");
    const row = await withdrawOpen(trx, service, open, now);
    // Decided (or ended) since the read: nothing left to withdraw.
    if (!row) refuse<CancelResult>("conflict", "services.cancel.errors.nothingOpen");
    return { ok: true, cancellation: toSummary(row) };
  });
}

/**
 * Step: the open request withdrawn, as it still is (else undefined); an end of term gives the service
 * back its automatic renewal as it was before. Recorded as `cancellation.withdrawn`.
 */
async function withdrawOpen(
  trx: Tx,
  service: { id: number; user_id: string; name: string; server_name: string },
  open: { id: number; kind: string },
  now: Date,
) {
  const at = now.toISOString();
  const row = await trx
    .updateTable("service_cancellations")
    .set({ state: "withdrawn", updated_at: at })
    .where("id", "=", open.id)
    .where("state", "in", OPEN_STATES)
    .returning([...SUMMARY_COLUMNS, "auto_renew_before"])
    .executeTakeFirst();
  if (!row) return undefined;
  const endOfTerm = open.kind === "end_of_term";
  const autoRenew = endOfTerm ? Number(row.auto_renew_before) === 1 : null;
  if (endOfTerm)
    await trx
      .updateTable("hosting_services")
      .set({ ends_at_expiry: 0, auto_renew: autoRenew ? 1 : 0, updated_at: at })
      .where("id", "=", service.id)
      .execute();
  await record(
    trx,
    {
      type: "cancellation.withdrawn",
      service: serviceRef(service),
      cancellationId: Number(row.id),
      kind: endOfTerm ? "end_of_term" : "refund",
      autoRenew,
    },
    now,
  );
  return row;
}

/**
 * Step of a customer's renewal: a service set to end at its term is being kept, so its end of term is
 * withdrawn (the renewal's confirmation said so). A refund request still waiting for the staff is left
 * for them to decide.
 */
export async function keepOnRenewal(
  trx: Tx,
  service: { id: number; user_id: string; name: string; server_name: string },
  now: Date,
): Promise<void> {
  const open = await openRequestOf(trx, service.id);
  if (open?.kind === "end_of_term") await withdrawOpen(trx, service, open, now);
}

/**
 * The customer's cancel page: the service (their own, else null), its open or latest request, and the
 * refund on offer: until when and how much, or why there is none.
 */
export async function loadCancelPage(
  db: Db,
  input: { userId: string; serviceId: number; now: Date },
): Promise<CancelPageView | null> {
  const service = await db
    .selectFrom("hosting_services")
    .select(["id", "name", "server_name", "status", "expires_at", "auto_renew"])
    .where("id", "=", input.serviceId)
    .where("user_id", "=", input.userId)
    .executeTakeFirst();
  if (!service) return null;
  const [open, latest, order] = await Promise.all([
    openRequestOf(db, input.serviceId),
    db
      .selectFrom("service_cancellations")
      .select(SUMMARY_COLUMNS)
      .where("hosting_service_id", "=", input.serviceId)
      .orderBy("id", "desc")
      .limit(1)
      .executeTakeFirst(),
    serviceOrderOf(db, input.serviceId),
  ]);
  const current = open ?? latest;
  let refund: CancelPageView["refund"] = { offered: false, why: "noOrder" };
  if (order && withinRefundWindow(order.createdAt, input.now)) {
    refund = {
      offered: true,
      until: refundWindowEnd(order.createdAt),
      amountCents: refundableCents(await refundableParts(db, input.serviceId, order.id)),
    };
  } else if (order) refund = { offered: false, why: "windowPassed" };
  return {
    service: {
      id: Number(service.id),
      name: service.name,
      serverName: service.server_name,
      status: service.status,
      expiresAt: new Date(service.expires_at).toISOString(),
      autoRenew: Number(service.auto_renew) === 1,
    },
    current: current ? toSummary(current) : null,
    canCancel: service.status === "active" && !open,
    refund,
    now: input.now.toISOString(),
  };
}

/** The services tab's badges: each of a customer's services with an open request, by id. */
export async function cancellationBadgesOf(
  db: Db,
  userId: string,
): Promise<Record<number, CancellationBadge>> {
  const rows = await db
    .selectFrom("service_cancellations")
    .select(["hosting_service_id", "state"])
    .where("user_id", "=", userId)
    .where("state", "in", OPEN_STATES)
    .execute();
  const badges: Record<number, CancellationBadge> = {};
  for (const row of rows) {
    const badge = cancellationBadge(row.state);
    if (badge) badges[Number(row.hosting_service_id)] = badge;
  }
  return badges;
}

/**
 * Step of the lifecycle's run: a service cancelled at the end of its term ends at its expiry. The
 * request is marked done and the service terminated, each only while it is as the run read it (a
 * customer who kept the server, or an admin who ended it, first leaves it alone: the caller's
 * transaction is rolled back with `false`); recorded as `cancellation.endedAtTerm` (the customer told,
 * the game panel's server deleted). The request's row is written before the service's, in the order
 * withdrawing writes them, so the two never wait on each other crosswise. True when it ended.
 */
export async function endAtTerm(
  trx: Tx,
  service: {
    serviceId: number;
    userId: string;
    name: string;
    serverName: string;
    expiresAt: string;
  },
  now: Date,
): Promise<boolean> {
  const at = now.toISOString();
  const done = await trx
    .updateTable("service_cancellations")
    .set({ state: "done", updated_at: at })
    .where("hosting_service_id", "=", service.serviceId)
    .where("kind", "=", "end_of_term")
    .where("state", "=", "scheduled")
    .returning("id")
    .executeTakeFirst();
  if (!done) throw new Refusal(false);
  const ended = await trx
    .updateTable("hosting_services")
    .set({ status: "terminated", ends_at_expiry: 0, updated_at: at })
    .where("id", "=", service.serviceId)
    .where("status", "=", "active")
    .where("ends_at_expiry", "=", 1)
    .where("expires_at", "<=", at)
    .returning("id")
    .executeTakeFirst();
  if (!ended) throw new Refusal(false);
  await record(
    trx,
    {
      type: "cancellation.endedAtTerm",
      service: {
        id: service.serviceId,
        userId: service.userId,
        name: service.name,
        serverName: service.serverName,
      },
      cancellationId: Number(done.id),
      expiresAt: service.expiresAt,
      panel: await panelLinkOf(trx, service.serviceId),
    },
    now,
  );
  return true;
}
