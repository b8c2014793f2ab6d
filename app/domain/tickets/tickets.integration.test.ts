import { expect, it } from "vitest";
import {
  listNotifications,
  markNotificationsRead,
} from "~/domain/notifications/notification-reads.server";
import {
  asAdmin,
  balanceOf,
  customerWithCoins,
  customerWithRunningService,
  expectLedgerIntact,
} from "../../../tests/support/money-fixtures";
import { readRow, readRows } from "../../../tests/support/read-column";
import { refusal } from "../../../tests/support/results";
import { atOnce, describeEachDatabase } from "../../../tests/support/test-database";
import { findInvoiceDiscrepancies } from "~/domain/invoices/reconciliation.server";
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

describeEachDatabase("tickets and notifications", (app, dialect) => {
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
    ).toEqual(refusal("notFound", "tickets.errors.notFound"));

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
    const ledger = await readRows(db, "coin_ledger", ["reason"], { user_id: owner });
    expect(ledger.map((l) => l.reason)).toEqual([`Ticket #${opened.id}: Buy coins`]);

    const notes = await listNotifications(db, owner);
    expect(notes.unread).toBe(2);
    expect(notes.items.map((n) => n.kind).sort()).toEqual(["coins_added", "ticket_answered"]);
    await markNotificationsRead(db, owner);
    expect((await listNotifications(db, owner)).unread).toBe(0);
    await expectLedgerIntact(app());
  });

  it("records a ticket's payment with its receipt, and a goodwill credit with none", async () => {
    const { db, admin } = await asAdmin(app());
    const { owner, ticket } = await customerWithTicket(app(), {
      department: "billing",
      subject: "Paid by transfer",
      priority: "medium",
      message: "I sent 30 euros",
    });
    const key = "ticket-payment-key-0001";
    const paid = await addCoinsFromTicket(db, {
      actorId: admin,
      ticketId: ticket.id,
      amountCents: 3000,
      note: "bank transfer 12/05",
      idempotencyKey: key,
      creditAs: "payment",
    });
    const documents = () =>
      readRows(
        db,
        "invoices",
        ["number", "kind", "total_cents", "vat_cents", "ledger_entry_id", "lines"],
        { user_id: owner },
      );
    const [receipt, ...others] = await documents();
    expect(others).toEqual([]);
    expect(receipt).toMatchObject({ kind: "receipt", total_cents: 3000, vat_cents: 0 });
    expect(JSON.parse(receipt!.lines)).toEqual([
      {
        kind: "ticketPayment",
        params: { id: ticket.id },
        quantity: 1,
        unitCents: 3000,
        totalCents: 3000,
      },
    ]);
    expect(paid).toEqual({
      ok: true,
      message: "tickets.admin.coinsAddedWithReceipt",
      amountCents: 3000,
      balanceCents: 3000,
      receipt: receipt!.number,
    });
    const credit = await readRow(db, "coin_ledger", ["id", "kind", "reason"], {
      idempotency_key: key,
    });
    expect(credit).toMatchObject({
      kind: "coin_purchase",
      reason: `Ticket #${ticket.id}: Paid by transfer (bank transfer 12/05)`,
    });
    expect(Number(receipt!.ledger_entry_id)).toBe(Number(credit.id));
    // The coins mail links the receipt; the form posted again credits and issues nothing more.
    const mail = await readRow(db, "mail_outbox", ["params"], {
      user_id: owner,
      kind: "coinsChanged",
    });
    expect(JSON.parse(mail.params).document).toEqual({
      kind: "receipt",
      number: receipt!.number,
      totalCents: 3000,
    });
    expect(
      await addCoinsFromTicket(db, {
        actorId: admin,
        ticketId: ticket.id,
        amountCents: 3000,
        idempotencyKey: key,
        creditAs: "payment",
      }),
    ).toMatchObject({ ok: true, message: "tickets.admin.coinsAlreadyAdded" });
    expect(await documents()).toHaveLength(1);

    const goodwill = await addCoinsFromTicket(db, {
      actorId: admin,
      ticketId: ticket.id,
      amountCents: 500,
      note: "sorry for the wait",
      idempotencyKey: "ticket-goodwill-key-0001",
      creditAs: "goodwill",
    });
    expect(goodwill).toEqual({
      ok: true,
      message: "tickets.admin.coinsAdded",
      amountCents: 500,
      balanceCents: 3500,
    });
    expect(await documents()).toHaveLength(1);
    const gift = await readRow(db, "coin_ledger", ["kind", "reason", "reason_key"], {
      idempotency_key: "ticket-goodwill-key-0001",
    });
    expect(gift).toEqual({
      kind: "admin_adjustment",
      reason: `Ticket #${ticket.id}: Paid by transfer, goodwill credit (sorry for the wait)`,
      reason_key: "ticketGoodwillNote",
    });
    expect(await balanceOf(app(), owner)).toBe(3500);
    expect(await findInvoiceDiscrepancies(db)).toEqual([]);
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
    expect(await openTicket(db, { ...ticket, userId: a, serviceId })).toEqual(
      refusal("invalid", "tickets.errors.serviceNotFound"),
    );
    expect((await listCustomerTickets(db, a)).tickets).toEqual([]);
    // The same service is attached for its owner.
    const own = await openedTicket(app(), b, { ...ticket, serviceId });
    expect(own.hostingServiceId).toBe(serviceId);
  });

  // A second tap, a retry or the browser resending a form posted the same message twice.
  it(
    atOnce(dialect, "stores a reply sent twice with one key once, the customer's and the staff's"),
    async () => {
      const { db, admin } = await asAdmin(app());
      const { owner, ticket } = await customerWithTicket(app());
      const reply = (message: string, idempotencyKey: string) =>
        customerTicketAction(db, {
          userId: owner,
          ticketId: ticket.id,
          action: { intent: "reply", message, idempotencyKey },
        });
      expect(await reply("Still lags", "customer-reply-key-1")).toEqual({ ok: true });
      expect(await reply("Still lags", "customer-reply-key-1")).toEqual({
        ok: true,
        duplicate: true,
      });
      // Two at once with one key: the unique index settles it.
      const raced = await Promise.all([
        reply("Raced", "customer-reply-key-2"),
        reply("Raced", "customer-reply-key-2"),
      ]);
      expect(raced.every((result) => result.ok)).toBe(true);

      const staff = (idempotencyKey: string) =>
        staffReply(db, { actorId: admin, ticketId: ticket.id, message: "On it", idempotencyKey });
      expect(await staff("staff-reply-key-1")).toEqual({
        ok: true,
        message: "tickets.admin.replied",
      });
      expect(await staff("staff-reply-key-1")).toEqual({
        ok: true,
        message: "tickets.admin.replied",
      });

      const thread = (await getCustomerTicket(db, owner, ticket.id))!;
      expect(thread.messages.map((m) => m.body)).toEqual(["m", "Still lags", "Raced", "On it"]);
      // The replayed staff reply notified the customer once.
      const notes = await listNotifications(db, owner);
      expect(notes.items.filter((n) => n.kind === "ticket_answered")).toHaveLength(1);
      // Without a key (a script) a reply is simply stored.
      await staffReply(db, { actorId: admin, ticketId: ticket.id, message: "No key" });
      await staffReply(db, { actorId: admin, ticketId: ticket.id, message: "No key" });
      expect((await getCustomerTicket(db, owner, ticket.id))!.messages).toHaveLength(6);
    },
  );

  it("refuses a reply key used by someone else or on another ticket as an expired form", async () => {
    const { db, admin } = await asAdmin(app());
    const { owner, ticket } = await customerWithTicket(app());
    const other = await openedTicket(app(), owner);
    const stranger = await customerWithCoins(app(), 0);
    const strangers = await openedTicket(app(), stranger);
    // Every reply below carries the one key.
    const reply = (userId: string, ticketId: number, message: string) =>
      customerTicketAction(db, {
        userId,
        ticketId,
        action: { intent: "reply", message, idempotencyKey: "shared-reply-key-1" },
      });
    await reply(owner, ticket.id, "Mine");
    const expired = { ok: false, kind: "invalid", error: "tickets.errors.formExpired" };
    expect(await reply(owner, other.id, "Elsewhere")).toEqual(expired);
    expect(await reply(stranger, strangers.id, "Theirs")).toEqual(expired);
    expect(
      await staffReply(db, {
        actorId: admin,
        ticketId: ticket.id,
        message: "Staff",
        idempotencyKey: "shared-reply-key-1",
      }),
    ).toEqual(expired);
    expect((await getCustomerTicket(db, owner, other.id))!.messages).toHaveLength(1);
    expect((await getCustomerTicket(db, stranger, strangers.id))!.messages).toHaveLength(1);
    expect((await getCustomerTicket(db, owner, ticket.id))!.messages).toHaveLength(2);
  });

  it("opens one ticket from a new-ticket form sent twice", async () => {
    const db = app().db;
    const owner = await customerWithCoins(app(), 0);
    const form = {
      userId: owner,
      department: "technical",
      subject: "Lag",
      priority: "medium",
      message: "My server lags",
      idempotencyKey: "new-ticket-key-1",
    } as const;
    const first = await openTicket(db, form);
    const again = await openTicket(db, form);
    if (!first.ok || !again.ok) throw new Error("not opened");
    expect(first.duplicate).toBeUndefined();
    expect(again).toEqual({ ok: true, ticket: first.ticket, duplicate: true });
    expect((await listCustomerTickets(db, owner)).tickets).toHaveLength(1);
    // Another customer's form cannot reach that ticket with the key.
    const stranger = await customerWithCoins(app(), 0);
    expect(await openTicket(db, { ...form, userId: stranger })).toEqual(
      refusal("invalid", "tickets.errors.formExpired"),
    );
    expect((await listCustomerTickets(db, stranger)).tickets).toEqual([]);
  });

  it(
    atOnce(dialect, "credits a ticket's coins once for a form sent twice, and says what happened"),
    async () => {
      const { db, admin } = await asAdmin(app());
      const { owner, ticket } = await customerWithTicket(app(), { department: "billing" });
      const credit = () =>
        addCoinsFromTicket(db, {
          actorId: admin,
          ticketId: ticket.id,
          amountCents: 500,
          idempotencyKey: "ticket-credit-key-1",
        });
      // A payment, as a form without the choice says: with its receipt.
      expect(await credit()).toEqual({
        ok: true,
        message: "tickets.admin.coinsAddedWithReceipt",
        amountCents: 500,
        balanceCents: 500,
        receipt: expect.stringMatching(/^HFR-\d{4}-\d{6}$/),
      });
      expect(await credit()).toEqual({
        ok: true,
        message: "tickets.admin.coinsAlreadyAdded",
        amountCents: 500,
        balanceCents: 500,
      });
      const raced = await Promise.all([
        addCoinsFromTicket(db, {
          actorId: admin,
          ticketId: ticket.id,
          amountCents: 500,
          idempotencyKey: "ticket-credit-key-2",
        }),
        addCoinsFromTicket(db, {
          actorId: admin,
          ticketId: ticket.id,
          amountCents: 500,
          idempotencyKey: "ticket-credit-key-2",
        }),
      ]);
      expect(raced.map((r) => r.ok && "balanceCents" in r && r.balanceCents)).toEqual([1000, 1000]);
      expect(await balanceOf(app(), owner)).toBe(1000);
      const ledger = await readRows(db, "coin_ledger", ["amount_cents"], { user_id: owner });
      expect(ledger.map((row) => row.amount_cents)).toEqual([500, 500]);
      // One receipt per credit, however often its form was sent.
      const receipts = await readRows(db, "invoices", ["total_cents"], {
        user_id: owner,
        kind: "receipt",
      });
      expect(receipts.map((row) => row.total_cents)).toEqual([500, 500]);
      await expectLedgerIntact(app());
    },
  );
});
