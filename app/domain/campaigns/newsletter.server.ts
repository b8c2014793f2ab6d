import { inTransaction, type Db } from "~/db/transaction";
import { record } from "~/domain/events/events.server";
import { NEWSLETTER_CONFIRM_DAYS } from "./campaigns";
import { signCampaignToken, verifyCampaignToken } from "./campaign-tokens.server";

// The newsletter's double opt-in and the campaigns' unsubscribe links (docs/mail.md#campaigns). The
// footer's box answers the same thanks whatever happens here, so nobody learns from it whether an
// address is subscribed.

const DAY_MS = 24 * 60 * 60 * 1000;

/**
 * The footer's box: keeps the address (once, whatever its case) and, until it is confirmed, mails it the
 * link that confirms it, at most once a day (the outbox's key: the address and the day), so typing it
 * again neither mails a confirmed address nor fills anyone's mailbox.
 */
export async function signUpForNewsletter(
  db: Db,
  input: { email: string; locale: string; secret: string; now?: Date },
): Promise<void> {
  const now = input.now ?? new Date();
  const email = input.email.trim().toLowerCase();
  await inTransaction(db, async (trx) => {
    await trx
      .insertInto("newsletter_subscribers")
      .values({ email, locale: input.locale, created_at: now.toISOString() })
      .onConflict((oc) => oc.column("email").doNothing())
      .execute();
    const row = await trx
      .selectFrom("newsletter_subscribers")
      .select(["confirmed_at", "locale"])
      .where("email", "=", email)
      .executeTakeFirstOrThrow();
    if (row.confirmed_at) return;
    const expiresAt = new Date(now.getTime() + NEWSLETTER_CONFIRM_DAYS * DAY_MS).toISOString();
    await record(
      trx,
      {
        type: "newsletter.signedUp",
        email,
        locale: input.locale,
        token: signCampaignToken(input.secret, { purpose: "confirm", email, expiresAt }),
        at: now.toISOString(),
      },
      now,
    );
  });
}

export type ConfirmOutcome = "confirmed" | "expired" | "invalid";

/**
 * The confirmation link followed: the address becomes a confirmed subscriber (and may be mailed
 * campaigns again if it had unsubscribed). A link tampered with, made for something else, of an address
 * no longer on the list, or past its days, confirms nothing.
 */
export async function confirmNewsletter(
  db: Db,
  input: { token: string; secret: string; now?: Date },
): Promise<ConfirmOutcome> {
  const now = input.now ?? new Date();
  const token = verifyCampaignToken(input.secret, input.token);
  if (!token || token.purpose !== "confirm") return "invalid";
  if (Date.parse(token.expiresAt) <= now.getTime()) return "expired";
  return inTransaction(db, async (trx) => {
    const row = await trx
      .selectFrom("newsletter_subscribers")
      .select(["id", "confirmed_at"])
      .where("email", "=", token.email)
      .executeTakeFirst();
    if (!row) return "invalid" as const;
    if (!row.confirmed_at)
      await trx
        .updateTable("newsletter_subscribers")
        .set({ confirmed_at: now.toISOString() })
        .where("id", "=", row.id)
        .execute();
    await trx.deleteFrom("campaign_unsubscribes").where("email", "=", token.email).execute();
    return "confirmed" as const;
  });
}

/** Whether an unsubscribe link is one of ours, unchanged (its page shows the button, or says it is not). */
export function unsubscribeLinkWorks(secret: string, token: string): boolean {
  return verifyCampaignToken(secret, token)?.purpose === "unsubscribe";
}

/**
 * The unsubscribe button, or a mail provider's one-click post (RFC 8058): the address gets no more
 * campaigns (a customer's account tab shows campaigns turned off), counted for the campaign whose link
 * it was. Again is not an error. A tampered link changes nothing.
 */
export async function unsubscribe(
  db: Db,
  input: { token: string; secret: string; now?: Date },
): Promise<{ ok: true } | { ok: false; kind: "invalid"; error: string }> {
  const token = verifyCampaignToken(input.secret, input.token);
  if (!token || token.purpose !== "unsubscribe")
    return { ok: false, kind: "invalid", error: "campaigns.unsubscribe.invalid" };
  const at = (input.now ?? new Date()).toISOString();
  const email = token.email.toLowerCase();
  await inTransaction(db, async (trx) => {
    const campaign = await trx
      .selectFrom("mail_campaigns")
      .select("id")
      .where("id", "=", token.campaignId)
      .executeTakeFirst();
    await trx
      .insertInto("campaign_unsubscribes")
      .values({ email, campaign_id: campaign ? campaign.id : null, created_at: at })
      .onConflict((oc) => oc.column("email").doNothing())
      .execute();
    const users = await trx
      .selectFrom("users")
      .select("id")
      .where((eb) => eb(eb.fn("lower", ["email"]), "=", email))
      .execute();
    for (const user of users) {
      const off = await trx
        .selectFrom("mail_opt_outs")
        .select("id")
        .where("user_id", "=", user.id)
        .where("kind", "=", "campaign")
        .executeTakeFirst();
      if (!off)
        await trx
          .insertInto("mail_opt_outs")
          .values({ user_id: user.id, kind: "campaign", created_at: at })
          .execute();
    }
  });
  return { ok: true };
}
