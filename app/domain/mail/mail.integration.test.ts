import { beforeEach, expect, it } from "vitest";
import { inTransaction } from "~/db/transaction";
import {
  completeAccountDeletion,
  requestAccountDeletion,
} from "~/domain/accounts/account-deletion.server";
import { adjustCoins } from "~/domain/coins/coins.server";
import { requeueJob } from "~/domain/jobs/jobs.server";
import {
  adminId,
  customerWithCoins,
  placedOrder,
  productId,
} from "../../../tests/support/money-fixtures";
import {
  sendDueMail,
  staffMailOfOrder,
  suiteSmtpServer,
} from "../../../tests/support/mail-fixtures";
import { readRow, readRows } from "../../../tests/support/read-column";
import { describeEachDatabase } from "../../../tests/support/test-database";
import { keepMailUnsent } from "./outbox-mode.server";
import { listOutbox } from "./outbox-list.server";
import { MAIL_SEND_JOB } from "./mail-sender.server";
import { mailPreferencesOf, setMailPreferences } from "./mail-preferences.server";
import { queueMail } from "./mail.server";
import { mailPreferencesSchema } from "./mail.schemas";
import { getSettings } from "~/domain/settings/settings.server";
import { mailSubjectWriter, mailWriter } from "~/features/mail/mail-writer";
import { sharedI18n } from "~/i18n/shared-i18n.server";

const MAIL_FROM = "Hostfront <no-reply@hostfront.test>";

describeEachDatabase("the mail outbox, sent by the worker over SMTP", (app) => {
  const smtp = suiteSmtpServer();
  let clock = new Date();

  beforeEach(async () => {
    clock = new Date();
    problems = [];
  });

  /** One round of the worker at `clock`: every due mail job, sent to `smtpUrl` (or kept with null). */
  /** The dead jobs and failed runs the worker told staff about (its onProblem: the alerts). */
  let problems: { kind: string; type: string; error: string }[] = [];
  async function work(smtpUrl: string | null = smtp().url) {
    // The jobs just queued are due at the real time: the clock is never behind it.
    if (clock.getTime() < Date.now()) clock = new Date();
    await sendDueMail(
      app(),
      { smtpUrl: smtpUrl ?? undefined, from: MAIL_FROM },
      {
        rounds: 4,
        now: () => clock,
        onProblem: async ({ kind, job, error }) =>
          void problems.push({ kind, type: job.type, error }),
      },
    );
  }
  /** Time passes: the retries' backoff is over. */
  function later() {
    clock = new Date(clock.getTime() + 60 * 60 * 1000);
  }
  const outboxOf = (userId: string) =>
    readRows(app().db, "mail_outbox", "*", { user_id: userId }, "id");
  const jobOf = (outboxId: number) =>
    readRow(app().db, "jobs", "*", { unique_key: `mail:${outboxId}` });
  const receivedBy = (email: string) => smtp().received.filter((mail) => mail.to.includes(email));

  async function customerIn(locale: string) {
    const id = await customerWithCoins(app(), 10_000);
    await app().db.updateTable("users").set({ locale }).where("id", "=", id).execute();
    const user = await readRow(app().db, "users", ["email"], { id });
    return { id, email: user.email };
  }
  /** A customer whose welcome credit's message went out already, the SMTP server's record cleared. */
  async function customerWelcomed() {
    const customer = await customerIn("en");
    await work(); // the welcome credit of the fixture
    smtp().reset();
    return customer;
  }
  /** The customer's second message (the one after the welcome credit's) went out on its second try. */
  async function expectSentOnSecondTry(customer: { id: string; email: string }) {
    expect(receivedBy(customer.email)).toHaveLength(1);
    expect((await outboxOf(customer.id))[1]).toMatchObject({ state: "sent", attempts: 2 });
  }
  async function order(userId: string) {
    return placedOrder(app(), userId, { productId: await productId(app(), "vps-entry") });
  }
  async function coins(userId: string, amountCents: number, reason = "Goodwill gesture") {
    const result = await adjustCoins(app().db, {
      userId,
      amountCents,
      reason,
      actorId: await adminId(app()),
      idempotencyKey: `mail-test-${Math.random()}`,
    });
    if (!result.ok) throw new Error(result.error);
  }

  it("sends each queued message once, with its Message-ID, HTML and text, in French and Arabic", async () => {
    const french = await customerIn("fr");
    const arabic = await customerIn("ar");
    const frenchOrder = await order(french.id);
    const arabicOrder = await order(arabic.id);
    await work();

    const [fr] = receivedBy(french.email).filter((mail) => mail.subject?.includes("Commande"));
    expect(fr?.subject).toBe(`Commande n° ${frenchOrder.id} reçue`);
    expect(fr?.html).toContain('lang="fr"');
    expect(fr?.html).toContain(frenchOrder.productName);
    expect(fr?.text).toContain("attend la validation de notre équipe");
    expect(fr?.text).toContain("/dashboard/billing");
    expect(fr?.from).toBe("no-reply@hostfront.test");
    const row = (await outboxOf(french.id)).find((r) => r.kind === "orderReceived")!;
    expect(row.state).toBe("sent");
    expect(row.sent_at).not.toBeNull();
    expect(fr?.messageId).toBe(row.message_id);
    expect(row.message_id).toMatch(/^<outbox\.\d+\.[0-9a-f]{16}@hostfront\.test>$/);

    const ar = receivedBy(arabic.email).find((mail) => mail.subject?.includes("الطلب"));
    expect(ar?.subject).toContain("تم استلام الطلب رقم");
    expect(ar?.subject).toContain(String(arabicOrder.id));
    expect(ar?.html).toContain('dir="rtl"');
    expect(ar?.html).toContain('lang="ar"');
    expect(ar?.text).toContain("بانتظار موافقة فريقنا");

    // The staff hear of both orders, each admin once per order.
    const admin = await app()
      .db.selectFrom("users")
      .select("email")
      .where("id", "=", await adminId(app()))
      .executeTakeFirstOrThrow();
    const staff = receivedBy(admin.email).filter((mail) =>
      [frenchOrder.id, arabicOrder.id].some((id) => mail.subject?.includes(`#${id}`)),
    );
    expect(staff).toHaveLength(2);

    // Nothing is sent twice: a second round finds every message sent.
    const count = smtp().received.length;
    later();
    await work();
    expect(smtp().received).toHaveLength(count);
  });

  it("retries after a 4xx and sends the message once the server takes it", async () => {
    const customer = await customerWelcomed();
    smtp().failNext({ code: 451, message: "Try again later" });
    await coins(customer.id, 250);
    await work();
    expect(receivedBy(customer.email)).toHaveLength(0);
    const [, row] = await outboxOf(customer.id);
    expect(row!.state).toBe("failed");
    expect(row!.last_error).toContain("451");
    const job = await jobOf(Number(row!.id));
    expect(job.state).toBe("failed");

    // Not before its backoff is over, then sent, with the Message-ID it was written with.
    await work();
    expect(receivedBy(customer.email)).toHaveLength(0);
    later();
    await work();
    const [mail] = receivedBy(customer.email);
    expect(mail?.subject).toBe("2.50 coins added to your balance");
    expect(mail?.text).toContain("Reason: Goodwill gesture");
    const sent = (await outboxOf(customer.id))[1]!;
    expect(sent.state).toBe("sent");
    expect(sent.attempts).toBe(2);
    expect(mail?.messageId).toBe(sent.message_id);
    expect((await jobOf(Number(sent.id))).state).toBe("succeeded");
  });

  it("does not send again a message the server refused for good (550): refused, its job dead, staff told", async () => {
    const customer = await customerWelcomed();
    smtp().failNext({ code: 550, message: "5.1.1 Mailbox unavailable" });
    await coins(customer.id, 250);
    await work();
    const [, row] = await outboxOf(customer.id);
    expect(row!.state).toBe("refused");
    expect(row!.attempts).toBe(1);
    expect(row!.last_error).toContain("550");
    expect(row!.sent_at).toBeNull();
    const job = await jobOf(Number(row!.id));
    expect(job).toMatchObject({ state: "dead", attempts: 1 });
    expect(job.last_error).toContain("refused the message for good");
    expect(problems).toEqual([expect.objectContaining({ kind: "dead", type: MAIL_SEND_JOB })]);
    expect(problems[0]!.error).toContain("550");

    // A day later, nothing was tried again: one attempt, nothing received.
    for (let hour = 0; hour < 24; hour++) {
      later();
      await work();
    }
    expect(receivedBy(customer.email)).toHaveLength(0);
    expect((await outboxOf(customer.id))[1]).toMatchObject({ state: "refused", attempts: 1 });
    expect((await jobOf(Number(row!.id))).attempts).toBe(1);

    const list = await listOutbox(app().db, { page: 1, state: "refused", open: Number(row!.id) });
    expect(list.messages.map((message) => message.id)).toContain(Number(row!.id));
    expect(list.opened?.state).toBe("refused");

    // The address fixed, staff Retry the dead job on /admin/automation: the message goes out then.
    await inTransaction(app().db, (trx) => requeueJob(trx, Number(job.id), clock));
    await work();
    await expectSentOnSecondTry(customer);
  });

  it("keeps retrying a refused sign-in (535): the admin fixes SMTP_URL and the message goes out", async () => {
    const customer = await customerWelcomed();
    await coins(customer.id, 300);
    const wrong = smtp().url.replace(/:[^:@/]+@/, ":wrong-password@");
    await work(wrong);
    const [, row] = await outboxOf(customer.id);
    expect(row!.state).toBe("failed");
    expect(row!.last_error).toContain("535");
    expect((await jobOf(Number(row!.id))).state).toBe("failed");
    expect(problems).toEqual([]);

    later();
    await work();
    await expectSentOnSecondTry(customer);
  });

  it("sends a message whose answer was lost again with the same Message-ID", async () => {
    const customer = await customerWelcomed();
    smtp().failNext("drop");
    await coins(customer.id, -100, "Correction");
    await work();
    later();
    await work();
    const copies = receivedBy(customer.email);
    expect(copies).toHaveLength(2);
    expect(copies[0]!.messageId).toBeTruthy();
    expect(copies[1]!.messageId).toBe(copies[0]!.messageId);
    expect(copies[1]!.subject).toBe("1.00 coins removed from your balance");
  });

  it("keeps messages in the outbox without SMTP_URL, written and readable at /admin/mail", async () => {
    const customer = await customerIn("fr");
    await coins(customer.id, 1000);
    await work(null);
    expect(smtp().received).toHaveLength(0);
    const rows = await outboxOf(customer.id);
    expect(rows.map((row) => row.state)).toEqual(["kept", "kept"]);
    expect(rows[1]!.subject).toBe("10,00 coins ajoutés à votre solde");
    expect(rows[1]!.html).toContain('lang="fr"');
    expect((await jobOf(Number(rows[1]!.id))).state).toBe("succeeded");

    const list = await listOutbox(app().db, { page: 1, state: "kept", open: Number(rows[1]!.id) });
    expect(list.messages.some((message) => message.id === Number(rows[1]!.id))).toBe(true);
    expect(list.opened?.state).toBe("kept");
    expect(list.opened?.text).toContain("10,00 coins ont été ajoutés");
  });

  it("keeps mail unwritten and queues no job in a process without SMTP_URL; /admin/mail writes it when read", async () => {
    const customer = await customerIn("fr");
    const earlier = (await outboxOf(customer.id)).length;
    keepMailUnsent(true);
    try {
      await coins(customer.id, 1000);
    } finally {
      keepMailUnsent(false);
    }
    const rows = (await outboxOf(customer.id)).slice(earlier);
    expect(rows.map((row) => [row.state, row.subject, row.text])).toEqual([["kept", null, null]]);
    const jobs = await app()
      .db.selectFrom("jobs")
      .select("id")
      .where("type", "=", MAIL_SEND_JOB)
      .where(
        "payload",
        "in",
        rows.map((row) => JSON.stringify({ outboxId: Number(row.id) })),
      )
      .execute();
    expect(jobs).toEqual([]);
    // A worker with SMTP finds no job of it: the message stays kept, sent to nobody.
    await work(smtp().url);
    expect(smtp().received.map((mail) => mail.subject)).not.toContain(
      "10,00 coins ajoutés à votre solde",
    );
    expect((await outboxOf(customer.id)).slice(earlier).map((row) => row.state)).toEqual(["kept"]);

    const writer = {
      settings: () => getSettings(app().db),
      publicUrl: "http://localhost:3000",
      i18n: sharedI18n,
    };
    const list = await listOutbox(
      app().db,
      { page: 1, state: "kept", open: Number(rows[0]!.id) },
      { write: mailWriter(writer), subject: mailSubjectWriter(writer) },
    );
    const listed = list.messages.find((message) => message.id === Number(rows[0]!.id));
    expect(listed?.subject).toBe("10,00 coins ajoutés à votre solde");
    expect(list.opened?.subject).toBe("10,00 coins ajoutés à votre solde");
    expect(list.opened?.text).toContain("10,00 coins ont été ajoutés");
    // Reading a page stores nothing: the message stays unwritten (and is written afresh when read again).
    const [after] = (await outboxOf(customer.id)).slice(earlier);
    expect([after!.subject, after!.text]).toEqual([null, null]);
  });

  it("shows the links of a kept message with their token redacted", async () => {
    const customer = await customerIn("en");
    const [row] = await outboxOf(customer.id);
    await app()
      .db.updateTable("mail_outbox")
      .set({
        state: "kept",
        text: "Reset: http://localhost:3000/reset-password?token=Zk3f9QxY2bVw8LmN4pRt&lang=en\n",
      })
      .where("id", "=", row!.id)
      .execute();
    const list = await listOutbox(app().db, { page: 1, open: Number(row!.id) });
    expect(list.opened?.text).toBe(
      "Reset: http://localhost:3000/reset-password?token=[redacted]&lang=en\n",
    );
  });

  it("queues an event's message to a recipient once, and nothing when the transaction rolls back", async () => {
    const customer = await customerIn("en");
    const event = {
      kind: "orderApproved",
      orderId: 987_654,
      userId: customer.id,
      product: "VPS Entry",
      setup: "manual",
    } as const;
    expect(await inTransaction(app().db, (trx) => queueMail(trx, event))).toBe(1);
    expect(await inTransaction(app().db, (trx) => queueMail(trx, event))).toBe(0);
    const approved = (await outboxOf(customer.id)).filter((row) => row.kind === "orderApproved");
    expect(approved).toHaveLength(1);
    expect(approved[0]!.unique_key).toBe(`orderApproved:order:987654:${customer.id}`);

    await expect(
      inTransaction(app().db, async (trx) => {
        await queueMail(trx, { ...event, orderId: 987_655 });
        throw new Error("the use-case failed after queueing");
      }),
    ).rejects.toThrow("the use-case failed");
    const keys = (await outboxOf(customer.id)).map((row) => row.unique_key);
    expect(keys.some((key) => key.includes("987655"))).toBe(false);
    const jobs = await app()
      .db.selectFrom("jobs")
      .select("id")
      .where("type", "=", MAIL_SEND_JOB)
      .where("payload", "like", "%987655%")
      .execute();
    expect(jobs).toHaveLength(0);
  });

  it("sends a customer no kind they turned off in the account tab, and the others still", async () => {
    const customer = await customerIn("en");
    expect(await mailPreferencesOf(app().db, customer.id)).toEqual([
      "orderReceived",
      "orderApproved",
      "orderRejected",
      "coinsChanged",
      "ticketAnswered",
      "serviceExpiring",
      "serviceRenewalShort",
      "serviceRenewed",
      "campaign",
    ]);
    // The form as a browser posts it: coins unticked (absent), the rest ticked.
    const form = mailPreferencesSchema.parse({
      intent: "mail-preferences",
      orderReceived: "on",
      orderApproved: "on",
      orderRejected: "on",
      ticketAnswered: "on",
    });
    await setMailPreferences(app().db, { userId: customer.id, receive: form.receive });
    expect(await mailPreferencesOf(app().db, customer.id)).not.toContain("coinsChanged");

    await coins(customer.id, 500);
    const placed = await order(customer.id);
    const kinds = (await outboxOf(customer.id)).map((row) => row.kind);
    // The fixture's credit came before the choice; the adjustment after it mails nothing.
    expect(kinds.filter((kind) => kind === "coinsChanged")).toHaveLength(1);
    expect(kinds).toContain("orderReceived");
    // The staff still hear of the order.
    const staff = await staffMailOfOrder(app(), placed.id);
    expect(staff.length).toBeGreaterThan(0);

    // Ticked again: received again.
    await setMailPreferences(app().db, { userId: customer.id, receive: ["coinsChanged"] });
    await coins(customer.id, 100);
    const after = (await outboxOf(customer.id)).filter((row) => row.kind === "coinsChanged");
    expect(after).toHaveLength(2);
  });

  it("erases an account's mail and email choices when its deletion is completed", async () => {
    const customer = await customerIn("en");
    await setMailPreferences(app().db, { userId: customer.id, receive: [] });
    await work(null);
    expect(await outboxOf(customer.id)).not.toHaveLength(0);
    const asked = await requestAccountDeletion(app().db, {
      userId: customer.id,
      currentPassword: "Buyer-pw-8842",
      ip: "127.0.0.1",
    });
    expect(asked).toMatchObject({ ok: true });
    const done = await completeAccountDeletion(app().db, {
      userId: customer.id,
      actorId: await adminId(app()),
    });
    expect(done).toMatchObject({ ok: true });
    expect(await outboxOf(customer.id)).toHaveLength(0);
    const kept = await readRows(app().db, "mail_outbox", ["id"], { to_address: customer.email });
    expect(kept).toHaveLength(0);
    const choices = await readRows(app().db, "mail_opt_outs", ["id"], { user_id: customer.id });
    expect(choices).toHaveLength(0);
  });
});
