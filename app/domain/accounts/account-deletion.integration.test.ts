import { expect, it } from "vitest";
import { getCurrentSession, signIn } from "~/domain/accounts/accounts.server";
import { adjustCoins } from "~/domain/coins/coins.server";
import { changeServiceStatus } from "~/domain/hosting-services/admin-changes.server";
import { rejectOrder } from "~/domain/orders/orders.server";
import { submitContactMessage, subscribeToNewsletter } from "~/domain/site/site.server";
import { staffReply } from "~/domain/tickets/tickets.server";
import * as clients from "~/routes/admin/clients";
import * as dashboard from "~/routes/dashboard/account";
import { signedInCustomer } from "../../../tests/support/account-fixtures";
import {
  adminId,
  asAdmin,
  approvedOrder,
  expectLedgerIntact,
  placedOrder,
  productId,
} from "../../../tests/support/money-fixtures";
import { readRow, readRows } from "../../../tests/support/read-column";
import { cookieHeader, postAction } from "../../../tests/support/request-context";
import { refusal } from "../../../tests/support/results";
import { openedTicket } from "../../../tests/support/ticket-fixtures";
import { atOnce, describeEachDatabase, TEST_ADMIN } from "../../../tests/support/test-database";
import {
  cancelAccountDeletion,
  completeAccountDeletion,
  deletedUserEmail,
  pendingDeletionRequest,
  requestAccountDeletion,
} from "./account-deletion.server";
import { DELETED_USER_NAME } from "./user-admin";
import { searchUsers } from "./user-directory.server";

const PASSWORD = "Leaving-pw-3391";
let counter = 0;

describeEachDatabase("account deletion", (app, dialect) => {
  const email = () => `leaver${Date.now()}${counter++}@example.com`;

  /** A customer signed in twice, holding 50 coins (credited through the ledger). */
  async function leaver() {
    const address = email();
    const customer = await signedInCustomer(
      app(),
      { name: "Lea Leaver", email: address, password: PASSWORD },
      ["10.70.0.1", "10.70.0.2"],
    );
    const credit = await adjustCoins(app().db, {
      userId: customer.userId,
      amountCents: 5000,
      reason: "test credit",
      actorId: await adminId(app()),
    });
    if (!credit.ok) throw new Error(credit.error);
    return customer;
  }

  const ask = (userId: string, currentPassword = PASSWORD, ip = "10.70.0.1") =>
    requestAccountDeletion(app().db, { userId, currentPassword, ip }, { ipPerMinute: 1_000 });

  const audit = (userId: string) =>
    readRows(
      app().db,
      "audit_log",
      ["action", "actor_id", "before", "after"],
      { target_type: "user", target_id: userId },
      "id",
    );

  async function adminCookie() {
    const result = await signIn(app(), TEST_ADMIN, { ip: "10.70.0.9" });
    if (!result.ok) throw new Error("admin sign in failed");
    return cookieHeader(result.setCookies);
  }

  it("asks with the current password: a wrong one is refused, a second request too, then cancelled", async () => {
    const { userId } = await leaver();
    expect(await ask(userId, "not-my-password")).toEqual({
      ...refusal("invalid", "dashboard.account.currentPasswordWrong"),
      field: "currentPassword",
    });
    expect(await pendingDeletionRequest(app().db, userId)).toBeNull();
    // The wrong password counted as a failed login of that email from that address.
    const failed = await readRows(app().db, "login_attempts", ["succeeded"], {
      ip_address: "10.70.0.1",
      succeeded: 0,
    });
    expect(failed.length).toBeGreaterThan(0);

    const asked = await ask(userId);
    expect(asked).toMatchObject({
      ok: true,
      activeServices: 0,
      pendingOrders: 0,
      balanceCents: 5000,
    });
    expect(await ask(userId)).toEqual(
      refusal("conflict", "dashboard.deletion.errors.alreadyRequested"),
    );
    const pending = await pendingDeletionRequest(app().db, userId);
    expect(pending).toMatchObject({ activeServices: 0, pendingOrders: 0, balanceCents: 5000 });

    expect(await cancelAccountDeletion(app().db, { userId })).toEqual({ ok: true });
    expect(await pendingDeletionRequest(app().db, userId)).toBeNull();
    expect(await cancelAccountDeletion(app().db, { userId })).toEqual(
      refusal("notFound", "dashboard.deletion.errors.noRequest"),
    );
    // Asked again after cancelling: a new pending request, the old one kept as cancelled.
    expect((await ask(userId)).ok).toBe(true);
    const rows = await readRows(
      app().db,
      "account_deletion_requests",
      ["status", "decided_by"],
      { user_id: userId },
      "id",
    );
    expect(rows).toEqual([
      { status: "cancelled", decided_by: userId },
      { status: "pending", decided_by: null },
    ]);
    const actions = (await audit(userId)).map((entry) => [entry.action, entry.actor_id]);
    expect(actions).toEqual([
      ["coins.adjust", await adminId(app())],
      ["account.deletion_request", userId],
      ["account.deletion_cancel", userId],
      ["account.deletion_request", userId],
    ]);
    // No name or address in the entries.
    for (const entry of await audit(userId))
      expect(`${entry.before}${entry.after}`).not.toMatch(/leaver|Lea/);
  });

  it(atOnce(dialect, "lets two requests race into one pending row"), async () => {
    const { userId } = await leaver();
    const results = await Promise.all([ask(userId), ask(userId), ask(userId)]);
    expect(results.filter((r) => r.ok)).toHaveLength(1);
    for (const refused of results.filter((r) => !r.ok))
      expect(refused).toMatchObject({ kind: "conflict" });
    const pending = await readRows(app().db, "account_deletion_requests", ["id"], {
      user_id: userId,
      status: "pending",
    });
    expect(pending).toHaveLength(1);
  });

  it("refuses an admin's request, whatever the password", async () => {
    const admin = await adminId(app());
    expect(await ask(admin, TEST_ADMIN.password)).toEqual(
      refusal("forbidden", "dashboard.deletion.errors.admin"),
    );
  });

  it("completes: anonymised, signed out, cannot sign in; ledger, orders, services and tickets kept", async () => {
    const { db, admin } = await asAdmin(app());
    const customer = await leaver();
    const { userId } = customer;
    const product = await productId(app(), "samp-starter");
    const { approved } = await approvedOrder(app(), userId, { productId: product });
    const pendingOrder = await placedOrder(app(), userId, { productId: product });
    const ticket = await openedTicket(app(), userId, { message: "my own words" });
    await staffReply(db, { actorId: admin, ticketId: ticket.id, message: "staff answer" });
    await subscribeToNewsletter(db, customer.email.toUpperCase());
    await submitContactMessage(db, {
      name: "Lea",
      email: customer.email.toUpperCase(),
      subject: "Hi",
      message: "Hello",
    });
    await submitContactMessage(db, {
      name: "Someone else",
      email: "other@example.com",
      subject: "Hi",
      message: "Hello",
    });

    const asked = await ask(userId);
    expect(asked).toMatchObject({ ok: true, activeServices: 1, pendingOrders: 1 });

    // Listed with its badge, and under the filter.
    const listed = await searchUsers(db, { q: customer.email, page: 1, deletion: "requested" });
    expect(listed.users.map((u) => [u.id, Boolean(u.deletionRequestedAt)])).toEqual([
      [userId, true],
    ]);
    expect(listed.total).toBe(1);

    // Still running: refused until the admin ends the service and decides the order.
    expect(await completeAccountDeletion(db, { userId, actorId: admin })).toMatchObject({
      ok: false,
      kind: "conflict",
      reason: "admin.users.errors.deletionOutstanding",
      activeServices: 1,
      pendingOrders: 1,
    });
    const terminated = await changeServiceStatus(db, {
      actorId: admin,
      serviceId: approved.hostingServiceId!,
      action: "terminate",
    });
    expect(terminated.ok).toBe(true);
    const rejected = await rejectOrder(db, {
      orderId: pendingOrder.id,
      actorId: admin,
      reason: "account deletion",
    });
    expect(rejected.ok).toBe(true);

    const before = await readRow(db, "users", "*", { id: userId });
    // What the deletion keeps, unchanged: the ledger, orders, services, ticket messages (author kept).
    const kept = async () => ({
      ledger: await readRows(db, "coin_ledger", "*", { user_id: userId }, "id"),
      orders: await db.selectFrom("orders").selectAll().where("user_id", "=", userId).execute(),
      services: await readRows(db, "hosting_services", "*", { user_id: userId }),
      messages: await readRows(db, "ticket_messages", "*", { ticket_id: ticket.id }, "id"),
    });
    const keptBefore = await kept();

    const done = await completeAccountDeletion(db, { userId, actorId: admin });
    expect(done).toMatchObject({
      ok: true,
      erased: { sessions: 2, newsletter: 1, contactMessages: 1 },
    });

    // Anonymised: placeholder name, unique undeliverable address; balance left as the ledger says.
    const after = await readRow(db, "users", "*", { id: userId });
    expect(after).toMatchObject({
      status: "deleted",
      name: DELETED_USER_NAME,
      email: deletedUserEmail(userId),
      coin_balance_cents: before.coin_balance_cents,
    });
    expect(after.email).not.toContain(customer.email);
    // Gone: credentials, sessions, newsletter, the contact message from that address, login attempts.
    const none = async (table: "accounts" | "sessions" | "notifications") =>
      db.selectFrom(table).select("user_id").where("user_id", "=", userId).execute();
    expect(await none("accounts")).toEqual([]);
    expect(await none("sessions")).toEqual([]);
    expect(await none("notifications")).toEqual([]);
    const noneFrom = async (table: "newsletter_subscribers" | "login_attempts") =>
      db.selectFrom(table).select("id").where("email", "=", customer.email).execute();
    expect(await noneFrom("newsletter_subscribers")).toEqual([]);
    const contacts = await db.selectFrom("contact_messages").select("email").execute();
    expect(contacts.map((c) => c.email.toLowerCase())).not.toContain(customer.email);
    expect(contacts.map((c) => c.email)).toContain("other@example.com");
    expect(await noneFrom("login_attempts")).toEqual([]);
    // Kept, unchanged (the ledger still adding up).
    expect(await kept()).toEqual(keptBefore);
    expect(keptBefore.messages.some((m) => m.author_id === userId)).toBe(true);
    await expectLedgerIntact(app());

    // Nobody signs in to it: not the old sessions, not the old address, not the placeholder.
    for (const session of customer.sessions)
      expect(await getCurrentSession(app(), session.cookie)).toBeNull();
    for (const address of [customer.email, deletedUserEmail(userId)])
      expect(
        (await signIn(app(), { email: address, password: PASSWORD }, { ip: "10.70.0.3" })).ok,
      ).toBe(false);

    // The request is closed; the audit says who asked and who completed, without name or address.
    const request = await readRow(db, "account_deletion_requests", ["status", "decided_by"], {
      user_id: userId,
    });
    expect(request).toEqual({ status: "completed", decided_by: admin });
    const entries = await audit(userId);
    const completion = entries.find((e) => e.action === "account.deletion_complete")!;
    expect(entries.find((e) => e.action === "account.deletion_request")?.actor_id).toBe(userId);
    expect(completion.actor_id).toBe(admin);
    expect(JSON.parse(completion.after!)).toMatchObject({
      status: "deleted",
      removed: { sessions: 2, newsletter: 1, contactMessages: 1 },
      kept: { orders: 2, services: 1, balanceCents: before.coin_balance_cents },
    });
    expect(`${completion.before}${completion.after}`).not.toContain(customer.email);
    expect(`${completion.before}${completion.after}`).not.toContain("Lea Leaver");

    // Done once: a second completion finds nobody; the deleted account is not listed.
    expect(await completeAccountDeletion(db, { userId, actorId: admin })).toMatchObject({
      ok: false,
      kind: "notFound",
      reason: "admin.users.errors.notFound",
    });
    expect(
      (await searchUsers(db, { q: "leaver", page: 1, deletion: "requested" })).users,
    ).not.toContainEqual(expect.objectContaining({ id: userId }));
  });

  it("completes only a pending request, and only as an admin", async () => {
    const { db, admin } = await asAdmin(app());
    const { userId } = await leaver();
    expect(await completeAccountDeletion(db, { userId, actorId: admin })).toMatchObject({
      ok: false,
      kind: "conflict",
      reason: "admin.users.errors.noDeletionRequest",
    });
    await ask(userId);
    await cancelAccountDeletion(db, { userId });
    expect(await completeAccountDeletion(db, { userId, actorId: admin })).toMatchObject({
      reason: "admin.users.errors.noDeletionRequest",
    });
    await ask(userId);
    const other = await leaver();
    expect(await completeAccountDeletion(db, { userId, actorId: other.userId })).toMatchObject({
      ok: false,
      kind: "forbidden",
      reason: "admin.users.errors.notAdmin",
    });
    expect(await pendingDeletionRequest(db, userId)).not.toBeNull();
  });

  it("through the forms: catalogue messages for bad input, the request, the admin's completion", async () => {
    const customer = await leaver();
    const cookie = customer.sessions[0]!.cookie;
    const post = async (fields: Record<string, string>) =>
      (await postAction(app(), dashboard, "/dashboard/account", fields, {
        cookie,
        ip: "10.70.0.1",
      })) as { data: Record<string, unknown>; init: { status: number } | null };

    const missing = await post({ intent: "request-deletion" });
    expect(missing.init?.status).toBe(400);
    expect(missing.data).toEqual({
      ok: false,
      form: "deletion",
      message: "dashboard.deletion.passwordRequired",
      fieldErrors: { currentPassword: "dashboard.deletion.passwordRequired" },
    });
    const wrong = await post({ intent: "request-deletion", currentPassword: "nope" });
    expect(wrong.init?.status).toBe(400);
    expect(wrong.data).toMatchObject({
      message: "dashboard.account.currentPasswordWrong",
      fieldErrors: { currentPassword: "dashboard.account.currentPasswordWrong" },
    });
    const nothingToCancel = await post({ intent: "cancel-deletion" });
    expect(nothingToCancel.init?.status).toBe(404);
    expect(nothingToCancel.data.message).toBe("dashboard.deletion.errors.noRequest");
    expect(await post({ intent: "request-deletion", currentPassword: PASSWORD })).toEqual({
      ok: true,
      form: "deletion",
      message: "dashboard.deletion.requested",
    });
    const again = await post({ intent: "request-deletion", currentPassword: PASSWORD });
    expect(again.init?.status).toBe(409);

    const admin = await adminCookie();
    const complete = (userId: string) =>
      postAction(
        app(),
        clients,
        "/admin/clients",
        { intent: "complete-deletion", userId },
        {
          cookie: admin,
        },
      );
    const unknown = (await complete("no-such-user")) as {
      data: Record<string, unknown>;
      init: { status: number };
    };
    expect(unknown.init.status).toBe(404);
    expect(unknown.data).toMatchObject({
      ok: false,
      intent: "complete-deletion",
      message: "admin.users.completeDeletionFailed",
      reason: "admin.users.errors.notFound",
    });
    const blank = (await complete("")) as {
      data: Record<string, unknown>;
      init: { status: number };
    };
    expect(blank.init.status).toBe(400);
    expect(blank.data.message).toBe("admin.users.completeDeletionFailed");
    expect(await complete(customer.userId)).toEqual({
      ok: true,
      intent: "complete-deletion",
      userId: customer.userId,
      message: "admin.users.deletionCompleted",
    });
    expect(await getCurrentSession(app(), cookie)).toBeNull();
    await expectLedgerIntact(app());
  });
});
