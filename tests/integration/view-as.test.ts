import type { AddressInfo } from "node:net";
import express from "express";
import { beforeAll, expect, it } from "vitest";
import { getCurrentSession, signIn } from "~/domain/accounts/accounts.server";
import { saveSettingsForm } from "~/domain/settings/settings-form.server";
import { maintenanceGate } from "../../server/maintenance";
import { attachRequestContext, contextOf } from "../../server/request-context";
import { approveOrder, placeOrder } from "~/domain/orders/orders.server";
import type { StaffRole } from "~/domain/staff/permissions";
import {
  appFetch,
  dataUrl,
  flattenRoutes,
  routeModule,
  type AppFetch,
} from "../support/app-harness";
import { adminId, customerWithCoins, orderInput, productId } from "../support/money-fixtures";
import { cookieHeader } from "../support/request-context";
import { schemaSnapshot, snapshotChanges } from "../support/schema-snapshot";
import { openedTicket } from "../support/ticket-fixtures";
import { describeEachDatabase, TEST_ADMIN } from "../support/test-database";

/**
 * Viewing the site as a customer (ADR 57), through the app as the server runs it: the client page's
 * button, the customer's pages as the customer's, every post refused with 403 and nothing changed, the
 * banner, leaving and signing out (audited), and nobody else's session touched.
 */

const CUSTOMER = {
  name: "Ulla Viewed",
  subject: "My server lags at night (view-as)",
  server: "ulla-view-as-server",
};
/** Customer-set passwords of the fixtures (money-fixtures' customerWithCoins). */
const FIXTURE_PASSWORD = "Buyer-pw-8842";
const plain = (html: string) => html.replace(/[\u2068\u2069]/g, "").replace(/&#x27;/g, "'");

let counter = 0;

describeEachDatabase("viewing the site as a customer", (app) => {
  let fetchApp: AppFetch;
  let customer: { id: string; email: string; cookie: string; invoice: string; ticketId: number };

  async function emailOf(id: string) {
    return (
      await app()
        .db.selectFrom("users")
        .select("email")
        .where("id", "=", id)
        .executeTakeFirstOrThrow()
    ).email;
  }

  async function cookieOf(email: string, password: string) {
    const result = await signIn(app(), { email, password }, { ip: "10.58.9.1" });
    if (!result.ok) throw new Error(`sign in failed for ${email}`);
    return cookieHeader(result.setCookies);
  }

  /** A member of the staff of `role`, signed in: their id and Cookie header. */
  async function staffMember(role: StaffRole, locale: string | null = null) {
    const id = await customerWithCoins(app(), 0);
    const email = `view-as-${role}-${Date.now()}-${counter++}@example.com`;
    await app()
      .db.updateTable("users")
      .set({ role: "admin", staff_role: role, email, locale })
      .where("id", "=", id)
      .execute();
    return { id, email, cookie: await cookieOf(email, FIXTURE_PASSWORD) };
  }

  const owner = async () => ({
    id: await adminId(app()),
    cookie: await cookieOf(TEST_ADMIN.email, TEST_ADMIN.password),
  });

  async function sessionIdOf(cookie: string) {
    const session = await getCurrentSession(app(), cookie);
    if (!session) throw new Error("no session");
    return session.sessionId;
  }

  async function viewingOf(cookie: string) {
    const row = await app()
      .db.selectFrom("sessions")
      .select("viewing_user_id")
      .where("id", "=", await sessionIdOf(cookie))
      .executeTakeFirstOrThrow();
    return row.viewing_user_id;
  }

  const viewAsAudit = (customerId: string) =>
    app()
      .db.selectFrom("audit_log")
      .select(["actor_id", "action", "after"])
      .where("target_id", "=", customerId)
      .where("action", "like", "viewAs.%")
      .orderBy("id")
      .execute();

  /**
   * Every table but `sessions`, whose rows a request may touch ("last active", the staff member's own
   * view): what the view's own requests do to sessions is checked row by row.
   */
  const fingerprint = () => schemaSnapshot(app().db, { skip: ["sessions"] });

  const start = (cookie: string, customerId = customer.id) =>
    fetchApp(`/admin/clients/${customerId}/view-as`, { cookie, form: { intent: "view-as" } });

  beforeAll(async () => {
    fetchApp = appFetch(app());
    const id = await customerWithCoins(app(), 4321);
    await app().db.updateTable("users").set({ name: CUSTOMER.name }).where("id", "=", id).execute();
    const order = await placeOrder(
      app().db,
      id,
      orderInput({
        productId: await productId(app(), "samp-starter"),
        serverName: CUSTOMER.server,
      }),
    );
    if (!order.ok) throw new Error(order.error);
    const approved = await approveOrder(app().db, {
      orderId: order.order.id,
      actorId: await adminId(app()),
    });
    if (!approved.ok) throw new Error(approved.error);
    const ticket = await openedTicket(app(), id, { subject: CUSTOMER.subject });
    const email = await emailOf(id);
    customer = {
      id,
      email,
      cookie: await cookieOf(email, FIXTURE_PASSWORD),
      ticketId: ticket.id,
      invoice: (
        await app()
          .db.selectFrom("invoices")
          .select("number")
          .where("order_id", "=", order.order.id)
          .executeTakeFirstOrThrow()
      ).number,
    };
  });

  it("offers the view on a customer's page to Owner and Support only, never on a staff account", async () => {
    const support = await staffMember("support");
    const billing = await staffMember("billing");
    const { cookie } = await owner();
    const page = (who: string, id = customer.id) =>
      fetchApp(`/admin/clients/${id}`, { cookie: who }).then((r) => r.text());
    expect(await page(cookie)).toContain("View as this customer");
    expect(await page(support.cookie)).toContain("View as this customer");
    expect(await page(billing.cookie)).not.toContain("View as this customer");
    expect(await page(cookie, support.id)).not.toContain("View as this customer");
  });

  it("refuses to start for Billing and Technician (403) and for a staff account, changing nothing", async () => {
    for (const role of ["billing", "technician"] as const) {
      const member = await staffMember(role);
      const shot = await fingerprint();
      const response = await start(member.cookie);
      expect(response.status, role).toBe(403);
      expect(await viewingOf(member.cookie)).toBeNull();
      expect(snapshotChanges(shot, await fingerprint()), role).toEqual([]);
    }
    const support = await staffMember("support");
    const { cookie } = await owner();
    const shot = await fingerprint();
    for (const [who, target] of [
      [cookie, support.id],
      [support.cookie, await adminId(app())],
      [cookie, "no-such-account"],
    ] as const) {
      const response = await start(who, target);
      expect(response.status).toBe(302);
      expect(response.headers.get("location")).toBe(`/admin/clients/${target}`);
      expect(response.headers.get("set-cookie")).toContain("viewAsRefused");
      expect(await viewingOf(who)).toBeNull();
    }
    expect(snapshotChanges(shot, await fingerprint())).toEqual([]);
    // A crafted post with another intent: refused as any unknown form, nothing started.
    const crafted = await fetchApp(`/admin/clients/${customer.id}/view-as`, {
      cookie,
      form: { intent: "note", note: "x" },
    });
    expect(crafted.status).toBe(400);
    expect(await viewingOf(cookie)).toBeNull();
    expect(await viewAsAudit(customer.id)).toEqual([]);
  });

  it("shows the customer's own pages, with the banner, and changes nothing while they are read", async () => {
    const { id: ownerId, cookie } = await owner();
    const ownSessions = () =>
      app()
        .db.selectFrom("sessions")
        .selectAll()
        .where("user_id", "=", customer.id)
        .orderBy("id")
        .execute();
    const customerSessions = await ownSessions();

    const started = await start(cookie);
    expect(started.status).toBe(302);
    expect(started.headers.get("location")).toBe("/dashboard");
    expect(await viewingOf(cookie)).toBe(customer.id);
    expect(await viewAsAudit(customer.id)).toEqual([
      { actor_id: ownerId, action: "viewAs.start", after: null },
    ]);

    const before = await fingerprint();
    const pages: [string, string[]][] = [
      ["/dashboard", [CUSTOMER.name, "43.21"]],
      ["/dashboard/services", [CUSTOMER.server]],
      ["/dashboard/billing", [customer.invoice]],
      ["/dashboard/support", [CUSTOMER.subject]],
      [`/support/${customer.ticketId}`, [CUSTOMER.subject]],
      [`/invoices/${customer.invoice}`, [customer.invoice]],
      ["/dashboard/account", [customer.email]],
      ["/support/new", []],
      ["/dashboard/top-up", []],
      ["/", []],
      // A ?lang= link would save a customer's language: not while staff view as them.
      ["/dashboard?lang=ar", [CUSTOMER.name]],
    ];
    for (const [path, shown] of pages) {
      const response = await fetchApp(path, { cookie });
      expect(response.status, path).toBe(200);
      const html = plain(await response.text());
      // The page in the language the link asked for, the customer's saved one left alone (below).
      if (path.includes("lang=ar")) {
        expect(html, path).toContain(`أنت تتصفح الموقع بصفة ${CUSTOMER.name}`);
        continue;
      }
      expect(html, path).toContain(
        `You are viewing the site as ${CUSTOMER.name} (${customer.email}). Read-only.`,
      );
      expect(html, path).toContain("Leave this view");
      for (const text of shown) expect(html, `${path} shows ${text}`).toContain(text);
      // The data request a client-side navigation makes reads as the customer too.
      const [bare, search] = path.split("?");
      const data = await fetchApp(`${dataUrl(bare!)}${search ? `?${search}` : ""}`, { cookie });
      expect(data.status, `${path} (.data)`).toBe(200);
    }
    // The admin pages while viewing: the customer's dashboard, with the banner.
    for (const path of ["/admin", `/admin/clients/${customer.id}`, "/admin/reports.csv"]) {
      const response = await fetchApp(path, { cookie });
      expect(`${response.status} ${response.headers.get("location")}`, path).toBe("302 /dashboard");
    }
    expect(snapshotChanges(before, await fingerprint())).toEqual([]);
    // The customer's own sessions: untouched, none of them viewing anyone.
    expect(await ownSessions()).toEqual(customerSessions);

    // The customer, in their own session, sees their site as always.
    const own = plain(await (await fetchApp("/dashboard", { cookie: customer.cookie })).text());
    expect(own).toContain(CUSTOMER.name);
    expect(own).not.toContain("You are viewing the site as");
    // Another session of the same owner is not viewing anyone.
    const other = await cookieOf(TEST_ADMIN.email, TEST_ADMIN.password);
    expect((await fetchApp("/admin", { cookie: other })).status).toBe(200);
    expect(await viewingOf(other)).toBeNull();

    // Leaving: back on the client page, audited, the admin pages open again.
    const left = await fetchApp("/view-as/leave", { cookie, form: {} });
    expect(`${left.status} ${left.headers.get("location")}`).toBe(
      `302 /admin/clients/${customer.id}`,
    );
    expect(await viewingOf(cookie)).toBeNull();
    expect(await viewAsAudit(customer.id)).toEqual([
      { actor_id: ownerId, action: "viewAs.start", after: null },
      { actor_id: ownerId, action: "viewAs.end", after: JSON.stringify({ via: "leave" }) },
    ]);
    expect((await fetchApp("/admin", { cookie })).status).toBe(200);
    expect(plain(await (await fetchApp("/dashboard", { cookie })).text())).not.toContain(
      "You are viewing the site as",
    );
  });

  it("refuses every post, of every route, in every method, with 403 before any action runs", async () => {
    const support = await staffMember("support");
    expect((await start(support.cookie)).status).toBe(302);
    const open = new Set(["/view-as/leave", "/logout"]);
    const routes: { path: string; page: boolean }[] = [];
    for (const route of flattenRoutes()) {
      if (route.layout || open.has(route.pattern)) continue;
      const module = await routeModule(route.file);
      if (typeof module.action !== "function") continue;
      const path = route.pattern.replace(/:(\w+)/g, (_, name: string) =>
        name === "id" ? String(customer.ticketId) : name === "number" ? customer.invoice : "x",
      );
      // A page answers with the refusal's page; a resource route (no component) with its data.
      routes.push({ path, page: module.default != null });
    }
    expect(routes.map((route) => route.path)).toEqual(
      expect.arrayContaining(["/order", "/dashboard/account", `/support/${customer.ticketId}`]),
    );
    const before = await fingerprint();
    const form = {
      intent: "reply",
      message: "sent while viewing",
      name: "Renamed while viewing",
      idempotencyKey: crypto.randomUUID(),
      replyKey: crypto.randomUUID(),
    };
    for (const { path, page } of routes) {
      for (const method of ["POST", "PUT", "PATCH", "DELETE"]) {
        const response = await fetchApp(path, { cookie: support.cookie, method, form });
        expect(response.status, `${method} ${path}`).toBe(403);
        const body = plain(await response.text());
        if (page) expect(body, path).toContain("nothing can be changed in this view");
        else expect(JSON.parse(body), path).toMatchObject({ refused: "viewAs" });
      }
      const data = await fetchApp(dataUrl(path), { cookie: support.cookie, form });
      expect(data.status, `POST ${dataUrl(path)}`).toBe(403);
    }
    // A file sent as a browser sends one (a top-up's proof): refused the same, unread.
    const upload = new FormData();
    upload.set("proof", new Blob(["%PDF-1.4"], { type: "application/pdf" }), "proof.pdf");
    const sent = await fetchApp("/dashboard/top-up", { cookie: support.cookie, body: upload });
    expect(sent.status).toBe(403);
    expect(snapshotChanges(before, await fingerprint())).toEqual([]);
    expect(await viewingOf(support.cookie)).toBe(customer.id);
  });

  it("says so on a refused post in the member's own language", async () => {
    const support = await staffMember("support", "fr");
    await start(support.cookie);
    const response = await fetchApp("/dashboard/account", {
      cookie: support.cookie,
      form: { intent: "profile", name: "x" },
    });
    expect(response.status).toBe(403);
    const html = plain(await response.text());
    expect(html).toContain('<html lang="fr"');
    expect(html).toContain("Vue en lecture seule");
    expect(html).toContain(`Vous consultez le site en tant que ${CUSTOMER.name}`);
  });

  it("lets the member through maintenance (they are staff), where the customer gets its page", async () => {
    // The gate as server/app.ts mounts it, in front of a stand-in for React Router that says what
    // reached it.
    const web = express();
    web.use(attachRequestContext(app()));
    web.use(maintenanceGate(contextOf));
    web.use((req, res) => {
      const session = contextOf(res).session;
      res.json({ url: req.originalUrl, user: session?.user.id, viewer: session?.viewer?.id });
    });
    const server = web.listen(0);
    const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    const maintenance = async (on: boolean) =>
      saveSettingsForm(app(), {
        intent: "maintenance",
        maintenanceMode: on,
        maintenanceMessage: on ? "Back soon" : "",
        actorId: await adminId(app()),
      });
    const support = await staffMember("support");
    await start(support.cookie);
    try {
      await maintenance(true);
      const reached = async (cookie: string, path: string, method = "GET") =>
        (await fetch(`${base}${path}`, { method, headers: { cookie } })).json();
      expect(await reached(support.cookie, "/dashboard")).toEqual({
        url: "/dashboard",
        user: customer.id,
        viewer: support.id,
      });
      expect(await reached(support.cookie, "/view-as/leave", "POST")).toMatchObject({
        url: "/view-as/leave",
      });
      expect(await reached(customer.cookie, "/dashboard")).toMatchObject({ url: "/maintenance" });
    } finally {
      await maintenance(false);
      await new Promise<void>((done) => server.close(() => done()));
    }
  });

  it("ends with the staff session when the member signs out, audited", async () => {
    const support = await staffMember("support");
    await start(support.cookie);
    const sessionId = await sessionIdOf(support.cookie);
    const out = await fetchApp("/logout", { cookie: support.cookie, form: {} });
    expect(out.status).toBe(302);
    expect(
      await app().db.selectFrom("sessions").select("id").where("id", "=", sessionId).execute(),
    ).toEqual([]);
    expect((await viewAsAudit(customer.id)).filter((e) => e.actor_id === support.id)).toEqual([
      { actor_id: support.id, action: "viewAs.start", after: null },
      { actor_id: support.id, action: "viewAs.end", after: JSON.stringify({ via: "signOut" }) },
    ]);
  });
});
