import { randomUUID } from "node:crypto";
import { expect, it } from "vitest";
import * as supportNew from "~/routes/support/new";
import * as supportTicket from "~/routes/support/ticket";
import {
  TICKET_OPENINGS_PER_10_MINUTES,
  TICKET_REPLIES_PER_10_MINUTES,
} from "~/domain/tickets/tickets";
import { registeredCustomer, signedInCookie } from "../support/account-fixtures";
import { postAction, type ActionAnswer } from "../support/request-context";
import { describeEachDatabase } from "../support/test-database";

// Through the pages' own actions: a customer past the account's limits gets the form back with a
// message that says how long to wait (429), and what they typed is still in it.
describeEachDatabase("the ticket pages past a customer's limits", (app) => {
  async function customer() {
    const account = {
      name: "Flood",
      email: `flood-${randomUUID()}@example.com`,
      password: "Buyer-pw-8842",
    };
    const id = await registeredCustomer(app(), account);
    return { id, cookie: await signedInCookie(app(), account, { ip: "10.61.0.9" }) };
  }
  const location = (answer: unknown) => (answer as Response).headers.get("Location");

  it("answers the ticket past the limit with the form as typed and the wait", async () => {
    const { cookie } = await customer();
    const ticketForm = (subject: string) => ({
      department: "billing",
      subject,
      priority: "high",
      message: `Everything about ${subject}`,
      idempotencyKey: randomUUID(),
    });
    for (let i = 1; i <= TICKET_OPENINGS_PER_10_MINUTES; i++)
      expect(
        location(
          await postAction(app(), supportNew, "/support/new", ticketForm(`T${i}`), { cookie }),
        ),
      ).toMatch(/^\/support\/\d+\?opened=1$/);
    const refused = (await postAction(
      app(),
      supportNew,
      "/support/new",
      ticketForm("One too many"),
      { cookie },
    )) as ActionAnswer;
    expect(refused.init?.status).toBe(429);
    expect(refused.data).toMatchObject({
      formError: "tickets.errors.tooManyTickets",
      values: {
        department: "billing",
        subject: "One too many",
        priority: "high",
        message: "Everything about One too many",
      },
    });
    // Ten minutes at most, and a little more for the slot the first tickets fell in.
    expect(refused.data.formErrorCount).toBeGreaterThanOrEqual(10);
    expect(refused.data.formErrorCount).toBeLessThanOrEqual(12);
  });

  it("answers the reply past the limit with the reply as typed and the wait", async () => {
    const { cookie } = await customer();
    const opened = await postAction(
      app(),
      supportNew,
      "/support/new",
      {
        department: "technical",
        subject: "Lag",
        priority: "low",
        message: "It lags",
        idempotencyKey: randomUUID(),
      },
      { cookie },
    );
    const path = location(opened)!.replace(/\?.*$/, "");
    const params = { id: path.split("/").at(-1)! };
    const reply = (message: string) =>
      postAction(
        app(),
        supportTicket,
        path,
        { intent: "reply", message, idempotencyKey: randomUUID() },
        { cookie, params },
      );
    for (let i = 1; i <= TICKET_REPLIES_PER_10_MINUTES; i++)
      expect(location(await reply(`Reply ${i}`))).toBe(path);
    const refused = (await reply("Still lagging, see the log")) as ActionAnswer;
    expect(refused.init?.status).toBe(429);
    expect(refused.data).toMatchObject({
      error: "tickets.errors.tooManyReplies",
      typed: "Still lagging, see the log",
    });
    expect(refused.data.count).toBeGreaterThanOrEqual(10);
    expect(refused.data.count).toBeLessThanOrEqual(12);
  });
});
