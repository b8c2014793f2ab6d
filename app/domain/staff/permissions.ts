import { labelKeys } from "~/lib/label-keys";

/**
 * What a member of the staff may do, as data (docs/staff.md, ADR 57). Each admin page and form names the
 * one permission it needs; a role is the list of permissions it holds. Nothing here reads a request or
 * the database: the guard (app/http/guards.server.ts) and the use-cases that move money or secrets ask
 * `can()` with the staff member's role.
 */
export const PERMISSIONS = [
  "clients.view",
  "clients.edit",
  "clients.viewAs",
  "coins.adjust",
  "topups.decide",
  "orders.view",
  "orders.decide",
  "invoices.view",
  "invoices.refund",
  "gateways.manage",
  "products.manage",
  "services.view",
  "services.manage",
  "panel.manage",
  "tickets.reply",
  "inbox.manage",
  "announcements.manage",
  "knowledgebase.manage",
  "automation.run",
  "mail.view",
  "settings.manage",
  "staff.manage",
  "logs.view",
  "reports.view",
  "affiliates.manage",
  // Mail campaigns to the customers and the newsletter's subscribers: the Owner's alone.
  "campaigns.manage",
] as const;
export type Permission = (typeof PERMISSIONS)[number];

/** The roles a member of the staff has, the most trusted first. */
export const STAFF_ROLES = ["owner", "billing", "support", "technician"] as const;
export type StaffRole = (typeof STAFF_ROLES)[number];

/**
 * Each role's permissions. Owner holds all. Billing decides money: top-ups, orders, invoices and
 * refunds, coin changes up to a cap per change. Support answers tickets and the inbox, reads the client
 * pages (orders, services, invoices, the mail sent), writes the knowledge base and may give goodwill
 * coins up to a daily cap.
 * Technician runs the services, the game panel and the automation queue (not the mail outbox: it
 * shows every customer's address and mail, which the role has no call to read). Viewing the site as a
 * customer (read-only) is Owner's and Support's.
 */
export const ROLE_PERMISSIONS: Readonly<Record<StaffRole, readonly Permission[]>> = {
  owner: PERMISSIONS,
  billing: [
    "clients.view",
    "coins.adjust",
    "topups.decide",
    "orders.view",
    "orders.decide",
    "invoices.view",
    "invoices.refund",
    "services.view",
    "reports.view",
    "affiliates.manage",
  ],
  support: [
    "clients.view",
    "clients.viewAs",
    "coins.adjust",
    "orders.view",
    "invoices.view",
    "services.view",
    "tickets.reply",
    "inbox.manage",
    "mail.view",
    "knowledgebase.manage",
  ],
  technician: ["services.view", "services.manage", "panel.manage", "automation.run"],
};

/** Whether a staff role holds a permission; a customer (no staff role) holds none. */
export function can(role: StaffRole | null | undefined, permission: Permission): boolean {
  return role ? ROLE_PERMISSIONS[role].includes(permission) : false;
}

/** A stored staff role read back: one of STAFF_ROLES, else null (never a role it does not name). */
export function staffRoleOf(value: unknown): StaffRole | null {
  return typeof value === "string" && (STAFF_ROLES as readonly string[]).includes(value)
    ? (value as StaffRole)
    : null;
}

/** Only an Owner makes (or unmakes) an Owner. */
export function mayAssignRole(
  actor: StaffRole | null,
  from: StaffRole | null,
  to: StaffRole | null,
) {
  if (!can(actor, "staff.manage")) return false;
  if (from === "owner" || to === "owner") return actor === "owner";
  return true;
}

/**
 * How a coin change by a staff member is bounded, in cents: `perChange` is the most one change may move
 * (either way), `perDay` the most of credits the member may give in a day, `creditsOnly` that they may
 * only give. Null means no bound of that kind beyond the form's own limit. The caps are settings (the
 * staff section); a role without `coins.adjust` changes nothing.
 */
export interface CoinBounds {
  perChangeCents: number | null;
  perDayCents: number | null;
  creditsOnly: boolean;
}

export interface CoinCaps {
  /** Billing: the most one change may move, in coins. */
  billingCoinCap: number;
  /** Support: the most of goodwill credit a member may give in a day, in coins. */
  supportDailyCoinCap: number;
}

export function coinBounds(role: StaffRole | null, caps: CoinCaps): CoinBounds | null {
  if (!can(role, "coins.adjust")) return null;
  if (role === "billing")
    return { perChangeCents: caps.billingCoinCap * 100, perDayCents: null, creditsOnly: false };
  if (role === "support")
    return {
      perChangeCents: caps.supportDailyCoinCap * 100,
      perDayCents: caps.supportDailyCoinCap * 100,
      creditsOnly: true,
    };
  return { perChangeCents: null, perDayCents: null, creditsOnly: false };
}

/** Why a coin change is over a staff member's bounds, or null when it is within them. */
export type CoinBoundRefusal = "notAllowed" | "creditsOnly" | "perChange" | "perDay";

export function coinChangeRefusal(
  bounds: CoinBounds | null,
  amountCents: number,
  givenTodayCents: number,
): CoinBoundRefusal | null {
  if (!bounds) return "notAllowed";
  if (bounds.creditsOnly && amountCents < 0) return "creditsOnly";
  if (bounds.perChangeCents !== null && Math.abs(amountCents) > bounds.perChangeCents)
    return "perChange";
  if (
    bounds.perDayCents !== null &&
    amountCents > 0 &&
    givenTodayCents + amountCents > bounds.perDayCents
  )
    return "perDay";
  return null;
}

/** How long a proof of identity (a sign-in, a password or code typed again) stays fresh. */
export const FRESH_PROOF_MS = 15 * 60 * 1000;

/** Whether the last proof, at `provenAt`, is still fresh at `now`. */
export function isProofFresh(provenAt: string | null | undefined, now: Date): boolean {
  if (!provenAt) return false;
  const at = Date.parse(provenAt);
  return Number.isFinite(at) && now.getTime() - at < FRESH_PROOF_MS && at <= now.getTime() + 60_000;
}

export const PERMISSION_LABELS = labelKeys("admin-staff", "permissions", PERMISSIONS);
export const STAFF_ROLE_LABELS = labelKeys("admin-staff", "roles", STAFF_ROLES);
