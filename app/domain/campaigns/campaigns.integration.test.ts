import { expect, it } from "vitest";
import { MAIL_SEND_JOB } from "~/domain/mail/mail-sender.server";
import { mailHandler } from "../../../server/mail";
import { suiteSmtpServer } from "../../../tests/support/mail-fixtures";
import { adminId, customerWithRunningService } from "../../../tests/support/money-fixtures";
import { steppedWorker } from "../../../tests/support/stepped-worker";
import { describeEachDatabase, TEST_ADMIN } from "../../../tests/support/test-database";
import { signCampaignToken } from "./campaign-tokens.server";
import { EMPTY_TEXTS, type CampaignAudience } from "./campaigns";
import {
  campaignRecipients,
  campaignReport,
  saveCampaign,
  sendCampaign,
  testCampaign,
} from "./campaigns.server";
import { confirmNewsletter, signUpForNewsletter, unsubscribe } from "./newsletter.server";

const SECRET = "campaign-test-secret-of-32-characters!!";
const START = new Date("2031-05-04T09:00:00.000Z");
const MINUTE = 60_000;
const DAY = 24 * 60 * MINUTE;
const MAIL_FROM = "Hostfront <no-reply@hostfront.test>";
let serial = 0;
const unique = (name: string) => `${name}${Date.now()}${serial++}@example.com`;

const TEXTS = {
  ...EMPTY_TEXTS,
  en: { subject: "Summer offers", body: "Servers are cheaper.\n\nSee you soon." },
  fr: { subject: "Offres d'été", body: "Les serveurs sont moins chers." },
};

// Mail campaigns on both databases (docs/mail.md#campaigns): who an audience reaches, the newsletter's
// double opt-in, signed links, a campaign sent once whatever the clicks, at the worker's pace.
describeEachDatabase("mail campaigns", (app) => {
  const smtp = suiteSmtpServer();
  const worker = (clock: () => Date) =>
    steppedWorker({
      db: app().db,
      handlers: { [MAIL_SEND_JOB]: mailHandler(app(), { SMTP_URL: smtp().url, MAIL_FROM }) },
      config: { leaseMs: 30_000, pollMs: 10, backoffMs: 1_000, concurrency: 4 },
      now: clock,
    });

  async function subscriber(email: string, confirmed: boolean, locale = "en") {
    await app()
      .db.insertInto("newsletter_subscribers")
      .values({
        email,
        locale,
        created_at: START.toISOString(),
        confirmed_at: confirmed ? START.toISOString() : null,
      })
      .execute();
  }

  async function customer(slug: string, locale: string | null) {
    const { user } = await customerWithRunningService(app(), 200_000, slug);
    await app().db.updateTable("users").set({ locale }).where("id", "=", user).execute();
    const row = await app()
      .db.selectFrom("users")
      .select("email")
      .where("id", "=", user)
      .executeTakeFirstOrThrow();
    return { id: user, email: row.email };
  }

  async function readyCampaign(audience: CampaignAudience, now = START) {
    const actorId = await adminId(app());
    const saved = await saveCampaign(app().db, { actorId, texts: TEXTS, audience, now });
    if (!saved.ok) throw new Error(saved.error);
    const tested = await testCampaign(app().db, {
      id: saved.id,
      actor: { id: actorId, email: TEST_ADMIN.email },
      secret: SECRET,
      now,
    });
    if (!tested.ok) throw new Error(tested.error);
    return { id: saved.id, actorId };
  }

  it("reaches confirmed subscribers and the customers of its types and languages, none who opted out", async () => {
    const mta = await customer("mta-starter", "fr");
    const mtaEnglish = await customer("mta-advanced", null);
    const vps = await customer("vps-entry", "ar");
    const optedOut = await customer("mta-pro", "fr");
    await app()
      .db.insertInto("mail_opt_outs")
      .values({ user_id: optedOut.id, kind: "campaign", created_at: START.toISOString() })
      .execute();
    const confirmed = unique("confirmed");
    const waiting = unique("waiting");
    const gone = unique("gone");
    await subscriber(confirmed, true, "ar");
    await subscriber(waiting, false);
    await subscriber(gone, true);
    await app()
      .db.insertInto("campaign_unsubscribes")
      .values({ email: gone, campaign_id: null, created_at: START.toISOString() })
      .execute();
    // A customer who subscribed too is mailed once, as the customer.
    await subscriber(mta.email.toLowerCase(), true);

    const emails = async (audience: CampaignAudience) =>
      (await campaignRecipients(app().db, audience)).map((each) => each.email.toLowerCase());

    const all = await emails({ newsletter: true, productTypes: ["mta"], locales: [] });
    expect(all).toEqual(expect.arrayContaining([mta.email, mtaEnglish.email, confirmed]));
    for (const left of [vps.email, optedOut.email, waiting, gone]) expect(all).not.toContain(left);
    expect(all.filter((email) => email === mta.email)).toHaveLength(1);
    const recipients = await campaignRecipients(app().db, {
      newsletter: true,
      productTypes: ["mta"],
      locales: [],
    });
    expect(recipients.find((each) => each.email === mta.email)).toMatchObject({
      userId: mta.id,
      locale: "fr",
    });

    // Customers of a language only: the French one; English (the site's default) is left out.
    const french = await emails({ newsletter: false, productTypes: ["mta"], locales: ["fr"] });
    expect(french).toContain(mta.email);
    expect(french).not.toContain(mtaEnglish.email);
    expect(await emails({ newsletter: false, productTypes: ["vps"], locales: [] })).toContain(
      vps.email,
    );
  });

  it("mails a new subscriber a confirmation link that works until it expires", async () => {
    const email = unique("Fresh").replace("Fresh", "FRESH");
    await signUpForNewsletter(app().db, { email, locale: "fr", secret: SECRET, now: START });
    // Again the same day: no second message.
    await signUpForNewsletter(app().db, { email, locale: "fr", secret: SECRET, now: START });
    const rows = await app()
      .db.selectFrom("mail_outbox")
      .select(["kind", "locale", "params", "to_address"])
      .where("to_address", "=", email.toLowerCase())
      .execute();
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ kind: "newsletterConfirmation", locale: "fr" });
    const token = (JSON.parse(rows[0]!.params) as { token: string }).token;

    const confirmedAt = async () =>
      (
        await app()
          .db.selectFrom("newsletter_subscribers")
          .select("confirmed_at")
          .where("email", "=", email.toLowerCase())
          .executeTakeFirstOrThrow()
      ).confirmed_at;
    // Eight days later: expired, nothing confirmed.
    expect(
      await confirmNewsletter(app().db, { token, secret: SECRET, now: new Date(+START + 8 * DAY) }),
    ).toBe("expired");
    expect(await confirmedAt()).toBeNull();
    // Changed by one character: refused.
    expect(await confirmNewsletter(app().db, { token: `${token}x`, secret: SECRET })).toBe(
      "invalid",
    );
    expect(await confirmedAt()).toBeNull();
    expect(
      await confirmNewsletter(app().db, { token, secret: SECRET, now: new Date(+START + DAY) }),
    ).toBe("confirmed");
    expect(await confirmedAt()).not.toBeNull();

    // Confirmed: signing up again, even days later, mails nothing.
    await signUpForNewsletter(app().db, {
      email,
      locale: "fr",
      secret: SECRET,
      now: new Date(+START + 3 * DAY),
    });
    const after = await app()
      .db.selectFrom("mail_outbox")
      .select("id")
      .where("to_address", "=", email.toLowerCase())
      .execute();
    expect(after).toHaveLength(1);
  });

  it("refuses a tampered unsubscribe token and changes nothing", async () => {
    const email = unique("tamper");
    const token = signCampaignToken(SECRET, { purpose: "unsubscribe", email, campaignId: 1 });
    const forged = signCampaignToken("not-the-secret-but-32-characters-long", {
      purpose: "unsubscribe",
      email,
      campaignId: 1,
    });
    const [payload, signature] = token.split(".") as [string, string];
    for (const bad of [
      forged,
      `${payload}.${signature.slice(0, -2)}AA`,
      `${Buffer.from(JSON.stringify({ purpose: "unsubscribe", email: "other@example.com", campaignId: 1 })).toString("base64url")}.${signature}`,
      // A confirmation link is not an unsubscribe link.
      signCampaignToken(SECRET, { purpose: "confirm", email, expiresAt: START.toISOString() }),
    ])
      expect(await unsubscribe(app().db, { token: bad, secret: SECRET })).toMatchObject({
        ok: false,
        error: "campaigns.unsubscribe.invalid",
      });
    expect(await app().db.selectFrom("campaign_unsubscribes").selectAll().execute()).not.toEqual(
      expect.arrayContaining([expect.objectContaining({ email })]),
    );
  });

  it("refuses to send without an audience, to nobody, untested, or changed since its test", async () => {
    const actorId = await adminId(app());
    const none = await readyCampaign({ newsletter: false, productTypes: [], locales: [] });
    expect(
      await sendCampaign(app().db, { id: none.id, actorId, secret: SECRET, perMinute: 10 }),
    ).toMatchObject({ ok: false, error: "campaigns.errors.noAudience" });
    // Only Arabic readers with a game server: nobody.
    const empty = await readyCampaign({
      newsletter: false,
      productTypes: ["game"],
      locales: ["ar"],
    });
    expect(
      await sendCampaign(app().db, { id: empty.id, actorId, secret: SECRET, perMinute: 10 }),
    ).toMatchObject({ ok: false, error: "campaigns.errors.noRecipients" });
    const untested = await saveCampaign(app().db, {
      actorId,
      texts: TEXTS,
      audience: { newsletter: true, productTypes: [], locales: [] },
      now: START,
    });
    if (!untested.ok) throw new Error(untested.error);
    expect(
      await sendCampaign(app().db, { id: untested.id, actorId, secret: SECRET, perMinute: 10 }),
    ).toMatchObject({ ok: false, error: "campaigns.errors.testFirst" });
    // English is required.
    expect(
      await saveCampaign(app().db, {
        actorId,
        texts: { ...TEXTS, en: { subject: "", body: "x" } },
        audience: { newsletter: true, productTypes: [], locales: [] },
      }),
    ).toMatchObject({ ok: false, error: "campaigns.errors.englishRequired" });
    // None of them left a message or a state behind.
    for (const id of [none.id, empty.id, untested.id]) {
      const row = await app()
        .db.selectFrom("mail_campaigns")
        .select(["state", "recipients"])
        .where("id", "=", id)
        .executeTakeFirstOrThrow();
      expect(row).toEqual({ state: "draft", recipients: 0 });
      expect((await campaignReport(app().db, id)).queued).toBe(0);
    }
  });

  it("sends a campaign once under two sends at once, at most N a minute, each with its unsubscribe headers", async () => {
    const readers = Array.from({ length: 5 }, (_, index) => unique(`pace${index}`));
    for (const email of readers) await subscriber(email, true, "fr");
    // Only these readers: the others of the suite are unsubscribed from this test's view.
    const others = await app()
      .db.selectFrom("newsletter_subscribers")
      .select("email")
      .where("confirmed_at", "is not", null)
      .execute();
    for (const { email } of others)
      if (!readers.includes(email))
        await app()
          .db.insertInto("campaign_unsubscribes")
          .values({ email, campaign_id: null, created_at: START.toISOString() })
          .onConflict((oc) => oc.column("email").doNothing())
          .execute();
    const campaign = await readyCampaign({ newsletter: true, productTypes: [], locales: [] });
    smtp().reset();

    const send = () =>
      sendCampaign(app().db, {
        id: campaign.id,
        actorId: campaign.actorId,
        secret: SECRET,
        perMinute: 2,
        now: START,
      });
    const results = await Promise.all([send(), send()]);
    expect(results.filter((each) => each.ok)).toHaveLength(1);
    expect(results.find((each) => !each.ok)).toMatchObject({
      kind: "conflict",
      error: "campaigns.errors.alreadySent",
    });
    expect(await send()).toMatchObject({ ok: false, error: "campaigns.errors.alreadySent" });
    expect(await campaignReport(app().db, campaign.id)).toMatchObject({ queued: 5, sent: 0 });

    let clock = START;
    // The suite's earlier mail (orders, tests) goes out too: only the campaign's readers are counted.
    const sentTo = () =>
      smtp()
        .received.flatMap((mail) => mail.to)
        .filter((to) => readers.includes(to));
    const run = async () => {
      const each = worker(() => clock);
      for (let round = 0; round < 12; round++) {
        await each.tick();
        await each.idle();
      }
      await each.stop(100);
    };
    await run();
    expect(sentTo()).toHaveLength(2);
    await run();
    expect(sentTo()).toHaveLength(2);
    clock = new Date(+START + MINUTE);
    await run();
    expect(sentTo()).toHaveLength(4);
    clock = new Date(+START + 2 * MINUTE);
    await run();
    expect(sentTo().sort()).toEqual([...readers].sort());
    expect(await campaignReport(app().db, campaign.id)).toMatchObject({ sent: 5, failed: 0 });

    const mail = smtp().received.find((each) => readers.includes(each.to[0]!))!;
    expect(mail.subject).toBe("Offres d'été");
    // The headers as they came over the wire (mailparser folds List-* into one structure).
    const line = (name: string) =>
      mail.parsed.headerLines
        .find((each) => each.key === name)
        ?.line.replace(/^[^:]+:\s*/, "")
        .replace(/\r?\n\s+/g, "");
    expect(line("list-unsubscribe-post")).toBe("List-Unsubscribe=One-Click");
    const address = line("list-unsubscribe")!;
    expect(address).toMatch(/^<http:\/\/localhost:\d+\/unsubscribe\?token=[\w.%-]+>$/);
    const url = new URL(address.slice(1, -1));
    expect(url.pathname).toBe("/unsubscribe");
    expect(mail.text).toContain("/unsubscribe?token=");

    // The link's token unsubscribes its reader, counted for this campaign, once however often.
    const token = url.searchParams.get("token")!;
    expect(await unsubscribe(app().db, { token, secret: SECRET })).toEqual({ ok: true });
    expect(await unsubscribe(app().db, { token, secret: SECRET })).toEqual({ ok: true });
    expect(await campaignReport(app().db, campaign.id)).toMatchObject({ unsubscribed: 1 });
    const left = await campaignRecipients(app().db, {
      newsletter: true,
      productTypes: [],
      locales: [],
    });
    expect(left).toHaveLength(4);
  });
});
