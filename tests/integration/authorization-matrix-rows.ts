import { discordSettingsSchema } from "~/domain/discord/discord.schemas";
import type { ZodType } from "zod";
import type { Permission } from "~/domain/staff/permissions";
import { clientActionSchema } from "~/domain/accounts/user-admin.schemas";
import { clientPageActionSchema } from "~/domain/clients/clients.schemas";
import { securityActionSchema } from "~/domain/accounts/security-admin.schemas";
import { twoFactorActionSchema } from "~/domain/accounts/two-factor.schemas";
import { automationActionSchema } from "~/domain/jobs/jobs.schemas";
import { announcementActionSchema } from "~/domain/announcements/announcements.schemas";
import { kbActionSchema } from "~/domain/knowledgebase/knowledgebase.schemas";
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
import { voucherActionSchema } from "~/domain/promotions/promotions.schemas";
import { settingsActionSchema } from "~/domain/settings/settings.schemas";
import { staffActionSchema } from "~/domain/staff/staff.schemas";
import { viewAsStartSchema } from "~/domain/staff/view-as.schemas";
import { adminTicketActionSchema } from "~/domain/tickets/tickets.schemas";
import { cannedReplyActionSchema } from "~/domain/tickets/canned-replies.schemas";
import { affiliatesActionSchema } from "~/domain/referrals/referrals.schemas";
import { campaignActionSchema, newCampaignSchema } from "~/domain/campaigns/campaigns.schemas";
import { refundDecisionSchema } from "~/domain/hosting-services/cancellation.schemas";
import type { FlatRoute } from "../support/app-harness";

/**
 * The table of tests/integration/authorization-matrix.test.ts: who may do what, for every route of
 * app/routes.ts, as an anonymous visitor, customer A, customer B and a member of the staff of each role
 * (owner, billing, support, technician). Each admin row writes out what each role gets, not what
 * ROLE_PERMISSIONS would give: a wrong role table or a missing guard fails it.
 *
 * A route without a row fails the test that names it: add its row to ROUTES (one line, e.g.
 * `"/admin/products": adminPage("products.manage", staff(200, 403, 403, 403)),`).
 */

/** The staff's columns, one per role: the owner is TEST_ADMIN (an Owner since migration 0052). */
export const STAFF_COLUMNS = ["owner", "billing", "support", "technician"] as const;
export type StaffColumn = (typeof STAFF_COLUMNS)[number];
export type Role = "anonymous" | "customerA" | "customerB" | StaffColumn;
export const ROLES: Role[] = ["anonymous", "customerA", "customerB", ...STAFF_COLUMNS];

/**
 * An expected answer: a status; "4xx" for any refusal; "login" for a redirect to /login that comes back
 * to the requested URL; or "→/path" for a redirect to exactly that location (status 302 unless given, as
 * in "301→/dashboard").
 */
export type Answer = number | "4xx" | "login" | `→${string}` | `${301 | 302}→${string}`;
export type Answers = Record<Role, Answer>;

/** What the tests know about the seeded data, for URLs and forms. */
export interface Seed {
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

export interface Post {
  form: (seed: Seed) => Record<string, string>;
  answers: Answers;
  /** Run each role with a session of its own that the request may end (logout). */
  freshSession?: boolean;
}

export interface Row {
  /** The URL to request when the pattern has parameters (or to add a query string). */
  url?: (seed: Seed) => string;
  get: Answers;
  /**
   * An admin page's permission (null: any member of the staff), which its 403 names to a role without
   * it. Written here, not read from the route: the refused page must name this one.
   */
  permission?: Permission | null;
  /** POSTs with plausible intents; a route without an action must answer 405 to everyone. */
  post?: Post[];
}

export const everyone = (answer: Answer): Answers => ({
  anonymous: answer,
  customerA: answer,
  customerB: answer,
  owner: answer,
  billing: answer,
  support: answer,
  technician: answer,
});
export const signedIn = (answer: Answer): Answers => ({ ...everyone(answer), anonymous: "login" });
/**
 * An admin page or post: anonymous visitors to /login, customers to /, and each role of the staff what
 * its column says (403: the guard's refusal of a permission the role lacks).
 */
export const staff = (
  owner: Answer,
  billing: Answer,
  support: Answer,
  technician: Answer,
): Answers => ({
  anonymous: "login",
  customerA: "→/",
  customerB: "→/",
  owner,
  billing,
  support,
  technician,
});
/** The same answer to every member of the staff, whatever the role (the page asks no permission). */
export const anyStaff = (answer: Answer): Answers => staff(answer, answer, answer, answer);
/** Login and registration: a signed-in visitor is sent home. */
const guestsOnly = (answer: Answer): Answers => ({
  ...everyone("→/admin"),
  anonymous: answer,
  customerA: "→/dashboard",
  customerB: "→/dashboard",
});

export const post = (form: Record<string, string>, answers: Answers): Post => ({
  form: () => form,
  answers,
});
/** An intent no action knows: a role that may post there has it refused by the action. */
const probe = (answers: Answers) => post({ intent: "matrix-probe" }, answers);

const publicPage = (...posts: Post[]): Row => ({ get: everyone(200), post: posts });
const customerPage = (...posts: Post[]): Row => ({ get: signedIn(200), post: posts });
/** An admin page: its permission, what each role gets, and its action's posts (one at least). */
const adminPage = (permission: Permission | null, get: Answers, ...posts: Post[]): Row => ({
  get,
  permission,
  post: posts.length ? posts : undefined,
});
const redirectsTo = (location: string, status: 301 | 302 = 302): Row => ({
  get: everyone(`${status}→${location}`),
  post: [],
});

const KEY = "matrix-key-0000000000000000";
const COINS = {
  intent: "coins",
  userId: "nobody",
  amount: "5",
  reason: "probe",
  idempotencyKey: "matrix-probe-coin-key",
};

// One row per route of app/routes.ts, by its full URL pattern. The staff's columns are, in order:
// staff(owner, billing, support, technician).
export const ROUTES: Record<string, Row> = {
  "/": publicPage(),
  "/services/:type": { ...publicPage(), url: () => "/services/samp" },
  "/game-hosting": publicPage(),
  "/about": publicPage(),
  "/contact": publicPage(post({ name: "", email: "x" }, everyone(400))),
  "/service-terms": publicPage(),
  "/orange-money": publicPage(),
  // The knowledge base: public, its seeded guides published at the first start.
  "/knowledgebase": publicPage(),
  "/knowledgebase/:category": { url: () => "/knowledgebase/game-servers", ...publicPage() },
  "/knowledgebase/:category/:article": {
    url: () => "/knowledgebase/game-servers/connect-samp-server",
    ...publicPage(),
  },
  // Sign in with Discord: with no Discord application configured (as here), back to the sign-in page;
  // a return from Discord without its code and state failed: a sign-in, or a link for one signed in.
  "/auth/discord": { get: everyone("→/login"), post: [post({}, everyone("→/login"))] },
  "/auth/discord/callback": {
    get: { ...everyone("→/dashboard/account?discord=failed"), anonymous: "→/login?discord=failed" },
    post: [],
  },
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
      post({ intent: "power", signal: "start" }, { ...signedIn(404), customerA: "4xx" }),
      post({ intent: "password" }, { ...signedIn(404), customerA: "4xx" }),
      post({ intent: "matrix-probe" }, signedIn(400)),
    ],
  },
  // A service's change of plan: its owner's page (A's service has no other plan offered); the form
  // names a plan no path leads to, refused for what it asks to A, and for the service to everyone else.
  "/dashboard/services/:id/plan": {
    url: (seed) => `/dashboard/services/${seed.a.serviceId}/plan`,
    get: { ...signedIn(404), customerA: 200 },
    post: [
      post(
        {
          intent: "change-plan",
          toProductId: "999999",
          idempotencyKey: KEY,
          shownAmount: "0",
          shownDirection: "upgrade",
        },
        { ...signedIn(404), customerA: 400 },
      ),
      post({ intent: "matrix-probe" }, signedIn(400)),
    ],
  },
  // Cancelling a service: its owner's page. Nothing is open on A's service, so there is nothing to
  // withdraw (409); a form that is none is refused before anything is looked up.
  "/dashboard/services/:id/cancel": {
    url: (seed) => `/dashboard/services/${seed.a.serviceId}/cancel`,
    get: { ...signedIn(404), customerA: 200 },
    post: [
      post({ intent: "withdraw" }, { ...signedIn(404), customerA: 409 }),
      post({ intent: "refund", reason: "not-a-reason" }, signedIn(400)),
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
  // The customer's referral link and rewards: its one form makes the link.
  "/dashboard/referrals": customerPage(
    post({ intent: "createLink" }, signedIn("→/dashboard/referrals")),
    probe(signedIn(400)),
  ),
  "/dashboard/top-up": customerPage(post({ intent: "cancel", requestId: "999999" }, signedIn(404))),
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
  // A proof file: its owner's and the staff's who decide top-ups (topups.decide; the others get the
  // guard's 403 before anything is looked up: tests/integration/top-up-proofs-pages.test.ts); an id
  // that is no file is the same 404 to everyone else signed in.
  "/dashboard/top-up/proofs/:id": {
    url: () => "/dashboard/top-up/proofs/999999",
    get: { ...signedIn(404), support: 403, technician: 403 },
    permission: "topups.decide",
  },
  // Its preview: to the same people as the file.
  "/dashboard/top-up/proofs/:id/thumbnail": {
    url: () => "/dashboard/top-up/proofs/999999/thumbnail",
    get: { ...signedIn(404), support: 403, technician: 403 },
    permission: "topups.decide",
  },
  // A customer's data archive: a download for its owner only, by the token its link carries; a token
  // of no archive is the same 404 to everyone signed in (tests/integration/authorization-matrix-customers
  // tries A's own link as B; app/domain/data-exports/data-exports.integration.test.ts the rest).
  "/dashboard/account/export/:token": {
    url: () => "/dashboard/account/export/MatrixProbeToken000000000000000000000000000",
    get: signedIn(404),
  },
  "/order": publicPage(
    post(
      { productId: "999999", serverName: "Matrix", idempotencyKey: KEY },
      { ...signedIn(404), anonymous: 401 },
    ),
  ),
  "/support/new": customerPage(post({ subject: "" }, signedIn(400))),
  // The articles the new-ticket page suggests, as JSON; no forms.
  "/support/new/articles": customerPage(),
  // A ticket is its customer's: the staff answer it from /admin/tickets/:id.
  "/support/:id": {
    url: (seed) => `/support/${seed.ticketId}`,
    get: { ...signedIn(404), customerA: 200 },
    post: [post({ intent: "matrix-probe" }, signedIn(400))],
  },
  // A file sent with a ticket: its customer's and the staff's who answer tickets (tickets.reply; the
  // others get the guard's 403 before anything is looked up: tests/integration/ticket-files-pages.test.ts);
  // an id that is no file is the same 404 to everyone else signed in.
  "/support/:id/files/:fileId": {
    url: (seed) => `/support/${seed.ticketId}/files/999999`,
    get: { ...signedIn(404), billing: 403, technician: 403 },
    permission: "tickets.reply",
  },
  // A document opens for its owner and the staff who read invoices; anyone else gets the 404 page.
  // Only a role that refunds may post its refund form.
  "/invoices/:number": {
    url: (seed) => `/invoices/${seed.a.invoiceNumber}`,
    get: { ...signedIn(200), customerB: 404, technician: 404 },
    post: [post({ intent: "matrix-probe" }, staff(400, 400, 403, 403))],
  },
  "/invoices/:number/pdf": {
    url: (seed) => `/invoices/${seed.a.invoiceNumber}/pdf`,
    get: { ...signedIn(200), customerB: 404, technician: 404 },
  },
  "/*": { url: () => "/no-such-page", get: everyone(404), post: [] },
  "/logout": {
    get: everyone("→/"),
    post: [{ form: () => ({}), answers: everyone("→/"), freshSession: true }],
  },
  "/notifications": { get: everyone("→/"), post: [post({}, signedIn(200))] },
  // Leaving a view of the site as a customer: a post only (a GET goes home); nobody here is viewing,
  // so a member of the staff is sent back to the admin dashboard and nothing else happens.
  "/view-as/leave": {
    get: everyone("→/"),
    post: [
      post(
        {},
        {
          anonymous: "→/login",
          customerA: "→/",
          customerB: "→/",
          owner: "→/admin",
          billing: "→/admin",
          support: "→/admin",
          technician: "→/admin",
        },
      ),
    ],
  },
  // The order form's voucher check: JSON for a signed-in customer (an unknown code is a 400 answer).
  "/order/voucher": {
    url: () => "/order/voucher?code=MATRIX&product=1",
    get: signedIn(400),
  },
  "/newsletter": { get: everyone("→/"), post: [post({ email: "not-an-email" }, everyone(400))] },
  // The newsletter's confirmation and a campaign's unsubscribe page: anyone with a link; without
  // one (or with a bad one), "this link does not work" and nothing changes.
  "/newsletter/confirm": { get: everyone(400) },
  "/unsubscribe": {
    get: everyone(400),
    post: [post({ "List-Unsubscribe": "One-Click" }, everyone(400))],
  },
  "/language": {
    get: everyone("→/"),
    post: [post({ lang: "en", redirectTo: "/about" }, everyone("→/about"))],
  },
  "/my-services": redirectsTo("/dashboard", 301),
  "/terms": redirectsTo("/service-terms", 301),
  "/privacy": publicPage(),
  "/admin": adminPage(null, anyStaff(200)),
  "/admin/orders": adminPage(
    "orders.view",
    staff(200, 200, 200, 403),
    post({ intent: "approve", orderId: "999999" }, staff(404, 404, 403, 403)),
  ),
  "/admin/services": adminPage(
    "services.view",
    anyStaff(200),
    post({ intent: "suspend", serviceId: "999999" }, staff(404, 403, 403, 404)),
  ),
  "/admin/services/:id/panel": {
    // A's service, set up by hand: nothing to retry, and no server on the panel to start.
    ...adminPage(
      "services.view",
      anyStaff(200),
      post({ intent: "retry" }, staff(409, 403, 403, 409)),
      post({ intent: "power", signal: "start" }, staff("4xx", 403, 403, "4xx")),
    ),
    url: (seed) => `/admin/services/${seed.a.serviceId}/panel`,
  },
  // Its server's state as JSON for staff: none for a service without a server on the panel.
  "/admin/services/:id/panel/status": {
    url: (seed) => `/admin/services/${seed.a.serviceId}/panel/status`,
    get: anyStaff(404),
    permission: "services.view",
  },
  "/admin/clients": adminPage(
    "clients.view",
    staff(200, 200, 200, 403),
    post(COINS, staff(404, 404, 404, 403)),
  ),
  // Viewing the site as a customer starts with a post from the client page; a GET goes back to it.
  // An id that is no account: the post is refused by the use-case and the member sent back to the page.
  "/admin/clients/:id/view-as": {
    ...adminPage(
      "clients.viewAs",
      staff("→/admin/clients/nobody", 403, "→/admin/clients/nobody", 403),
      post({ intent: "matrix-probe" }, staff(400, 403, 400, 403)),
    ),
    url: () => "/admin/clients/nobody/view-as",
  },
  "/admin/clients/:id": {
    // A note is the staff's own memo on the account: whoever reads client pages writes one.
    ...adminPage(
      "clients.view",
      staff(200, 200, 200, 403),
      post({ intent: "note", note: "" }, staff(200, 200, 200, 403)),
    ),
    url: (seed) => `/admin/clients/${seed.a.id}`,
  },
  "/admin/tickets": adminPage("tickets.reply", staff(200, 403, 200, 403)),
  "/admin/tickets/:id": {
    ...adminPage("tickets.reply", staff(200, 403, 200, 403), probe(staff("4xx", 403, "4xx", 403))),
    url: (seed) => `/admin/tickets/${seed.ticketId}`,
  },
  // The canned replies: whoever answers tickets keeps them. No reply of that id to delete.
  "/admin/tickets/replies": adminPage(
    "tickets.reply",
    staff(200, 403, 200, 403),
    post({ intent: "delete", id: "999999" }, staff(404, 403, 404, 403)),
  ),
  // The knowledge base: Owner and Support write it. No article of that id to delete.
  "/admin/knowledgebase": adminPage(
    "knowledgebase.manage",
    staff(200, 403, 200, 403),
    post({ intent: "article-delete", id: "999999" }, staff(404, 403, 404, 403)),
  ),
  "/admin/announcements": adminPage(
    "announcements.manage",
    staff(200, 403, 403, 403),
    probe(staff("4xx", 403, 403, 403)),
  ),
  "/admin/users": adminPage(
    "clients.view",
    staff(200, 200, 200, 403),
    post(COINS, staff(404, 404, 404, 403)),
  ),
  "/admin/logs": adminPage("logs.view", staff(200, 403, 403, 403)),
  "/admin/transactions": adminPage("invoices.view", staff(200, 200, 200, 403)),
  "/admin/search": adminPage(
    "clients.view",
    staff("→/admin/clients?q=", "→/admin/clients?q=", "→/admin/clients?q=", 403),
  ),
  "/admin/client-groups": adminPage("clients.view", staff(200, 200, 200, 403)),
  "/admin/invoices": adminPage("invoices.view", staff(200, 200, 200, 403)),
  "/admin/quotes": adminPage("invoices.view", staff(200, 200, 200, 403)),
  "/admin/gateways": adminPage(
    "gateways.manage",
    staff(200, 403, 403, 403),
    post({ intent: "disable", id: "999999" }, staff(404, 403, 403, 403)),
    // A provider's keys: nothing typed, refused by the form to the owner, by the guard to the rest.
    post({ intent: "provider-youcanpay" }, staff("4xx", 403, 403, 403)),
  ),
  "/admin/top-ups": adminPage(
    "topups.decide",
    staff(200, 200, 403, 403),
    post({ intent: "approve", requestId: "999999" }, staff(404, 404, 403, 403)),
    post({ intent: "refund", paymentId: "999999", amount: "1.00" }, staff(404, 404, 403, 403)),
  ),
  // Refund requests: the roles that refund invoices. No request of that id to decide.
  "/admin/refunds": adminPage(
    "invoices.refund",
    staff(200, 200, 403, 403),
    post({ intent: "approve", id: "999999" }, staff(404, 404, 403, 403)),
    post({ intent: "reject", id: "999999", reason: "probe" }, staff(404, 404, 403, 403)),
  ),
  "/admin/products": adminPage(
    "products.manage",
    staff(200, 403, 403, 403),
    probe(staff("4xx", 403, 403, 403)),
  ),
  "/admin/promotions": adminPage(
    "products.manage",
    staff(200, 403, 403, 403),
    probe(staff("4xx", 403, 403, 403)),
  ),
  // The pages to come ask the permission of their area (their menu item's).
  "/admin/domains": adminPage("products.manage", staff(200, 403, 403, 403)),
  "/admin/domain-pricing": adminPage("products.manage", staff(200, 403, 403, 403)),
  "/admin/downloads": adminPage("products.manage", staff(200, 403, 403, 403)),
  "/admin/chat": adminPage("tickets.reply", staff(200, 403, 200, 403)),
  // Referrals: Owner and Billing. No referral of that id to decide.
  "/admin/affiliates": adminPage(
    "affiliates.manage",
    staff(200, 200, 403, 403),
    post({ intent: "reject", id: "999999" }, staff(404, 404, 403, 403)),
  ),
  // Mail campaigns: the Owner's alone. An empty campaign is refused; no campaign of that id to send.
  "/admin/email-marketing": adminPage(
    "campaigns.manage",
    staff(200, 403, 403, 403),
    post({ intent: "save" }, staff(400, 403, 403, 403)),
  ),
  "/admin/email-marketing/:id": {
    ...adminPage(
      "campaigns.manage",
      staff(404, 403, 403, 403),
      post({ intent: "send" }, staff(404, 403, 403, 403)),
    ),
    url: () => "/admin/email-marketing/999999",
  },
  "/admin/reports": adminPage("reports.view", staff(200, 200, 403, 403)),
  "/admin/analytics": adminPage("reports.view", staff(200, 200, 403, 403)),
  "/admin/utilities": adminPage("settings.manage", staff(200, 403, 403, 403)),
  // Nobody of that id to remove: the owner's post reaches the use-case, which finds no one.
  "/admin/staff": adminPage(
    "staff.manage",
    staff(200, 403, 403, 403),
    post({ intent: "remove", userId: "nobody" }, staff(404, 403, 403, 403)),
  ),
  "/admin/security": adminPage(
    "settings.manage",
    staff(200, 403, 403, 403),
    probe(staff("4xx", 403, 403, 403)),
  ),
  // The member's own page: every member's. Nothing is on: nothing to turn off (the password is
  // checked before anything changes).
  "/admin/account": adminPage(
    null,
    anyStaff(200),
    post({ intent: "two-factor-disable", currentPassword: "x", code: "123456" }, anyStaff(409)),
  ),
  "/admin/automation": adminPage(
    "automation.run",
    staff(200, 403, 403, 200),
    post({ intent: "discard", id: "999999" }, staff("4xx", 403, 403, "4xx")),
    // The queue's alerts and time zone are settings.
    post({ intent: "alerts", discordWebhook: "x" }, staff("4xx", 403, 403, 403)),
  ),
  "/admin/mail": adminPage("mail.view", staff(200, 403, 200, 403)),
  "/admin/settings": adminPage(
    "settings.manage",
    staff(200, 403, 403, 403),
    probe(staff("4xx", 403, 403, 403)),
  ),
  // Ids that are not Discord's: refused with a message, never saved.
  "/admin/settings/discord": adminPage(
    "settings.manage",
    staff(200, 403, 403, 403),
    post({ intent: "role", guildId: "x", roleId: "y" }, staff(400, 403, 403, 403)),
  ),
  // No panel is saved: there is nothing to check.
  "/admin/settings/game-panel": adminPage(
    "panel.manage",
    staff(200, 403, 403, 200),
    post({ intent: "check" }, staff(400, 403, 403, 400)),
  ),
  "/admin/contact-messages": adminPage(
    "inbox.manage",
    staff(200, 403, 200, 403),
    post({ intent: "delete", id: "999999" }, staff("4xx", 403, "4xx", 403)),
  ),
  "/admin/newsletter": adminPage(
    "inbox.manage",
    staff(200, 403, 200, 403),
    post({ intent: "remove", id: "999999" }, staff("4xx", 403, "4xx", 403)),
  ),
  // The member's own notifications: every member's.
  "/admin/notifications": adminPage(null, anyStaff(200), probe(anyStaff("4xx"))),
  "/admin/reports.csv": { get: staff(200, 200, 403, 403), permission: "reports.view" },
  "/admin/newsletter.csv": { get: staff(200, 403, 200, 403), permission: "inbox.manage" },
  // A preview for the staff, whatever their role; while maintenance is off nobody else has anything
  // to see there.
  "/maintenance": { get: { ...everyone(200), anonymous: 404, customerA: 404, customerB: 404 } },
};

/**
 * The zod schema each admin action parses its form with, by route: the one place the intents come from.
 * Route modules do not export their schemas (an export would reach the browser's bundle), so a check
 * reads each admin route module and fails when one has an action missing here or names another schema.
 */
export const ADMIN_ACTIONS: Record<string, Record<string, ZodType>> = {
  "/admin/orders": { decideOrderSchema },
  "/admin/services": { serviceActionSchema },
  // The panel side's actions, and beside them the server's (power, a game setting, a new password).
  "/admin/services/:id/panel": { servicePanelActionSchema, staffServerControlSchema },
  "/admin/settings/game-panel": { gamePanelActionSchema },
  "/admin/settings/discord": { discordSettingsSchema },
  "/admin/clients": { clientActionSchema },
  "/admin/users": { clientActionSchema },
  "/admin/staff": { staffActionSchema },
  "/admin/clients/:id": { clientPageActionSchema },
  "/admin/clients/:id/view-as": { viewAsStartSchema },
  "/admin/tickets/:id": { adminTicketActionSchema },
  "/admin/tickets/replies": { cannedReplyActionSchema },
  "/admin/affiliates": { affiliatesActionSchema },
  "/admin/announcements": { announcementActionSchema },
  "/admin/knowledgebase": { kbActionSchema },
  "/admin/products": { productActionSchema },
  "/admin/promotions": { voucherActionSchema },
  // The methods' list, and beside it the online providers' forms.
  "/admin/gateways": { paymentMethodActionSchema, providerSettingsActionSchema },
  "/admin/top-ups": { topUpDecisionSchema },
  "/admin/refunds": { refundDecisionSchema },
  "/admin/security": { securityActionSchema },
  "/admin/account": { twoFactorActionSchema },
  "/admin/automation": { automationActionSchema },
  "/admin/settings": { settingsActionSchema },
  "/admin/contact-messages": { contactActionSchema },
  "/admin/newsletter": { subscriberActionSchema },
  "/admin/email-marketing": { newCampaignSchema },
  "/admin/email-marketing/:id": { campaignActionSchema },
  "/admin/notifications": { notificationActionSchema },
};

/** The values a form schema accepts for `intent` (a discriminated union, an object, or either behind a preprocess). */
export function intentsOf(schema: ZodType): string[] {
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
export const WRITTEN_BY_DESIGN: Record<string, string> = {
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
export const FILLED_BY_READS = ["ledger_days", "ledger_day_totals"];

export function missingRowMessage(route: FlatRoute): string {
  const helper = route.pattern.startsWith("/admin")
    ? 'adminPage("some.permission", staff(200, 403, 403, 403))'
    : "publicPage()";
  return (
    `Route "${route.pattern}" (id ${route.id}, file app/${route.file}) has no row in ROUTES of ` +
    `tests/integration/authorization-matrix-rows.ts. Add one saying who may do what, e.g.\n` +
    `  "${route.pattern}": ${helper},`
  );
}
