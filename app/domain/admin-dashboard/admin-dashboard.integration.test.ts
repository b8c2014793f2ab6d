import { expect, it } from "vitest";
import {
  adminAddService,
  changeServiceStatus,
} from "~/domain/hosting-services/admin-changes.server";
import { approveOrder } from "~/domain/orders/orders.server";
import { approveTopUp } from "~/domain/payments/top-up-decisions.server";
import { setTicketField } from "~/domain/tickets/tickets.server";
import {
  asAdmin,
  customerWithCoins,
  placedOrder,
  productId,
} from "../../../tests/support/money-fixtures";
import { describeEachDatabase } from "../../../tests/support/test-database";
import { openedTicket } from "../../../tests/support/ticket-fixtures";
import { openTopUp } from "../../../tests/support/top-up-fixtures";
import { findSearchTarget, loadAdminDashboard, RECENT_ACTIVITY } from "./admin-dashboard.server";

// Each suite has a fresh database, so the dashboard's figures are known exactly.
describeEachDatabase("admin dashboard", (app) => {
  const load = async (db = app().db) =>
    loadAdminDashboard(db, { settings: await app().settings.get(), mailEnabled: false });

  it("counts clients, active services, pending orders and open tickets from the database", async () => {
    const { db, admin } = await asAdmin(app());
    const empty = await load(db);
    expect(empty.stats).toEqual({
      clients: 0,
      activeServices: 0,
      pendingOrders: 0,
      topUpsWaiting: 0,
      openTickets: 0,
    });
    expect(empty.overview).toEqual([]);

    const alice = await customerWithCoins(app(), 10_000);
    const bob = await customerWithCoins(app(), 10_000);
    await customerWithCoins(app(), 0);
    const samp = await productId(app(), "samp-starter");
    const vps = await productId(app(), "vps-entry");
    const first = await placedOrder(app(), alice, { productId: samp });
    await placedOrder(app(), alice, { productId: vps });
    await placedOrder(app(), bob, { productId: samp });
    await approveOrder(db, { orderId: first.id, actorId: admin });
    const custom = await adminAddService(db, {
      actorId: admin,
      userId: bob,
      name: "Hand-made",
      priceCents: 500,
      billingCycle: "monthly",
    });
    if (!custom.ok) throw new Error(custom.error);
    await changeServiceStatus(db, {
      actorId: admin,
      serviceId: custom.service.id,
      action: "suspend",
    });
    await openedTicket(app(), alice, { subject: "Question", message: "Hello" });
    const closed = await openedTicket(app(), bob, { subject: "Other", message: "Bye" });
    await setTicketField(db, { actorId: admin, ticketId: closed.id, status: "closed" });

    const dashboard = await load(db);
    expect(dashboard.stats).toEqual({
      clients: 3,
      activeServices: 1,
      pendingOrders: 2,
      topUpsWaiting: 0,
      openTickets: 1,
    });
    // By type (services added by hand, without a type, last), then status.
    expect(dashboard.overview).toEqual([
      { type: "samp", status: "active", count: 1 },
      { type: null, status: "suspended", count: 1 },
    ]);

    // Newest first, who did what to what.
    const actions = dashboard.activity.map((a) => a.action);
    expect(actions.slice(0, 4)).toEqual([
      "ticket.status",
      "service.suspend",
      "service.add",
      "order.approve",
    ]);
    expect(dashboard.activity[0]).toMatchObject({
      actorEmail: expect.stringContaining("@"),
      targetType: "ticket",
      targetId: String(closed.id),
    });
    expect(dashboard.activity.length).toBeLessThanOrEqual(RECENT_ACTIVITY);
  });

  it("counts the top-ups marked paid and waiting for a decision, not those unpaid or decided", async () => {
    const { db, admin } = await asAdmin(app());
    const topUpsWaiting = async () => (await load(db)).stats.topUpsWaiting;
    expect(await topUpsWaiting()).toBe(0);
    await openTopUp(app(), await customerWithCoins(app(), 0), 10);
    expect(await topUpsWaiting()).toBe(0);
    const paid = await openTopUp(app(), await customerWithCoins(app(), 0), 10, { paid: true });
    await openTopUp(app(), await customerWithCoins(app(), 0), 20, { paid: true });
    expect(await topUpsWaiting()).toBe(2);
    const approved = await approveTopUp(db, { adminId: admin, requestId: paid.id });
    expect(approved.ok).toBe(true);
    expect(await topUpsWaiting()).toBe(1);
  });

  it("carries the setup checklist while something is left to set up", async () => {
    // setup-checklist.integration.test.ts walks through each item; here, the top-ups above enabled a
    // payment method, and mail is kept (no SMTP_URL).
    const done = Object.fromEntries(
      ((await load()).setup?.items ?? []).map((item) => [item.id, item.done]),
    );
    expect(done).toEqual({
      company: false,
      payments: true,
      mail: false,
      gamePanel: false,
      twoFactor: false,
      prices: false,
    });
  });

  it("the top bar's search goes to an order by number and to clients otherwise", async () => {
    const db = app().db;
    const buyer = await customerWithCoins(app(), 5_000);
    const { id } = await placedOrder(app(), buyer, {
      productId: await productId(app(), "samp-starter"),
    });
    expect(await findSearchTarget(db, String(id))).toBe(`/admin/orders?id=${id}`);
    expect(await findSearchTarget(db, ` #${id} `)).toBe(`/admin/orders?id=${id}`);
    // A number that is no order, a name, an email: the client list, filtered.
    expect(await findSearchTarget(db, "987654")).toBe("/admin/clients?q=987654");
    expect(await findSearchTarget(db, "99999999999")).toBe("/admin/clients?q=99999999999");
    expect(await findSearchTarget(db, "Buyer")).toBe("/admin/clients?q=Buyer");
    expect(await findSearchTarget(db, "a+b@example.com")).toBe(
      "/admin/clients?q=a%2Bb%40example.com",
    );
    expect(await findSearchTarget(db, "")).toBe("/admin/clients?q=");
  });
});
