import { beforeAll, expect, it } from "vitest";
import { provisionAdmin } from "~/domain/accounts/accounts.server";
import { notifyAdmins } from "~/domain/jobs/alerts.server";
import { registeredCustomer } from "../../../tests/support/account-fixtures";
import {
  adminId,
  customerWithCoins,
  orderProduct,
  placedOrder,
  productId,
} from "../../../tests/support/money-fixtures";
import { describeEachDatabase } from "../../../tests/support/test-database";
import { customerWithTicket } from "../../../tests/support/ticket-fixtures";
import {
  listNotificationPage,
  listNotifications,
  markNotificationsRead,
} from "./notification-reads.server";

describeEachDatabase("staff notifications", (app) => {
  let first: string;
  let second: string;

  beforeAll(async () => {
    first = await adminId(app());
    const email = `second-admin-${Date.now()}@example.com`;
    second = await registeredCustomer(app(), {
      name: "Second Admin",
      email,
      password: "Second-admin-pw-5521",
    });
    await provisionAdmin(app(), { email, via: "staff-notifications test" });
  });

  /** What `userId`'s bell lists (an admin's, with the staff's kinds), newest first. */
  const bell = (userId: string, staff = true) => listNotifications(app().db, userId, 50, { staff });
  const about = async (userId: string, link: string) =>
    (await bell(userId)).items.filter((item) => item.link === link);

  it("tells each admin of an order waiting for approval, once, in the order's transaction", async () => {
    const buyer = await customerWithCoins(app(), 10_000);
    const placed = await placedOrder(app(), buyer, {
      productId: await productId(app(), "vps-entry"),
      serverName: "Night Owls",
    });
    const link = `/admin/orders?id=${placed.id}`;
    // The bell names the order as the staff's mail of it does: the plan and the customer's server.
    const mailed = await app()
      .db.selectFrom("mail_outbox")
      .select("params")
      .where("unique_key", "like", `staffOrderWaiting:order:${placed.id}:%`)
      .execute();
    expect(mailed.length).toBeGreaterThan(0);
    for (const row of mailed)
      expect(JSON.parse(row.params)).toMatchObject({
        id: placed.id,
        product: "VPS Entry (Night Owls)",
      });
    for (const admin of [first, second]) {
      const items = await about(admin, link);
      expect(items).toHaveLength(1);
      expect(items[0]).toMatchObject({
        kind: "order_waiting",
        read: false,
        params: {
          id: placed.id,
          product: "VPS Entry (Night Owls)",
          amountCents: placed.totalCents,
        },
      });
    }
    // The customer who placed it is told nothing of the staff's business.
    expect((await bell(buyer, false)).items.map((item) => item.kind)).not.toContain(
      "order_waiting",
    );
  });

  it("tells nobody of an order that did not commit (coins short)", async () => {
    const before = (await bell(first)).items.length;
    const buyer = await customerWithCoins(app(), 100);
    const refused = await orderProduct(app(), buyer, "vps-entry");
    expect(refused.ok).toBe(false);
    expect((await bell(first)).items).toHaveLength(before);
  });

  it("tells each admin of a new ticket, with its subject and a link to it", async () => {
    const { owner: customer, ticket } = await customerWithTicket(app(), {
      department: "technical",
      subject: "Server will not start",
      priority: "high",
      message: "It stops at once.",
    });
    const link = `/admin/tickets/${ticket.id}`;
    for (const admin of [first, second])
      expect(await about(admin, link)).toMatchObject([
        {
          kind: "ticket_opened",
          read: false,
          params: {
            id: ticket.id,
            department: "technical",
            subject: "Server will not start",
          },
        },
      ]);
    expect(await bell(customer, false)).toEqual({ unread: 0, items: [] });
  });

  it("keeps each admin's read state their own", async () => {
    const { ticket } = await customerWithTicket(app(), { subject: "Read by one admin" });
    const link = `/admin/tickets/${ticket.id}`;
    const secondUnread = (await bell(second)).unread;
    expect(secondUnread).toBeGreaterThan(0);

    // The first admin opens their bell (or presses "Mark all read"): theirs are read, nobody else's.
    expect(await markNotificationsRead(app().db, first)).toBeGreaterThan(0);
    expect((await bell(first)).unread).toBe(0);
    expect((await about(first, link))[0]!.read).toBe(true);
    expect((await bell(second)).unread).toBe(secondUnread);
    expect((await about(second, link))[0]!.read).toBe(false);
    // Marking again marks nothing.
    expect(await markNotificationsRead(app().db, first)).toBe(0);

    // The page's unread filter agrees.
    const firstUnread = await listNotificationPage(app().db, first, { show: "unread", page: 1 });
    expect(firstUnread).toMatchObject({ notifications: [], matching: 0, unread: 0 });
    const secondPage = await listNotificationPage(app().db, second, { show: "unread", page: 1 });
    expect(secondPage.unread).toBe(secondUnread);
    expect(secondPage.notifications.map((item) => item.link)).toContain(link);
  });

  it("pages through an admin's whole list, newest first", async () => {
    const all = await listNotificationPage(app().db, second, { show: "all", page: 1 });
    expect(all.total).toBeGreaterThanOrEqual(3);
    const pageOne = await listNotificationPage(app().db, second, {
      show: "all",
      page: 1,
      pageSize: 2,
    });
    const pageTwo = await listNotificationPage(app().db, second, {
      show: "all",
      page: 2,
      pageSize: 2,
    });
    expect(pageOne.hasMore).toBe(true);
    const ids = [...pageOne.notifications, ...pageTwo.notifications].map((item) => item.id);
    expect(ids).toEqual([...ids].sort((a, b) => b - a));
    expect(new Set(ids).size).toBe(ids.length);
  });

  it("leaves the staff's kinds out of a customer's list", async () => {
    // A list read as a customer's (an admin made a customer again keeps their rows) has none of them.
    const told = await notifyAdmins(app().db, {
      kind: "dead",
      job: {
        id: 987_654,
        type: "e2e.example",
        attempts: 1,
        schedule: null,
      } as unknown as Parameters<typeof notifyAdmins>[1]["job"],
      error: "boom",
    });
    expect(told).toBeGreaterThanOrEqual(2);
    const asAdmin = await bell(second, true);
    const asCustomer = await bell(second, false);
    expect(asAdmin.items.some((item) => item.kind === "automation_job_dead")).toBe(true);
    expect(asCustomer.items).toEqual([]);
    expect(asCustomer.unread).toBe(0);
  });
});
