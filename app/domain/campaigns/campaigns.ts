import { labelKeys } from "~/lib/label-keys";

// Mail campaigns' rules (docs/mail.md#campaigns), pure: a campaign's texts per language and its
// audience, the English fallback, the send's pace, and the one-click unsubscribe headers (RFC 8058).
// The database side is campaigns.server.ts; the tokens, campaign-tokens.server.ts.

/** The languages a campaign is written in; English is required and every reader's fallback. */
export const CAMPAIGN_LOCALES = ["en", "fr", "ar"] as const;
export type CampaignLocale = (typeof CAMPAIGN_LOCALES)[number];

/** The product types a customer group is made of (the catalogue's PRODUCT_TYPES). */
export const CAMPAIGN_PRODUCT_TYPES = ["samp", "mta", "vps", "game"] as const;
export type CampaignProductType = (typeof CAMPAIGN_PRODUCT_TYPES)[number];

export const CAMPAIGN_STATES = ["draft", "sent"] as const;
export type CampaignState = (typeof CAMPAIGN_STATES)[number];

export const MAX_CAMPAIGN_SUBJECT = 200;
export const MAX_CAMPAIGN_BODY = 20_000;

/** How many campaign messages the worker sends a minute unless CAMPAIGN_MAILS_PER_MINUTE says. */
export const DEFAULT_CAMPAIGN_MAILS_PER_MINUTE = 60;

/** How long the newsletter's confirmation link works. */
export const NEWSLETTER_CONFIRM_DAYS = 7;

export const UNSUBSCRIBE_PATH = "/unsubscribe";
export const NEWSLETTER_CONFIRM_PATH = "/newsletter/confirm";

export interface CampaignText {
  subject: string;
  body: string;
}
export type CampaignTexts = Record<CampaignLocale, CampaignText>;

/**
 * Who a campaign goes to: the confirmed newsletter subscribers, and/or the customers with an active
 * service of one of `productTypes`, of one of `locales` (none: any language).
 */
export interface CampaignAudience {
  newsletter: boolean;
  productTypes: CampaignProductType[];
  locales: CampaignLocale[];
}

/** A campaign as its pages show it. */
export interface Campaign {
  id: number;
  texts: CampaignTexts;
  audience: CampaignAudience;
  state: CampaignState;
  recipients: number;
  createdAt: string;
  updatedAt: string;
  testedAt: string | null;
  sentAt: string | null;
}

/** What a campaign's page reports once it is sent. */
export interface CampaignReport {
  queued: number;
  sent: number;
  failed: number;
  unsubscribed: number;
}

export const CAMPAIGN_STATE_LABELS = labelKeys("campaigns", "states", CAMPAIGN_STATES);
export const CAMPAIGN_LOCALE_LABELS = labelKeys("campaigns", "locales", CAMPAIGN_LOCALES);
export const CAMPAIGN_TYPE_LABELS = labelKeys("campaigns", "types", CAMPAIGN_PRODUCT_TYPES);

export const EMPTY_TEXTS: CampaignTexts = {
  en: { subject: "", body: "" },
  fr: { subject: "", body: "" },
  ar: { subject: "", body: "" },
};

/** Whether a language's text is written in full (a subject and a body). */
export function isWritten(text: CampaignText | undefined): boolean {
  return Boolean(text && text.subject.trim() && text.body.trim());
}

/** The text a reader of `locale` gets: theirs when written in full, else English. */
export function campaignTextFor(texts: CampaignTexts, locale: string): CampaignText {
  const own = (CAMPAIGN_LOCALES as readonly string[]).includes(locale)
    ? texts[locale as CampaignLocale]
    : undefined;
  return isWritten(own) ? own! : texts.en;
}

/** The languages a campaign is written in, English first. */
export function writtenLocales(texts: CampaignTexts): CampaignLocale[] {
  return CAMPAIGN_LOCALES.filter((locale) => isWritten(texts[locale]));
}

/** Whether an audience names anyone at all (the send refuses one that does not). */
export function hasAudience(audience: CampaignAudience): boolean {
  return audience.newsletter || audience.productTypes.length > 0;
}

/** A body's paragraphs: split at blank lines, each one's lines kept. */
export function bodyParagraphs(body: string): string[] {
  return body
    .replace(/\r\n?/g, "\n")
    .split(/\n\s*\n/)
    .map((paragraph) => paragraph.trim())
    .filter(Boolean);
}

/**
 * When the `index`-th message of a send is due: `perMinute` messages each minute from `now`, so the
 * worker, which only takes due jobs, sends at most that many a minute however many are queued.
 */
export function sendSlot(index: number, perMinute: number, now: Date): Date | undefined {
  const minute = Math.floor(index / Math.max(1, perMinute));
  return minute === 0 ? undefined : new Date(now.getTime() + minute * 60_000);
}

/** The unsubscribe address of a token, absolute. */
export function unsubscribeUrl(baseUrl: string, token: string): string {
  return `${baseUrl.replace(/\/$/, "")}${UNSUBSCRIBE_PATH}?token=${encodeURIComponent(token)}`;
}

/** The newsletter's confirmation address of a token, absolute. */
export function confirmUrl(baseUrl: string, token: string): string {
  return `${baseUrl.replace(/\/$/, "")}${NEWSLETTER_CONFIRM_PATH}?token=${encodeURIComponent(token)}`;
}

/**
 * RFC 8058's two headers: the address a mail provider posts `List-Unsubscribe=One-Click` to (https,
 * the site's public address), and the one that says it may.
 */
export function listUnsubscribeHeaders(url: string): Record<string, string> {
  return {
    "List-Unsubscribe": `<${url}>`,
    "List-Unsubscribe-Post": "List-Unsubscribe=One-Click",
  };
}

/**
 * The send job's extra headers (server/mail.ts): a campaign's message carries its one-click unsubscribe
 * address, made from its signed token and the site's public address at every attempt.
 */
export function campaignHeaders(publicUrl: string) {
  return ({ kind, params }: { kind: string; params: Record<string, unknown> }) =>
    kind === "campaign" && typeof params.token === "string" && params.token
      ? listUnsubscribeHeaders(unsubscribeUrl(publicUrl, params.token))
      : undefined;
}

/** Whether a posted body is RFC 8058's one-click unsubscribe. */
export function isOneClickBody(value: unknown): boolean {
  return value === "One-Click";
}
