import { expect, it } from "vitest";
import { MAIL_SEND_JOB } from "~/domain/mail/mail-sender.server";
import { setStaffMailChoices } from "~/domain/mail/staff-mail-choices.server";
import { sendDueMail, suiteSmtpServer } from "../../../tests/support/mail-fixtures";
import { adminId, customerWithCoins } from "../../../tests/support/money-fixtures";
import { readRow } from "../../../tests/support/read-column";
import { describeEachDatabase } from "../../../tests/support/test-database";
import { REPLY_MAIL_MAX_CHARS } from "./tickets";
import { customerTicketAction, openTicket, staffReply } from "./tickets.server";

const MAIL_FROM = "Hostfront <no-reply@hostfront.test>";

// What a ticket's mail says, read as it arrives at a real SMTP server: the staff's reply in the
// customer's mail, the subject, department and first lines in the staff's "new ticket" mail, and a
// customer's reply in the mail of the admins who asked for it, once a window in a flood. Whatever a
// person typed arrives as text: escaped in the HTML part, as typed in the plain-text part.
describeEachDatabase("what ticket mail carries", (app) => {
  const smtp = suiteSmtpServer();
  const at = (day: number, time: string) =>
    new Date(`2026-12-${String(day).padStart(2, "0")}T${time}Z`);

  /** The seed admin and a second one, with their addresses. */
  async function admins() {
    const second = await customerWithCoins(app(), 0);
    await app().db.updateTable("users").set({ role: "admin" }).where("id", "=", second).execute();
    return Promise.all(
      [await adminId(app()), second].map(async (id) => ({
        id,
        email: (await readRow(app().db, "users", ["email"], { id })).email,
      })),
    );
  }

  async function emailOf(id: string) {
    return (await readRow(app().db, "users", ["email"], { id })).email;
  }

  async function open(
    userId: string,
    fields: { subject?: string; message?: string; department?: "billing" | "technical" } = {},
    now = new Date(),
  ) {
    const opened = await openTicket(
      app().db,
      {
        userId,
        department: fields.department ?? "technical",
        subject: fields.subject ?? "Server down",
        priority: "high",
        message: fields.message ?? "It stopped.",
      },
      { now },
    );
    if (!opened.ok) throw new Error(opened.error);
    return opened.ticket.id;
  }

  async function reply(userId: string, ticketId: number, message: string, now: Date) {
    const replied = await customerTicketAction(
      app().db,
      { userId, ticketId, action: { intent: "reply", message } },
      now,
    );
    expect(replied).toEqual({ ok: true });
  }

  /** Every due mail sent to the suite's SMTP server, at `now`. */
  const send = (now?: Date) =>
    sendDueMail(
      app(),
      { smtpUrl: smtp().url, from: MAIL_FROM },
      { rounds: 6, ...(now ? { now: () => now } : {}) },
    );
  const receivedBy = (email: string) => smtp().received.filter((mail) => mail.to.includes(email));

  it("sends the customer the staff's reply, escaped, with the subject and the ticket's link", async () => {
    const customer = await customerWithCoins(app(), 0);
    const id = await open(customer, { subject: 'Crash <on> "boot"' });
    const admin = await adminId(app());
    const written = 'We restarted it: <script>alert("x")</script> & it runs.\r\n\r\nTry again.';
    const replied = await staffReply(app().db, { actorId: admin, ticketId: id, message: written });
    expect(replied.ok).toBe(true);

    await send();
    const [mail, ...more] = receivedBy(await emailOf(customer));
    expect(more).toHaveLength(0);
    expect(mail!.subject).toBe(`Ticket #${id} answered: Crash <on> "boot"`);
    expect(mail!.text).toContain(
      '> We restarted it: <script>alert("x")</script> & it runs.\n>\n> Try again.\n',
    );
    expect(mail!.html).toContain(
      "We restarted it: &lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; &amp; it runs.<br/><br/>Try again.",
    );
    expect(mail!.html).not.toContain("<script>");
    expect(mail!.html).toContain("Crash &lt;on&gt; &quot;boot&quot;");
    expect(mail!.text).toMatch(new RegExp(`Read the answer:\\nhttps?://\\S+/support/${id}\\n`));
    // Short: said whole, with no note that it was cut.
    expect(mail!.text).not.toContain("This is the beginning of the answer");
    expect(mail!.text).toContain("To answer, write on your ticket");
  });

  it("cuts a long reply, says so and links to the rest", async () => {
    const customer = await customerWithCoins(app(), 0);
    const id = await open(customer);
    const words = Array.from({ length: 600 }, (_, i) => `word${i}`).join(" ");
    expect(words.length).toBeGreaterThan(REPLY_MAIL_MAX_CHARS);
    await staffReply(app().db, { actorId: await adminId(app()), ticketId: id, message: words });

    await send();
    const [mail] = receivedBy(await emailOf(customer));
    const quoted = mail!.text!.split("\n").find((line) => line.startsWith("> word0 "))!;
    expect(quoted.length).toBeLessThanOrEqual(2 + REPLY_MAIL_MAX_CHARS + 1);
    // Cut at a word's end, with "…"; the last word is not in the mail.
    expect(quoted).toMatch(/ word\d+…$/);
    expect(mail!.text).not.toContain("word599");
    expect(mail!.text).toContain(
      "This is the beginning of the answer: read all of it on your ticket.",
    );
    expect(mail!.text).toMatch(new RegExp(`https?://\\S+/support/${id}\\n`));
  });

  it("tells staff of a new ticket with its subject, department and first lines, escaped", async () => {
    const staff = await admins();
    const customer = await customerWithCoins(app(), 0);
    // What the tests before left due (their window's summary of new tickets) out of the way.
    await send(at(1, "08:00:00"));
    smtp().reset();
    const lines = Array.from({ length: 12 }, (_, i) => `Line ${i + 1}`);
    lines[0] = 'I paid <img src=x onerror="alert(1)"> twice & got no coins.';
    const id = await open(
      customer,
      { subject: "Refund <b>now</b>", department: "billing", message: lines.join("\n") },
      at(1, "09:00:00"),
    );

    await send(at(1, "09:00:05"));
    for (const { email } of staff) {
      const [mail, ...more] = receivedBy(email);
      expect(more).toHaveLength(0);
      expect(mail!.subject).toBe(`New ticket #${id} (Billing and coins): Refund <b>now</b>`);
      expect(mail!.text).toContain("in the Billing and coins department");
      expect(mail!.text).toContain("Subject: Refund <b>now</b>");
      expect(mail!.text).toContain(
        'The customer wrote:\n\n> I paid <img src=x onerror="alert(1)"> twice & got no coins.\n> Line 2\n',
      );
      // The first eight lines, then a note that there is more, and the ticket's link.
      expect(mail!.text).toContain("> Line 8…\n");
      expect(mail!.text).not.toContain("Line 9");
      expect(mail!.text).toContain(
        "This is the beginning of the message: read all of it on the ticket.",
      );
      expect(mail!.text).toMatch(new RegExp(`https?://\\S+/admin/tickets/${id}\\n`));
      expect(mail!.html).toContain(
        "I paid &lt;img src=x onerror=&quot;alert(1)&quot;&gt; twice &amp; got no coins.<br/>Line 2",
      );
      expect(mail!.html).toContain("Subject: Refund &lt;b&gt;now&lt;/b&gt;");
      expect(mail!.html).not.toContain("<img");
    }
  });

  it("mails a customer's reply only to the admins who asked for it", async () => {
    const [asking, silent] = await admins();
    const customer = await customerWithCoins(app(), 0);
    const id = await open(customer, { subject: "Lag" }, at(2, "08:00:00"));
    await send(at(2, "08:00:01"));
    smtp().reset();

    // Nobody asked: a reply mails no admin.
    await reply(customer, id, "Still lagging.", at(2, "08:30:00"));
    await send(at(2, "08:30:01"));
    expect(smtp().received).toHaveLength(0);

    const saved = await setStaffMailChoices(app().db, {
      userId: asking!.id,
      receive: ["staffTicketReplied"],
    });
    expect(saved).toEqual({ ok: true, receive: ["staffTicketReplied"] });
    await reply(customer, id, "Now <it> crashes & burns.", at(2, "09:00:00"));
    await send(at(2, "09:00:01"));
    expect(receivedBy(silent!.email)).toHaveLength(0);
    const [mail, ...more] = receivedBy(asking!.email);
    expect(more).toHaveLength(0);
    expect(mail!.subject).toBe(`Customer reply on ticket #${id}: Lag`);
    expect(mail!.text).toContain(`The customer replied to ticket #${id} (Technical): Lag`);
    expect(mail!.text).toContain("They wrote:\n\n> Now <it> crashes & burns.\n");
    expect(mail!.html).toContain("Now &lt;it&gt; crashes &amp; burns.");
    expect(mail!.text).toMatch(new RegExp(`https?://\\S+/admin/tickets/${id}\\n`));
    // The customer is not mailed their own reply.
    expect(receivedBy(await emailOf(customer))).toHaveLength(0);

    // Asked no more: no mail again.
    smtp().reset();
    await setStaffMailChoices(app().db, { userId: asking!.id, receive: [] });
    await reply(customer, id, "Hello?", at(2, "09:30:00"));
    await send(at(2, "09:30:01"));
    expect(smtp().received).toHaveLength(0);
  });

  it("mails an admin who asked once a window during a flood of replies", async () => {
    const [asking] = await admins();
    await setStaffMailChoices(app().db, { userId: asking!.id, receive: ["staffTicketReplied"] });
    const customers = await Promise.all([0, 1, 2].map(() => customerWithCoins(app(), 0)));
    const tickets = await Promise.all(
      customers.map((customer, i) => open(customer, { subject: `T${i}` }, at(3, "07:00:00"))),
    );
    // The staff's new-ticket mail out of the way.
    await send(at(3, "07:20:00"));
    smtp().reset();
    // 60 replies in 31 seconds from three customers (20 each, under their limit of 30).
    const from = at(3, "10:03:00").getTime();
    for (let i = 0; i < 60; i++)
      await reply(
        customers[i % 3]!,
        tickets[i % 3]!,
        `Flood ${i} <x>`,
        new Date(from + Math.floor((i * 31_000) / 60)),
      );

    // Two messages queued for the flood: the first reply's, and the window's summary, due at its end.
    const queued = await app()
      .db.selectFrom("mail_outbox")
      .select(["id", "kind", "user_id"])
      .where("kind", "in", ["staffTicketReplied", "staffTicketReplies"])
      .where("created_at", ">=", at(3, "10:00:00").toISOString())
      .orderBy("id")
      .execute();
    expect(queued.map((row) => [row.kind, row.user_id])).toEqual([
      ["staffTicketReplied", asking!.id],
      ["staffTicketReplies", asking!.id],
    ]);
    const summaryJob = await readRow(app().db, "jobs", ["run_at"], {
      type: MAIL_SEND_JOB,
      unique_key: `mail:${queued[1]!.id}`,
    });
    expect(new Date(summaryJob.run_at).toISOString()).toBe(at(3, "10:10:30").toISOString());

    // During the flood: the first reply, at once.
    await send(at(3, "10:04:00"));
    expect(smtp().received.map((mail) => mail.subject)).toEqual([
      `Customer reply on ticket #${tickets[0]}: T0`,
    ]);
    expect(smtp().received[0]!.text).toContain("> Flood 0 <x>");

    // Once the window has ended: one summary of the 59 others, by ticket, numbers only.
    smtp().reset();
    await send(at(3, "10:10:30"));
    const [summary, ...more] = smtp().received;
    expect(more).toHaveLength(0);
    expect(summary!.to).toEqual([asking!.email]);
    expect(summary!.subject).toBe("59 customer replies");
    expect(summary!.text).toContain("59 replies from customers arrived between");
    expect(summary!.text).toContain(
      // In the order of their first reply told here: the first ticket's first went at once.
      `#${tickets[1]} (20 replies), #${tickets[2]} (20 replies), #${tickets[0]} (19 replies)`,
    );
    expect(summary!.text).not.toContain("Flood");
  });
});
