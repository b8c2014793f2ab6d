import type { StaffRole } from "~/domain/staff/permissions";
import { labelKeys } from "~/lib/label-keys";

// The admin dashboard's setup checklist (docs/admin.md "The dashboard"): what a new shop still lacks
// before it can sell, invoice and run game servers. Pure and safe in the browser: the items, the rule
// each one ticks by, and where each is done. The facts come from one read (setup-checklist.server.ts).
// Nothing is stored: an item ticks itself off once its condition holds, and the list goes once all do.

export const SETUP_ITEM_IDS = [
  "company",
  "payments",
  "mail",
  "gamePanel",
  "twoFactor",
  "prices",
] as const;
export type SetupItemId = (typeof SETUP_ITEM_IDS)[number];

/** The admin page where each item is done (a card's id after `#` on the settings page). */
export const SETUP_ITEM_PATHS = {
  company: "/admin/settings#invoicing",
  payments: "/admin/gateways",
  mail: "/admin/mail",
  gamePanel: "/admin/settings/game-panel",
  twoFactor: "/admin/settings#security",
  prices: "/admin/products",
} as const satisfies Record<SetupItemId, string>;

/** Each item's name, what it asks and when it is done (its rule), and its link's text (`admin`). */
export const SETUP_ITEM_TITLES = labelKeys("admin", "dashboard.setup.titles", SETUP_ITEM_IDS);
export const SETUP_ITEM_RULES = labelKeys("admin", "dashboard.setup.rules", SETUP_ITEM_IDS);
export const SETUP_ITEM_ACTIONS = labelKeys("admin", "dashboard.setup.actions", SETUP_ITEM_IDS);

/**
 * The roles that move money and secrets (payments, refunds, keys, roles): the shop should require
 * two-factor sign-in of both, as a new install does.
 */
export const TWO_FACTOR_EXPECTED_ROLES = [
  "owner",
  "billing",
] as const satisfies readonly StaffRole[];

/** Which of Owner and Billing the settings let sign in without a second factor. */
export const TWO_FACTOR_GAPS = ["owner", "billing", "both"] as const;
export type TwoFactorGap = (typeof TWO_FACTOR_GAPS)[number];

/**
 * Of Owner and Billing, those the security settings do not require two-factor sign-in of, or null when
 * both are required. An install from before roles kept its choice (all roles or none), so this is what
 * its dashboard tells it.
 */
export function twoFactorGap(twoFactorRoles: readonly StaffRole[]): TwoFactorGap | null {
  const missing = TWO_FACTOR_EXPECTED_ROLES.filter((role) => !twoFactorRoles.includes(role));
  if (missing.length === 0) return null;
  return missing.length === 1 ? missing[0]! : "both";
}

/** The dashboard's notice for each gap, and its checklist's detail (`admin`). */
export const TWO_FACTOR_GAP_NOTICES = labelKeys(
  "admin",
  "dashboard.twoFactorRule",
  TWO_FACTOR_GAPS,
);
export const TWO_FACTOR_GAP_DETAILS = labelKeys(
  "admin",
  "dashboard.setup.details.twoFactorNotRequired",
  TWO_FACTOR_GAPS,
);

/** Kept messages are counted up to here ("more than 1,000"): the outbox is never pruned. */
export const KEPT_MAIL_COUNTED = 1_000;

/** What the checklist is decided from: the settings' part, the environment's, and counts read at once. */
export interface SetupFacts {
  seller: { name: string; address: string; taxId: string };
  /** Payment methods a customer may pay with now. */
  enabledPaymentMethods: number;
  /** SMTP_URL is set: mail is sent, not kept in the outbox. */
  mailEnabled: boolean;
  /** Messages kept unsent in the outbox, counted up to KEPT_MAIL_COUNTED + 1. */
  keptMail: number;
  /** A game panel is saved and has answered a check (its snapshot was read). */
  panelAnswered: boolean;
  /** The staff roles the security settings require two-factor sign-in of. */
  twoFactorRoles: readonly StaffRole[];
  /** Active members of Owner and Billing without two-factor sign-in. */
  membersWithoutTwoFactor: number;
  /** Products customers can order. */
  productsOnSale: number;
  /** Of those, priced at nothing. */
  freeProductsOnSale: number;
  /** Of those, seeded sample plans still at their sample price that no admin has saved since. */
  sampleProductsOnSale: number;
}

/** Why an open item is still open, beyond its rule: what a count says of it (texts in the page). */
export type SetupDetail =
  | { kind: "keptMail"; count: number }
  | { kind: "keptMailOver"; limit: number }
  | { kind: "membersWithoutTwoFactor"; count: number }
  | { kind: "twoFactorNotRequired"; gap: TwoFactorGap }
  | { kind: "nothingOnSale" }
  | { kind: "freeProducts"; count: number }
  | { kind: "samplePrices"; count: number };

export interface SetupItem {
  id: SetupItemId;
  done: boolean;
  /** Where it is done. */
  to: string;
  /** Its name (`admin` namespace); SETUP_ITEM_RULES and SETUP_ITEM_ACTIONS give the rest. */
  message: (typeof SETUP_ITEM_TITLES)[SetupItemId];
  /** What is still missing, when there is more to say than the rule (none once done). */
  details: SetupDetail[];
}

const filled = (text: string) => text.trim() !== "";

function detailsOf(id: SetupItemId, facts: SetupFacts): SetupDetail[] {
  switch (id) {
    case "mail":
      if (facts.keptMail > KEPT_MAIL_COUNTED)
        return [{ kind: "keptMailOver", limit: KEPT_MAIL_COUNTED }];
      return facts.keptMail > 0 ? [{ kind: "keptMail", count: facts.keptMail }] : [];
    case "twoFactor": {
      const gap = twoFactorGap(facts.twoFactorRoles);
      return [
        ...(gap ? [{ kind: "twoFactorNotRequired", gap } as const] : []),
        ...(facts.membersWithoutTwoFactor > 0
          ? [{ kind: "membersWithoutTwoFactor", count: facts.membersWithoutTwoFactor } as const]
          : []),
      ];
    }
    case "prices":
      if (facts.productsOnSale === 0) return [{ kind: "nothingOnSale" }];
      return [
        ...(facts.freeProductsOnSale > 0
          ? [{ kind: "freeProducts", count: facts.freeProductsOnSale } as const]
          : []),
        ...(facts.sampleProductsOnSale > 0
          ? [{ kind: "samplePrices", count: facts.sampleProductsOnSale } as const]
          : []),
      ];
    default:
      return [];
  }
}

/**
 * Each item's rule:
 * - company: the seller's name, address and tax number (ICE) are filled in (they are printed on invoices);
 * - payments: at least one payment method is enabled (else customers read "No payment method is open");
 * - mail: SMTP_URL is set (else every message is kept in the outbox, unsent);
 * - gamePanel: a panel is saved and has answered a check;
 * - twoFactor: Owner and Billing are required to use two-factor sign-in, and every active member of
 *   them has it;
 * - prices: at least one product is on sale, none of them free, and none a sample plan still at its
 *   seeded price that no admin has saved (saving it keeps the price; hiding it takes it off sale).
 */
function isDone(id: SetupItemId, facts: SetupFacts): boolean {
  switch (id) {
    case "company":
      return [facts.seller.name, facts.seller.address, facts.seller.taxId].every(filled);
    case "payments":
      return facts.enabledPaymentMethods > 0;
    case "mail":
      return facts.mailEnabled;
    case "gamePanel":
      return facts.panelAnswered;
    case "twoFactor":
      return twoFactorGap(facts.twoFactorRoles) === null && facts.membersWithoutTwoFactor === 0;
    case "prices":
      return (
        facts.productsOnSale > 0 &&
        facts.freeProductsOnSale === 0 &&
        facts.sampleProductsOnSale === 0
      );
  }
}

/** Every item, in the list's order, done or not. */
export function setupItems(facts: SetupFacts): SetupItem[] {
  return SETUP_ITEM_IDS.map((id) => {
    const done = isDone(id, facts);
    return {
      id,
      done,
      to: SETUP_ITEM_PATHS[id],
      message: SETUP_ITEM_TITLES[id],
      details: done ? [] : detailsOf(id, facts),
    };
  });
}

/** What the dashboard shows: the items and how many are done, or nothing once every one is. */
export interface SetupChecklist {
  items: SetupItem[];
  done: number;
}

export function setupChecklist(facts: SetupFacts): SetupChecklist | null {
  const items = setupItems(facts);
  const done = items.filter((item) => item.done).length;
  return done === items.length ? null : { items, done };
}
