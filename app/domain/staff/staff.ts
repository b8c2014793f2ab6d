import type { StaffRole } from "./permissions";

export type { StaffActionInput } from "./staff.schemas";

// The staff page's shared words and shapes (docs/staff.md): what the list shows of each member, the
// page's intents. Pure: the page's code imports it; the use-cases are staff.server.ts.

/** What the /admin/staff page's forms post: add an account, change a member's role, remove one. */
export const STAFF_INTENTS = ["add", "role", "remove"] as const;
export type StaffIntent = (typeof STAFF_INTENTS)[number];

/** One member of the staff as the page lists them. */
export interface StaffMember {
  id: string;
  name: string;
  email: string;
  /** Null for an account whose stored role is missing or unknown: it holds no permission. */
  staffRole: StaffRole | null;
  twoFactorEnabled: boolean;
  /**
   * Their last completed sign-in, from the login records (kept LOGIN_ATTEMPT_RETENTION_DAYS): null when
   * there is none in that time.
   */
  lastSignInAt: string | null;
}

/** The roles a member may hand out: an Owner any, anyone else (who may manage the staff) all but Owner. */
export function assignableRoles<R extends string>(
  actor: StaffRole | null,
  roles: readonly R[],
): R[] {
  return actor === "owner" ? [...roles] : roles.filter((role) => role !== "owner");
}
