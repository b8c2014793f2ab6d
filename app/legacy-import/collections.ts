import { MAX_CODE_LENGTH } from "~/domain/promotions/promotions";

/** The collections of the database document, in the order they are imported and reported. */
export const IMPORT_COLLECTIONS = [
  "users",
  "services",
  "orders",
  "userServices",
  "announcements",
  "vouchers",
  "settings",
  "tickets",
  "livechats",
] as const;
export type ImportCollection = (typeof IMPORT_COLLECTIONS)[number];

/** The separate keys the old login, registration and admin screens used beside the document. */
export const LEGACY_KEYS = [
  "users",
  "currentUser",
  "services",
  "orders",
  "userServices",
  "tickets",
] as const;
export type LegacyKey = (typeof LEGACY_KEYS)[number];

export const MAX_TITLE_LENGTH = 150;
export const MAX_CONTENT_LENGTH = 5000;
export const MAX_DESCRIPTION_LENGTH = 1000;
/** As long as a code the order form accepts. */
export const MAX_VOUCHER_CODE_LENGTH = MAX_CODE_LENGTH;
/** Spec section 9: an admin-added service, and an order, last 30 days. */
export const LEGACY_SERVICE_DAYS = 30;
/** The spec's seed voucher: 100 uses, 30 days. Used when a voucher omits them. */
export const DEFAULT_VOUCHER_USES = 100;
export const DEFAULT_VOUCHER_DAYS = 30;

export type Outcome = "imported" | "matched" | "skipped" | "already";
export type ImportCounts = Record<ImportCollection, Record<Outcome, number>>;

export function emptyCounts(): ImportCounts {
  return Object.fromEntries(
    IMPORT_COLLECTIONS.map((c) => [c, { imported: 0, matched: 0, skipped: 0, already: 0 }]),
  ) as ImportCounts;
}
