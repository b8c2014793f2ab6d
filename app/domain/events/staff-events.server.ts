import type { AuditEntry } from "~/domain/audit/audit.server";
import type { StaffRole } from "~/domain/staff/permissions";
import type { ReactionTable } from "./reaction.server";

/**
 * The staff's changes on /admin/staff (docs/staff.md): an account made a member with a role, a member's
 * role changed, a member removed (a customer again). `actorId` is the Owner who did it, `at` when, and
 * `sessionsEnded` how many of the person's sessions the change ended (they sign in again under it).
 */
export type StaffEvent =
  | {
      type: "staff.added";
      actorId: string;
      userId: string;
      role: StaffRole;
      sessionsEnded: number;
      at: string;
    }
  | {
      type: "staff.roleChanged";
      actorId: string;
      userId: string;
      /** Null: a stored role that named none of STAFF_ROLES (it held no permission). */
      from: StaffRole | null;
      to: StaffRole;
      sessionsEnded: number;
      at: string;
    }
  | {
      type: "staff.removed";
      actorId: string;
      userId: string;
      from: StaffRole | null;
      sessionsEnded: number;
      at: string;
    };

/** A staff change's audit entry: on the person's account, their role and staff role before and after. */
function staffChange(
  event: StaffEvent,
  action: string,
  before: { role: string; staffRole: StaffRole | null },
  after: { role: string; staffRole: StaffRole | null },
): AuditEntry {
  return {
    actorId: event.actorId,
    action,
    targetType: "user",
    targetId: event.userId,
    before,
    after: { ...after, sessionsEnded: event.sessionsEnded },
  };
}

/**
 * What follows a staff change: its audit entry, and the person's mail in their language (security mail:
 * whoever gains or loses the staff's powers hears of it at once, whether they expected it or not).
 */
export const staffReactions: ReactionTable<StaffEvent> = {
  "staff.added": {
    audit: (event) =>
      staffChange(
        event,
        "staff.add",
        { role: "user", staffRole: null },
        { role: "admin", staffRole: event.role },
      ),
    mail: ({ userId, role, at }) => ({
      kind: "roleChanged",
      userId,
      change: "added",
      from: null,
      to: role,
      at,
    }),
  },
  "staff.roleChanged": {
    audit: (event) =>
      staffChange(
        event,
        "staff.role_change",
        { role: "admin", staffRole: event.from },
        { role: "admin", staffRole: event.to },
      ),
    mail: ({ userId, from, to, at }) => ({
      kind: "roleChanged",
      userId,
      change: "changed",
      from,
      to,
      at,
    }),
  },
  "staff.removed": {
    audit: (event) =>
      staffChange(
        event,
        "staff.remove",
        { role: "admin", staffRole: event.from },
        { role: "user", staffRole: null },
      ),
    mail: ({ userId, from, at }) => ({
      kind: "roleChanged",
      userId,
      change: "removed",
      from,
      to: null,
      at,
    }),
  },
};
