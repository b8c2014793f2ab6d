import { expect, it } from "vitest";
import { adjustCoins } from "~/domain/coins/coins.server";
import {
  asAdmin,
  approvedOrder,
  customerWithCoins,
  productId,
} from "../../../tests/support/money-fixtures";
import { describeEachDatabase } from "../../../tests/support/test-database";
import { openedTicket } from "../../../tests/support/ticket-fixtures";
import { LEDGER_PAGE_SIZE } from "./customer-dashboard";
import { listCustomerServices } from "~/domain/hosting-services/customer-services.server";
import { listLedgerPage, loadCustomerDashboard } from "./customer-dashboard.server";

describeEachDatabase("customer dashboard", (app) => {
  /** A customer holding `coinsCents`, then given `count` more entries: credits of 1, 2, … cents. */
  async function customerWithCredits(coinsCents: number, count: number) {
    const { db, admin } = await asAdmin(app());
    const user = await customerWithCoins(app(), coinsCents);
    for (let i = 1; i <= count; i++)
      await adjustCoins(db, {
        userId: user,
        amountCents: i,
        reason: `credit ${i}`,
        actorId: admin,
      });
    return { db, user };
  }

  it("pages the coin history by id, newest first, without gaps or repeats", async () => {
    const { db, user } = await customerWithCredits(100, 45);
    const seen: number[] = [];
    let before: number | undefined;
    for (;;) {
      const page = await listLedgerPage(db, user, before);
      expect(page.entries.length).toBeLessThanOrEqual(LEDGER_PAGE_SIZE);
      // Only a later page offers "Newer".
      expect(page.hasNewer).toBe(before !== undefined);
      seen.push(...page.entries.map((e) => e.id));
      if (!page.nextBefore) break;
      before = page.nextBefore;
    }
    expect(seen).toHaveLength(46);
    expect([...seen].sort((a, b) => b - a)).toEqual(seen);
    expect(new Set(seen).size).toBe(46);
  });

  it("shows a customer only their own cards, orders, tickets and ledger", async () => {
    const db = app().db;
    const mine = await customerWithCoins(app(), 5000);
    const theirs = await customerWithCoins(app(), 7000);
    await approvedOrder(app(), theirs, { productId: await productId(app(), "samp-starter") });
    await openedTicket(app(), theirs, { subject: "Theirs" });

    const overview = await loadCustomerDashboard(db, mine, { tab: "overview" });
    expect(overview.cards).toEqual({
      activeServices: 0,
      domains: 0,
      openTickets: 0,
      accountCreditCents: 5000,
    });
    expect(
      overview.activity?.every((a) => !a.text.includes("Theirs") && !a.text.includes("SAMP")),
    ).toBe(true);
    const billing = await loadCustomerDashboard(db, mine, { tab: "billing" });
    expect("orders" in billing && billing.orders).toEqual([]);
    expect(billing.ledger?.entries.map((e) => e.amountCents)).toEqual([5000]);
    const support = await loadCustomerDashboard(db, mine, { tab: "support" });
    expect("tickets" in support && support.tickets).toEqual([]);
    const account = await loadCustomerDashboard(db, mine, { tab: "account" });
    expect("sessions" in account && account.sessions).toEqual([]);

    // Their own counts: an active service, and one open ticket beside a closed one.
    const { placed } = await approvedOrder(app(), mine, {
      productId: await productId(app(), "samp-starter"),
    });
    for (const subject of ["Open", "Closed"]) await openedTicket(app(), mine, { subject });
    await db
      .updateTable("tickets")
      .set({ status: "closed" })
      .where("subject", "=", "Closed")
      .execute();
    expect((await loadCustomerDashboard(db, mine, { tab: "services" })).cards).toEqual({
      activeServices: 1,
      domains: 0,
      openTickets: 1,
      accountCreditCents: 5000 - placed.totalCents,
    });
  });

  it("sends the overview the latest five coin entries and, of a renewal, what its list shows", async () => {
    const { db, user } = await customerWithCredits(100_000, 12);
    const { placed, approved } = await approvedOrder(app(), user, {
      productId: await productId(app(), "samp-starter"),
    });
    await db
      .updateTable("hosting_services")
      .set({ expires_at: new Date(Date.now() + 86_400_000).toISOString() })
      .where("id", "=", approved.hostingServiceId!)
      .execute();
    const [service] = await listCustomerServices(db, user);
    const overview = await loadCustomerDashboard(db, user, { tab: "overview" });
    const ledger = overview.activity?.filter((a) => a.type === "ledger") ?? [];
    // The order's payment is the newest entry, then the last credits.
    expect(ledger.map((a) => a.amountCents)).toEqual([-placed.totalCents, 12, 11, 10, 9]);
    expect(overview.renewals).toEqual([
      {
        id: service!.id,
        name: service!.name,
        serverName: service!.serverName,
        expiresAt: service!.expiresAt,
      },
    ]);
  });
});

describeEachDatabase("customer dashboard's round trips", (app) => {
  // On PostgreSQL every query is a round trip, and a page waits for the longest chain of them: the
  // account's cards are read beside each tab's own queries, not before them.
  it("reads the account's cards beside each tab's queries, not before them", async () => {
    const user = await customerWithCoins(app(), 500);
    for (const tab of ["overview", "services", "billing", "support", "account"] as const) {
      const events: string[] = [];
      const watched = app().db.withPlugin({
        transformQuery({ node }) {
          const table = JSON.stringify(node).match(/"kind":"TableNode".*?"name":"(\w+)"/);
          events.push(`start ${table?.[1] ?? "?"}`);
          return node;
        },
        async transformResult({ result }) {
          events.push("end");
          return result;
        },
      });
      const page = await loadCustomerDashboard(watched, user, { tab });
      expect(page.cards.accountCreditCents).toBe(500);
      const usersStart = events.indexOf("start users");
      const firstEnd = events.indexOf("end");
      expect(usersStart, `${tab}: ${events.join(", ")}`).toBeGreaterThanOrEqual(0);
      // Every query of the page starts before the first one ends: one round trip, not two in a row.
      expect(events.slice(0, firstEnd).filter((e) => e.startsWith("start")).length).toBe(
        events.filter((e) => e.startsWith("start")).length,
      );
    }
  });
});
