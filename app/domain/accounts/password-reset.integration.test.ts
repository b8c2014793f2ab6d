import { expect, it } from "vitest";
import { listOutbox } from "~/domain/mail/outbox-list.server";
import { appFetch } from "../../../tests/support/app-harness";
import { registeredCustomer, signedInCookie } from "../../../tests/support/account-fixtures";
import { sendDueMail, suiteSmtpServer } from "../../../tests/support/mail-fixtures";
import { readRow, readRows } from "../../../tests/support/read-column";
import { refusal } from "../../../tests/support/results";
import { trustDevice, trustedDevicesOf } from "../../../tests/support/trusted-devices";
import { describeEachDatabase, TEST_ADMIN } from "../../../tests/support/test-database";
import { getCurrentSession, provisionAdmin, setUserLocale, signIn } from "./accounts.server";
import { storedResetIdentifier } from "./auth.server";
import {
  RESET_EMAIL_WINDOW_MINUTES,
  RESET_MAILS_PER_EMAIL,
  RESET_REQUEST_MIN_MS,
} from "./password-reset";
import {
  requestPasswordReset,
  resetLinkWorks,
  resetPasswordWithToken,
} from "./password-reset.server";

const MAIL_FROM = "Hostfront <no-reply@hostfront.test>";
const PASSWORD = "Quartz-Lantern-58";
const NEW_PASSWORD = "Juniper-Harbour-94";
const LINK = /https?:\/\/[^\s"<>]+\/reset-password\?token=([A-Za-z0-9_-]+)/;

let counter = 0;
const uniqueEmail = (prefix = "reset") => `${prefix}${Date.now()}${counter++}@example.com`;
let addresses = 0;
/** A fresh client address for each sign-in, so the login throttle never joins in. */
const client = () => ({ ip: `10.25.${Math.floor(++addresses / 250)}.${(addresses % 250) + 1}` });

describeEachDatabase("password reset by mail, and the admins' sign-in notice", (app) => {
  const smtp = suiteSmtpServer();

  /** The worker sends every due mail job through the test's SMTP server. */
  async function work() {
    await sendDueMail(app(), { smtpUrl: smtp().url, from: MAIL_FROM }, { rounds: 6 });
  }
  const receivedBy = (email: string) => smtp().received.filter((mail) => mail.to.includes(email));
  const outboxOf = (userId: string, kind: string) =>
    readRows(app().db, "mail_outbox", "*", { user_id: userId, kind }, "id");

  async function customer(locale = "en") {
    const email = uniqueEmail();
    const id = await registeredCustomer(app(), { name: "Reset Tester", email, password: PASSWORD });
    await setUserLocale(app().db, id, locale);
    return { id, email };
  }

  /** Asks for a link for `email` and takes it out of the message the SMTP server received. */
  async function linkFor(email: string) {
    await requestPasswordReset(app(), { email }, { minMs: 0 });
    await work();
    const mail = receivedBy(email).find((each) => LINK.test(each.text ?? ""));
    const match = LINK.exec(mail?.text ?? "");
    if (!match) throw new Error(`no reset link reached ${email}`);
    return { link: match[0], token: match[1]! };
  }

  /** The tokens of the reset mails queued for an account, oldest first (from the outbox's rows). */
  async function tokensMailedTo(userId: string): Promise<string[]> {
    const mails = await outboxOf(userId, "passwordReset");
    return mails.map((mail) => (JSON.parse(String(mail.params)) as { token: string }).token);
  }

  const signsIn = async (email: string, password: string) =>
    (await signIn(app(), { email, password }, client())).ok;

  it("answers the same, no sooner than its minimum, for an unknown and a known address", async () => {
    const known = await customer();
    const unknown = uniqueEmail("nobody");
    /**
     * Asks for a link on a clock the test reads out: the request's work took `tookMs` by it. Returns
     * the answer and the waits it asked for instead of waiting.
     */
    const ask = async (email: string, tookMs: number) => {
      const readings = [50_000, 50_000 + tookMs];
      const waits: number[] = [];
      const answer = await requestPasswordReset(
        app(),
        { email },
        { clock: () => readings.shift()!, wait: async (ms) => void waits.push(ms) },
      );
      return { answer, waits, clockReadsLeft: readings.length };
    };
    // Queueing the mail (known) and finding nothing (unknown) took different times: each answer is
    // padded to the same minimum after the request began.
    const forKnown = await ask(known.email, 120);
    const forUnknown = await ask(unknown, 3);
    expect(forKnown.answer).toEqual(forUnknown.answer);
    expect(forKnown).toMatchObject({ waits: [RESET_REQUEST_MIN_MS - 120], clockReadsLeft: 0 });
    expect(forUnknown).toMatchObject({ waits: [RESET_REQUEST_MIN_MS - 3], clockReadsLeft: 0 });
    // Work past the minimum is not padded further.
    expect((await ask(uniqueEmail("nobody"), RESET_REQUEST_MIN_MS + 1)).waits).toEqual([]);
    expect(await outboxOf(known.id, "passwordReset")).toHaveLength(1);
    const anyForUnknown = await readRows(app().db, "mail_outbox", ["id"], { to_address: unknown });
    expect(anyForUnknown).toHaveLength(0);
  });

  it("mails a link to our own page that sets a new password once, ending every session", async () => {
    const owner = await customer();
    const cookies = [
      await signedInCookie(app(), { email: owner.email, password: PASSWORD }, client()),
      await signedInCookie(app(), { email: owner.email, password: PASSWORD }, client()),
    ];
    const { link, token } = await linkFor(owner.email);
    expect(link).toBe(`${app().env.PUBLIC_URL}/reset-password?token=${token}`);
    expect(await resetLinkWorks(app(), token)).toBe(true);
    // Once sent, the outbox's row keeps where the link led, not the link: the mail has it.
    const [sent] = await outboxOf(owner.id, "passwordReset");
    expect(sent).toMatchObject({ state: "sent" });
    for (const column of ["params", "html", "text", "unique_key"] as const)
      expect(String(sent![column])).not.toContain(token);
    expect(sent!.text).toContain("/reset-password?token=[redacted]");

    const done = await resetPasswordWithToken(app(), {
      token,
      newPassword: NEW_PASSWORD,
      ip: "10.25.99.1",
    });
    expect(done).toEqual({ ok: true, userId: owner.id });
    // Every session ended: none left in the table, and the cookies open nothing.
    const sessions = await readRows(app().db, "sessions", ["id"], { user_id: owner.id });
    expect(sessions).toHaveLength(0);
    for (const cookie of cookies) expect(await getCurrentSession(app(), cookie)).toBeNull();
    expect(await signsIn(owner.email, PASSWORD)).toBe(false);
    expect(await signsIn(owner.email, NEW_PASSWORD)).toBe(true);

    // Used once: the link works no more.
    expect(await resetLinkWorks(app(), token)).toBe(false);
    expect(await resetPasswordWithToken(app(), { token, newPassword: "Another-Pass-31" })).toEqual(
      refusal("invalid", "errors.resetLinkInvalid"),
    );
    expect(await signsIn(owner.email, NEW_PASSWORD)).toBe(true);

    // The notice (security mail, sent whatever the account tab says) and the audit entry.
    expect(await outboxOf(owner.id, "passwordChanged")).toHaveLength(1);
    await work();
    const notice = receivedBy(owner.email).find((mail) =>
      mail.subject?.includes("password at Hostfront was changed"),
    );
    expect(notice?.text).toContain("every session of the account was signed out");
    const audit = await readRows(app().db, "audit_log", "*", {
      action: "account.password_reset",
      target_id: owner.id,
    });
    expect(audit).toHaveLength(1);
    expect(audit[0]!.actor_id).toBe(owner.id);
    expect(audit[0]!.after).toContain("10.25.99.1");
  });

  it("ends every reset link and trusted device of the account when one link is used", async () => {
    const owner = await customer();
    // Two links asked for, as a person does who thinks the first mail was lost.
    await requestPasswordReset(app(), { email: owner.email }, { minMs: 0 });
    await requestPasswordReset(app(), { email: owner.email }, { minMs: 0 });
    const [first, second] = await tokensMailedTo(owner.id);
    expect(await resetLinkWorks(app(), first!)).toBe(true);
    expect(await resetLinkWorks(app(), second!)).toBe(true);
    // A device the owner trusted to skip the sign-in code, and another account's.
    const other = await customer();
    await trustDevice(app().db, owner.id);
    await trustDevice(app().db, other.id);

    expect(
      await resetPasswordWithToken(app(), { token: second!, newPassword: NEW_PASSWORD }),
    ).toMatchObject({ ok: true });
    // The other link no longer works: it cannot set the password again behind the owner's back.
    expect(await resetLinkWorks(app(), first!)).toBe(false);
    expect(
      await resetPasswordWithToken(app(), { token: first!, newPassword: "Another-pass-7731" }),
    ).toEqual(refusal("invalid", "errors.resetLinkInvalid"));
    expect(await signsIn(owner.email, NEW_PASSWORD)).toBe(true);
    // The owner's trusted devices are forgotten with the links; another account's are not touched.
    expect(await trustedDevicesOf(app().db, owner.id)).toBe(0);
    expect(await trustedDevicesOf(app().db, other.id)).toBe(1);
    await requestPasswordReset(app(), { email: other.email }, { minMs: 0 });
    const [theirs] = await tokensMailedTo(other.id);
    expect(await resetLinkWorks(app(), theirs!)).toBe(true);
  });

  it("keeps only a hash of a link's token, so that the table's rows open nothing", async () => {
    const owner = await customer();
    await requestPasswordReset(app(), { email: owner.email }, { minMs: 0 });
    const [token] = await tokensMailedTo(owner.id);
    const rows = await readRows(app().db, "verifications", ["identifier"], { value: owner.id });
    expect(rows).toEqual([{ identifier: storedResetIdentifier(`reset-password:${token}`) }]);
    expect(rows[0]!.identifier).not.toContain(token!);
    // What the table holds is not a token: used as one, it opens nothing.
    const stored = rows[0]!.identifier.slice("reset-password:".length);
    expect(await resetLinkWorks(app(), stored)).toBe(false);
    expect(
      await resetPasswordWithToken(app(), { token: stored, newPassword: NEW_PASSWORD }),
    ).toEqual(refusal("invalid", "errors.resetLinkInvalid"));
    // A row kept in clear before tokens were hashed still works until its hour ends, and goes when used.
    const clear = "c".repeat(24);
    await app()
      .db.insertInto("verifications")
      .values({
        id: `clear-${owner.id}`,
        identifier: `reset-password:${clear}`,
        value: owner.id,
        // better-auth reads its own clock: a date far ahead keeps the row valid whatever it says.
        expires_at: "2999-01-01T00:00:00.000Z",
        created_at: "2026-01-01T00:00:00.000Z",
        updated_at: "2026-01-01T00:00:00.000Z",
      })
      .execute();
    expect(await resetLinkWorks(app(), clear)).toBe(true);
    expect(
      await resetPasswordWithToken(app(), { token: clear, newPassword: NEW_PASSWORD }),
    ).toMatchObject({ ok: true });
    expect(await readRows(app().db, "verifications", ["identifier"], { value: owner.id })).toEqual(
      [],
    );
  });

  it("refuses a link after its hour, and a common or unknown one, changing nothing", async () => {
    const owner = await customer();
    const { token } = await linkFor(owner.email);
    expect(await resetPasswordWithToken(app(), { token, newPassword: "password123" })).toEqual(
      refusal("invalid", "errors.commonPassword"),
    );
    expect(await resetLinkWorks(app(), token)).toBe(true);
    expect(
      await resetPasswordWithToken(app(), { token: "x".repeat(24), newPassword: NEW_PASSWORD }),
    ).toEqual(refusal("invalid", "errors.resetLinkInvalid"));

    // An hour and a second later (better-auth's record of the token says when it ends).
    await app()
      .db.updateTable("verifications")
      .set({ expires_at: new Date(Date.now() - 1000).toISOString() })
      .where("identifier", "=", storedResetIdentifier(`reset-password:${token}`))
      .execute();
    expect(await resetLinkWorks(app(), token)).toBe(false);
    expect(await resetPasswordWithToken(app(), { token, newPassword: NEW_PASSWORD })).toEqual(
      refusal("invalid", "errors.resetLinkInvalid"),
    );
    expect(await signsIn(owner.email, PASSWORD)).toBe(true);
    expect(await outboxOf(owner.id, "passwordChanged")).toHaveLength(0);
  });

  it("makes a link valid for one hour", async () => {
    const owner = await customer();
    const before = Date.now();
    await requestPasswordReset(app(), { email: owner.email }, { minMs: 0 });
    const row = await readRow(app().db, "verifications", ["expires_at", "value"], {
      value: owner.id,
    });
    const lifetime = new Date(row.expires_at).getTime() - before;
    expect(lifetime).toBeGreaterThan(59 * 60_000);
    expect(lifetime).toBeLessThanOrEqual(60 * 60_000 + 5_000);
  });

  it("mails one address no more than its limit in the window, answering the same", async () => {
    const owner = await customer();
    const now = new Date();
    const answers = [];
    for (let i = 0; i < RESET_MAILS_PER_EMAIL + 2; i++)
      answers.push(await requestPasswordReset(app(), { email: owner.email }, { now, minMs: 0 }));
    expect(new Set(answers.map((answer) => JSON.stringify(answer))).size).toBe(1);
    expect(await outboxOf(owner.id, "passwordReset")).toHaveLength(RESET_MAILS_PER_EMAIL);
    // Once the window has passed, a request gets a link again.
    const later = new Date(now.getTime() + (RESET_EMAIL_WINDOW_MINUTES + 1) * 60_000);
    await requestPasswordReset(app(), { email: owner.email }, { now: later, minMs: 0 });
    expect(await outboxOf(owner.id, "passwordReset")).toHaveLength(RESET_MAILS_PER_EMAIL + 1);
  });

  it("sends no link to a suspended account", async () => {
    const owner = await customer();
    await app()
      .db.updateTable("users")
      .set({ status: "suspended" })
      .where("id", "=", owner.id)
      .execute();
    await requestPasswordReset(app(), { email: owner.email }, { minMs: 0 });
    expect(await outboxOf(owner.id, "passwordReset")).toHaveLength(0);
  });

  it("shows the reset link redacted on /admin/mail", async () => {
    const owner = await customer();
    const { token } = await linkFor(owner.email);
    const [row] = await outboxOf(owner.id, "passwordReset");
    const { opened, messages } = await listOutbox(app().db, { page: 1, open: Number(row!.id) });
    expect(opened?.text).toContain("/reset-password?token=[redacted]");
    expect(opened?.text).not.toContain(token);
    expect(JSON.stringify(messages)).not.toContain(token);
  });

  it("tells an admin of each sign-in to their account, and never a customer", async () => {
    const admin = await readRow(app().db, "users", ["id"], { email: TEST_ADMIN.email });
    const before = (await outboxOf(admin.id, "adminSignIn")).length;
    const firefox = "Mozilla/5.0 (X11; Linux x86_64; rv:126.0) Gecko/20100101 Firefox/126.0";
    const signedIn = await signIn(
      app(),
      { email: TEST_ADMIN.email, password: TEST_ADMIN.password },
      { ip: "203.0.113.77", userAgent: firefox },
    );
    expect(signedIn.ok).toBe(true);
    const notices = await outboxOf(admin.id, "adminSignIn");
    expect(notices).toHaveLength(before + 1);
    expect(JSON.parse(notices.at(-1)!.params)).toMatchObject({
      ip: "203.0.113.77",
      userAgent: firefox,
    });
    // A wrong password tells nobody.
    await signIn(app(), { email: TEST_ADMIN.email, password: "Wrong-password-1" }, client());
    expect(await outboxOf(admin.id, "adminSignIn")).toHaveLength(before + 1);

    const someone = await customer();
    expect(await signsIn(someone.email, PASSWORD)).toBe(true);
    expect(await outboxOf(someone.id, "adminSignIn")).toHaveLength(0);
  });

  it("delivers each security message in English, French and Arabic", async () => {
    const expected = {
      en: {
        reset: "Reset your password at Hostfront",
        changed: "Your password at Hostfront was changed",
        signIn: "New sign-in to your administrator account at Hostfront",
        word: "the link works once, for one hour",
      },
      fr: {
        reset: "Réinitialisez votre mot de passe sur Hostfront",
        changed: "Votre mot de passe sur Hostfront a été changé",
        signIn: "Nouvelle connexion à votre compte administrateur sur Hostfront",
        word: "le lien ne sert qu'une fois, pendant une heure",
      },
      ar: {
        reset: "إعادة تعيين كلمة المرور على",
        changed: "تم تغيير كلمة مرورك على",
        signIn: "تسجيل دخول جديد إلى حساب المدير على",
        word: "يعمل الرابط مرة واحدة فقط",
      },
    } as const;
    for (const locale of ["en", "fr", "ar"] as const) {
      const words = expected[locale];
      const owner = await customer(locale);
      const { token } = await linkFor(owner.email);
      expect((await resetPasswordWithToken(app(), { token, newPassword: NEW_PASSWORD })).ok).toBe(
        true,
      );
      const adminEmail = uniqueEmail(`admin-${locale}-`);
      await provisionAdmin(app(), { email: adminEmail, password: PASSWORD, name: "Staff" });
      const admin = await readRow(app().db, "users", ["id"], { email: adminEmail });
      await setUserLocale(app().db, admin.id, locale);
      expect(await signsIn(adminEmail, PASSWORD)).toBe(true);
      await work();

      const mails = [...receivedBy(owner.email), ...receivedBy(adminEmail)];
      const subjects = mails.map((mail) => mail.subject ?? "");
      for (const subject of [words.reset, words.changed, words.signIn])
        expect(
          subjects.some((each) => each.includes(subject)),
          `${locale}: ${subject}`,
        ).toBe(true);
      for (const mail of mails) {
        expect(mail.html).toContain(`lang="${locale}"`);
        expect(mail.html).toContain(`dir="${locale === "ar" ? "rtl" : "ltr"}"`);
        expect(mail.text).toBeTruthy();
      }
      const reset = mails.find((mail) => mail.subject?.includes(words.reset));
      expect(reset?.text?.replace(/[\u2068\u2069]/g, "")).toContain(words.word);
    }
  });
});

describeEachDatabase(
  "the forgot-password and reset-password pages, with outgoing mail",
  (app) => {
    const page = () => appFetch(app());
    const sentText = "If an account exists for this address, we have sent it a link";

    it("offers the form and answers a known and an unknown address alike", async () => {
      const form = await (await page()("/forgot-password")).text();
      expect(form).toContain("Send the link");
      expect(form).not.toContain("done by our support team");

      const email = uniqueEmail();
      await registeredCustomer(app(), { name: "Page Tester", email, password: PASSWORD });
      const answers = [];
      for (const address of [email, uniqueEmail("nobody")]) {
        const response = await page()("/forgot-password", { form: { email: address } });
        answers.push({ status: response.status, text: await response.text() });
      }
      expect(answers[0]!.status).toBe(200);
      expect(answers[0]!.text).toContain(sentText);
      expect(answers[1]).toEqual(answers[0]);

      const refused = await page()("/forgot-password", { form: { email: "not-an-address" } });
      expect(refused.status).toBe(400);
      expect(await refused.text()).toContain("Please enter a valid email address");
    });

    it("sets the password from the link, then sends the owner to sign in", async () => {
      const email = uniqueEmail();
      const id = await registeredCustomer(app(), {
        name: "Page Tester",
        email,
        password: PASSWORD,
      });
      await requestPasswordReset(app(), { email }, { minMs: 0 });
      const row = await readRow(app().db, "mail_outbox", ["params"], {
        user_id: id,
        kind: "passwordReset",
      });
      const { token } = JSON.parse(row.params) as { token: string };

      const opened = await (await page()(`/reset-password?token=${token}`)).text();
      expect(opened).toContain("Set the new password");
      // The form posts to its own URL, the link's, and carries the token too.
      expect(opened).toContain(`action="/reset-password?token=${token}"`);
      const mismatch = await page()(`/reset-password?token=${token}`, {
        form: { token, newPassword: NEW_PASSWORD, confirmPassword: "Something-else-1" },
      });
      expect(mismatch.status).toBe(400);
      expect(await mismatch.text()).toContain("Passwords do not match");
      const common = await page()(`/reset-password?token=${token}`, {
        form: { token, newPassword: "password123", confirmPassword: "password123" },
      });
      expect(common.status).toBe(400);
      expect(await common.text()).toContain("one of the most common");

      const done = await page()(`/reset-password?token=${token}`, {
        form: { token, newPassword: NEW_PASSWORD, confirmPassword: NEW_PASSWORD },
      });
      expect(done.status).toBe(302);
      expect(done.headers.get("location")).toBe("/login");
      expect(done.headers.get("set-cookie")).toContain("toast.passwordChanged");

      const used = await (await page()(`/reset-password?token=${token}`)).text();
      expect(used).toContain("This reset link does not work");
      expect(used).toContain('href="/forgot-password"');
      const again = await page()(`/reset-password?token=${token}`, {
        form: { token, newPassword: "Other-Pass-word-7", confirmPassword: "Other-Pass-word-7" },
      });
      expect(again.status).toBe(400);
    });
  },
  { env: { SMTP_URL: "smtp://127.0.0.1:2525" } },
);

describeEachDatabase("the forgot-password page without outgoing mail", (app) => {
  it("keeps the support text and offers no form", async () => {
    const fetchPage = appFetch(app());
    const html = await (await fetchPage("/forgot-password")).text();
    expect(html).toContain("Password resets are done by our support team for now.");
    expect(html).not.toContain("Send the link");
    const post = await fetchPage("/forgot-password", { form: { email: TEST_ADMIN.email } });
    expect(post.status).toBe(403);
    expect(await post.text()).toContain("Password resets are done by our support team for now.");
    const queued = await readRows(app().db, "mail_outbox", ["id"], { kind: "passwordReset" });
    expect(queued).toHaveLength(0);
  });
});
