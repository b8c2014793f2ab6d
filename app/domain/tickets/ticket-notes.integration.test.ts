import { expect, it } from "vitest";
import { listNotifications } from "~/domain/notifications/notification-reads.server";
import { asAdmin } from "../../../tests/support/money-fixtures";
import { pngProof } from "../../../tests/support/proof-files";
import { readRow } from "../../../tests/support/read-column";
import { describeEachDatabase } from "../../../tests/support/test-database";
import { customerWithTicket } from "../../../tests/support/ticket-fixtures";
import { readTicketFile } from "./ticket-files.server";
import { addInternalNote } from "./ticket-notes.server";
import {
  customerTicketAction,
  getCustomerTicket,
  getTicketForAdmin,
  listCustomerTickets,
  listTicketQueue,
  staffReply,
} from "./tickets.server";

/**
 * Internal notes (docs/self-service.md): the staff's words for each other on a ticket. The customer's
 * thread, their list, their notifications and their mail never carry one, nor its files; the ticket's
 * status, waiting time and last change stay as they were.
 */
describeEachDatabase("internal notes on tickets", (app) => {
  async function mailTo(userId: string) {
    return app()
      .db.selectFrom("mail_outbox")
      .select(["kind", "params"])
      .where("user_id", "=", userId)
      .execute();
  }

  it("keeps a note from the customer and changes nothing of the ticket", async () => {
    const { db, admin } = await asAdmin(app());
    const { owner, ticket } = await customerWithTicket(app(), {
      subject: "Lag spikes",
      message: "My server lags every evening.",
    });
    const row = () =>
      readRow(db, "tickets", ["status", "waiting_since", "updated_at"], { id: ticket.id });
    const before = await row();
    const mailBefore = await mailTo(owner);

    const noted = await addInternalNote(db, {
      actorId: admin,
      ticketId: ticket.id,
      message: "Node 3 is overloaded at night; move them after the weekend.",
      idempotencyKey: "internal-note-key-000001",
      uploads: [await pngProof("graph.png")],
      now: new Date(Date.parse(ticket.createdAt) + 60_000),
    });
    expect(noted).toEqual({ ok: true, message: "tickets.notes.added" });
    // The same form sent twice stores one note.
    expect(
      await addInternalNote(db, {
        actorId: admin,
        ticketId: ticket.id,
        message: "Node 3 is overloaded at night; move them after the weekend.",
        idempotencyKey: "internal-note-key-000001",
      }),
    ).toEqual(noted);

    // Nothing of the ticket moved: status, waiting time, last change (the customer's list order).
    expect(await row()).toEqual(before);
    expect((await listCustomerTickets(db, owner)).tickets[0]!.updatedAt).toBe(before.updated_at);
    const queued = (await listTicketQueue(db, { page: 1 })).tickets.find((t) => t.id === ticket.id);
    expect(queued?.waitingSince).toBe(before.waiting_since);

    // The staff see it, marked internal, with its file; the customer sees neither.
    const staffThread = (await getTicketForAdmin(db, ticket.id))!.messages;
    expect(staffThread.map((m) => [m.internal, m.body, m.files.length])).toEqual([
      [false, "My server lags every evening.", 0],
      [true, "Node 3 is overloaded at night; move them after the weekend.", 1],
    ]);
    const customerThread = (await getCustomerTicket(db, owner, ticket.id))!.messages;
    expect(customerThread.map((m) => m.body)).toEqual(["My server lags every evening."]);
    expect(JSON.stringify(customerThread)).not.toContain("Node 3");
    const noteFile = staffThread[1]!.files[0]!;
    expect(
      await readTicketFile(db, { ticketId: ticket.id, fileId: noteFile.id, viewerId: owner }),
    ).toMatchObject({ ok: false, kind: "notFound" });
    expect(
      await readTicketFile(db, { ticketId: ticket.id, fileId: noteFile.id, viewerId: admin }),
    ).toMatchObject({ ok: true });

    // No mail and no notification told the customer anything.
    expect(await mailTo(owner)).toEqual(mailBefore);
    expect((await listNotifications(db, owner)).items).toEqual([]);

    // A reply after it is the customer's as ever: mailed, notified, and the note still not theirs.
    await staffReply(db, { actorId: admin, ticketId: ticket.id, message: "We are on it." });
    const mails = await mailTo(owner);
    expect(mails).toHaveLength(mailBefore.length + 1);
    expect(JSON.stringify(mails)).not.toContain("Node 3");
    expect(JSON.stringify(mails)).toContain("We are on it.");
    expect((await listNotifications(db, owner)).items.map((n) => n.kind)).toEqual([
      "ticket_answered",
    ]);
    expect((await getCustomerTicket(db, owner, ticket.id))!.messages.map((m) => m.body)).toEqual([
      "My server lags every evening.",
      "We are on it.",
    ]);
    expect((await row()).status).toBe("answered");
  });

  it("refuses a note on a ticket that is not there, and a customer cannot write one", async () => {
    const { db, admin } = await asAdmin(app());
    expect(
      await addInternalNote(db, { actorId: admin, ticketId: 999_999, message: "lost" }),
    ).toEqual({ ok: false, kind: "notFound", error: "tickets.errors.notFound" });
    // The database holds that a note is the staff's: a customer's message never is one.
    const { owner, ticket } = await customerWithTicket(app());
    await expect(
      db
        .insertInto("ticket_messages")
        .values({
          ticket_id: ticket.id,
          author_id: owner,
          is_staff: 0,
          internal: 1,
          body: "sneaky",
          created_at: new Date().toISOString(),
        })
        .execute(),
    ).rejects.toThrow();
    expect(
      await customerTicketAction(db, {
        userId: owner,
        ticketId: ticket.id,
        action: { intent: "reply", message: "still here" },
      }),
    ).toEqual({ ok: true });
  });
});
