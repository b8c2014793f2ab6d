import { sql } from "kysely";
import { pendingOrdersCount } from "~/domain/orders/orders.server";
import { inTransaction, orWhenTaken, Refusal, type Db, type Tx } from "~/db/transaction";
import { record } from "~/domain/events/events.server";
import { requireStaffPermission, type StaffForbidden } from "~/domain/staff/staff-actor.server";
import type { FailureKind } from "~/lib/result";
import { LOGIN_IP_ATTEMPT_LIMIT } from "./accounts";
import type { PendingDeletion } from "./account-deletion";
import { confirmCurrentPassword, type CurrentPasswordRefusal } from "./current-password.server";
import { endUserSessions } from "./own-sessions.server";
import { DELETED_USER_NAME } from "./user-admin";
import { queuePanelUserSync } from "~/domain/provisioning/panel-user-job.server";

// A customer asks for their account to be deleted (the privacy page promises it); an admin completes the
// request from /admin/clients. ADR 19 and docs/security.md#account-deletion say why it goes this way.

/** The placeholder address a deleted account gets: unique (it carries the id) and undeliverable. */
export function deletedUserEmail(userId: string): string {
  return `deleted-${userId}@deleted.invalid`;
}

/** Services that are not terminated (active or suspended) and orders still waiting: what a deletion waits on. */
async function outstanding(trx: Db | Tx, userId: string) {
  const row = await trx
    .selectFrom("users")
    .select([
      "coin_balance_cents",
      trx
        .selectFrom("hosting_services")
        .select((eb) => eb.fn.countAll<number>().as("n"))
        .where("user_id", "=", userId)
        .where("status", "!=", "terminated")
        .as("services"),
      pendingOrdersCount(trx, userId).as("orders"),
    ])
    .where("id", "=", userId)
    .executeTakeFirstOrThrow();
  return {
    activeServices: Number(row.services ?? 0),
    pendingOrders: Number(row.orders ?? 0),
    balanceCents: row.coin_balance_cents,
  };
}

/** The account's pending deletion request, or null (the account tab shows it and the way to cancel it). */
export async function pendingDeletionRequest(
  db: Db,
  userId: string,
): Promise<PendingDeletion | null> {
  const row = await db
    .selectFrom("account_deletion_requests")
    .select(["requested_at", "active_services", "pending_orders", "balance_cents"])
    .where("user_id", "=", userId)
    .where("status", "=", "pending")
    .executeTakeFirst();
  return row
    ? {
        requestedAt: row.requested_at,
        activeServices: row.active_services,
        pendingOrders: row.pending_orders,
        balanceCents: row.balance_cents,
      }
    : null;
}

export type RequestDeletionResult =
  | ({ ok: true } & PendingDeletion)
  | CurrentPasswordRefusal
  | { ok: false; kind: "conflict"; error: "dashboard.deletion.errors.alreadyRequested" }
  /** Admins are never deleted (as on /admin/clients): another admin removes the role first. */
  | { ok: false; kind: "forbidden"; error: "dashboard.deletion.errors.admin" }
  | { ok: false; kind: "notFound"; error: "dashboard.deletion.errors.noAccount" };

/**
 * A customer asks for their account to be deleted, confirming with their current password (checked
 * through the login throttle like a sign-in, as for an email change: a session alone is not enough to ask
 * for someone's account to go). Accepted even while the account has services or pending orders: the
 * request records them, with the balance, and the admin ends them before completing (ADR 19). At most one
 * pending request per account (a unique index settles two at once). Audited, without name or email.
 */
export async function requestAccountDeletion(
  db: Db,
  input: { userId: string; currentPassword: string; ip: string },
  limits: { ipPerMinute: number } = { ipPerMinute: LOGIN_IP_ATTEMPT_LIMIT },
): Promise<RequestDeletionResult> {
  const user = await db
    .selectFrom("users")
    .leftJoin("accounts", (join) =>
      join.onRef("accounts.user_id", "=", "users.id").on("accounts.provider_id", "=", "credential"),
    )
    .select(["users.email", "users.role", "accounts.password"])
    .where("users.id", "=", input.userId)
    .where("users.status", "=", "active")
    .executeTakeFirst();
  if (!user) return { ok: false, kind: "notFound", error: "dashboard.deletion.errors.noAccount" };
  if (user.role === "admin")
    return { ok: false, kind: "forbidden", error: "dashboard.deletion.errors.admin" };
  if (await pendingDeletionRequest(db, input.userId))
    return { ok: false, kind: "conflict", error: "dashboard.deletion.errors.alreadyRequested" };
  const refused = await confirmCurrentPassword(
    db,
    { email: user.email, ip: input.ip, hash: user.password, password: input.currentPassword },
    limits,
  );
  if (refused) return refused;
  // Another request of the same account got in first (a double click, two tabs).
  return orWhenTaken(
    { ok: false, kind: "conflict", error: "dashboard.deletion.errors.alreadyRequested" },
    () =>
      inTransaction(db, async (trx): Promise<RequestDeletionResult> => {
        const held = await outstanding(trx, input.userId);
        const now = new Date().toISOString();
        await trx
          .insertInto("account_deletion_requests")
          .values({
            user_id: input.userId,
            status: "pending",
            active_services: held.activeServices,
            pending_orders: held.pendingOrders,
            balance_cents: held.balanceCents,
            requested_at: now,
          })
          .execute();
        await record(trx, {
          type: "account.deletionRequested",
          userId: input.userId,
          outstanding: held,
        });
        return { ok: true, requestedAt: now, ...held };
      }),
  );
}

export type CancelDeletionResult =
  { ok: true } | { ok: false; kind: "notFound"; error: "dashboard.deletion.errors.noRequest" };

/** The customer withdraws their pending request (only their own: the user id comes from the session). */
export async function cancelAccountDeletion(
  db: Db,
  input: { userId: string },
): Promise<CancelDeletionResult> {
  return inTransaction(db, async (trx): Promise<CancelDeletionResult> => {
    const now = new Date().toISOString();
    const cancelled = await trx
      .updateTable("account_deletion_requests")
      .set({ status: "cancelled", decided_at: now, decided_by: input.userId })
      .where("user_id", "=", input.userId)
      .where("status", "=", "pending")
      .executeTakeFirst();
    if (Number(cancelled.numUpdatedRows) === 0)
      throw new Refusal<CancelDeletionResult>({
        ok: false,
        kind: "notFound",
        error: "dashboard.deletion.errors.noRequest",
      });
    await record(trx, { type: "account.deletionCancelled", userId: input.userId });
    return { ok: true };
  });
}

/** What erasing an account removed, for the audit entry (counts only: the point is that the data is gone). */
export interface ErasedData {
  sessions: number;
  newsletter: number;
  contactMessages: number;
  loginAttempts: number;
  notifications: number;
}

/**
 * A step: anonymises an account in place and removes what identifies its owner, keeping what the law
 * makes us keep. The row stays (coin ledger, orders, hosting services, renewals, tickets and the audit log
 * point at it), with the placeholder name and a unique, undeliverable address; its status `deleted` stops
 * every session (getCurrentSession) and the credentials go, so nobody can sign in to it. Removed: sessions
 * (with their addresses and browsers), credentials and tokens, the newsletter subscription and contact
 * messages sent from its address, its login attempts, its notifications and the admins' note on it
 * (migration 0026). Kept untouched: the ledger (and the balance it adds up to, so npm run check:ledger
 * still passes), orders, services, renewals, ticket messages (their author is now the deleted account)
 * and audit entries. A pending deletion request is closed as completed. Caller checks the row is an
 * active customer and locks it.
 */
export async function eraseAccount(
  trx: Tx,
  user: { id: string; email: string },
  actorId: string,
): Promise<ErasedData> {
  const now = new Date().toISOString();
  await trx
    .updateTable("users")
    .set({
      status: "deleted",
      name: DELETED_USER_NAME,
      email: deletedUserEmail(user.id),
      image: null,
      locale: null,
      admin_note: null,
      // An email change still waiting for its link (migration 0032): an address like the others.
      pending_email: null,
      pending_email_at: null,
      // The billing details (migration 0034); issued documents keep their own copy, as the law asks.
      billing_name: null,
      billing_address: null,
      billing_country: null,
      updated_at: now,
    })
    .where("id", "=", user.id)
    .execute();
  const count = (result: { numDeletedRows: bigint }) => Number(result.numDeletedRows);
  const sessions = await endUserSessions(trx, user.id);
  await trx.deleteFrom("accounts").where("user_id", "=", user.id).execute();
  await trx.deleteFrom("verifications").where("identifier", "=", user.email).execute();
  // Two-factor sign-in: the encrypted secret and backup codes, a code step in progress and the
  // trusted devices (verifications whose value is the account's id).
  await trx.deleteFrom("two_factors").where("user_id", "=", user.id).execute();
  // The game panel's user goes once the account's servers have.
  await queuePanelUserSync(trx, user.id);
  await trx.deleteFrom("verifications").where("value", "=", user.id).execute();
  // The archives of its data (docs/self-service.md): a copy of everything erased here.
  await trx.deleteFrom("data_exports").where("user_id", "=", user.id).execute();
  const erased: ErasedData = {
    sessions,
    newsletter: count(
      await trx
        .deleteFrom("newsletter_subscribers")
        .where("email", "=", user.email)
        .executeTakeFirst(),
    ),
    // Contact messages are stored with the address as typed; ours are lower-case.
    contactMessages: count(
      await trx
        .deleteFrom("contact_messages")
        .where(sql<string>`lower(email)`, "=", user.email)
        .executeTakeFirst(),
    ),
    loginAttempts: count(
      await trx.deleteFrom("login_attempts").where("email", "=", user.email).executeTakeFirst(),
    ),
    notifications: count(
      await trx.deleteFrom("notifications").where("user_id", "=", user.id).executeTakeFirst(),
    ),
  };
  // Its mail goes too (the event's reaction): it holds the address and what it was told.
  await record(trx, { type: "account.erased", userId: user.id, actorId });
  await trx
    .updateTable("account_deletion_requests")
    .set({ status: "completed", decided_at: now, decided_by: actorId })
    .where("user_id", "=", user.id)
    .where("status", "=", "pending")
    .execute();
  return erased;
}

export type CompleteDeletionRefusal =
  | "admin.users.errors.notFound"
  | "admin.users.errors.noDeletionRequest"
  | "admin.users.errors.deletionOutstanding"
  | "admin.users.errors.notAdmin";

const COMPLETE_REFUSAL_KINDS = {
  "admin.users.errors.notFound": "notFound",
  "admin.users.errors.noDeletionRequest": "conflict",
  "admin.users.errors.deletionOutstanding": "conflict",
  "admin.users.errors.notAdmin": "forbidden",
} as const satisfies Record<CompleteDeletionRefusal, FailureKind>;

export type CompleteDeletionResult =
  | { ok: true; erased: ErasedData }
  | {
      [Reason in CompleteDeletionRefusal]: {
        ok: false;
        kind: (typeof COMPLETE_REFUSAL_KINDS)[Reason];
        error: "admin.users.completeDeletionFailed";
        reason: Reason;
        /** With deletionOutstanding: what is still running. */
        activeServices?: number;
        pendingOrders?: number;
      };
    }[CompleteDeletionRefusal]
  /** The acting admin's role does not edit client accounts (`clients.edit`). */
  | StaffForbidden;

function refuseCompletion(
  reason: CompleteDeletionRefusal,
  extra: { activeServices?: number; pendingOrders?: number } = {},
): never {
  throw new Refusal({
    ok: false,
    kind: COMPLETE_REFUSAL_KINDS[reason],
    error: "admin.users.completeDeletionFailed",
    reason,
    ...extra,
  } as CompleteDeletionResult);
}

/**
 * An admin completes a customer's pending deletion request: refused while the account still has a
 * service that is not terminated or an order waiting for a decision (the admin terminates or rejects
 * them first, which refunds a pending order through the ledger as usual); then the account is erased
 * (`eraseAccount`) and the request closed, with an audit entry, all in one transaction. The acting admin
 * must still be one, whose role holds `clients.edit`, and the account an active customer with a pending
 * request, when it commits.
 */
export async function completeAccountDeletion(
  db: Db,
  input: { userId: string; actorId: string },
): Promise<CompleteDeletionResult> {
  return inTransaction(db, async (trx): Promise<CompleteDeletionResult> => {
    // Lock the account first (an UPDATE takes the row lock on PostgreSQL, the write lock on SQLite), so
    // an order placed or a request cancelled at the same moment is seen or waits.
    await trx
      .updateTable("users")
      .set({ updated_at: sql`updated_at` })
      .where("id", "in", [input.userId, input.actorId])
      .execute();
    const actor = await trx
      .selectFrom("users")
      .select("id")
      .where("id", "=", input.actorId)
      .where("role", "=", "admin")
      .where("status", "=", "active")
      .executeTakeFirst();
    if (!actor) refuseCompletion("admin.users.errors.notAdmin");
    await requireStaffPermission(trx, input.actorId, "clients.edit");
    const user = await trx
      .selectFrom("users")
      .select(["id", "email"])
      .where("id", "=", input.userId)
      .where("status", "=", "active")
      .where("role", "=", "user")
      .executeTakeFirst();
    if (!user) refuseCompletion("admin.users.errors.notFound");
    const request = await trx
      .selectFrom("account_deletion_requests")
      .select(["id", "requested_at"])
      .where("user_id", "=", user.id)
      .where("status", "=", "pending")
      .executeTakeFirst();
    if (!request) refuseCompletion("admin.users.errors.noDeletionRequest");
    const held = await outstanding(trx, user.id);
    if (held.activeServices > 0 || held.pendingOrders > 0)
      refuseCompletion("admin.users.errors.deletionOutstanding", {
        activeServices: held.activeServices,
        pendingOrders: held.pendingOrders,
      });
    const erased = await eraseAccount(trx, user, input.actorId);
    const kept = await trx
      .selectFrom("users")
      .select([
        trx
          .selectFrom("coin_ledger")
          .select((eb) => eb.fn.countAll<number>().as("n"))
          .where("user_id", "=", user.id)
          .as("ledger"),
        trx
          .selectFrom("orders")
          .select((eb) => eb.fn.countAll<number>().as("n"))
          .where("user_id", "=", user.id)
          .as("orders"),
        trx
          .selectFrom("hosting_services")
          .select((eb) => eb.fn.countAll<number>().as("n"))
          .where("user_id", "=", user.id)
          .as("services"),
      ])
      .where("id", "=", user.id)
      .executeTakeFirstOrThrow();
    // No name or email in the event: the point of the deletion is that they are gone.
    await record(trx, {
      type: "account.deletionCompleted",
      actorId: input.actorId,
      userId: user.id,
      request: { id: Number(request.id), requestedAt: request.requested_at },
      erasure: {
        removed: erased,
        kept: {
          ledgerEntries: Number(kept.ledger ?? 0),
          orders: Number(kept.orders ?? 0),
          services: Number(kept.services ?? 0),
          balanceCents: held.balanceCents,
        },
      },
    });
    return { ok: true, erased };
  });
}
