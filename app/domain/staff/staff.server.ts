import { sql } from "kysely";
import { isPostgres } from "~/db/dialect";
import { inTransaction, Refusal, type Db, type Tx } from "~/db/transaction";
import { endUserSessions } from "~/domain/accounts/own-sessions.server";
import { record } from "~/domain/events/events.server";
import type { FailureKind } from "~/lib/result";
import { can, mayAssignRole, STAFF_ROLES, staffRoleOf, type StaffRole } from "./permissions";
import type { StaffMember } from "./staff";

// The staff and their roles (docs/staff.md, ADR 57): who is on the staff, and an Owner's three changes
// to it. Each change reads the acting member's own role from the database inside its transaction, so a
// route that forgot its guard still cannot make one; each is audited, mails the person and ends their
// sessions (staff-events.server.ts).

export type StaffRefusal =
  | "admin-staff.members.errors.notAllowed"
  | "admin-staff.members.errors.ownerOnly"
  | "admin-staff.members.errors.ownRole"
  | "admin-staff.members.errors.lastOwner"
  | "admin-staff.members.errors.noAccount"
  | "admin-staff.members.errors.alreadyStaff"
  | "admin-staff.members.errors.notStaff"
  | "admin-staff.members.errors.sameRole";

/**
 * The kind each refusal is: an actor whose role does not manage the staff, a non-Owner touching an
 * Owner, and anyone changing their own role are not allowed; no account of that email, or a member who
 * is not (or no longer) on the staff, is not found; the last Owner, an account already on the staff and
 * a role it already has conflict with the present state.
 */
const REFUSAL_KINDS = {
  "admin-staff.members.errors.notAllowed": "forbidden",
  "admin-staff.members.errors.ownerOnly": "forbidden",
  "admin-staff.members.errors.ownRole": "forbidden",
  "admin-staff.members.errors.lastOwner": "conflict",
  "admin-staff.members.errors.noAccount": "notFound",
  "admin-staff.members.errors.alreadyStaff": "conflict",
  "admin-staff.members.errors.notStaff": "notFound",
  "admin-staff.members.errors.sameRole": "conflict",
} as const satisfies Record<StaffRefusal, FailureKind>;

type StaffFailure = {
  [E in StaffRefusal]: { ok: false; kind: (typeof REFUSAL_KINDS)[E]; error: E };
}[StaffRefusal];

export type StaffChangeResult = { ok: true; userId: string; name: string } | StaffFailure;

function refuse(error: StaffRefusal): never {
  throw new Refusal<StaffChangeResult>({
    ok: false,
    kind: REFUSAL_KINDS[error],
    error,
  } as StaffFailure);
}

/** Each role's place in the list: the Owners first, a member without a known role last. */
const ROLE_ORDER = (role: StaffRole | null) =>
  role === null ? STAFF_ROLES.length : STAFF_ROLES.indexOf(role);

/**
 * The staff: every active account with the staff's sign-in (`role` 'admin'), its staff role, whether it
 * signs in with a second factor and its last completed sign-in (the login records' last success for its
 * address: one seek in their email index per member). Owners first, then by role and name.
 */
export async function listStaff(db: Db): Promise<StaffMember[]> {
  const rows = await db
    .selectFrom("users")
    .select([
      "users.id",
      "users.name",
      "users.email",
      "users.staff_role",
      "users.two_factor_enabled",
      sql<string | null>`(select max(login_attempts.created_at) from login_attempts
        where login_attempts.email = users.email and login_attempts.succeeded = 1)`.as(
        "last_sign_in_at",
      ),
    ])
    .where("users.role", "=", "admin")
    .where("users.status", "=", "active")
    .execute();
  return rows
    .map((row): StaffMember => ({
      id: row.id,
      name: row.name,
      email: row.email,
      staffRole: staffRoleOf(row.staff_role),
      // A boolean on PostgreSQL, 0 or 1 on SQLite.
      twoFactorEnabled: Boolean(row.two_factor_enabled),
      lastSignInAt: row.last_sign_in_at ? new Date(row.last_sign_in_at).toISOString() : null,
    }))
    .sort(
      (a, b) =>
        ROLE_ORDER(a.staffRole) - ROLE_ORDER(b.staffRole) ||
        a.name.localeCompare(b.name) ||
        a.id.localeCompare(b.id),
    );
}

/**
 * Holds every member of the staff, and `alsoId`, for the rest of the transaction, so that staff changes
 * happen one after another: two Owners demoting each other at once would each count two Owners and
 * leave none. On PostgreSQL their rows are locked in id order, one statement (a second change waits,
 * then reads what the first wrote, since each statement of a transaction reads what is committed when
 * it starts); SQLite's transactions hold its single write lock from their first statement already.
 */
async function holdStaff(trx: Tx, alsoId?: string): Promise<void> {
  if (!isPostgres(trx)) return;
  await trx
    .selectFrom("users")
    .select("id")
    .where((eb) =>
      eb.or([
        eb.and([eb("role", "=", "admin"), eb("status", "=", "active")]),
        ...(alsoId ? [eb("id", "=", alsoId)] : []),
      ]),
    )
    .orderBy("id")
    .forUpdate()
    .execute();
}

/**
 * The acting member's role as the database has it now (not as their session or the page says): it must
 * hold `staff.manage`, or nothing is changed.
 */
async function managingRole(trx: Tx, actorId: string): Promise<StaffRole> {
  const actor = await trx
    .selectFrom("users")
    .select(["role", "staff_role"])
    .where("id", "=", actorId)
    .where("status", "=", "active")
    .executeTakeFirst();
  const role = actor?.role === "admin" ? staffRoleOf(actor.staff_role) : null;
  if (!role || !can(role, "staff.manage")) refuse("admin-staff.members.errors.notAllowed");
  return role;
}

/** The member of the staff `userId` names, active, with their stored role read back. */
async function memberOf(trx: Tx, userId: string) {
  const member = await trx
    .selectFrom("users")
    .select(["id", "name", "staff_role"])
    .where("id", "=", userId)
    .where("role", "=", "admin")
    .where("status", "=", "active")
    .executeTakeFirst();
  if (!member) refuse("admin-staff.members.errors.notStaff");
  return { id: member.id, name: member.name, role: staffRoleOf(member.staff_role) };
}

/** How many active Owners there are besides `userId`. */
async function otherOwners(trx: Tx, userId: string): Promise<number> {
  const row = await trx
    .selectFrom("users")
    .select((eb) => eb.fn.countAll<number>().as("n"))
    .where("role", "=", "admin")
    .where("status", "=", "active")
    .where("staff_role", "=", "owner")
    .where("id", "!=", userId)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/**
 * The checks a change to a member's role makes, in this order: there is always an Owner (the last one
 * is told so, even when it is themselves asking); nobody changes their own role (another Owner does
 * it, so no one strips, or raises, their own powers by a slip or a stolen session); only an Owner makes
 * or unmakes an Owner.
 */
async function checkChange(
  trx: Tx,
  input: { actor: StaffRole; actorId: string; member: { id: string; role: StaffRole | null } },
  to: StaffRole | null,
): Promise<void> {
  const { actor, actorId, member } = input;
  if (member.role === "owner" && to !== "owner" && (await otherOwners(trx, member.id)) === 0)
    refuse("admin-staff.members.errors.lastOwner");
  if (member.id === actorId) refuse("admin-staff.members.errors.ownRole");
  if (!mayAssignRole(actor, member.role, to)) refuse("admin-staff.members.errors.ownerOnly");
}

/**
 * Writes a member's new role (`to`; null: back to a customer) on the condition that the row is still
 * as read and, when it was an Owner's, that another Owner remains: the database itself never writes a
 * staff without an Owner, whatever a caller checked before.
 */
async function writeRole(
  trx: Tx,
  member: { id: string; role: StaffRole | null },
  to: StaffRole | null,
  now: string,
): Promise<void> {
  let update = trx
    .updateTable("users")
    .set(
      to
        ? { staff_role: to, updated_at: now }
        : { role: "user", staff_role: null, updated_at: now },
    )
    .where("id", "=", member.id)
    .where("role", "=", "admin")
    .where("status", "=", "active");
  if (member.role === "owner" && to !== "owner")
    update = update
      .where("staff_role", "=", "owner")
      .where(({ exists, selectFrom }) =>
        exists(
          selectFrom("users as owners")
            .select("owners.id")
            .where("owners.role", "=", "admin")
            .where("owners.status", "=", "active")
            .where("owners.staff_role", "=", "owner")
            .whereRef("owners.id", "!=", "users.id"),
        ),
      );
  const written = await update.executeTakeFirst();
  if (Number(written.numUpdatedRows) !== 1) refuse("admin-staff.members.errors.lastOwner");
}

/**
 * An Owner makes an existing account a member of the staff with `role`, found by its email: refused
 * when no active account has that address (the person signs up first) or it is on the staff already,
 * and an Owner is made only by an Owner. The account's sessions end, so the person signs in again with
 * the staff's shorter session and the rules of their role (two-factor sign-in when it requires it).
 */
export async function addStaffMember(
  db: Db,
  input: { actorId: string; email: string; role: StaffRole; now?: Date },
): Promise<StaffChangeResult> {
  const email = input.email.trim().toLowerCase();
  return inTransaction(db, async (trx): Promise<StaffChangeResult> => {
    const found = await trx
      .selectFrom("users")
      .select("id")
      .where("email", "=", email)
      .where("status", "=", "active")
      .executeTakeFirst();
    await holdStaff(trx, found?.id);
    const actor = await managingRole(trx, input.actorId);
    if (!found) refuse("admin-staff.members.errors.noAccount");
    const account = await trx
      .selectFrom("users")
      .select(["id", "name", "role"])
      .where("id", "=", found.id)
      .where("status", "=", "active")
      .executeTakeFirst();
    if (!account) refuse("admin-staff.members.errors.noAccount");
    if (account.role === "admin") refuse("admin-staff.members.errors.alreadyStaff");
    if (!mayAssignRole(actor, null, input.role)) refuse("admin-staff.members.errors.ownerOnly");

    const at = (input.now ?? new Date()).toISOString();
    const written = await trx
      .updateTable("users")
      .set({ role: "admin", staff_role: input.role, updated_at: at })
      .where("id", "=", account.id)
      .where("role", "!=", "admin")
      .executeTakeFirst();
    if (Number(written.numUpdatedRows) !== 1) refuse("admin-staff.members.errors.alreadyStaff");
    const sessionsEnded = await endUserSessions(trx, account.id);
    await record(
      trx,
      {
        type: "staff.added",
        actorId: input.actorId,
        userId: account.id,
        role: input.role,
        sessionsEnded,
        at,
      },
      input.now,
    );
    return { ok: true, userId: account.id, name: account.name };
  });
}

/**
 * An Owner gives a member of the staff another role (checkChange's rules; the same role again is
 * refused as nothing to change). The member's sessions end: they sign in again under the new role,
 * which may require two-factor sign-in, and no view of the site as a customer outlives the change.
 */
export async function changeStaffRole(
  db: Db,
  input: { actorId: string; userId: string; role: StaffRole; now?: Date },
): Promise<StaffChangeResult> {
  return inTransaction(db, async (trx): Promise<StaffChangeResult> => {
    await holdStaff(trx);
    const actor = await managingRole(trx, input.actorId);
    const member = await memberOf(trx, input.userId);
    await checkChange(trx, { actor, actorId: input.actorId, member }, input.role);
    if (member.role === input.role) refuse("admin-staff.members.errors.sameRole");

    const at = (input.now ?? new Date()).toISOString();
    await writeRole(trx, member, input.role, at);
    const sessionsEnded = await endUserSessions(trx, member.id);
    await record(
      trx,
      {
        type: "staff.roleChanged",
        actorId: input.actorId,
        userId: member.id,
        from: member.role,
        to: input.role,
        sessionsEnded,
        at,
      },
      input.now,
    );
    return { ok: true, userId: member.id, name: member.name };
  });
}

/**
 * An Owner removes a member from the staff: the account is a customer again (`role` 'user', no staff
 * role), with its orders, services and coins as they were, and its sessions end (checkChange's rules:
 * never the last Owner, never oneself).
 */
export async function removeStaffMember(
  db: Db,
  input: { actorId: string; userId: string; now?: Date },
): Promise<StaffChangeResult> {
  return inTransaction(db, async (trx): Promise<StaffChangeResult> => {
    await holdStaff(trx);
    const actor = await managingRole(trx, input.actorId);
    const member = await memberOf(trx, input.userId);
    await checkChange(trx, { actor, actorId: input.actorId, member }, null);

    const at = (input.now ?? new Date()).toISOString();
    await writeRole(trx, member, null, at);
    const sessionsEnded = await endUserSessions(trx, member.id);
    await record(
      trx,
      {
        type: "staff.removed",
        actorId: input.actorId,
        userId: member.id,
        from: member.role,
        sessionsEnded,
        at,
      },
      input.now,
    );
    return { ok: true, userId: member.id, name: member.name };
  });
}
