import { record } from "~/domain/events/events.server";
import { inTransaction, Refusal, type Db, type Tx } from "~/db/transaction";
import { logger } from "~/lib/logger.server";
import { SESSION_ACTIVITY_STEP_MINUTES, type OwnSession } from "./accounts";
import type { FailureKind } from "~/lib/result";

/**
 * Sessions are never extended (ADR 0005), so better-auth leaves `updated_at` alone after login. We use it
 * for "last active": moved forward on a request when it is more than SESSION_ACTIVITY_STEP_MINUTES old,
 * so a busy session writes once every few minutes rather than on every page.
 */
export async function touchSession(
  db: Db,
  session: { id: string; updatedAt: Date | string },
  now = new Date(),
): Promise<void> {
  const last = new Date(session.updatedAt).getTime();
  if (now.getTime() - last < SESSION_ACTIVITY_STEP_MINUTES * 60_000) return;
  try {
    await db
      .updateTable("sessions")
      .set({ updated_at: now.toISOString() })
      .where("id", "=", session.id)
      .execute();
  } catch (error) {
    // "Last active" is a hint; a failed write must not fail the page.
    logger.warn({ err: error }, "could not record session activity");
  }
}

/**
 * A step: ends every session of a user but `keepSessionId` (the one in use, when a person changes their
 * own address, an admin edits themselves or ends their other sessions); how many it ended.
 */
export async function endUserSessions(
  trx: Tx,
  userId: string,
  keepSessionId?: string,
): Promise<number> {
  let sessions = trx.deleteFrom("sessions").where("user_id", "=", userId);
  if (keepSessionId) sessions = sessions.where("id", "!=", keepSessionId);
  return Number((await sessions.executeTakeFirst()).numDeletedRows);
}

/**
 * A step: forgets every device the account trusted to skip its sign-in code (better-auth's
 * `trust-device-…` verifications): such a device is asked for the code again at its next sign-in. How
 * many it forgot. A password reset and "sign out everywhere" take them away with the sessions: a
 * trusted device is a half-open door for whoever holds the password.
 */
export async function forgetTrustedDevices(trx: Tx, userId: string): Promise<number> {
  const forgotten = await trx
    .deleteFrom("verifications")
    .where("identifier", "like", "trust-device-%")
    .where("value", "=", userId)
    .executeTakeFirst();
  return Number(forgotten.numDeletedRows);
}

/** One user's sessions that have not expired, newest first, the one making the request marked. */
export async function listOwnSessions(
  db: Db,
  input: { userId: string; currentSessionId?: string; now?: Date },
): Promise<OwnSession[]> {
  const now = (input.now ?? new Date()).toISOString();
  const rows = await db
    .selectFrom("sessions")
    .select(["id", "ip_address", "user_agent", "created_at", "updated_at", "expires_at"])
    .where("user_id", "=", input.userId)
    .where("expires_at", ">", now)
    .orderBy("created_at", "desc")
    .orderBy("id")
    .limit(200)
    .execute();
  const sessions = rows.map((row): OwnSession => ({
    id: row.id,
    ipAddress: row.ip_address,
    userAgent: row.user_agent,
    createdAt: new Date(row.created_at).toISOString(),
    lastActiveAt: new Date(row.updated_at).toISOString(),
    expiresAt: new Date(row.expires_at).toISOString(),
    current: row.id === input.currentSessionId,
  }));
  // The session in use first: it is the one the admin recognises.
  return [...sessions.filter((s) => s.current), ...sessions.filter((s) => !s.current)];
}

export type RevokeSessionRefusal =
  | "admin-security.errors.sessionNotFound"
  | "admin-security.errors.currentSession"
  | "admin-security.errors.noOtherSessions";

export type RevokeSessionResult =
  { ok: true; ended: number } | { ok: false; kind: FailureKind; error: RevokeSessionRefusal };

function refuse(kind: FailureKind, error: RevokeSessionRefusal): never {
  throw new Refusal<RevokeSessionResult>({ ok: false, kind, error });
}

/**
 * Ends one of the acting admin's own other sessions (its cookie stops working at once), with an audit
 * entry. A session of anyone else is "not found", whatever id is posted; the session in use is refused
 * (Logout ends it).
 */
export async function revokeOwnSession(
  db: Db,
  input: { actorId: string; currentSessionId?: string; sessionId: string },
): Promise<RevokeSessionResult> {
  if (input.sessionId === input.currentSessionId)
    return { ok: false, kind: "conflict", error: "admin-security.errors.currentSession" };
  return inTransaction(db, async (trx): Promise<RevokeSessionResult> => {
    const session = await trx
      .selectFrom("sessions")
      .select(["id", "ip_address", "user_agent", "created_at"])
      .where("id", "=", input.sessionId)
      .where("user_id", "=", input.actorId)
      .executeTakeFirst();
    if (!session) refuse("notFound", "admin-security.errors.sessionNotFound");
    await trx
      .deleteFrom("sessions")
      .where("id", "=", session.id)
      .where("user_id", "=", input.actorId)
      .execute();
    await record(trx, {
      type: "account.sessionRevoked",
      userId: input.actorId,
      session: {
        id: session.id,
        ipAddress: session.ip_address,
        userAgent: session.user_agent,
        createdAt: new Date(session.created_at).toISOString(),
      },
    });
    return { ok: true, ended: 1 };
  });
}

/**
 * Ends every session of the acting admin except the one in use, and forgets every device trusted to
 * skip the sign-in code (this one's too), with one audit entry.
 */
export async function revokeOtherOwnSessions(
  db: Db,
  input: { actorId: string; currentSessionId?: string },
): Promise<RevokeSessionResult> {
  // Without a current session there is nothing to keep; refusing is safer than ending them all.
  if (!input.currentSessionId)
    return { ok: false, kind: "conflict", error: "admin-security.errors.currentSession" };
  const currentSessionId = input.currentSessionId;
  return inTransaction(db, async (trx): Promise<RevokeSessionResult> => {
    const ended = await endUserSessions(trx, input.actorId, currentSessionId);
    const devices = await forgetTrustedDevices(trx, input.actorId);
    if (ended === 0 && devices === 0) refuse("conflict", "admin-security.errors.noOtherSessions");
    await record(trx, {
      type: "account.otherSessionsRevoked",
      userId: input.actorId,
      sessionsEnded: ended,
      trustedDevices: devices,
      kept: currentSessionId,
    });
    return { ok: true, ended };
  });
}
