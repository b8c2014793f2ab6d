import { expect, it } from "vitest";
import { describeEachDatabase } from "../../tests/support/test-database";
import { customerWithTicket } from "../../tests/support/ticket-fixtures";
import { isCustomersRow, ofCustomer, withOwner } from "./customer-rows";

describeEachDatabase("a customer's own rows", (app) => {
  it("keeps a query to one customer's rows, tells whose a row is, and joins a row with its owner", async () => {
    const { db } = app();
    const { owner, ticket } = await customerWithTicket(app());
    const { owner: other } = await customerWithTicket(app());
    const byId = db.selectFrom("tickets").select("id").where("id", "=", ticket.id);

    expect(await ofCustomer(byId, owner).executeTakeFirst()).toEqual({ id: ticket.id });
    expect(await ofCustomer(byId, other).executeTakeFirst()).toBeUndefined();
    expect(await ofCustomer(byId).executeTakeFirst()).toEqual({ id: ticket.id });

    expect(await isCustomersRow(db, "tickets", ticket.id, owner)).toBe(true);
    expect(await isCustomersRow(db, "tickets", ticket.id, other)).toBe(false);
    expect(await isCustomersRow(db, "tickets", ticket.id + 1000, owner)).toBe(false);

    const joined = await withOwner(db, "tickets")
      .select(["tickets.id", "users.id as owner_id"])
      .where("tickets.id", "=", ticket.id)
      .executeTakeFirst();
    expect(joined).toEqual({ id: ticket.id, owner_id: owner });
  });
});
