import { randomUUID } from "node:crypto";
import { readFileSync } from "node:fs";
import { listActionSchema, type ListArea } from "~/http/list-editor.server";
import path from "node:path";
import { beforeAll, expect, it } from "vitest";
import type { ZodType } from "zod";
import { clientActionSchema } from "~/domain/accounts/user-admin.schemas";
import { clientPageActionSchema } from "~/domain/clients/clients.schemas";
import { securityActionSchema } from "~/domain/accounts/security-admin.schemas";
import { twoFactorActionSchema } from "~/domain/accounts/two-factor.schemas";
import { automationActionSchema } from "~/domain/jobs/jobs.schemas";
import { announcementActionSchema } from "~/domain/announcements/announcements.schemas";
import { productActionSchema } from "~/domain/catalogue/catalogue-admin.schemas";
import { serviceActionSchema } from "~/domain/hosting-services/hosting-services.schemas";
import { gamePanelActionSchema } from "~/domain/provisioning/panel-connection.schemas";
import { servicePanelActionSchema } from "~/domain/provisioning/service-panel.schemas";
import { staffServerControlSchema } from "~/domain/servers/server-control.schemas";
import { contactActionSchema, subscriberActionSchema } from "~/domain/inbox/inbox.schemas";
import { decideOrderSchema } from "~/domain/orders/orders.schemas";
import { notificationActionSchema } from "~/domain/notifications/notifications.schemas";
import { paymentMethodActionSchema } from "~/domain/payments/payment-methods.schemas";
import { providerSettingsActionSchema } from "~/domain/payments/providers/provider-settings.schemas";
import { topUpDecisionSchema } from "~/domain/payments/top-ups.schemas";
import { requestTopUp } from "~/domain/payments/top-up-requests.server";
import { voucherActionSchema } from "~/domain/promotions/promotions.schemas";
import { settingsActionSchema } from "~/domain/settings/settings.schemas";
import { staffActionSchema } from "~/domain/staff/staff.schemas";
import { adminTicketActionSchema } from "~/domain/tickets/tickets.schemas";
import { signIn } from "~/domain/accounts/accounts.server";
import { renewService } from "~/domain/hosting-services/renewal.server";
import { approveOrder, placeOrder } from "~/domain/orders/orders.server";
import { openTicket, staffReply } from "~/domain/tickets/tickets.server";
import {
  appFetch,
  dataUrl,
  flattenRoutes,
  routeModule,
  type AppFetch,
  type FlatRoute,
} from "../support/app-harness";
import {
  schemaSnapshot,
  schemaTables,
  snapshotChanges,
  type SchemaSnapshot,
} from "../support/schema-snapshot";
import {
  adminId,
  balanceOf,
  customerWithCoins,
  orderInput,
  productId,
} from "../support/money-fixtures";
import { cookieHeader } from "../support/request-context";
import { DASHBOARD_TABS, dashboardTabPath } from "~/domain/customer-dashboard/customer-dashboard";
import { describeEachDatabase, TEST_ADMIN } from "../support/test-database";

/**
 * Who may do what, for every route of app/routes.ts, as an anonymous visitor, customer A, customer B and
 * an admin: each GET and each POST gets the answer its row says, never a 5xx or a stack trace, B and
 * anonymous visitors never see A's data (in pages or in .data responses), a GET changes nothing, and a
 * refused POST changes nothing. Below the table, B tries to read and change each of A's orders,
 * services, tickets, notifications and sessions by id, in URLs, query strings and form fields.
 *
 * A route without a row fails the test that names it: add its row to ROUTES (one line, e.g.
 * `"/admin/products": adminPage(),`).
 */

type Role = "anonymous" | "customerA" | "customerB" | "admin";
const ROLES: Role[] = ["anonymous", "customerA", "customerB", "admin"];

/**
 * An expected answer: a status; "4xx" for any refusal; "login" for a redirect to /login that comes back
 * to the requested URL; or "→/path" for a redirect to exactly that location (status 302 unless given, as
 * in "301→/dashboard").
 */
type Answer = number | "4xx" | "login" | `→${string}` | `${301 | 302}→${string}`;
type Answers = Record<Role, Answer>;

/** What the tests know about the seeded data, for URLs and forms. */
interface Seed {
  a: {
    id: string;
    email: string;
    orderId: number;
    pendingOrderId: number;
    serviceId: number;
    /** The number of A's first order's invoice. */
    invoiceNumber: string;
  };
  ticketId: number;
}

interface Post {
  form: (seed: Seed) => Record<string, string>;
  answers: Answers;
  /** Run each role with a session of its own that the request may end (logout). */
  freshSession?: boolean;
}

interface Row {
  /** The URL to request when the pattern has parameters (or to add a query string). */
  url?: (seed: Seed) => string;
  get: Answers;
  /** POSTs with plausible intents; a route without an action must answer 405 to everyone. */
  post?: Post[];
}

const everyone = (answer: Answer): Answers => ({
  anonymous: answer,
  customerA: answer,
  customerB: answer,
  admin: answer,
});
const signedIn = (answer: Answer): Answers => ({ ...everyone(answer), anonymous: "login" });
const adminOnly = (answer: Answer): Answers => ({
  anonymous: "login",
  customerA: "→/",
  customerB: "→/",
  admin: answer,
});
/** Login and registration: a signed-in visitor is sent home. */
const guestsOnly = (answer: Answer): Answers => ({
  anonymous: answer,
  customerA: "→/dashboard",
  customerB: "→/dashboard",
  admin: "→/admin",
});

const post = (form: Record<string, string>, answers: Answers): Post => ({
  form: () => form,
  answers,
});
/** An intent no action knows: an admin's action refuses it, everyone else is turned away before. */
const PROBE = post({ intent: "matrix-probe" }, adminOnly("4xx"));

const publicPage = (...posts: Post[]): Row => ({ get: everyone(200), post: posts });
const customerPage = (...posts: Post[]): Row => ({ get: signedIn(200), post: posts });
/** An admin page; its action (if any) is probed with an unknown intent unless posts are given. */
const adminPage = (...posts: Post[]): Row => ({
  get: adminOnly(200),
  post: posts.length ? posts : undefined,
});
const redirectsTo = (location: string, status: 301 | 302 = 302): Row => ({
  get: everyone(`${status}→${location}`),
  post: [],
});

const KEY = "matrix-key-0000000000000000";

// One row per route of app/routes.ts, by its full URL pattern.
const ROUTES: Record<string, Row> = {
  "/": publicPage(),
  "/services/:type": { ...publicPage(), url: () => "/services/samp" },
  "/game-hosting": publicPage(),
  "/about": publicPage(),
  "/contact": publicPage(post({ name: "", email: "x" }, everyone(400))),
  "/service-terms": publicPage(),
  "/orange-money": publicPage(),
  "/phpmyadmin": publicPage(),
  "/bot-detected": publicPage(),
  "/verification-failed": publicPage(),
  "/login": {
    get: guestsOnly(200),
    post: [post({ email: "nobody@example.com", password: "Wrong-password-1" }, guestsOnly(401))],
  },
  "/register": { get: guestsOnly(200), post: [post({ email: "x" }, guestsOnly(400))] },
  // Without SMTP_URL (as here) the form is not offered: a post gets the support text with a 403.
  "/forgot-password": publicPage(post({ email: "nobody@example.com" }, everyone(403))),
  "/reset-password": publicPage(
    post({ token: "x", newPassword: "x", confirmPassword: "y" }, everyone(400)),
  ),
  // Without a link: the account's address and "send the message again" (an unknown intent is refused).
  "/verify-email": customerPage(post({ intent: "matrix-probe" }, signedIn(400))),
  "/account/password": customerPage(
    post(
      { currentPassword: "Wrong-password-1", newPassword: "x", confirmPassword: "y" },
      signedIn(400),
    ),
  ),
  "/coins": customerPage(),
  // The overview has no form: a post there is refused (a ?tab= address's is sent on to its tab).
  "/dashboard": customerPage(post({ intent: "matrix-probe" }, signedIn(400))),
  "/dashboard/services": customerPage(
    post({ intent: "renew", serviceId: "999999", idempotencyKey: KEY }, signedIn(404)),
    post({ intent: "matrix-probe" }, signedIn(400)),
  ),
  // A server's page: its owner's, for a server on the game panel. A's service was set up by hand (no
  // server on the panel): the same 404 page to everyone signed in, and its forms ask nothing of it.
  "/dashboard/services/:id": {
    url: (seed) => `/dashboard/services/${seed.a.serviceId}`,
    get: signedIn(404),
    post: [
      post(
        { intent: "power", signal: "start" },
        { anonymous: "login", customerA: "4xx", customerB: 404, admin: 404 },
      ),
      post(
        { intent: "password" },
        { anonymous: "login", customerA: "4xx", customerB: 404, admin: 404 },
      ),
      post({ intent: "matrix-probe" }, signedIn(400)),
    ],
  },
  // Its state as JSON, to the same people as the page.
  "/dashboard/services/:id/status": {
    url: (seed) => `/dashboard/services/${seed.a.serviceId}/status`,
    get: signedIn(404),
  },
  "/dashboard/domains": customerPage(),
  "/dashboard/billing": customerPage(),
  "/dashboard/support": customerPage(),
  "/dashboard/account": customerPage(
    post({ intent: "profile", name: "" }, signedIn(400)),
    post({ intent: "matrix-probe" }, signedIn(400)),
  ),
  "/dashboard/top-up": customerPage(post({ intent: "cancel", requestId: "999999" }, signedIn(404))),
  // A proof file: its owner's and the admins' (tests/integration/top-up-proofs-pages.test.ts); an id
  // that is no file is the same 404 to everyone signed in.
  // A provider's notification: the same answer to everyone, signed in or not (its signature is its
  // authentication); there is nothing to notify of a provider without keys (as here).
  "/hooks/payments/:provider": {
    url: () => "/hooks/payments/youcanpay",
    get: everyone(405),
    post: [post({ intent: "matrix-probe" }, everyone(404))],
  },
  // An online payment's page: its owner's only (tests/integration/online-payment-pages.test.ts); an id
  // that is no payment is the same 404 to everyone signed in.
  "/dashboard/top-up/payments/:id": {
    url: () => "/dashboard/top-up/payments/999999",
    get: { ...signedIn(404) },
  },
  "/dashboard/top-up/proofs/:id": {
    url: () => "/dashboard/top-up/proofs/999999",
    get: { ...signedIn(404) },
  },
  // Its preview: to the same people as the file.
  "/dashboard/top-up/proofs/:id/thumbnail": {
    url: () => "/dashboard/top-up/proofs/999999/thumbnail",
    get: { ...signedIn(404) },
  },
  "/order": publicPage(
    post(
      { productId: "999999", serverName: "Matrix", idempotencyKey: KEY },
      { ...signedIn(404), anonymous: 401 },
    ),
  ),
  "/support/new": customerPage(post({ subject: "" }, signedIn(400))),
  "/support/:id": {
    url: (seed) => `/support/${seed.ticketId}`,
    get: { anonymous: "login", customerA: 200, customerB: 404, admin: 404 },
    post: [post({ intent: "matrix-probe" }, signedIn(400))],
  },
  // A document opens for its owner and admins; anyone else gets the 404 page. Only admins refund.
  "/invoices/:number": {
    url: (seed) => `/invoices/${seed.a.invoiceNumber}`,
    get: { anonymous: "login", customerA: 200, customerB: 404, admin: 200 },
    post: [post({ intent: "matrix-probe" }, adminOnly(400))],
  },
  "/invoices/:number/pdf": {
    url: (seed) => `/invoices/${seed.a.invoiceNumber}/pdf`,
    get: { anonymous: "login", customerA: 200, customerB: 404, admin: 200 },
  },
  "/*": { url: () => "/no-such-page", get: everyone(404), post: [] },
  "/logout": {
    get: everyone("→/"),
    post: [{ form: () => ({}), answers: everyone("→/"), freshSession: true }],
  },
  "/notifications": { get: everyone("→/"), post: [post({}, signedIn(200))] },
  // The order form's voucher check: JSON for a signed-in customer (an unknown code is a 400 answer).
  "/order/voucher": {
    url: () => "/order/voucher?code=MATRIX&product=1",
    get: signedIn(400),
  },
  "/newsletter": { get: everyone("→/"), post: [post({ email: "not-an-email" }, everyone(400))] },
  "/language": {
    get: everyone("→/"),
    post: [post({ lang: "en", redirectTo: "/about" }, everyone("→/about"))],
  },
  "/my-services": redirectsTo("/dashboard", 301),
  "/terms": redirectsTo("/service-terms", 301),
  "/privacy": publicPage(),
  "/admin": adminPage(),
  "/admin/orders": adminPage(post({ intent: "approve", orderId: "999999" }, adminOnly(404))),
  "/admin/services": adminPage(post({ intent: "suspend", serviceId: "999999" }, adminOnly(404))),
  "/admin/services/:id/panel": {
    // A's service, set up by hand: nothing to retry, and no server on the panel to start.
    ...adminPage(
      post({ intent: "retry" }, adminOnly(409)),
      post({ intent: "power", signal: "start" }, adminOnly("4xx")),
    ),
    url: (seed) => `/admin/services/${seed.a.serviceId}/panel`,
  },
  // Its server's state as JSON for staff: none for a service without a server on the panel.
  "/admin/services/:id/panel/status": {
    url: (seed) => `/admin/services/${seed.a.serviceId}/panel/status`,
    get: adminOnly(404),
  },
  "/admin/clients": adminPage(
    post(
      {
        intent: "coins",
        userId: "nobody",
        amount: "5",
        reason: "probe",
        idempotencyKey: "matrix-probe-coin-key",
      },
      adminOnly(404),
    ),
  ),
  "/admin/clients/:id": {
    ...adminPage(post({ intent: "note", note: "" }, adminOnly(200))),
    url: (seed) => `/admin/clients/${seed.a.id}`,
  },
  "/admin/tickets": adminPage(),
  "/admin/tickets/:id": { ...adminPage(), url: (seed) => `/admin/tickets/${seed.ticketId}` },
  "/admin/announcements": adminPage(),
  "/admin/users": adminPage(
    post(
      {
        intent: "coins",
        userId: "nobody",
        amount: "5",
        reason: "probe",
        idempotencyKey: "matrix-probe-coin-key",
      },
      adminOnly(404),
    ),
  ),
  "/admin/logs": adminPage(),
  "/admin/transactions": adminPage(),
  "/admin/search": { ...adminPage(), get: adminOnly("→/admin/clients?q=") },
  "/admin/client-groups": adminPage(),
  "/admin/invoices": adminPage(),
  "/admin/quotes": adminPage(),
  "/admin/gateways": adminPage(post({ intent: "disable", id: "999999" }, adminOnly(404))),
  "/admin/top-ups": adminPage(
    post({ intent: "approve", requestId: "999999" }, adminOnly(404)),
    post({ intent: "refund", paymentId: "999999", amount: "1.00" }, adminOnly(404)),
  ),
  "/admin/products": adminPage(),
  "/admin/promotions": adminPage(),
  "/admin/domains": adminPage(),
  "/admin/domain-pricing": adminPage(),
  "/admin/knowledgebase": adminPage(),
  "/admin/downloads": adminPage(),
  "/admin/chat": adminPage(),
  "/admin/affiliates": adminPage(),
  "/admin/email-marketing": adminPage(),
  "/admin/reports": adminPage(),
  "/admin/analytics": adminPage(),
  "/admin/utilities": adminPage(),
  "/admin/security": adminPage(),
  // Nobody of that id is on the staff: nothing to remove.
  "/admin/staff": adminPage(post({ intent: "remove", userId: "nobody" }, adminOnly(404))),
  // Nothing is on: nothing to turn off (the password is checked before anything changes).
  "/admin/account": adminPage(
    post({ intent: "two-factor-disable", currentPassword: "x", code: "123456" }, adminOnly(409)),
  ),
  "/admin/automation": adminPage(post({ intent: "discard", id: "999999" }, adminOnly("4xx"))),
  "/admin/mail": adminPage(),
  "/admin/settings": adminPage(),
  // No panel is saved: there is nothing to check.
  "/admin/settings/game-panel": adminPage(post({ intent: "check" }, adminOnly(400))),
  "/admin/contact-messages": adminPage(post({ intent: "delete", id: "999999" }, adminOnly("4xx"))),
  "/admin/newsletter": adminPage(post({ intent: "remove", id: "999999" }, adminOnly("4xx"))),
  "/admin/notifications": adminPage(),
  "/admin/reports.csv": { get: adminOnly(200) },
  "/admin/newsletter.csv": { get: adminOnly(200) },
  // A preview for admins; while maintenance is off nobody else has anything to see there.
  "/maintenance": { get: { anonymous: 404, customerA: 404, customerB: 404, admin: 200 } },
};

const pages = flattenRoutes().filter((route) => !route.layout);

/**
 * The zod schema each admin action parses its form with, by route: the one place the intents come from.
 * Route modules do not export their schemas (an export would reach the browser's bundle), so a check below
 * reads each admin route module and fails when one has an action missing here or names another schema.
 */
const ADMIN_ACTIONS: Record<string, Record<string, ZodType>> = {
  "/admin/orders": { decideOrderSchema },
  "/admin/services": { serviceActionSchema },
  // The panel side's actions, and beside them the server's (power, a game setting, a new password).
  "/admin/services/:id/panel": { servicePanelActionSchema, staffServerControlSchema },
  "/admin/settings/game-panel": { gamePanelActionSchema },
  "/admin/clients": { clientActionSchema },
  "/admin/users": { clientActionSchema },
  "/admin/clients/:id": { clientPageActionSchema },
  "/admin/tickets/:id": { adminTicketActionSchema },
  "/admin/announcements": { announcementActionSchema },
  "/admin/products": { productActionSchema },
  "/admin/promotions": { voucherActionSchema },
  // The methods' list, and beside it the online providers' forms.
  "/admin/gateways": { paymentMethodActionSchema, providerSettingsActionSchema },
  "/admin/top-ups": { topUpDecisionSchema },
  "/admin/security": { securityActionSchema },
  "/admin/staff": { staffActionSchema },
  "/admin/account": { twoFactorActionSchema },
  "/admin/automation": { automationActionSchema },
  "/admin/settings": { settingsActionSchema },
  "/admin/contact-messages": { contactActionSchema },
  "/admin/newsletter": { subscriberActionSchema },
  "/admin/notifications": { notificationActionSchema },
};

/** The values a form schema accepts for `intent` (a discriminated union, an object, or either behind a preprocess). */
function intentsOf(schema: ZodType): string[] {
  const zod = (schema as unknown as { _zod: ZodInternals })._zod;
  const values = zod.propValues?.intent ?? (zod.def.out && intentsOf(zod.def.out));
  if (!values || [...values].length === 0) throw new Error("a schema without intents");
  return [...values].map(String);
}
interface ZodInternals {
  propValues?: Record<string, Set<unknown>>;
  def: { out?: ZodType };
}

/**
 * Tables a request writes by design whatever its answer, left out of the "changes nothing" checks, each
 * with its reason. Every other table of the schema (read from the database, not listed) is compared.
 */
const WRITTEN_BY_DESIGN: Record<string, string> = {
  login_attempts:
    "every sign-in attempt is recorded before the password is checked, refused ones too",
  sessions: "signing in and out creates and ends sessions",
  form_rate_windows:
    "the per-address form limit counts every public-form post, answered or refused",
};
/**
 * Derived caches a read fills: a GET of /admin/transactions sums closed days once into these (they are
 * emptied at no loss, docs/money.md). Rows may be added to them by any request; a row changed or removed
 * is still a change, so a request that rewrote a day's totals would fail the check.
 */
const FILLED_BY_READS = ["ledger_days", "ledger_day_totals"];

function missingRowMessage(route: FlatRoute): string {
  const helper = route.pattern.startsWith("/admin") ? "adminPage()" : "publicPage()";
  return (
    `Route "${route.pattern}" (id ${route.id}, file app/${route.file}) has no row in ROUTES of ` +
    `tests/integration/authorization-matrix.test.ts. Add one saying who may do what, e.g.\n` +
    `  "${route.pattern}": ${helper},`
  );
}

it("has a row for every route of app/routes.ts, and no row for a route that is gone", () => {
  const missing = pages.filter((route) => !ROUTES[route.pattern]);
  expect(missing.map(missingRowMessage), "routes without a row").toEqual([]);
  const patterns = new Set(pages.map((route) => route.pattern));
  const stale = Object.keys(ROUTES).filter((pattern) => !patterns.has(pattern));
  expect(stale, "rows for routes that app/routes.ts no longer has").toEqual([]);
});

const STACK_TRACE = /\bat [^\s]+ \(?[^\s)]+\.(?:ts|tsx|js|mjs):\d+/;

describeEachDatabase("authorization matrix", (app) => {
  let fetchApp: AppFetch;
  let seed: Seed;
  const cookies = {} as Record<Role, string | undefined>;
  // What only customer A's own pages may show.
  const A_MARKERS = {
    name: "Alice Matrixowner",
    server: "alice-secret-server",
    subject: "alice private subject",
    message: "alice private message body",
    staffReply: "staff answer for alice only",
  };

  async function login(email: string, password: string): Promise<string> {
    const result = await signIn(
      app(),
      { email, password },
      { ip: "10.40.0.1" },
      { ipPerMinute: 1_000_000 },
    );
    if (!result.ok) throw new Error(`sign in failed for ${email}`);
    return cookieHeader(result.setCookies);
  }

  async function emailOf(userId: string): Promise<string> {
    const row = await app()
      .db.selectFrom("users")
      .select("email")
      .where("id", "=", userId)
      .executeTakeFirstOrThrow();
    return row.email;
  }

  async function freshCookie(role: Role): Promise<string | undefined> {
    if (role === "anonymous") return undefined;
    if (role === "admin") return login(TEST_ADMIN.email, TEST_ADMIN.password);
    const email = role === "customerA" ? seed.a.email : await emailOf(customerB);
    return login(email, "Buyer-pw-8842");
  }

  let customerB: string;

  beforeAll(async () => {
    const services = app();
    fetchApp = appFetch(services);
    const admin = await adminId(services);
    const a = await customerWithCoins(services, 100_000);
    customerB = await customerWithCoins(services, 100_000);
    await services.db
      .updateTable("users")
      .set({ name: A_MARKERS.name })
      .where("id", "=", a)
      .execute();
    const product = await productId(services, "samp-starter");
    const order = await placeOrder(
      services.db,
      a,
      orderInput({ productId: product, serverName: A_MARKERS.server }),
    );
    if (!order.ok) throw new Error(order.error);
    const approved = await approveOrder(services.db, { orderId: order.order.id, actorId: admin });
    if (!approved.ok) throw new Error(approved.error);
    const pending = await placeOrder(
      services.db,
      a,
      orderInput({ productId: product, serverName: A_MARKERS.server }),
    );
    if (!pending.ok) throw new Error(pending.error);
    const service = await services.db
      .selectFrom("hosting_services")
      .select("id")
      .where("user_id", "=", a)
      .executeTakeFirstOrThrow();
    const ticket = await openTicket(services.db, {
      userId: a,
      department: "technical",
      subject: A_MARKERS.subject,
      priority: "medium",
      message: A_MARKERS.message,
      serviceId: Number(service.id),
    });
    if (!ticket.ok) throw new Error(ticket.error);
    // The staff reply leaves A an unread notification.
    await staffReply(services.db, {
      actorId: admin,
      ticketId: ticket.ticket.id,
      message: A_MARKERS.staffReply,
    });
    seed = {
      a: {
        id: a,
        email: await emailOf(a),
        orderId: order.order.id,
        pendingOrderId: pending.order.id,
        serviceId: Number(service.id),
        invoiceNumber: (
          await services.db
            .selectFrom("invoices")
            .select("number")
            .where("order_id", "=", order.order.id)
            .executeTakeFirstOrThrow()
        ).number,
      },
      ticketId: ticket.ticket.id,
    };
    for (const role of ROLES) cookies[role] = await freshCookie(role);
  });

  function expectAnswer(response: Response, expected: Answer, url: string, what: string) {
    const location = response.headers.get("location");
    const seen = location ? `${response.status} → ${location}` : String(response.status);
    if (typeof expected === "number") {
      expect(seen, what).toBe(String(expected));
    } else if (expected === "4xx") {
      expect(response.status, `${what} (got ${seen})`).toBeGreaterThanOrEqual(400);
      expect(response.status, `${what} (got ${seen})`).toBeLessThan(500);
    } else if (expected === "login") {
      expect(seen, what).toBe(`302 → /login?redirectTo=${encodeURIComponent(url)}`);
    } else {
      const [status, target] = expected.startsWith("→")
        ? ["302", expected.slice(1)]
        : expected.split("→");
      expect(seen, what).toBe(`${status} → ${target}`);
    }
  }

  /** Never a 5xx or a stack trace; nothing of A's for anyone but A and the admin. */
  async function expectClean(response: Response, role: Role, what: string) {
    expect(response.status, `${what}: server error`).toBeLessThan(500);
    const body = await response.text();
    expect(body, `${what}: stack trace in the answer`).not.toMatch(STACK_TRACE);
    if (role === "anonymous" || role === "customerB") {
      for (const [field, marker] of Object.entries(A_MARKERS))
        expect(body.includes(marker), `${what}: shows customer A's ${field}`).toBe(false);
      expect(body.includes(seed.a.email), `${what}: shows customer A's email`).toBe(false);
    }
  }

  const fingerprint = () => schemaSnapshot(app().db, { skip: Object.keys(WRITTEN_BY_DESIGN) });
  const expectUnchanged = (before: SchemaSnapshot, after: SchemaSnapshot, what: string) =>
    expect(snapshotChanges(before, after, { growOnly: FILLED_BY_READS }), what).toEqual([]);

  it("compares every table of the schema but those named with a reason", async () => {
    const tables = await schemaTables(app().db);
    for (const table of ["users", "orders", "coin_ledger", ...FILLED_BY_READS])
      expect(tables).toContain(table);
    for (const table of Object.keys(WRITTEN_BY_DESIGN)) expect(tables).toContain(table);
    expect(Object.keys(await fingerprint()).sort()).toEqual(
      tables.filter((table) => !(table in WRITTEN_BY_DESIGN)),
    );
  });

  it("lists the form schema of every admin action, as its route module names it", async () => {
    const withAction: string[] = [];
    for (const route of pages.filter((r) => r.pattern.startsWith("/admin"))) {
      const module = await routeModule(route.file);
      if (typeof module.action !== "function") continue;
      withAction.push(route.pattern);
      const entry = ADMIN_ACTIONS[route.pattern];
      expect(
        entry,
        `${route.pattern} has an action: add its schema to ADMIN_ACTIONS`,
      ).toBeDefined();
      const source = readFileSync(
        path.resolve(import.meta.dirname, "../../app", route.file),
        "utf8",
      );
      // A list with an editor names its list; the list's entry in app/http/list-editor.server.ts
      // names the schema.
      const list = /\blistEditorAction\([^;]*"(\w+)"\)/.exec(source)?.[1];
      // A page that also has forms of its own beside its list names their schema in an adminAction.
      for (const [name, schema] of Object.entries(entry!))
        if (list && Object.keys(entry!)[0] === name)
          expect(listActionSchema(list as ListArea), `the "${list}" list parses with ${name}`).toBe(
            schema,
          );
        else
          expect(source, `app/${route.file} parses its form with ${name}`).toMatch(
            new RegExp(`\\badmin(?:Form|Action)\\([^)]*\\b${name}\\b`),
          );
    }
    expect(Object.keys(ADMIN_ACTIONS).sort()).toEqual(withAction.sort());
  });

  it("refuses every intent of every admin action to customers and visitors, changing nothing", async () => {
    for (const [pattern, entry] of Object.entries(ADMIN_ACTIONS)) {
      const url = ROUTES[pattern]?.url?.(seed) ?? pattern;
      const before = await fingerprint();
      for (const intent of Object.values(entry).flatMap(intentsOf)) {
        // The intent with A's real ids in every field an admin form names them by: an action whose
        // guard were missing would act on them.
        const form = {
          intent,
          id: "1",
          orderId: String(seed.a.pendingOrderId),
          serviceId: String(seed.a.serviceId),
          userId: seed.a.id,
          amount: "5",
          reason: "probe",
          message: "probe",
          status: "closed",
          priority: "high",
          idempotencyKey: randomUUID(),
        };
        for (const role of ["anonymous", "customerA", "customerB"] as const) {
          const what = `POST ${url} ${JSON.stringify(form)} as ${role}`;
          const response = await fetchApp(url, { cookie: cookies[role], form });
          expectAnswer(response, adminOnly("4xx")[role], url, what);
          await expectClean(response, role, what);
        }
      }
      expectUnchanged(before, await fingerprint(), `POSTs to ${pattern} by non-admins`);
    }
  });

  for (const route of pages) {
    it(`${route.pattern} (${route.id})`, async () => {
      const row = ROUTES[route.pattern];
      if (!row) throw new Error(missingRowMessage(route));
      const url = row.url?.(seed) ?? route.pattern;
      const module = await routeModule(route.file);

      // GET, as a page and as the .data request the browser makes when it navigates.
      const before = await fingerprint();
      for (const role of ROLES) {
        const what = `GET ${url} as ${role}`;
        const response = await fetchApp(url, { cookie: cookies[role] });
        expectAnswer(response, row.get[role], url, what);
        await expectClean(response, role, what);
        const [path, search] = url.split("?");
        const dataPath = `${dataUrl(path!)}${search ? `?${search}` : ""}`;
        const data = await fetchApp(dataPath, { cookie: cookies[role] });
        await expectClean(data, role, `GET ${dataPath} as ${role}`);
      }
      // One fingerprint per request from here: each refusal is compared with the state before it.
      let known = await fingerprint();
      expectUnchanged(before, known, `GET ${url} changed the database`);

      // POST: the row's forms, or for a route without an action a 405 to everyone.
      const hasAction = typeof module.action === "function";
      const posts = row.post ?? (hasAction ? [PROBE] : []);
      if (hasAction)
        expect(posts.length, `${route.pattern} has an action: give its row a POST`).toBeGreaterThan(
          0,
        );
      const checks: Post[] = hasAction ? posts : [post({ intent: "matrix-probe" }, everyone(405))];
      for (const check of checks) {
        for (const role of ROLES) {
          const what = `POST ${url} ${JSON.stringify(check.form(seed))} as ${role}`;
          const cookie = check.freshSession ? await freshCookie(role) : cookies[role];
          const response = await fetchApp(url, { cookie, form: check.form(seed) });
          expectAnswer(response, check.answers[role], url, what);
          await expectClean(response, role, what);
          const refused =
            response.status >= 400 ||
            /^\/(login\?|$)/.test(response.headers.get("location") ?? "-");
          const now = await fingerprint();
          if (refused && !check.freshSession)
            expectUnchanged(known, now, `${what} was refused but changed the database`);
          known = now;
        }
      }
    });
  }

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
    // A's server's page and its state.
    await attempt("customerB", `/dashboard/services/${serviceId}`, undefined, 404);
    await attempt("customerB", `/dashboard/services/${serviceId}/status`, undefined, 404);
    await attempt("customerB", `/admin/services/${serviceId}/panel/status`, undefined, "→/");
    // A's own view shows them (the markers are real), so the checks above could fail.
    const own = await fetchApp(`/support/${ticket}`, { cookie: cookies.customerA });
    expect(await own.text()).toContain(A_MARKERS.message);
    const ownDashboard = await fetchApp("/dashboard/services", { cookie: cookies.customerA });
    expect(await ownDashboard.text()).toContain(A_MARKERS.server);
  });

  it("B cannot change A's service, ticket, notifications, session, account or orders", async () => {
    const { serviceId, pendingOrderId, id } = seed.a;
    const ticket = seed.ticketId;
    const key = () => randomUUID();
    // A fresh unread notification for A (the matrix above opened A's list, which marks it read).
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
  });

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
