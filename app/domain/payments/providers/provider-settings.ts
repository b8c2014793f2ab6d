import { labelKeys } from "~/lib/label-keys";
import {
  PAYMENT_PROVIDERS,
  PROVIDER_API_URLS,
  PROVIDER_MODES,
  type ProviderCode,
  type ProviderMode,
} from "./provider";

// The online providers' connections as /admin/gateways shows and saves them (docs/payments.md "Online
// providers"). Pure and safe in the browser: the view never holds a secret, only its last four characters.

/** The longest public identifier (PayPal's client id is 80 characters), secret and webhook id kept. */
export const MAX_PUBLIC_ID_LENGTH = 200;
export const MAX_SECRET_LENGTH = 500;
export const MAX_WEBHOOK_ID_LENGTH = 100;
export const MAX_PROVIDER_URL_LENGTH = 300;

/** How many refused notifications a page of the admin's list shows. */
export const REFUSED_NOTIFICATIONS_PAGE_SIZE = 20;

/** Where a provider sends its notifications on this site: the address the admin gives the provider. */
export function providerWebhookPath(provider: ProviderCode): string {
  return `/hooks/payments/${provider}`;
}

/** A provider's connection as the admin's page shows it. */
export interface ProviderSettingsView {
  provider: ProviderCode;
  mode: ProviderMode;
  /** The saved address; the sandbox's documented one while nothing is saved. */
  apiUrl: string;
  publicId: string;
  /** The saved secret's last four characters, null while none is saved. */
  secretLast4: string | null;
  /** PayPal's webhook id ("" for YouCan Pay). */
  webhookId: string;
  /** A secret is saved: the provider's method may be enabled. */
  configured: boolean;
  updatedAt: string | null;
  /** `<site origin>/hooks/payments/<provider>`. */
  webhookUrl: string;
}

/** What the audit keeps of a provider's connection: everything but the secret, of which its last 4. */
export interface ProviderSettingsRef {
  mode: string;
  apiUrl: string;
  publicId: string;
  webhookId: string;
  secretLast4: string | null;
}

/** The outcomes of a notification that the admin is shown (never credited). */
export const REFUSED_OUTCOMES = ["badSignature", "unknownPayment", "mismatch"] as const;
export type RefusedOutcome = (typeof REFUSED_OUTCOMES)[number];

/** One refused notification in the admin's list. */
export interface RefusedNotification {
  id: number;
  provider: ProviderCode;
  eventType: string;
  outcome: RefusedOutcome;
  detail: string | null;
  receivedAt: string;
}

/**
 * The notifications refused before anything was kept, counted (migration 0049): a body over the size
 * limit, a replay of an event already had.
 */
export const COUNTED_REFUSALS = ["tooLarge", "replay"] as const;
export type CountedRefusal = (typeof COUNTED_REFUSALS)[number];

/** One counted refusal in the admin's list: `receivedAt` is the last time it was seen. */
export interface CountedRefusalEntry {
  id: number;
  provider: ProviderCode;
  outcome: CountedRefusal;
  /** The replayed event's id ("" for an oversized body). */
  eventId: string;
  /** The size the last oversized body declared, null when it was streamed without one. */
  bytes: number | null;
  count: number;
  firstSeenAt: string;
  receivedAt: string;
}

/** The admin's list: refused notifications and counted refusals, newest first. */
export type RefusedListEntry = RefusedNotification | CountedRefusalEntry;

export function isCountedRefusal(entry: RefusedListEntry): entry is CountedRefusalEntry {
  return (COUNTED_REFUSALS as readonly string[]).includes(entry.outcome);
}

/** Why a provider's settings were not saved, each on the field it belongs to. */
export type ProviderSettingsField = "apiUrl" | "publicId" | "secret" | "webhookId";
export type ProviderSettingsProblem =
  | "payments.providers.errors.urlInvalid"
  | "payments.providers.errors.urlLocal"
  | "payments.providers.errors.publicIdRequired"
  | "payments.providers.errors.webhookIdRequired"
  | "payments.providers.errors.secretRequired"
  | "payments.providers.errors.secretForNewUrl";

// Catalogue keys (payments namespace), one family each (docs/i18n.md, ADR 26).
export const PROVIDER_NAME_LABELS = labelKeys("payments", "providers.names", PAYMENT_PROVIDERS);
export const PROVIDER_MODE_LABELS = labelKeys("payments", "providers.modes", PROVIDER_MODES);
export const REFUSED_OUTCOME_LABELS = labelKeys("payments", "providers.outcomes", [
  ...REFUSED_OUTCOMES,
  ...COUNTED_REFUSALS,
]);

/** The documented address of `provider` in `mode`, what an empty address field stands for. */
export function defaultProviderUrl(provider: ProviderCode, mode: ProviderMode): string {
  return PROVIDER_API_URLS[provider][mode];
}
