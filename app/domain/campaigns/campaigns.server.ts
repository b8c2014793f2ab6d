import { inTransaction, refuse, type Db, type Tx } from "~/db/transaction";
import { record } from "~/domain/events/events.server";
import type { AddressedMail } from "~/domain/mail/mail-events";
import { getSettings } from "~/domain/settings/settings.server";
import {
  CAMPAIGN_LOCALES,
  CAMPAIGN_PRODUCT_TYPES,
  campaignTextFor,
  EMPTY_TEXTS,
  hasAudience,
  isWritten,
  sendSlot,
  writtenLocales,
  type Campaign,
  type CampaignAudience,
  type CampaignLocale,
  type CampaignReport,
  type CampaignState,
  type CampaignTexts,
} from "./campaigns";
import { signCampaignToken } from "./campaign-tokens.server";

// Mail campaigns (docs/mail.md#campaigns): written per language by the staff, tried on their own
// address, then sent once to their audience through the outbox, at the pace the worker is allowed.
// The newsletter's double opt-in and the unsubscribe links are newsletter.server.ts.

type CampaignRow = {
  id: number;
  texts: string;
  audience: string;
  state: string;
  recipients: number;
  created_at: string | Date;
  updated_at: string | Date;
  tested_at: string | Date | null;
  sent_at: string | Date | null;
};

const iso = (value: string | Date) => new Date(value).toISOString();

function parseJson(text: string): Record<string, unknown> {
  try {
    const value: unknown = JSON.parse(text);
    return value && typeof value === "object" && !Array.isArray(value)
      ? (value as Record<string, unknown>)
      : {};
  } catch {
    return {};
  }
}

function textsOf(text: string): CampaignTexts {
  const value = parseJson(text);
  const texts = { ...EMPTY_TEXTS };
  for (const locale of CAMPAIGN_LOCALES) {
    const each = value[locale];
    if (each && typeof each === "object") {
      const { subject, body } = each as Record<string, unknown>;
      texts[locale] = {
        subject: typeof subject === "string" ? subject : "",
        body: typeof body === "string" ? body : "",
      };
    }
  }
  return texts;
}

function audienceOf(text: string): CampaignAudience {
  const value = parseJson(text);
  const list = <T extends string>(raw: unknown, allowed: readonly T[]): T[] =>
    Array.isArray(raw) ? allowed.filter((each) => raw.includes(each)) : [];
  return {
    newsletter: value.newsletter === true,
    productTypes: list(value.productTypes, CAMPAIGN_PRODUCT_TYPES),
    locales: list(value.locales, CAMPAIGN_LOCALES),
  };
}

function campaignOf(row: CampaignRow): Campaign {
  return {
    id: Number(row.id),
    texts: textsOf(row.texts),
    audience: audienceOf(row.audience),
    state: (row.state === "sent" ? "sent" : "draft") satisfies CampaignState,
    recipients: Number(row.recipients),
    createdAt: iso(row.created_at),
    updatedAt: iso(row.updated_at),
    testedAt: row.tested_at ? iso(row.tested_at) : null,
    sentAt: row.sent_at ? iso(row.sent_at) : null,
  };
}

/** The campaigns, newest first (the list page). */
export async function listCampaigns(db: Db): Promise<Campaign[]> {
  const rows = await db
    .selectFrom("mail_campaigns")
    .selectAll()
    .orderBy("created_at", "desc")
    .orderBy("id", "desc")
    .limit(200)
    .execute();
  return rows.map(campaignOf);
}

/** One recipient of a campaign: the account it goes to (none for a subscriber), its address, language. */
export interface CampaignRecipient {
  userId: string | null;
  email: string;
  locale: string;
}

/**
 * Step: who `audience` reaches now, each address once: the confirmed newsletter subscribers who did not
 * unsubscribe, and the active customers with an active service of one of its product types (of one of
 * its languages, when it names any) who did not turn campaigns off in the account tab. A customer who is
 * a subscriber too is mailed once, as the customer.
 */
export async function campaignRecipients(
  db: Db | Tx,
  audience: CampaignAudience,
): Promise<CampaignRecipient[]> {
  const defaultLocale = (await getSettings(db)).general.defaultLocale;
  const byEmail = new Map<string, CampaignRecipient>();
  if (audience.productTypes.length > 0) {
    const rows = await db
      .selectFrom("users")
      .innerJoin("hosting_services", "hosting_services.user_id", "users.id")
      .innerJoin("products", "products.id", "hosting_services.product_id")
      .where("hosting_services.status", "=", "active")
      .where("products.type", "in", audience.productTypes)
      .where("users.status", "=", "active")
      .where("users.role", "!=", "admin")
      .where((eb) =>
        eb.not(
          eb.exists(
            eb
              .selectFrom("mail_opt_outs")
              .select("mail_opt_outs.id")
              .whereRef("mail_opt_outs.user_id", "=", "users.id")
              .where("mail_opt_outs.kind", "=", "campaign"),
          ),
        ),
      )
      .select(["users.id", "users.email", "users.locale"])
      .distinct()
      .orderBy("users.id")
      .execute();
    for (const row of rows) {
      const locale = row.locale ?? defaultLocale;
      if (audience.locales.length > 0 && !(audience.locales as string[]).includes(locale)) continue;
      byEmail.set(row.email.toLowerCase(), { userId: row.id, email: row.email, locale });
    }
  }
  if (audience.newsletter) {
    const rows = await db
      .selectFrom("newsletter_subscribers")
      .where("confirmed_at", "is not", null)
      .where((eb) =>
        eb.not(
          eb.exists(
            eb
              .selectFrom("campaign_unsubscribes")
              .select("campaign_unsubscribes.id")
              .whereRef("campaign_unsubscribes.email", "=", "newsletter_subscribers.email"),
          ),
        ),
      )
      .select(["email", "locale"])
      .orderBy("id")
      .execute();
    for (const row of rows) {
      const key = row.email.toLowerCase();
      if (!byEmail.has(key))
        byEmail.set(key, { userId: null, email: row.email, locale: row.locale ?? defaultLocale });
    }
  }
  return [...byEmail.values()];
}

/** A campaign's page: the campaign, its report once sent, and how many it would reach now. */
export async function campaignPage(
  db: Db,
  id: number,
): Promise<{ campaign: Campaign; report: CampaignReport | null; reach: number } | null> {
  const row = await db
    .selectFrom("mail_campaigns")
    .selectAll()
    .where("id", "=", id)
    .executeTakeFirst();
  if (!row) return null;
  const campaign = campaignOf(row);
  if (campaign.state === "sent")
    return { campaign, report: await campaignReport(db, campaign.id), reach: campaign.recipients };
  const reach = hasAudience(campaign.audience)
    ? (await campaignRecipients(db, campaign.audience)).length
    : 0;
  return { campaign, report: null, reach };
}

/** What became of a sent campaign's messages, and how many unsubscribed by its link. */
export async function campaignReport(db: Db, id: number): Promise<CampaignReport> {
  const states = await db
    .selectFrom("mail_outbox")
    .where("kind", "=", "campaign")
    .where("unique_key", "like", `${sendKeyPrefix(id)}%`)
    .select(["state", (eb) => eb.fn.countAll<string | number>().as("count")])
    .groupBy("state")
    .execute();
  const count = (state: string) => Number(states.find((row) => row.state === state)?.count ?? 0);
  const unsubscribed = await db
    .selectFrom("campaign_unsubscribes")
    .where("campaign_id", "=", id)
    .select((eb) => eb.fn.countAll<string | number>().as("count"))
    .executeTakeFirstOrThrow();
  return {
    queued: count("queued") + count("kept"),
    sent: count("sent"),
    failed: count("failed") + count("refused"),
    unsubscribed: Number(unsubscribed.count),
  };
}

/** The outbox key of a campaign's message to an address: once per campaign and address, for ever. */
const sendKeyPrefix = (id: number) => `campaign:${id}:`;

/** Why a campaign's save, test or send was refused (a catalogue key of the campaigns namespace). */
export type CampaignError =
  | "campaigns.errors.notFound"
  | "campaigns.errors.alreadySent"
  | "campaigns.errors.englishRequired"
  | "campaigns.errors.noAudience"
  | "campaigns.errors.noRecipients"
  | "campaigns.errors.testFirst";

export type CampaignResult =
  | {
      ok: true;
      id: number;
      message: "campaigns.saved" | "campaigns.tested" | "campaigns.sent";
      count?: number;
    }
  | { ok: false; kind: "invalid" | "notFound" | "conflict"; error: CampaignError };

/** A campaign still to send, or the refusal that it is not there or was sent. */
async function draftOf(trx: Tx, id: number): Promise<Campaign> {
  const row = await trx
    .selectFrom("mail_campaigns")
    .selectAll()
    .where("id", "=", id)
    .executeTakeFirst();
  if (!row) refuse<CampaignResult>("notFound", "campaigns.errors.notFound");
  const campaign = campaignOf(row);
  if (campaign.state === "sent") refuse<CampaignResult>("conflict", "campaigns.errors.alreadySent");
  return campaign;
}

/**
 * Writes a new campaign (no `id`) or changes a draft: its texts (English required, the form checked it)
 * and its audience. A sent campaign is never changed.
 */
export async function saveCampaign(
  db: Db,
  input: {
    id?: number;
    actorId: string;
    texts: CampaignTexts;
    audience: CampaignAudience;
    now?: Date;
  },
): Promise<CampaignResult> {
  const at = (input.now ?? new Date()).toISOString();
  if (!isWritten(input.texts.en))
    return { ok: false, kind: "invalid", error: "campaigns.errors.englishRequired" };
  return inTransaction(db, async (trx) => {
    const values = {
      texts: JSON.stringify(input.texts),
      audience: JSON.stringify(input.audience),
      updated_at: at,
    };
    if (input.id === undefined) {
      const row = await trx
        .insertInto("mail_campaigns")
        .values({ ...values, created_by: input.actorId, created_at: at })
        .returning("id")
        .executeTakeFirstOrThrow();
      const id = Number(row.id);
      await record(trx, { type: "campaign.saved", actorId: input.actorId, campaignId: id });
      return { ok: true as const, id, message: "campaigns.saved" as const };
    }
    await draftOf(trx, input.id);
    const updated = await trx
      .updateTable("mail_campaigns")
      .set(values)
      .where("id", "=", input.id)
      .where("state", "=", "draft")
      .executeTakeFirst();
    if (Number(updated.numUpdatedRows) === 0)
      refuse<CampaignResult>("conflict", "campaigns.errors.alreadySent");
    await record(trx, {
      type: "campaign.saved",
      actorId: input.actorId,
      campaignId: input.id,
      changed: true,
    });
    return { ok: true as const, id: input.id, message: "campaigns.saved" as const };
  });
}

/** What signs a campaign's links, and how fast its messages go out. */
export interface CampaignSending {
  /** The app's secret (AUTH_SECRET): it signs the unsubscribe links. */
  secret: string;
  /** Messages a minute (CAMPAIGN_MAILS_PER_MINUTE). */
  perMinute: number;
  now?: Date;
}

/** A message of a campaign to one recipient, in their language, with its signed unsubscribe link. */
function messageTo(
  campaign: Campaign,
  recipient: CampaignRecipient,
  secret: string,
  key: string,
  extra: { test?: boolean; runAt?: Date } = {},
): AddressedMail {
  const text = campaignTextFor(campaign.texts, recipient.locale);
  // The row is in the language of the text it carries: a reader whose language is not written reads
  // English, laid out left to right, with the footer in English too.
  const locale =
    text === campaign.texts[recipient.locale as CampaignLocale] ? recipient.locale : "en";
  return {
    uniqueKey: key,
    kind: "campaign",
    userId: recipient.userId,
    address: recipient.email,
    locale,
    params: {
      campaignId: campaign.id,
      subject: text.subject,
      body: text.body,
      token: signCampaignToken(secret, {
        purpose: "unsubscribe",
        email: recipient.email.toLowerCase(),
        campaignId: campaign.id,
      }),
      ...(extra.test ? { test: true } : {}),
    },
    runAt: extra.runAt,
  };
}

/**
 * Sends a draft to the staff member who asks, once in each language it is written in, marked as a test
 * (its subject says so); a send needs one after the campaign's last change.
 */
export async function testCampaign(
  db: Db,
  input: { id: number; actor: { id: string; email: string }; secret: string; now?: Date },
): Promise<CampaignResult> {
  const now = input.now ?? new Date();
  const at = now.toISOString();
  return inTransaction(db, async (trx) => {
    const campaign = await draftOf(trx, input.id);
    const locales = writtenLocales(campaign.texts);
    if (locales.length === 0) refuse<CampaignResult>("invalid", "campaigns.errors.englishRequired");
    const messages = locales.map((locale) =>
      messageTo(
        campaign,
        { userId: input.actor.id, email: input.actor.email, locale },
        input.secret,
        `campaign-test:${campaign.id}:${locale}:${input.actor.id}:${at}`,
        { test: true },
      ),
    );
    await trx
      .updateTable("mail_campaigns")
      .set({ tested_at: at })
      .where("id", "=", campaign.id)
      .execute();
    await record(
      trx,
      { type: "campaign.tested", actorId: input.actor.id, campaignId: campaign.id, messages },
      now,
    );
    return {
      ok: true as const,
      id: campaign.id,
      message: "campaigns.tested" as const,
      count: messages.length,
    };
  });
}

/**
 * Sends a campaign to its audience, once: the one update from draft to sent decides it, so a double
 * click or two staff at once queue it once (the second finds it sent). Refused, with nothing queued: no
 * audience, nobody in it now, no English text, or no test sent since its last change. Each message is
 * due at its place in the pace (`sendSlot`): the worker sends at most `perMinute` of them a minute.
 */
export async function sendCampaign(
  db: Db,
  input: { id: number; actorId: string } & CampaignSending,
): Promise<CampaignResult> {
  const now = input.now ?? new Date();
  const at = now.toISOString();
  return inTransaction(db, async (trx) => {
    const campaign = await draftOf(trx, input.id);
    if (!isWritten(campaign.texts.en))
      refuse<CampaignResult>("invalid", "campaigns.errors.englishRequired");
    if (!hasAudience(campaign.audience))
      refuse<CampaignResult>("invalid", "campaigns.errors.noAudience");
    if (!campaign.testedAt || campaign.testedAt < campaign.updatedAt)
      refuse<CampaignResult>("invalid", "campaigns.errors.testFirst");
    // Taken before anything is queued: of two sends at once, PostgreSQL makes the second wait here
    // for the first's commit and then finds no draft; SQLite runs them one after the other.
    const taken = await trx
      .updateTable("mail_campaigns")
      .set({ state: "sent", sent_at: at, sent_by: input.actorId })
      .where("id", "=", campaign.id)
      .where("state", "=", "draft")
      .executeTakeFirst();
    if (Number(taken.numUpdatedRows) === 0)
      refuse<CampaignResult>("conflict", "campaigns.errors.alreadySent");
    const recipients = await campaignRecipients(trx, campaign.audience);
    if (recipients.length === 0) refuse<CampaignResult>("invalid", "campaigns.errors.noRecipients");
    const messages = recipients.map((recipient, index) =>
      messageTo(
        campaign,
        recipient,
        input.secret,
        `${sendKeyPrefix(campaign.id)}${recipient.email.toLowerCase()}`,
        { runAt: sendSlot(index, input.perMinute, now) },
      ),
    );
    await trx
      .updateTable("mail_campaigns")
      .set({ recipients: messages.length })
      .where("id", "=", campaign.id)
      .execute();
    await record(
      trx,
      { type: "campaign.sent", actorId: input.actorId, campaignId: campaign.id, messages },
      now,
    );
    return {
      ok: true as const,
      id: campaign.id,
      message: "campaigns.sent" as const,
      count: messages.length,
    };
  });
}
