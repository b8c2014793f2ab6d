import { randomUUID } from "node:crypto";
import { beforeAll, expect, it } from "vitest";
import { requestTopUp } from "~/domain/payments/top-up-requests.server";
import { renewService } from "~/domain/hosting-services/renewal.server";
import { approveOrder, placeOrder } from "~/domain/orders/orders.server";
import { staffReply } from "~/domain/tickets/tickets.server";
import { DASHBOARD_TABS, dashboardTabPath } from "~/domain/customer-dashboard/customer-dashboard";
import { dataExportHandlers } from "~/domain/data-exports/data-export-jobs.server";
import {
  askForDataExport,
  DATA_EXPORT_JOB,
  loadDataExportsCard,
} from "~/domain/data-exports/data-exports.server";
import type { JobRow } from "~/domain/jobs/jobs.server";
import { dataExportWiring } from "../../server/data-exports";
import { dataUrl } from "../support/app-harness";
import { adminId, balanceOf, orderInput, productId } from "../support/money-fixtures";
import { describeEachDatabase } from "../support/test-database";
import { A_MARKERS, matrixWorld } from "./authorization-matrix-harness";
import type { Answer } from "./authorization-matrix-rows";

/**
 * The authorization matrix's second half (the first: authorization-matrix.test.ts): customer B tries to
 * read and change each of A's orders, services, tickets, notifications and sessions by id, in URLs,
 * query strings and form fields, and an anonymous visitor tries A's things too. B gets nothing of A's,
 * and A's data does not change.
 */

describeEachDatabase("authorization matrix: B against A", (app) => {
  const world = matrixWorld(app);
  const { fetchApp, cookies, expectAnswer, expectClean, fingerprint, expectUnchanged } = world;
  let seed: ReturnType<typeof world.seed>;
  let customerB: string;
  const freshCookie = world.freshCookie;
  beforeAll(() => {
    seed = world.seed();
    customerB = world.customerB();
  });

  /** Everything of A's, and the shared tables B could write to through A's ids. */
  async function stateOfA(withEverything = true) {
    const db = app().db;
    const id = seed.a.id;
    const tickets = await db.selectFrom("tickets").selectAll().where("user_id", "=", id).execute();
    return {
      user: await db.selectFrom("users").selectAll().where("id", "=", id).execute(),
      orders: await db.selectFrom("orders").selectAll().where("user_id", "=", id).execute(),
      services: await db
        .selectFrom("hosting_services")
        .selectAll()
        .where("user_id", "=", id)
        .execute(),
      tickets,
      messages: await db
        .selectFrom("ticket_messages")
        .selectAll()
        .where(
          "ticket_id",
          "in",
          tickets.map((t) => t.id),
        )
        .execute(),
      notifications: await db
        .selectFrom("notifications")
        .selectAll()
        .where("user_id", "=", id)
        .execute(),
      sessions: await db.selectFrom("sessions").select("id").where("user_id", "=", id).execute(),
      ledger: await db.selectFrom("coin_ledger").selectAll().where("user_id", "=", id).execute(),
      renewals: await db
        .selectFrom("service_renewals")
        .selectAll()
        .where("user_id", "=", id)
        .execute(),
      invoices: await db.selectFrom("invoices").selectAll().where("user_id", "=", id).execute(),
      everything: withEverything ? await fingerprint() : undefined,
    };
  }

  /** An archive of `userId`'s data made as the worker makes it: its link, as the account tab shows it. */
  async function readyArchiveOf(userId: string): Promise<string> {
    const db = app().db;
    const asked = await askForDataExport(db, { userId, now: app().clock() }, { perDay: 3 });
    if (!asked.ok) throw new Error(asked.error);
    const job = await db
      .selectFrom("jobs")
      .selectAll()
      .where("type", "=", DATA_EXPORT_JOB)
      .where("state", "=", "queued")
      .orderBy("id", "desc")
      .executeTakeFirstOrThrow();
    await dataExportHandlers(dataExportWiring(app()))[DATA_EXPORT_JOB]!({
      db,
      // The server's clock, which the link is opened at.
      now: app().clock(),
      payload: JSON.parse(job.payload),
      job: job as JobRow,
      complete: async () => true,
    });
    const card = await loadDataExportsCard(db, {
      userId,
      secret: app().env.AUTH_SECRET,
      perDay: 3,
      now: app().clock(),
    });
    const link = card.exports.find((each) => each.link)?.link;
    if (!link) throw new Error("the archive was not made");
    return link;
  }

  /** B (or an anonymous visitor) tries something on A's data: the answer, and A's data unchanged. */
  async function attempt(
    role: "customerB" | "anonymous",
    path: string,
    form: Record<string, string> | undefined,
    expected: Answer,
    options: { changesOwnData?: boolean } = {},
  ) {
    // A GET (the matrix checks that GETs change nothing at all) or a request that may change the
    // requester's own data (mark read, language) is held to A's data only.
    const ownOnly = !form || options.changesOwnData;
    const before = await stateOfA(!ownOnly);
    const what = `${form ? "POST" : "GET"} ${path} ${form ? JSON.stringify(form) : ""} as ${role}`;
    const response = await fetchApp(path, { cookie: cookies[role], form });
    expectAnswer(response, expected, path, what);
    await expectClean(response, role, what);
    const after = await stateOfA(!ownOnly);
    expect({ ...after, everything: null }, `${what} changed customer A's data`).toEqual({
      ...before,
      everything: null,
    });
    if (before.everything && after.everything)
      expectUnchanged(before.everything, after.everything, `${what} changed the database`);
  }

  it("B cannot read A's ticket, order, service or notifications by id, in the URL or the query", async () => {
    const { orderId, pendingOrderId, serviceId, id } = seed.a;
    const ticket = seed.ticketId;
    await attempt("customerB", `/support/${ticket}`, undefined, 404);
    await attempt("customerB", `/support/${ticket}?id=${ticket}`, undefined, 404);
    await attempt("customerB", `/admin/tickets/${ticket}`, undefined, "→/");
    await attempt("customerB", `/admin/orders?id=${orderId}`, undefined, "→/");
    await attempt("customerB", `/admin/search?q=${seed.a.email}`, undefined, "→/");
    await attempt("customerB", `/admin/transactions?user=${id}`, undefined, "→/");
    await attempt("customerB", `/admin/clients/${id}`, undefined, "→/");
    // A's invoice, by its number in any case, and the admin's list of them.
    const invoice = seed.a.invoiceNumber;
    await attempt("customerB", `/invoices/${invoice}`, undefined, 404);
    await attempt("customerB", `/invoices/${invoice.toLowerCase()}`, undefined, 404);
    await attempt("customerB", `/admin/invoices?q=${seed.a.email}`, undefined, "→/");
    const query = [
      `id=${orderId}`,
      `orderId=${pendingOrderId}`,
      `serviceId=${serviceId}`,
      `ticket=${ticket}`,
      `userId=${id}`,
      `user=${id}`,
      `before=999999999`,
    ].join("&");
    for (const tab of DASHBOARD_TABS) {
      const page = dashboardTabPath(tab);
      await attempt("customerB", `${page}?${query}`, undefined, 200);
      const data = await fetchApp(`${dataUrl(page)}?${query}`, { cookie: cookies.customerB });
      await expectClean(data, "customerB", `${dataUrl(page)}?${query}`);
      // The tab's older address sends B to the same page, with the same query.
      await attempt(
        "customerB",
        `/dashboard?tab=${tab}&${query}`,
        undefined,
        `301→${page}?${query}`,
      );
    }
    await attempt("customerB", `/support/new?serviceId=${serviceId}`, undefined, 200);
    await attempt("customerB", `/order?product=1&orderId=${orderId}`, undefined, 200);
    // A's archive of their data, by the link A was sent: B gets the 404 of no archive at all.
    const archiveLink = await readyArchiveOf(id);
    await attempt("customerB", archiveLink, undefined, 404);
    await attempt("anonymous", archiveLink, undefined, "login");
    // A's server's page and its state.
    await attempt("customerB", `/dashboard/services/${serviceId}`, undefined, 404);
    await attempt("customerB", `/dashboard/services/${serviceId}/status`, undefined, 404);
    await attempt("customerB", `/admin/services/${serviceId}/panel/status`, undefined, "→/");
    // A's service's change of plan, and its confirmation of a plan.
    await attempt("customerB", `/dashboard/services/${serviceId}/plan`, undefined, 404);
    await attempt("customerB", `/dashboard/services/${serviceId}/plan?to=1`, undefined, 404);
    // A's own view shows them (the markers are real), so the checks above could fail.
    expect((await fetchApp(archiveLink, { cookie: cookies.customerA })).status).toBe(200);
    const own = await fetchApp(`/support/${ticket}`, { cookie: cookies.customerA });
    expect(await own.text()).toContain(A_MARKERS.message);
    const ownDashboard = await fetchApp("/dashboard/services", { cookie: cookies.customerA });
    expect(await ownDashboard.text()).toContain(A_MARKERS.server);
  }, 120_000);

  it("B cannot change A's service, ticket, notifications, session, account or orders", async () => {
    const { serviceId, pendingOrderId, id } = seed.a;
    const ticket = seed.ticketId;
    const key = () => randomUUID();
    // A fresh unread notification for A (A's own pages, opened above, mark the first one read).
    await staffReply(app().db, {
      actorId: await adminId(app()),
      ticketId: ticket,
      message: "again",
    });
    const unreadOfA = () =>
      app()
        .db.selectFrom("notifications")
        .select("id")
        .where("user_id", "=", id)
        .where("read_at", "is", null)
        .execute();
    expect((await unreadOfA()).length).toBeGreaterThan(0);
    // Renew A's service (B has coins enough, so only ownership can refuse it).
    await attempt(
      "customerB",
      "/dashboard/services",
      { intent: "renew", serviceId: String(serviceId), idempotencyKey: key() },
      404,
    );
    // Ask anything of A's server.
    const serverForms: Record<string, string>[] = [
      { intent: "power", signal: "stop" },
      { intent: "reinstall", confirm: "on" },
      { intent: "variable", env: "MAX_PLAYERS", value: "1" },
      { intent: "password" },
      { intent: "notice", notice: "on" },
    ];
    for (const form of serverForms)
      await attempt("customerB", `/dashboard/services/${serviceId}`, form, 404);
    // Change A's service's plan (to any product: only ownership refuses it first).
    await attempt(
      "customerB",
      `/dashboard/services/${serviceId}/plan`,
      {
        intent: "change-plan",
        toProductId: "1",
        idempotencyKey: key(),
        shownAmount: "0",
        shownDirection: "upgrade",
      },
      404,
    );
    // Refund A's invoice (an admin's action).
    for (const method of ["coins", "outside"])
      await attempt(
        "customerB",
        `/invoices/${seed.a.invoiceNumber}`,
        { intent: "refund", method, reason: "B refunding A" },
        "→/",
      );
    // Reply to, close and reopen A's ticket.
    const ticketForms: Record<string, string>[] = [
      { intent: "reply", message: "B writing into A's ticket", idempotencyKey: key() },
      { intent: "close" },
      { intent: "reopen" },
    ];
    for (const form of ticketForms) await attempt("customerB", `/support/${ticket}`, form, 404);
    // Attach A's service to a ticket of B's.
    await attempt(
      "customerB",
      "/support/new",
      {
        department: "technical",
        subject: "Mine",
        priority: "low",
        message: "Hello",
        serviceId: String(serviceId),
        idempotencyKey: key(),
      },
      400,
    );
    // Write an admin's note on A's account.
    await attempt(
      "customerB",
      `/admin/clients/${id}`,
      { intent: "note", note: "B was here" },
      "→/",
    );
    // Mark notifications read: B's own only (A keeps an unread one).
    await attempt("customerB", "/notifications", {}, 200, { changesOwnData: true });
    expect((await unreadOfA()).length).toBeGreaterThan(0);
    // End A's session.
    const session = await app()
      .db.selectFrom("sessions")
      .select("id")
      .where("user_id", "=", id)
      .executeTakeFirstOrThrow();
    await attempt(
      "customerB",
      "/dashboard/account",
      { intent: "end-session", sessionId: session.id },
      200,
    );
    // Ask for, or cancel, a deletion: only ever B's own account, whatever id is sent.
    await attempt(
      "customerB",
      "/dashboard/account",
      { intent: "cancel-deletion", userId: id },
      404,
      {
        changesOwnData: true,
      },
    );
    await attempt(
      "customerB",
      "/dashboard/account",
      { intent: "request-deletion", userId: id, currentPassword: "Wrong-password-1" },
      400,
      { changesOwnData: true },
    );
    // Take A's e-mail address.
    await attempt(
      "customerB",
      "/dashboard/account",
      { intent: "profile", name: "B", email: seed.a.email },
      400,
    );
    // The language of A's account.
    for (const lang of ["ar", "en"])
      await attempt("customerB", "/language", { lang, redirectTo: "/" }, "→/", {
        changesOwnData: true,
      });
    // A's top-up request (Orange Money switched on for it): B can neither say it is paid nor cancel it.
    await app()
      .db.updateTable("payment_methods")
      .set({ enabled: 1, instructions: JSON.stringify({ en: "Send to 0600", fr: "", ar: "" }) })
      .where("code", "=", "orange-money")
      .execute();
    const orange = await app()
      .db.selectFrom("payment_methods")
      .select("id")
      .where("code", "=", "orange-money")
      .executeTakeFirstOrThrow();
    const topUp = await requestTopUp(app().db, {
      userId: id,
      methodId: Number(orange.id),
      coins: 10,
    });
    if (!topUp.ok) throw new Error(topUp.error);
    const topUpId = String(topUp.request.id);
    // A day the payment may have been made on: the day the server recorded the request.
    const today = topUp.request.createdAt.slice(0, 10);
    await attempt(
      "customerB",
      "/dashboard/top-up",
      { intent: "paid", requestId: topUpId, payerAccount: "0600", paidOn: today },
      404,
    );
    await attempt("customerB", "/dashboard/top-up", { intent: "cancel", requestId: topUpId }, 404);
    // Admin actions on A's things, as B.
    const adminForms: [string, Record<string, string>][] = [
      ["/admin/top-ups", { intent: "approve", requestId: topUpId }],
      ["/admin/top-ups", { intent: "reject", requestId: topUpId, reason: "B says no" }],
      ["/admin/orders", { intent: "approve", orderId: String(pendingOrderId) }],
      ["/admin/orders", { intent: "reject", orderId: String(pendingOrderId), reason: "B says no" }],
      ["/admin/services", { intent: "suspend", serviceId: String(serviceId) }],
      ["/admin/services", { intent: "delete", serviceId: String(serviceId) }],
      [
        "/admin/services",
        {
          intent: "edit",
          serviceId: String(serviceId),
          name: "B's now",
          price: "0",
          expiresOn: "2099-01-01",
        },
      ],
      ["/admin/clients", { intent: "coins", userId: id, amount: "-100", reason: "B takes" }],
      ["/admin/users", { intent: "delete", userId: id }],
      ["/admin/clients", { intent: "complete-deletion", userId: id }],
      [`/admin/tickets/${ticket}`, { intent: "reply", message: "staff? no, B" }],
      [`/admin/tickets/${ticket}`, { intent: "status", status: "closed" }],
      [`/admin/tickets/${ticket}`, { intent: "coins", amount: "50", reason: "B" }],
    ];
    for (const [path, form] of adminForms) {
      await attempt("customerB", path, form, "→/");
      await attempt("anonymous", path, form, "login");
    }
    // Anonymous visitors get the login page for A's things too.
    await attempt("anonymous", `/support/${ticket}`, { intent: "close" }, "login");
    await attempt(
      "anonymous",
      "/dashboard/services",
      { intent: "renew", serviceId: String(serviceId), idempotencyKey: key() },
      "login",
    );
    await attempt("anonymous", "/notifications", {}, "login");
    // A's session still works.
    const stillIn = await fetchApp("/dashboard", { cookie: cookies.customerA });
    expect(stillIn.status).toBe(200);
  }, 120_000);

  it("B reusing A's idempotency keys neither reaches A's order or renewal nor fails", async () => {
    const a = seed.a;
    const orderKey = (
      await app()
        .db.selectFrom("orders")
        .select("idempotency_key")
        .where("id", "=", a.orderId)
        .executeTakeFirstOrThrow()
    ).idempotency_key;
    const product = await productId(app(), "samp-starter");
    const renewalKey = randomUUID();
    const renewed = await renewService(app().db, {
      userId: a.id,
      serviceId: a.serviceId,
      idempotencyKey: renewalKey,
    });
    expect(renewed.ok).toBe(true);

    const before = await stateOfA(false);
    const bBalanceBefore = await balanceOf(app(), customerB);
    const orderAnswer = await fetchApp("/order", {
      cookie: cookies.customerB,
      form: { productId: String(product), serverName: "B's own", idempotencyKey: orderKey! },
    });
    // The key is A's form's: B is told the form is stale, and charged nothing.
    expect(orderAnswer.status).toBe(400);
    const orderPage = await orderAnswer.text();
    expect(orderPage).toContain("This form has expired");
    await expectClean(new Response(orderPage), "customerB", "B orders with A's key");
    expect(await balanceOf(app(), customerB)).toBe(bBalanceBefore);

    // B's own service, renewed with the key of A's renewal.
    const bOrder = await placeOrder(app().db, customerB, orderInput({ productId: product }));
    if (!bOrder.ok) throw new Error(bOrder.error);
    const bApproved = await approveOrder(app().db, {
      orderId: bOrder.order.id,
      actorId: await adminId(app()),
    });
    if (!bApproved.ok) throw new Error(bApproved.error);
    const bBalance = await balanceOf(app(), customerB);
    const renewAnswer = await fetchApp("/dashboard/services", {
      cookie: cookies.customerB,
      form: {
        intent: "renew",
        serviceId: String(bApproved.order.hostingServiceId),
        idempotencyKey: renewalKey,
      },
    });
    expect(renewAnswer.status).toBe(400);
    await expectClean(renewAnswer, "customerB", "B renews with A's key");
    expect(await balanceOf(app(), customerB)).toBe(bBalance);
    expect(await stateOfA(false)).toEqual(before);
  });

  it("logging out ends only one's own session", async () => {
    const bSession = await freshCookie("customerB");
    const aSessions = await app()
      .db.selectFrom("sessions")
      .select("id")
      .where("user_id", "=", seed.a.id)
      .execute();
    const response = await fetchApp("/logout", { cookie: bSession, form: {} });
    expect(response.status).toBe(302);
    const after = await app()
      .db.selectFrom("sessions")
      .select("id")
      .where("user_id", "=", seed.a.id)
      .execute();
    expect(after).toEqual(aSessions);
    expect((await fetchApp("/dashboard", { cookie: bSession })).status).toBe(302);
    expect((await fetchApp("/dashboard", { cookie: cookies.customerB })).status).toBe(200);
  });
});
