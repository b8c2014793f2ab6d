import { expect, it } from "vitest";
import { DISCORD_ALERT_JOB } from "~/domain/jobs/discord-posts.server";
import { MAIL_SEND_JOB } from "~/domain/mail/mail-sender.server";
import { withFakeDiscordWebhook } from "../../../tests/support/fake-discord";
import { suiteSmtpServer } from "../../../tests/support/mail-fixtures";
import { adminId, customerWithCoins } from "../../../tests/support/money-fixtures";
import { readRow } from "../../../tests/support/read-column";
import { steppedWorker } from "../../../tests/support/stepped-worker";
import { atOnce, describeEachDatabase } from "../../../tests/support/test-database";
import { mailHandler } from "../../../server/mail";
import { workerHandlers } from "../../../server/worker";
import { STAFF_SUMMARY_LISTED } from "./tickets";
import { openTicket } from "./tickets.server";

const MAIL_FROM = "Hostfront <no-reply@hostfront.test>";

// One customer once opened 2,037 tickets in 31 seconds, and each mailed every admin and posted to the
// staff's Discord. Staff now hear of new tickets at most once a window (ten minutes): the first ticket
// after a quiet window at once, the rest of a window in one summary once it has ended. The flood is
// opened with openTicket, which counts no account limit, so many tickets reach the staff's side.
describeEachDatabase("staff told of a flood of new tickets", (app, dialect) => {
  const smtp = suiteSmtpServer();
  const { discord } = withFakeDiscordWebhook(app);
  const at = (day: number, time: string) => new Date(`2026-11-${day}T${time}Z`);
  const iso = (day: number, time: string) => at(day, time).toISOString();

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

  /** `count` tickets from one customer, evenly from `from` over `seconds`; their ids in order. */
  async function flood(customer: string, count: number, from: Date, seconds: number) {
    const ids: number[] = [];
    for (let i = 0; i < count; i++) {
      const now = new Date(from.getTime() + Math.floor((i * seconds * 1000) / count));
      const opened = await openTicket(
        app().db,
        {
          userId: customer,
          department: "technical",
          subject: `Flood ${i}`,
          priority: "high",
          message: "Help",
        },
        { now },
      );
      if (!opened.ok) throw new Error(opened.error);
      ids.push(opened.ticket.id);
    }
    return ids;
  }

  /** The staff messages about new tickets queued on `day`, with when each send job is due. */
  async function staffMail(day: number) {
    const rows = await app()
      .db.selectFrom("mail_outbox")
      .select(["id", "kind", "user_id", "params"])
      .where("kind", "in", ["staffTicketOpened", "staffTicketsOpened"])
      .where("created_at", ">=", iso(day, "00:00:00"))
      .where("created_at", "<", iso(day + 1, "00:00:00"))
      .orderBy("id")
      .execute();
    const jobs = await app()
      .db.selectFrom("jobs")
      .select(["unique_key", "run_at"])
      .where("type", "=", MAIL_SEND_JOB)
      .execute();
    const dueOf = new Map(jobs.map((job) => [job.unique_key, new Date(job.run_at).toISOString()]));
    return rows.map((row) => ({
      kind: row.kind,
      to: row.user_id!,
      params: JSON.parse(row.params) as Record<string, unknown>,
      due: dueOf.get(`mail:${row.id}`) ?? "no send job",
    }));
  }

  /** The staff's Discord posts about tickets that are queued, with when each is due. */
  async function ticketPosts() {
    const rows = await app()
      .db.selectFrom("jobs")
      .select(["unique_key", "run_at"])
      .where("type", "=", DISCORD_ALERT_JOB)
      .orderBy("id")
      .execute();
    return rows.map((row) => ({ key: row.unique_key, due: new Date(row.run_at).toISOString() }));
  }

  /** The worker at `now`: every due mail (to the suite's SMTP server) and post. */
  async function work(now: Date) {
    const worker = steppedWorker({
      db: app().db,
      handlers: {
        ...workerHandlers(app(), { discordSend: discord().send }),
        [MAIL_SEND_JOB]: mailHandler(app(), { SMTP_URL: smtp().url, MAIL_FROM }),
      },
      config: { leaseMs: 10_000, pollMs: 10, backoffMs: 1000, concurrency: 4 },
      now: () => now,
    });
    for (let round = 0; round < 5; round++) {
      await worker.tick();
      await worker.idle();
    }
    await worker.stop(100);
  }
  /** What a ticket of `flood` told at once carries: its department, subject and first lines. */
  const told = { department: "technical", subject: "Flood 0", excerpt: "Help", cut: false };
  const staffReceived = (emails: string[]) =>
    smtp().received.filter((mail) => emails.some((email) => mail.to.includes(email)));

  it("queues two mails per admin and two posts for 150 tickets in 31 seconds, the second a summary", async () => {
    const staff = await admins();
    const customer = await customerWithCoins(app(), 0);
    const ids = await flood(customer, 150, at(23, "10:03:00"), 31);

    const summary = { from: iso(23, "10:00:00"), until: iso(23, "10:10:00"), skipFirst: true };
    const expected = staff.flatMap(({ id }) => [
      {
        kind: "staffTicketOpened",
        to: id,
        // Its subject and first lines too (the summary names numbers and departments only).
        params: { ...told, id: ids[0] },
        due: iso(23, "10:03:00"),
      },
      // Once the window has ended, and thirty seconds for a transaction begun in it to commit.
      { kind: "staffTicketsOpened", to: id, params: summary, due: iso(23, "10:10:30") },
    ]);
    expect(
      (await staffMail(23)).sort((a, b) => a.to.localeCompare(b.to) || a.due.localeCompare(b.due)),
    ).toEqual(expected.sort((a, b) => a.to.localeCompare(b.to) || a.due.localeCompare(b.due)));
    expect(await ticketPosts()).toEqual([
      { key: `post:ticket:${ids[0]}`, due: iso(23, "10:03:00") },
      { key: `post:tickets:${summary.from}`, due: iso(23, "10:10:30") },
    ]);

    // During the flood: the first ticket, once to each admin and once to Discord.
    const emails = staff.map((admin) => admin.email);
    await work(at(23, "10:04:00"));
    expect(staffReceived(emails).map((mail) => mail.subject)).toEqual([
      `New ticket #${ids[0]} (Technical): Flood 0`,
      `New ticket #${ids[0]} (Technical): Flood 0`,
    ]);
    expect(discord().posts).toHaveLength(1);

    // Once the window has ended: one summary each, naming the first tickets and counting the rest.
    smtp().reset();
    await work(at(23, "10:10:30"));
    const summaries = staffReceived(emails);
    expect(summaries.map((mail) => [mail.to, mail.subject])).toEqual(
      expect.arrayContaining(emails.map((email) => [[email], "149 new tickets"])),
    );
    expect(summaries).toHaveLength(2);
    const text = summaries[0]!.text!;
    expect(text).toContain("149 tickets were opened between");
    expect(text).toContain(`#${ids[1]} (Technical), #${ids[2]} (Technical)`);
    expect(text).toContain(`#${ids[STAFF_SUMMARY_LISTED]} (Technical)`);
    expect(text).not.toContain(`#${ids[STAFF_SUMMARY_LISTED + 1]} `);
    expect(text).toContain(`and ${149 - STAFF_SUMMARY_LISTED} more.`);
    expect(text).not.toContain(`#${ids[0]} `);
    expect(text).not.toContain("Help");
    expect(discord().posts).toHaveLength(2);
    const post = (discord().posts[1] as { content: string }).content;
    expect(post).toMatch(
      /^149 new tickets between .+: #\d+(, #\d+){19} … http:\/\/.+\/admin\/tickets$/,
    );
    expect(post).toContain(`#${ids[1]}, #${ids[2]}`);
  });

  it("tells each admin at most once a window, however the tickets fall", async () => {
    const staff = await admins();
    const customer = await customerWithCoins(app(), 0);
    // Across a window's edge, then one ticket after a busy window, one after a quiet one.
    const flooded = await flood(customer, 40, at(24, "10:09:45"), 31);
    const [afterBusy] = await flood(customer, 1, at(24, "10:25:00"), 0);
    expect(afterBusy).toBeDefined();
    const [afterQuiet] = await flood(customer, 1, at(24, "10:45:00"), 0);
    const window = (from: string, until: string, skipFirst: boolean) => ({
      from: iso(24, from),
      until: iso(24, until),
      skipFirst,
    });
    const mail = await staffMail(24);
    for (const { id } of staff)
      expect(
        mail.filter((each) => each.to === id).map(({ kind, params, due }) => [kind, params, due]),
      ).toEqual([
        ["staffTicketOpened", { ...told, id: flooded[0] }, iso(24, "10:09:45")],
        ["staffTicketsOpened", window("10:00:00", "10:10:00", true), iso(24, "10:10:30")],
        ["staffTicketsOpened", window("10:10:00", "10:20:00", false), iso(24, "10:20:30")],
        ["staffTicketsOpened", window("10:20:00", "10:30:00", false), iso(24, "10:30:30")],
        ["staffTicketOpened", { ...told, id: afterQuiet }, iso(24, "10:45:00")],
      ]);
    // One message a window for each admin: no two are due in the same ten minutes.
    const windows = mail.map((each) => `${each.to} ${each.due.slice(0, 15)}`);
    expect(new Set(windows).size).toBe(windows.length);
    expect((await ticketPosts()).map((post) => post.key)).toEqual([
      `post:ticket:${flooded[0]}`,
      `post:tickets:${iso(24, "10:00:00")}`,
      `post:tickets:${iso(24, "10:10:00")}`,
      `post:tickets:${iso(24, "10:20:00")}`,
      `post:ticket:${afterQuiet}`,
    ]);

    // The summaries name their own window's tickets: the one after the busy window is in the third.
    await work(at(24, "10:31:00"));
    const emails = staff.map((admin) => admin.email);
    const subjects = staffReceived(emails).map((received) => received.subject);
    expect(subjects.filter((subject) => subject?.startsWith("New ticket #"))).toHaveLength(2);
    // A ticket every 775 ms from 10:09:45: the first 20 before 10:10:00 (the first told at once).
    const summed = subjects.filter((subject) => / new tickets?$/.test(subject ?? ""));
    expect(summed.sort()).toEqual(
      ["19 new tickets", "20 new tickets", "1 new ticket"]
        .flatMap((subject) => [subject, subject])
        .sort(),
    );
    const third = staffReceived(emails).find((received) => received.subject === "1 new ticket");
    expect(third!.text).toContain(`#${afterBusy} (Technical)`);
  });

  it(atOnce(dialect, "tells one ticket at once of twenty opened at the same moment"), async () => {
    const staff = await admins();
    const customers = await Promise.all(
      Array.from({ length: 20 }, () => customerWithCoins(app(), 0)),
    );
    const now = at(25, "09:00:00");
    const opened = await Promise.all(
      customers.map((userId, i) =>
        openTicket(
          app().db,
          { userId, department: "sales", subject: `At once ${i}`, priority: "low", message: "m" },
          { now },
        ),
      ),
    );
    expect(opened.every((result) => result.ok)).toBe(true);
    const mail = await staffMail(25);
    const ids = opened
      .flatMap((result) => (result.ok ? [result.ticket.id] : []))
      .sort((a, b) => a - b);
    for (const { id } of staff)
      expect(
        mail.filter((each) => each.to === id).map((each) => [each.kind, each.params.id]),
      ).toEqual([
        // The first of the window is the lowest number: it counted itself first, then was stored.
        ["staffTicketOpened", ids[0]],
        ["staffTicketsOpened", undefined],
      ]);
    expect(await ticketPosts()).toHaveLength(2);
  });
});
