import { expect, it } from "vitest";
import {
  listNotifications,
  markNotificationsRead,
} from "~/domain/notifications/notifications.server";
import {
  asAdmin,
  balanceOf,
  customerWithCoins,
  customerWithRunningService,
  expectLedgerIntact,
} from "../../../tests/support/money-fixtures";
import { describeEachDatabase } from "../../../tests/support/test-database";
import { customerWithTicket, openedTicket } from "../../../tests/support/ticket-fixtures";
import {
  addCoinsFromTicket,
  customerTicketAction,
  getCustomerTicket,
  listCustomerTickets,
  listTicketQueue,
  openTicket,
  setTicketField,
  staffReply,
} from "./tickets.server";

describeEachDatabase("tickets and notifications", (app) => {
  it("walks a ticket through every status, and only its owner sees it", async () => {
    const { db, admin } = await asAdmin(app());
    const { owner, ticket: opened } = await customerWithTicket(app(), {
      department: "billing",
      subject: "Coins please",
      priority: "high",
      message: "50 coins",
    });
    const other = await customerWithCoins(app(), 0);
    const id = opened.id;
    expect(opened.status).toBe("open");
    expect(await getCustomerTicket(db, other, id)).toBeUndefined();
    expect(
      await customerTicketAction(db, { userId: other, ticketId: id, action: { intent: "close" } }),
    ).toEqual({ ok: false, kind: "notFound", error: "tickets.errors.notFound" });

    await staffReply(db, { actorId: admin, ticketId: id, message: "Paid?" });
    expect((await getCustomerTicket(db, owner, id))!.ticket.status).toBe("answered");
    await customerTicketAction(db, {
      userId: owner,
      ticketId: id,
      action: { intent: "reply", message: "Yes" },
    });
    expect((await getCustomerTicket(db, owner, id))!.ticket.status).toBe("customer_reply");
    await customerTicketAction(db, { userId: owner, ticketId: id, action: { intent: "close" } });
    expect((await getCustomerTicket(db, owner, id))!.ticket.status).toBe("closed");
    await customerTicketAction(db, { userId: owner, ticketId: id, action: { intent: "reopen" } });
    expect((await getCustomerTicket(db, owner, id))!.ticket.status).toBe("customer_reply");
    await setTicketField(db, { actorId: admin, ticketId: id, priority: "low", status: undefined });
    await setTicketField(db, { actorId: admin, ticketId: id, status: "closed" });
    const thread = (await getCustomerTicket(db, owner, id))!;
    expect(thread.ticket).toMatchObject({ status: "closed", priority: "low" });
    expect(thread.messages.map((m) => [m.isStaff, m.body])).toEqual([
      [false, "50 coins"],
      [true, "Paid?"],
      [false, "Yes"],
    ]);
    expect((await listCustomerTickets(db, other)).tickets).toHaveLength(0);
  });

  it("adds coins from a ticket through the ledger and notifies the customer", async () => {
    const { db, admin } = await asAdmin(app());
    const { owner, ticket: opened } = await customerWithTicket(app(), {
      department: "billing",
      subject: "Buy coins",
      priority: "medium",
      message: "20 please",
    });
    await staffReply(db, { actorId: admin, ticketId: opened.id, message: "Done" });
    expect(
      await addCoinsFromTicket(db, {
        actorId: admin,
        ticketId: opened.id,
        amountCents: 2000,
      }),
    ).toMatchObject({ ok: true });
    expect(await balanceOf(app(), owner)).toBe(2000);
    const ledger = await db
      .selectFrom("coin_ledger")
      .select("reason")
      .where("user_id", "=", owner)
      .execute();
    expect(ledger.map((l) => l.reason)).toEqual([`Ticket #${opened.id}: Buy coins`]);

    const notes = await listNotifications(db, owner);
    expect(notes.unread).toBe(2);
    expect(notes.items.map((n) => n.kind).sort()).toEqual(["coins_added", "ticket_answered"]);
    await markNotificationsRead(db, owner);
    expect((await listNotifications(db, owner)).unread).toBe(0);
    await expectLedgerIntact(app());
  });

  it("serves the queue oldest waiting first, filtered", async () => {
    const db = app().db;
    const a = await customerWithCoins(app(), 0);
    const first = await openedTicket(app(), a, { department: "technical", subject: "First" });
    const second = await openedTicket(app(), a, {
      department: "technical",
      subject: "Second",
      priority: "high",
    });
    const queue = await listTicketQueue(db, { department: "technical", page: 1, pageSize: 50 });
    const ids = queue.tickets.map((t) => t.id);
    expect(ids.indexOf(first.id)).toBeLessThan(ids.indexOf(second.id));
    const high = await listTicketQueue(db, {
      priority: "high",
      department: "technical",
      page: 1,
      pageSize: 50,
    });
    expect(high.tickets.every((t) => t.priority === "high")).toBe(true);
  });

  it("refuses to attach someone else's service", async () => {
    const db = app().db;
    const a = await customerWithCoins(app(), 0);
    const { user: b, serviceId } = await customerWithRunningService(app(), 5000);
    const ticket = {
      department: "technical",
      subject: "x",
      priority: "low",
      message: "m",
    } as const;
    expect(await openTicket(db, { ...ticket, userId: a, serviceId })).toEqual({
      ok: false,
      kind: "invalid",
      error: "tickets.errors.serviceNotFound",
    });
    expect((await listCustomerTickets(db, a)).tickets).toEqual([]);
    // The same service is attached for its owner.
    const own = await openedTicket(app(), b, { ...ticket, serviceId });
    expect(own.hostingServiceId).toBe(serviceId);
  });
});
