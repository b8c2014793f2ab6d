import { expect, it } from "vitest";
import { deleteUserByAdmin } from "~/domain/accounts/user-admin.server";
import { adjustCoins } from "~/domain/coins/coins.server";
import { changeServiceStatus } from "~/domain/hosting-services/admin-changes.server";
import { setTicketField } from "~/domain/tickets/tickets.server";
import { readRow, readRows } from "../../../tests/support/read-column";
import { refusal } from "../../../tests/support/results";
import { openedTicket } from "../../../tests/support/ticket-fixtures";
import {
  adminId,
  approvedOrder,
  customerWithCoins,
  placedOrder,
  productId,
} from "../../../tests/support/money-fixtures";
import { describeEachDatabase } from "../../../tests/support/test-database";
import { CLIENT_SECTION_SIZE } from "./clients";
import { clientNoteSchema } from "./clients.schemas";
import { getClientDetail, getTicketWithClient, saveClientNote } from "./clients.server";

describeEachDatabase("client page", (app) => {
  it("reads one client's profile, services, orders, tickets, coins and audit entries, and no one else's", async () => {
    const admin = await adminId(app());
    const product = await productId(app(), "samp-starter");
    const client = await customerWithCoins(app(), 50_000);
    const other = await customerWithCoins(app(), 50_000);
    const { approved } = await approvedOrder(app(), client, { productId: product });
    const pending = await placedOrder(app(), client, {
      productId: product,
      serverName: "Pending one",
    });
    await approvedOrder(app(), other, { productId: product, serverName: "Not the client's" });
    const serviceId = approved.hostingServiceId!;
    const suspended = await changeServiceStatus(app().db, {
      actorId: admin,
      serviceId,
      action: "suspend",
      reason: "abuse report",
    });
    expect(suspended.ok).toBe(true);
    const ticket = await openedTicket(app(), client, { subject: "Where is my server?" });
    await openedTicket(app(), other, { subject: "Someone else's question" });
    expect(
      (await setTicketField(app().db, { actorId: admin, ticketId: ticket.id, priority: "high" }))
        .ok,
    ).toBe(true);
    const credit = await adjustCoins(app().db, {
      userId: client,
      amountCents: 1_234,
      reason: "goodwill",
      actorId: admin,
    });
    expect(credit.ok).toBe(true);

    const detail = await getClientDetail(app().db, client);
    if (!detail) throw new Error("the client was not found");
    expect(detail.profile).toMatchObject({
      id: client,
      name: "Buyer",
      role: "user",
      status: "active",
      adminNote: null,
      deletionRequestedAt: null,
    });
    expect(detail.profile.email).toMatch(/@example\.com$/);
    const row = await readRow(app().db, "users", ["coin_balance_cents", "created_at"], {
      id: client,
    });
    expect(detail.profile.coinBalanceCents).toBe(row.coin_balance_cents);
    expect(detail.profile.createdAt).toBe(row.created_at);
    expect(detail.counts).toEqual({
      activeServices: 0,
      orders: 2,
      pendingOrders: 1,
      openTickets: 1,
    });

    expect(detail.services.rows.map((s) => [s.id, s.status])).toEqual([[serviceId, "suspended"]]);
    expect(detail.orders.rows.map((o) => o.id)).toEqual([pending.id, approved.id]);
    expect(detail.tickets.rows.map((t) => t.subject)).toEqual(["Where is my server?"]);
    // Newest first: the goodwill credit, the two order payments, the opening credit.
    expect(detail.ledger.rows.map((e) => [e.kind, e.amountCents, e.reason])[0]).toEqual([
      "admin_adjustment",
      1_234,
      "goodwill",
    ]);
    expect(detail.ledger.rows.every((e) => e.balanceAfterCents >= 0)).toBe(true);
    expect(detail.ledger.rows).toHaveLength(4);
    for (const list of [detail.services, detail.orders, detail.tickets, detail.ledger])
      expect(list.hasMore).toBe(false);

    // The audit entries about the account and its order, service and ticket, newest first; the other
    // customer's approval is not among them.
    const audit = detail.audit.rows.map((e) => [e.action, e.targetType, e.targetId]);
    expect(audit).toEqual([
      ["coins.adjust", "user", client],
      ["ticket.priority", "ticket", String(ticket.id)],
      ["service.suspend", "hosting_service", String(serviceId)],
      ["order.approve", "order", String(approved.id)],
      ["coins.adjust", "user", client],
    ]);
    expect(detail.audit.rows[0]!.actorEmail).toBe("admin@hostfront.test");
    expect(detail.audit.rows.map((e) => e.id)).toEqual(
      [...detail.audit.rows.map((e) => e.id)].sort((a, b) => b - a),
    );
    expect(detail.audit.rows.find((e) => e.action === "service.suspend")!.reason).toBe(
      "abuse report",
    );
  });

  it("shows the newest of each list only, and says older ones exist", async () => {
    const admin = await adminId(app());
    const client = await customerWithCoins(app(), 0);
    for (let i = 0; i < CLIENT_SECTION_SIZE + 1; i++) {
      const credit = await adjustCoins(app().db, {
        userId: client,
        amountCents: 100,
        reason: `credit ${i}`,
        actorId: admin,
      });
      expect(credit.ok).toBe(true);
    }
    const detail = (await getClientDetail(app().db, client))!;
    expect(detail.ledger.rows).toHaveLength(CLIENT_SECTION_SIZE);
    expect(detail.ledger.hasMore).toBe(true);
    expect(detail.ledger.rows[0]!.reason).toBe(`credit ${CLIENT_SECTION_SIZE}`);
    expect(detail.audit.rows).toHaveLength(CLIENT_SECTION_SIZE);
    expect(detail.audit.hasMore).toBe(true);
  });

  it("finds no client for an id no account has, or that cannot be an id", async () => {
    for (const id of ["no-such-client", "", "x".repeat(101), "a b", "../admin", "1' or '1'='1"])
      expect(await getClientDetail(app().db, id)).toBeUndefined();
  });

  it("saves, changes and clears the admin's note, each with its audit entry", async () => {
    const admin = await adminId(app());
    const client = await customerWithCoins(app(), 0);
    const notes = () =>
      readRows(
        app().db,
        "audit_log",
        ["action", "actor_id", "before", "after"],
        { target_type: "user", target_id: client, action: "user.note" },
        "id",
      );

    expect(
      await saveClientNote(app().db, {
        userId: client,
        note: "Pays by bank transfer",
        actorId: admin,
      }),
    ).toEqual({ ok: true, message: "admin-clients.note.saved", changed: true });
    expect((await getClientDetail(app().db, client))!.profile.adminNote).toBe(
      "Pays by bank transfer",
    );
    // The same note again records nothing.
    expect(
      await saveClientNote(app().db, {
        userId: client,
        note: "Pays by bank transfer",
        actorId: admin,
      }),
    ).toMatchObject({ ok: true, changed: false });
    expect(
      await saveClientNote(app().db, { userId: client, note: null, actorId: admin }),
    ).toMatchObject({ ok: true, changed: true });
    expect((await getClientDetail(app().db, client))!.profile.adminNote).toBeNull();

    const entries = await notes();
    expect(entries.map((e) => [e.actor_id, JSON.parse(e.before!), JSON.parse(e.after!)])).toEqual([
      [admin, { adminNote: null }, { adminNote: "Pays by bank transfer" }],
      [admin, { adminNote: "Pays by bank transfer" }, { adminNote: null }],
    ]);
    // The client page lists them as entries about the account.
    const audit = (await getClientDetail(app().db, client))!.audit.rows;
    expect(audit.filter((e) => e.action === "user.note")).toHaveLength(2);
  });

  it("refuses a note for a client that is not there or was deleted, changing nothing", async () => {
    const admin = await adminId(app());
    expect(
      await saveClientNote(app().db, { userId: "no-such-client", note: "x", actorId: admin }),
    ).toEqual(refusal("notFound", "admin-clients.errors.notFound"));
    expect(await saveClientNote(app().db, { userId: "a b", note: "x", actorId: admin })).toEqual(
      refusal("notFound", "admin-clients.errors.notFound"),
    );

    const client = await customerWithCoins(app(), 0);
    await saveClientNote(app().db, { userId: client, note: "Before deletion", actorId: admin });
    expect((await deleteUserByAdmin(app().db, { userId: client, actorId: admin })).ok).toBe(true);
    // Deleting erases the note with the rest of the account's personal data; the page still opens.
    const deleted = (await getClientDetail(app().db, client))!;
    expect(deleted.profile).toMatchObject({ status: "deleted", adminNote: null });
    expect(
      await saveClientNote(app().db, { userId: client, note: "After", actorId: admin }),
    ).toEqual(refusal("conflict", "admin-clients.errors.deleted"));
    expect((await getClientDetail(app().db, client))!.profile.adminNote).toBeNull();
  });

  it("parses the note form: trimmed, empty clears it, too long is refused", () => {
    expect(clientNoteSchema.parse({ intent: "note", note: "  hello  " })).toEqual({
      intent: "note",
      note: "hello",
    });
    expect(clientNoteSchema.parse({ intent: "note", note: "   " }).note).toBeNull();
    expect(clientNoteSchema.parse({ intent: "note" }).note).toBeNull();
    const tooLong = clientNoteSchema.safeParse({ intent: "note", note: "x".repeat(2_001) });
    expect(tooLong.success).toBe(false);
    expect(tooLong.error?.issues[0]?.message).toBe("admin-clients.errors.noteTooLong");
  });

  it("gives the ticket page its customer's newest services, orders and coins", async () => {
    const product = await productId(app(), "samp-starter");
    const client = await customerWithCoins(app(), 50_000);
    const { approved } = await approvedOrder(app(), client, { productId: product });
    const ticket = await openedTicket(app(), client);
    const found = await getTicketWithClient(app().db, ticket.id);
    if (!found) throw new Error("the ticket was not found");
    expect(found.ticket.id).toBe(ticket.id);
    expect(found.customer.id).toBe(client);
    expect(found.client.counts).toMatchObject({ activeServices: 1, orders: 1, openTickets: 1 });
    expect(found.client.services.rows.map((s) => s.id)).toEqual([approved.hostingServiceId]);
    expect(found.client.orders.rows.map((o) => o.id)).toEqual([approved.id]);
    expect(found.client.ledger.rows.map((e) => e.kind)).toEqual([
      "order_payment",
      "admin_adjustment",
    ]);
    expect(await getTicketWithClient(app().db, 999_999)).toBeUndefined();
    expect(await getTicketWithClient(app().db, Number.NaN)).toBeUndefined();
  });
});
