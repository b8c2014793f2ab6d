import { beforeAll, expect } from "vitest";
import type { AppServices } from "~/context.server";
import { signIn } from "~/domain/accounts/accounts.server";
import { PERMISSIONS, type Permission } from "~/domain/staff/permissions";
import { approveOrder, placeOrder } from "~/domain/orders/orders.server";
import { openTicket, staffReply } from "~/domain/tickets/tickets.server";
import en from "~/i18n/locales/en/admin-staff.json";
import { appFetch, type AppFetch } from "../support/app-harness";
import { adminId, customerWithCoins, orderInput, productId } from "../support/money-fixtures";
import { cookieHeader } from "../support/request-context";
import { schemaSnapshot, snapshotChanges, type SchemaSnapshot } from "../support/schema-snapshot";
import { TEST_ADMIN } from "../support/test-database";
import {
  FILLED_BY_READS,
  ROLES,
  STAFF_COLUMNS,
  WRITTEN_BY_DESIGN,
  type Answer,
  type Role,
  type Seed,
} from "./authorization-matrix-rows";
import { staffAccount } from "../support/staff-members";

/** Who signs in for a column: a role of the matrix, or a member of the staff whose role is missing. */
export type Signer = Role | "noRole";

const STACK_TRACE = /\bat [^\s]+ \(?[^\s)]+\.(?:ts|tsx|js|mjs):\d+/;

// What only customer A's own pages may show.
export const A_MARKERS = {
  name: "Alice Matrixowner",
  server: "alice-secret-server",
  subject: "alice private subject",
  message: "alice private message body",
  staffReply: "staff answer for alice only",
};

/** A permission's name as the English catalogue says it (admin-staff.json, its `permissions` group). */
export function permissionLabel(permission: Permission): string {
  const [area, action] = permission.split(".") as [string, string];
  const group = (en.permissions as Record<string, Record<string, string>>)[area];
  const label = group?.[action];
  if (!label) throw new Error(`no English label for ${permission}`);
  return label;
}

/**
 * The authorization matrix's world on one database, made in a `beforeAll` of the calling describe:
 * customer A with an order, a pending order, a service, a ticket with the staff's reply and an invoice;
 * customer B; a member of the staff of each role (the owner being TEST_ADMIN; the others registered
 * accounts made staff, as the staff page makes them) and one whose role is missing; each signed in.
 * With it, the checks every matrix test makes of an answer.
 */
export function matrixWorld(app: () => AppServices) {
  let fetchApp: AppFetch;
  let seed: Seed;
  let customerB = "";
  const cookies = {} as Record<Signer, string | undefined>;
  const accounts = {} as Record<Signer, { email: string; password: string } | undefined>;

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

  /** A new session of `who`'s (none for an anonymous visitor). */
  async function freshCookie(who: Signer): Promise<string | undefined> {
    const account = accounts[who];
    return account ? login(account.email, account.password) : undefined;
  }

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
    const customerPassword = "Buyer-pw-8842";
    accounts.customerA = { email: seed.a.email, password: customerPassword };
    accounts.customerB = { email: await emailOf(customerB), password: customerPassword };
    accounts.owner = TEST_ADMIN;
    for (const role of STAFF_COLUMNS.filter((column) => column !== "owner"))
      accounts[role] = await staffAccount(services, role);
    accounts.noRole = await staffAccount(services, null);
    for (const who of [...ROLES, "noRole"] as const) cookies[who] = await freshCookie(who);
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

  /** Never a 5xx or a stack trace; nothing of A's for anyone but A and the staff. The body, read. */
  async function expectClean(response: Response, role: Signer, what: string): Promise<string> {
    expect(response.status, `${what}: server error`).toBeLessThan(500);
    const body = await response.text();
    expect(body, `${what}: stack trace in the answer`).not.toMatch(STACK_TRACE);
    if (role === "anonymous" || role === "customerB") {
      for (const [field, marker] of Object.entries(A_MARKERS))
        expect(body.includes(marker), `${what}: shows customer A's ${field}`).toBe(false);
      expect(body.includes(seed.a.email), `${what}: shows customer A's email`).toBe(false);
    }
    return body;
  }

  /**
   * A 403 of the guard: a page inside the admin shell (its menu and the member's address) naming the
   * permission by its English label and its key, or for a JSON or file answer the refusal itself.
   */
  function expectRefusal(
    response: Response,
    body: string,
    permission: Permission,
    who: Signer,
    what: string,
  ) {
    expect(response.status, what).toBe(403);
    const type = response.headers.get("content-type") ?? "";
    if (type.startsWith("application/json")) {
      expect(JSON.parse(body), what).toMatchObject({ refused: "permission", permission });
      return;
    }
    expect(type, what).toMatch(/^text\/html/);
    expect(body, `${what}: the refusal`).toContain('aria-labelledby="permission-refused"');
    expect(body, `${what}: the permission's name`).toContain(`“${permissionLabel(permission)}”`);
    expect(body, `${what}: the permission's key`).toMatch(
      new RegExp(`<code[^>]*>${permission.replace(".", "\\.")}</code>`),
    );
    // No other permission is named.
    for (const other of PERMISSIONS.filter((p) => p !== permission))
      expect(body, `${what}: names ${other}`).not.toMatch(
        new RegExp(`<code[^>]*>${other.replace(".", "\\.")}</code>`),
      );
    expect(body, `${what}: inside the admin shell`).toContain('<nav aria-label="Admin Panel"');
    expect(body, `${what}: the member's own address`).toContain(accounts[who]!.email);
  }

  const fingerprint = () => schemaSnapshot(app().db, { skip: Object.keys(WRITTEN_BY_DESIGN) });
  const expectUnchanged = (before: SchemaSnapshot, after: SchemaSnapshot, what: string) =>
    expect(snapshotChanges(before, after, { growOnly: FILLED_BY_READS }), what).toEqual([]);

  return {
    fetchApp: ((path, init) => fetchApp(path, init)) as AppFetch,
    seed: () => seed,
    customerB: () => customerB,
    cookies,
    freshCookie,
    expectAnswer,
    expectClean,
    expectRefusal,
    fingerprint,
    expectUnchanged,
  };
}
