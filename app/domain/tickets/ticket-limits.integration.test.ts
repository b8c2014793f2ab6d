import { expect, it } from "vitest";
import { asAdmin, customerWithCoins } from "../../../tests/support/money-fixtures";
import { describeEachDatabase } from "../../../tests/support/test-database";
import {
  customerTicketAction,
  openCustomerTicket,
  openTicket,
  setTicketField,
  staffReply,
} from "./tickets.server";
import {
  TICKET_OPENINGS_PER_10_MINUTES,
  TICKET_OPENINGS_PER_DAY,
  TICKET_REPLIES_PER_10_MINUTES,
} from "./tickets";

// The account's limits on opening tickets and replying (TICKET_LIMITS), enforced by the use-cases
// with the clock they are given: the Nth passes, the N+1th is refused with the wait to say, and the
// window slides. Times are aligned on the counts' slots (100 s for ten minutes, 4 h for a day).
describeEachDatabase("a customer's ticket limits", (app) => {
  const at = (time: string) => new Date(`2026-11-23T${time}Z`);
  const form = (subject: string, idempotencyKey?: string) =>
    ({
      department: "technical",
      subject,
      priority: "low",
      message: `About ${subject}`,
      ...(idempotencyKey ? { idempotencyKey } : {}),
    }) as const;
  const open = (userId: string, subject: string, now: Date, idempotencyKey?: string) =>
    openCustomerTicket(
      app().db,
      { userId, ...form(subject, idempotencyKey) },
      { ticketsOpen: true, now },
    );
  const ticketsOf = async (userId: string) =>
    (
      await app()
        .db.selectFrom("tickets")
        .select("subject")
        .where("user_id", "=", userId)
        .orderBy("id")
        .execute()
    ).map((row) => row.subject);
  const seconds = (from: Date, s: number) => new Date(from.getTime() + s * 1000);

  it("opens the 5th ticket in ten minutes and refuses the 6th, storing nothing of it", async () => {
    const customer = await customerWithCoins(app(), 0);
    const start = at("10:00:00");
    for (let i = 1; i <= TICKET_OPENINGS_PER_10_MINUTES; i++)
      expect(await open(customer, `T${i}`, seconds(start, i))).toMatchObject({ ok: true });
    const refused = await open(customer, "T6", at("10:05:00"));
    // The slot of 10:00:00 leaves the count at 10:11:40: 6 min 40 s from now, said as 7 minutes.
    expect(refused).toEqual({
      ok: false,
      kind: "limited",
      error: "tickets.errors.tooManyTickets",
      count: 7,
    });
    expect(await ticketsOf(customer)).toEqual(["T1", "T2", "T3", "T4", "T5"]);
    const messages = await app()
      .db.selectFrom("ticket_messages")
      .select("body")
      .where("body", "=", "About T6")
      .execute();
    expect(messages).toEqual([]);
    // Another customer is not held back by this one.
    const other = await customerWithCoins(app(), 0);
    expect(await open(other, "Mine", at("10:05:00"))).toMatchObject({ ok: true });
  });

  it("slides: refused until the oldest openings leave the window, refusals not counted", async () => {
    const customer = await customerWithCoins(app(), 0);
    for (let i = 1; i <= TICKET_OPENINGS_PER_10_MINUTES; i++)
      expect(await open(customer, `T${i}`, at(`10:00:0${i}`))).toMatchObject({ ok: true });
    // Ten refused tries meanwhile: rolled back with what they would have stored, so not counted.
    for (let i = 0; i < 10; i++)
      expect(await open(customer, `Refused ${i}`, at("10:08:00"))).toMatchObject({
        ok: false,
        kind: "limited",
      });
    expect(await open(customer, "Just before", new Date(at("10:11:40").getTime() - 1))).toEqual({
      ok: false,
      kind: "limited",
      error: "tickets.errors.tooManyTickets",
      count: 1,
    });
    // From 10:11:40 the first five no longer count: five more pass, the sixth is refused again.
    for (let i = 1; i <= TICKET_OPENINGS_PER_10_MINUTES; i++)
      expect(await open(customer, `Later ${i}`, seconds(at("10:11:40"), i))).toMatchObject({
        ok: true,
      });
    expect(await open(customer, "Later 6", at("10:12:00"))).toMatchObject({
      ok: false,
      error: "tickets.errors.tooManyTickets",
    });
    expect(await ticketsOf(customer)).toHaveLength(2 * TICKET_OPENINGS_PER_10_MINUTES);
  });

  it("opens the 20th ticket of a day and refuses the 21st, with the wait in hours", async () => {
    const customer = await customerWithCoins(app(), 0);
    // Five every twenty minutes: within the ten-minute limit, up to the day's.
    const bursts = ["08:00", "08:20", "08:40", "09:00"];
    for (const burst of bursts)
      for (let i = 1; i <= 5; i++)
        expect(await open(customer, `${burst} #${i}`, at(`${burst}:0${i}`))).toMatchObject({
          ok: true,
        });
    expect(await ticketsOf(customer)).toHaveLength(TICKET_OPENINGS_PER_DAY);
    // The day's slot of 08:00 counts until 12:00 the next day: 26 h 40 min from 09:20.
    expect(await open(customer, "One too many", at("09:20:00"))).toEqual({
      ok: false,
      kind: "limited",
      error: "tickets.errors.tooManyTicketsToday",
      count: 27,
    });
    const nextDay = (time: string) => new Date(`2026-11-24T${time}Z`);
    expect(
      await open(customer, "Tomorrow, too soon", new Date(nextDay("12:00:00").getTime() - 1)),
    ).toMatchObject({ ok: false, error: "tickets.errors.tooManyTicketsToday", count: 1 });
    expect(await open(customer, "Tomorrow", nextDay("12:00:00"))).toMatchObject({ ok: true });
  });

  it("answers a form sent again with its ticket, not counting it, even past the limit", async () => {
    const customer = await customerWithCoins(app(), 0);
    const keys = Array.from({ length: 5 }, (_, i) => `limit-form-key-000${i}`);
    const first = await open(customer, "T0", at("11:00:00"), keys[0]);
    for (let i = 1; i < 5; i++) await open(customer, `T${i}`, at("11:00:01"), keys[i]);
    // The first form again, at the limit: the same ticket, nothing refused and nothing counted.
    const again = await open(customer, "T0", at("11:00:02"), keys[0]);
    expect(again).toEqual({ ...first, duplicate: true });
    expect(await open(customer, "T5", at("11:00:03"), "limit-form-key-0005")).toMatchObject({
      ok: false,
      kind: "limited",
    });
  });

  it("sends the 30th reply in ten minutes and refuses the 31st; staff are never limited", async () => {
    const { db, admin } = await asAdmin(app());
    const customer = await customerWithCoins(app(), 0);
    const opened = await openTicket(db, { userId: customer, ...form("Lag") });
    if (!opened.ok) throw new Error("not opened");
    const ticketId = opened.ticket.id;
    const reply = (message: string, now: Date) =>
      customerTicketAction(
        db,
        { userId: customer, ticketId, action: { intent: "reply", message } },
        now,
      );
    const start = at("14:00:00");
    for (let i = 1; i <= TICKET_REPLIES_PER_10_MINUTES; i++)
      expect(await reply(`Reply ${i}`, seconds(start, i))).toEqual({ ok: true });
    expect(await reply("Reply 31", seconds(start, 40))).toEqual({
      ok: false,
      kind: "limited",
      error: "tickets.errors.tooManyReplies",
      // The slot of 14:00:00 leaves the count at 14:11:40.
      count: 11,
    });
    // Closing and reopening are not replies: not limited.
    const close = (intent: "close" | "reopen") =>
      customerTicketAction(db, { userId: customer, ticketId, action: { intent } }, start);
    expect(await close("close")).toEqual({ ok: true });
    expect(await close("reopen")).toEqual({ ok: true });
    // Staff answer as often as they need.
    for (let i = 1; i <= TICKET_REPLIES_PER_10_MINUTES + 5; i++)
      expect(await staffReply(db, { actorId: admin, ticketId, message: `Staff ${i}` })).toEqual({
        ok: true,
        message: "tickets.admin.replied",
      });
    expect(await setTicketField(db, { actorId: admin, ticketId, priority: "high" })).toMatchObject({
      ok: true,
    });
    const bodies = await db
      .selectFrom("ticket_messages")
      .select("body")
      .where("ticket_id", "=", ticketId)
      .where("is_staff", "=", 0)
      .execute();
    // The first message and the thirty replies; not the refused one.
    expect(bodies).toHaveLength(1 + TICKET_REPLIES_PER_10_MINUTES);
    expect(bodies.map((row) => row.body)).not.toContain("Reply 31");
    // Once the window has slid past the first replies, the customer writes again.
    expect(await reply("Reply 31", at("14:11:40"))).toEqual({ ok: true });
  });
});
