import { expect, it } from "vitest";
import { customerWithRunningService } from "../../tests/support/money-fixtures";
import { describeEachDatabase } from "../../tests/support/test-database";
import { customerWithTicket, openedTicket } from "../../tests/support/ticket-fixtures";
import { customerCount, isCustomersRow, ofCustomer, withOwner } from "./customer-rows";

describeEachDatabase("a customer's own rows", (app) => {
  it("keeps a query to one customer's rows, tells whose a row is, and joins a row with its owner", async () => {
    const { db } = app();
    const { owner, ticket } = await customerWithTicket(app());
    const { owner: other } = await customerWithTicket(app());
    const byId = db.selectFrom("tickets").select("id").where("id", "=", ticket.id);

    expect(await ofCustomer(byId, "tickets", owner).executeTakeFirst()).toEqual({ id: ticket.id });
    expect(await ofCustomer(byId, "tickets", other).executeTakeFirst()).toBeUndefined();
    expect(await ofCustomer(byId, "tickets").executeTakeFirst()).toEqual({ id: ticket.id });

    expect(await isCustomersRow(db, "tickets", ticket.id, owner)).toBe(true);
    expect(await isCustomersRow(db, "tickets", ticket.id, other)).toBe(false);
    expect(await isCustomersRow(db, "tickets", ticket.id + 1000, owner)).toBe(false);

    const joined = await withOwner(db, "tickets")
      .select(["tickets.id", "users.id as owner_id"])
      .where("tickets.id", "=", ticket.id)
      .executeTakeFirst();
    expect(joined).toEqual({ id: ticket.id, owner_id: owner });
  });

  it("keeps a join of two owned tables to one customer's rows, on the table it names", async () => {
    const { db } = app();
    const { user: owner, serviceId } = await customerWithRunningService(app(), 10_000);
    const ticket = await openedTicket(app(), owner, { serviceId });
    const { owner: other } = await customerWithTicket(app());
    // Both tables have a user_id: an unqualified one is refused as ambiguous by both databases.
    const ticketAndService = db
      .selectFrom("tickets")
      .innerJoin("hosting_services", "hosting_services.id", "tickets.hosting_service_id")
      .where("tickets.id", "=", ticket.id);
    const ids = ticketAndService.select(["tickets.id", "hosting_services.id as service_id"]);

    const both = { id: ticket.id, service_id: serviceId };
    expect(await ofCustomer(ids, "tickets", owner).executeTakeFirst()).toEqual(both);
    expect(await ofCustomer(ids, "hosting_services", owner).executeTakeFirst()).toEqual(both);
    expect(await ofCustomer(ids, "tickets", other).executeTakeFirst()).toBeUndefined();
    // PostgreSQL counts in bigint, which its driver hands over as a string.
    const countOf = async (userId: string) =>
      Number(
        (await customerCount(ticketAndService, "tickets", userId).executeTakeFirstOrThrow()).count,
      );
    expect(await countOf(owner)).toBe(1);
    expect(await countOf(other)).toBe(0);
  });
});
