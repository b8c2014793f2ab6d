import { randomUUID } from "node:crypto";
import { expect, it } from "vitest";
import * as adminTicket from "~/routes/admin/ticket";
import * as supportNew from "~/routes/support/new";
import * as supportTicket from "~/routes/support/ticket";
import { signedInCookie, registeredCustomer } from "../support/account-fixtures";
import { balanceOf, expectLedgerIntact } from "../support/money-fixtures";
import { postAction, type ActionAnswer } from "../support/request-context";
import { describeEachDatabase, TEST_ADMIN } from "../support/test-database";

// Through the pages' own actions: a form posted twice with its key (a double tap, a retry, the browser
// resending it) stores one ticket, one reply and one credit, and each answer says so.
describeEachDatabase("ticket forms sent twice", (app) => {
  async function customer() {
    const account = {
      name: "Rachid",
      email: `rachid-${randomUUID()}@example.com`,
      password: "Buyer-pw-8842",
    };
    const id = await registeredCustomer(app(), account);
    const cookie = await signedInCookie(app(), account, { ip: "10.61.0.2" });
    return { id, cookie };
  }
  const messagesOf = async (ticketId: number) =>
    (
      await app()
        .db.selectFrom("ticket_messages")
        .select("body")
        .where("ticket_id", "=", ticketId)
        .orderBy("id")
        .execute()
    ).map((row) => row.body);
  const location = (answer: unknown) => (answer as Response).headers.get("Location");

  it("a new ticket and a customer's reply posted twice are stored once, each time to the thread", async () => {
    const { id, cookie } = await customer();
    const ticketForm = {
      department: "billing",
      subject: "Coins",
      priority: "low",
      message: "5 coins please",
      idempotencyKey: randomUUID(),
    };
    const opened = await postAction(app(), supportNew, "/support/new", ticketForm, { cookie });
    const again = await postAction(app(), supportNew, "/support/new", ticketForm, { cookie });
    expect(location(opened)).toMatch(/^\/support\/\d+\?opened=1$/);
    expect(location(again)).toBe(location(opened));
    const tickets = await app()
      .db.selectFrom("tickets")
      .select("id")
      .where("user_id", "=", id)
      .execute();
    expect(tickets).toHaveLength(1);
    const ticketId = Number(tickets[0]!.id);

    const reply = { intent: "reply", message: "Paid, ref 77-A", idempotencyKey: randomUUID() };
    const path = `/support/${ticketId}`;
    const params = { id: String(ticketId) };
    const answers = [
      await postAction(app(), supportTicket, path, reply, { cookie, params }),
      await postAction(app(), supportTicket, path, reply, { cookie, params }),
    ];
    for (const answer of answers) {
      expect((answer as Response).status).toBe(302);
      expect(location(answer)).toBe(path);
      // The thread again, with the toast that says it was sent.
      expect((answer as Response).headers.get("Set-Cookie")).toContain("toast.replySent");
    }
    expect(await messagesOf(ticketId)).toEqual(["5 coins please", "Paid, ref 77-A"]);

    // A reply without its key is refused with a message, and what was typed comes back.
    const keyless = (await postAction(
      app(),
      supportTicket,
      path,
      { intent: "reply", message: "No key" },
      { cookie, params },
    )) as ActionAnswer;
    expect(keyless.init?.status).toBe(400);
    expect(keyless.data).toEqual({ error: "tickets.errors.formExpired", typed: "No key" });
    expect(await messagesOf(ticketId)).toHaveLength(2);
  });

  it("a staff reply and a ticket credit posted twice are stored once, and the credit says what it did", async () => {
    const { id, cookie } = await customer();
    const opened = (await postAction(
      app(),
      supportNew,
      "/support/new",
      {
        department: "billing",
        subject: "Coins",
        priority: "low",
        message: "5 coins please",
        idempotencyKey: randomUUID(),
      },
      { cookie },
    )) as Response;
    const ticketId = Number(/\d+/.exec(opened.headers.get("Location")!)![0]);
    const adminCookie = await signedInCookie(app(), TEST_ADMIN, { ip: "10.61.0.1" });
    const post = (fields: Record<string, string>) =>
      postAction(app(), adminTicket, `/admin/tickets/${ticketId}`, fields, {
        cookie: adminCookie,
        params: { id: String(ticketId) },
      });

    const reply = { intent: "reply", message: "Crediting now", idempotencyKey: randomUUID() };
    expect(await post(reply)).toMatchObject({
      ok: true,
      intent: "reply",
      message: "tickets.admin.replied",
    });
    expect(await post(reply)).toMatchObject({
      ok: true,
      intent: "reply",
      message: "tickets.admin.replied",
    });
    expect(await messagesOf(ticketId)).toEqual(["5 coins please", "Crediting now"]);

    const credit = {
      intent: "coins",
      amount: "5",
      reason: "Orange Money",
      creditAs: "payment",
      idempotencyKey: randomUUID(),
    };
    const receipt = await post(credit);
    expect(receipt).toEqual({
      ok: true,
      intent: "coins",
      message: "tickets.admin.coinsAddedWithReceipt",
      typed: undefined,
      amountCents: 500,
      balanceCents: 500,
      receipt: expect.stringMatching(/^HFR-\d{4}-\d{6}$/),
    });
    expect(await post(credit)).toMatchObject({
      ok: true,
      message: "tickets.admin.coinsAlreadyAdded",
      amountCents: 500,
      balanceCents: 500,
    });
    expect(await balanceOf(app(), id)).toBe(500);
    // The next form shown has a new key: a second credit is a second credit, here a goodwill one (no
    // receipt); a choice that is neither is refused beside the form.
    expect(await post({ ...credit, creditAs: "goodwill", idempotencyKey: randomUUID() })).toEqual({
      ok: true,
      intent: "coins",
      message: "tickets.admin.coinsAdded",
      typed: undefined,
      amountCents: 500,
      balanceCents: 1000,
      receipt: undefined,
    });
    expect(await balanceOf(app(), id)).toBe(1000);
    const refused = (await post({
      ...credit,
      creditAs: "gift",
      idempotencyKey: randomUUID(),
    })) as { data: { message: string }; init?: ResponseInit };
    expect(refused.init?.status).toBe(400);
    expect(refused.data.message).toBe("tickets.errors.creditAsInvalid");
    const receipts = await app()
      .db.selectFrom("invoices")
      .select("number")
      .where("user_id", "=", id)
      .execute();
    expect(receipts.map((row) => row.number)).toEqual([(receipt as { receipt: string }).receipt]);
    expect(await balanceOf(app(), id)).toBe(1000);
    await expectLedgerIntact(app());
  });
});
