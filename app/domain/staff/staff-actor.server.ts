import { sql } from "kysely";
import { Refusal, type Tx } from "~/db/transaction";
import { lockUser } from "~/domain/accounts/user-lock.server";
import type { LedgerKind } from "~/domain/coins/coins";
import { getSettings } from "~/domain/settings/settings.server";
import {
  can,
  coinBounds,
  coinChangeRefusal,
  staffRoleOf,
  type Permission,
  type StaffRole,
} from "./permissions";
import { siteDay } from "./site-day";

// The use-cases that move money or secrets check their actor again, whatever route called them (ADR 57):
// a route that forgot its guard, a session whose role was changed a moment ago, a test or a command
// calling the domain directly all meet the same rule. Each check reads the actor inside the use-case's
// own transaction, so what it decides on is what the change commits with.

/** A member of the staff acting: their account and their role (null: a role this version does not know). */
export interface StaffActor {
  id: string;
  role: StaffRole | null;
}

/** A use-case refused because its actor's role lacks `permission` (403). */
export interface StaffForbidden {
  ok: false;
  kind: "forbidden";
  error: "admin-staff.checks.forbidden";
  permission: Permission;
}

export function staffForbidden(permission: Permission): StaffForbidden {
  return { ok: false, kind: "forbidden", error: "admin-staff.checks.forbidden", permission };
}

/**
 * Step: the acting account as a member of the staff, or null when it is none: no such account, a
 * customer, or a member whose account is no longer active.
 */
export async function staffActorOf(trx: Tx, actorId: string): Promise<StaffActor | null> {
  const row = await trx
    .selectFrom("users")
    .select(["id", "role", "staff_role", "status"])
    .where("id", "=", actorId)
    .executeTakeFirst();
  if (!row || row.role !== "admin" || row.status !== "active") return null;
  return { id: row.id, role: staffRoleOf(row.staff_role) };
}

/** How a check refuses, besides with StaffForbidden. */
interface RequireOptions {
  /**
   * What refuses an actor who is no member of the staff at all: the use-case's own refusal where it had
   * one before roles (its callers and tests know it); else the permission's.
   */
  notStaff?: { ok: false; kind: string; error: string };
  /** Merged into the permission's refusal: the form field a use-case's refusals always name. */
  about?: Record<string, unknown>;
}

/**
 * Step: the member of the staff acting, whose role holds `permission`; anyone else rolls the caller's
 * transaction back with `StaffForbidden` (or `options.notStaff` when they are no member of the staff).
 */
export async function requireStaffPermission(
  trx: Tx,
  actorId: string,
  permission: Permission,
  options: RequireOptions = {},
): Promise<StaffActor> {
  const actor = await staffActorOf(trx, actorId);
  if (!actor && options.notStaff) throw new Refusal(options.notStaff);
  if (!actor || !can(actor.role, permission))
    throw new Refusal({ ...staffForbidden(permission), ...options.about });
  return actor;
}

/**
 * Step: as requireStaffPermission, except that a null actor is the system (the worker's jobs and
 * automatic decisions, the command line), which no role bounds and which passes.
 */
export async function requireStaffPermissionOrSystem(
  trx: Tx,
  actorId: string | null,
  permission: Permission,
  options: RequireOptions = {},
): Promise<StaffActor | null> {
  return actorId === null ? null : requireStaffPermission(trx, actorId, permission, options);
}

/** A coin change over the bounds of its actor's role (403), with what the message says. */
export type CoinCapRefusal =
  | StaffForbidden
  | { ok: false; kind: "forbidden"; error: "admin-staff.checks.coinsCreditsOnly" }
  | {
      ok: false;
      kind: "forbidden";
      error: "admin-staff.checks.coinsPerChange";
      params: { cap: string };
    }
  | {
      ok: false;
      kind: "forbidden";
      error: "admin-staff.checks.coinsPerDay";
      params: { left: string };
    };

/**
 * The ledger kinds a staff member's coin change writes (adjustCoins): an adjustment, or coins bought
 * through a ticket. Both count towards a daily limit, or choosing "payment" on the ticket's form would
 * step around it.
 */
const STAFF_CREDIT_KINDS: readonly LedgerKind[] = ["admin_adjustment", "coin_purchase"];

/** Coins as a message shows them: whole coins plain, else with their two decimals ("12.50"). */
function coinsText(cents: number): string {
  return cents % 100 === 0 ? String(cents / 100) : (cents / 100).toFixed(2);
}

/**
 * Step, first in a staff member's coin change: the actor must hold `coins.adjust`, and `amountCents`
 * (what they asked for, either way) must be within their role's bounds (`coinBounds` of the security
 * settings): Billing's most per change, Support's credits only, at most the daily limit in one change and
 * in a day. The day is the site's (its time zone) at `now`, and what was given in it is read from the
 * ledger: the credits this actor wrote that day. A daily limit locks the actor's row first, so two
 * credits at once are counted one after the other (the second reads the first's row once it commits)
 * and cannot pass the limit together.
 */
export async function requireCoinChangeAllowed(
  trx: Tx,
  input: { actorId: string; amountCents: number; now: Date },
): Promise<StaffActor> {
  const actor = await requireStaffPermission(trx, input.actorId, "coins.adjust");
  const settings = await getSettings(trx);
  const bounds = coinBounds(actor.role, settings.security);
  let givenTodayCents = 0;
  if (bounds?.perDayCents != null && input.amountCents > 0) {
    await lockUser(trx, actor.id);
    const day = siteDay(settings.general.timeZone, input.now);
    const given = await trx
      .selectFrom("coin_ledger")
      .select(sql<number | string | null>`sum(amount_cents)`.as("cents"))
      .where("actor_id", "=", actor.id)
      .where("amount_cents", ">", 0)
      .where("kind", "in", STAFF_CREDIT_KINDS)
      .where("created_at", ">=", day.start.toISOString())
      .where("created_at", "<", day.end.toISOString())
      .executeTakeFirst();
    givenTodayCents = Number(given?.cents ?? 0);
  }
  const refusal = coinChangeRefusal(bounds, input.amountCents, givenTodayCents);
  if (refusal === null) return actor;
  const refused: CoinCapRefusal =
    refusal === "notAllowed"
      ? staffForbidden("coins.adjust")
      : refusal === "creditsOnly"
        ? { ok: false, kind: "forbidden", error: "admin-staff.checks.coinsCreditsOnly" }
        : refusal === "perChange"
          ? {
              ok: false,
              kind: "forbidden",
              error: "admin-staff.checks.coinsPerChange",
              params: { cap: coinsText(bounds?.perChangeCents ?? 0) },
            }
          : {
              ok: false,
              kind: "forbidden",
              error: "admin-staff.checks.coinsPerDay",
              params: {
                left: coinsText(Math.max(0, (bounds?.perDayCents ?? 0) - givenTodayCents)),
              },
            };
  throw new Refusal(refused);
}
