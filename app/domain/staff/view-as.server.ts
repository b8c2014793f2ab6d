import { inTransaction, refuse, type Db } from "~/db/transaction";
import type { CurrentSession, SessionUser } from "~/domain/accounts/accounts.server";
import { record } from "~/domain/events/events.server";
import { can, staffRoleOf } from "./permissions";

/**
 * Viewing the site as a customer (ADR 57): a member of the staff whose role holds `clients.viewAs` sees
 * every page as one customer sees it, read-only. The state is the staff member's own session's
 * (`sessions.viewing_user_id`), so it ends with that session; the customer's sessions and data are never
 * touched. Starting and ending are audited (`viewAs.start`, `viewAs.end`).
 */

/**
 * The request's session as the pages see it. While viewing, `user` is the customer and `viewer` the
 * member of the staff whose session it is; otherwise `viewer` is null.
 */
export interface PresentedSession extends CurrentSession {
  viewer: SessionUser | null;
}

export type StartViewAsResult =
  | { ok: true; customerId: string }
  /** The actor's role (read from the database) does not hold `clients.viewAs`, or the session is not theirs. */
  | { ok: false; kind: "forbidden"; error: "admin-staff.viewAs.errors.notAllowed" }
  /** No such account, or a deleted one. */
  | { ok: false; kind: "notFound"; error: "admin-staff.viewAs.errors.notFound" }
  /** A member of the staff is never viewed as: only customers. */
  | { ok: false; kind: "conflict"; error: "admin-staff.viewAs.errors.staffAccount" };

/** Whether a user row is a member of the staff allowed to view as a customer. */
function mayViewAs(row: { role: string; staff_role: string | null; status: string }) {
  return (
    row.role === "admin" &&
    row.status === "active" &&
    can(staffRoleOf(row.staff_role), "clients.viewAs")
  );
}

/**
 * Starts viewing as `customerId` in the staff member's session `sessionId`. The actor's permission is read
 * from the database here, whatever the route checked; a view of another customer in the same session is
 * ended (and audited) first.
 */
export async function startViewAs(
  db: Db,
  input: { sessionId: string; actorId: string; customerId: string; now?: Date },
): Promise<StartViewAsResult> {
  const now = input.now ?? new Date();
  return inTransaction(db, async (trx): Promise<StartViewAsResult> => {
    const actor = await trx
      .selectFrom("users")
      .select(["role", "staff_role", "status"])
      .where("id", "=", input.actorId)
      .executeTakeFirst();
    if (!actor || !mayViewAs(actor))
      refuse<StartViewAsResult>("forbidden", "admin-staff.viewAs.errors.notAllowed");
    const session = await trx
      .selectFrom("sessions")
      .select("viewing_user_id")
      .where("id", "=", input.sessionId)
      .where("user_id", "=", input.actorId)
      .executeTakeFirst();
    if (!session) refuse<StartViewAsResult>("forbidden", "admin-staff.viewAs.errors.notAllowed");
    const customer = await trx
      .selectFrom("users")
      .select(["id", "role", "status"])
      .where("id", "=", input.customerId)
      .executeTakeFirst();
    if (!customer || customer.status !== "active")
      refuse<StartViewAsResult>("notFound", "admin-staff.viewAs.errors.notFound");
    if (customer.role !== "user")
      refuse<StartViewAsResult>("conflict", "admin-staff.viewAs.errors.staffAccount");
    if (session.viewing_user_id === customer.id) return { ok: true, customerId: customer.id };
    // Conditional on what was read: of two starts racing in one session, each audits what it replaced.
    const updated = await trx
      .updateTable("sessions")
      .set({ viewing_user_id: customer.id })
      .where("id", "=", input.sessionId)
      .where((eb) =>
        session.viewing_user_id === null
          ? eb("viewing_user_id", "is", null)
          : eb("viewing_user_id", "=", session.viewing_user_id),
      )
      .executeTakeFirst();
    if (Number(updated.numUpdatedRows) === 0)
      refuse<StartViewAsResult>("forbidden", "admin-staff.viewAs.errors.notAllowed");
    if (session.viewing_user_id !== null)
      await record(
        trx,
        {
          type: "viewAs.ended",
          actorId: input.actorId,
          customerId: session.viewing_user_id,
          via: "another",
        },
        now,
      );
    await record(
      trx,
      { type: "viewAs.started", actorId: input.actorId, customerId: customer.id },
      now,
    );
    return { ok: true, customerId: customer.id };
  });
}

/**
 * How a view ended: leaving it, signing out, starting to view another customer, or the session expiring
 * while it viewed (found by the sessions' housekeeping, endExpiredViews).
 */
export type ViewAsEnding = "leave" | "signOut" | "another" | "expired";

/**
 * Ends the view of the staff member's session `sessionId`, audited; says whom it was viewing (null when
 * the session was viewing no one, which ends nothing and audits nothing).
 */
export async function endViewAs(
  db: Db,
  input: {
    sessionId: string;
    actorId: string;
    via?: Exclude<ViewAsEnding, "another">;
    now?: Date;
  },
): Promise<{ ok: true; customerId: string | null }> {
  const now = input.now ?? new Date();
  return inTransaction(db, async (trx) => {
    const session = await trx
      .selectFrom("sessions")
      .select("viewing_user_id")
      .where("id", "=", input.sessionId)
      .where("user_id", "=", input.actorId)
      .executeTakeFirst();
    const customerId = session?.viewing_user_id ?? null;
    if (customerId === null) return { ok: true as const, customerId: null };
    // Conditional: of two leaves at once (two tabs), one ends the view and audits it.
    const updated = await trx
      .updateTable("sessions")
      .set({ viewing_user_id: null })
      .where("id", "=", input.sessionId)
      .where("viewing_user_id", "=", customerId)
      .executeTakeFirst();
    if (Number(updated.numUpdatedRows) === 0) return { ok: true as const, customerId: null };
    await record(
      trx,
      { type: "viewAs.ended", actorId: input.actorId, customerId, via: input.via ?? "leave" },
      now,
    );
    return { ok: true as const, customerId };
  });
}

/**
 * The views whose staff session expired while viewing: each ended and audited as "expired", so the trail
 * says when every view stopped even when nobody left it. Run by the sessions' housekeeping; a view
 * already ended (left meanwhile) is skipped by endViewAs's conditional update. How many ended.
 */
export async function endExpiredViews(db: Db, now: Date): Promise<number> {
  const expired = await db
    .selectFrom("sessions")
    .select(["id", "user_id"])
    .where("viewing_user_id", "is not", null)
    .where("expires_at", "<=", now.toISOString())
    .execute();
  let ended = 0;
  for (const session of expired) {
    const result = await endViewAs(db, {
      sessionId: session.id,
      actorId: session.user_id,
      via: "expired",
      now,
    });
    if (result.customerId !== null) ended += 1;
  }
  return ended;
}

/**
 * The request's session as the pages see it: a staff session viewing a customer presents the customer as
 * `user` and keeps the member of the staff as `viewer`. The view holds only while the member's role still
 * holds `clients.viewAs` and the customer is an active customer; otherwise the session is the member's own
 * (leaving clears what is left of it). Reads only: a page must change nothing while viewing.
 */
export async function presentSession(
  db: Db,
  session: CurrentSession | null,
): Promise<PresentedSession | null> {
  if (!session) return null;
  const own = { ...session, viewer: null };
  const viewer = session.user;
  if (!session.viewingUserId || viewer.role !== "admin" || !can(viewer.staffRole, "clients.viewAs"))
    return own;
  const row = await db
    .selectFrom("users")
    .select([
      "id",
      "name",
      "email",
      "role",
      "status",
      "coin_balance_cents",
      "locale",
      "two_factor_enabled",
      "email_verified",
    ])
    .where("id", "=", session.viewingUserId)
    .executeTakeFirst();
  if (!row || row.role !== "user" || row.status !== "active") return own;
  const customer: SessionUser = {
    id: row.id,
    name: row.name,
    email: row.email,
    role: "user",
    staffRole: null,
    coinBalanceCents: row.coin_balance_cents,
    // The forced password change is the customer's to make: the view shows their pages instead of
    // holding every one of them behind a form no one may send here.
    mustChangePassword: false,
    locale: row.locale,
    twoFactorEnabled: Boolean(row.two_factor_enabled),
    emailVerified: row.email_verified === true || row.email_verified === 1,
  };
  return { ...session, user: customer, viewer };
}
