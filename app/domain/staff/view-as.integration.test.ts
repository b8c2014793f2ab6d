import { expect, it } from "vitest";
import { adminId, customerWithCoins } from "../../../tests/support/money-fixtures";
import { readRows } from "../../../tests/support/read-column";
import { cookieHeader } from "../../../tests/support/request-context";
import { refusal } from "../../../tests/support/results";
import { describeEachDatabase, TEST_ADMIN } from "../../../tests/support/test-database";
import { getCurrentSession, signIn } from "~/domain/accounts/accounts.server";
import type { StaffRole } from "./permissions";
import { endExpiredViews, endViewAs, presentSession, startViewAs } from "./view-as.server";

let counter = 0;

describeEachDatabase("viewing the site as a customer (the domain)", (app) => {
  /** A session of `email`: its cookie, id and user id. */
  async function sessionOf(email: string, password: string) {
    const result = await signIn(app(), { email, password }, { ip: "10.58.5.1" });
    if (!result.ok) throw new Error(`sign in failed for ${email}`);
    const cookie = cookieHeader(result.setCookies);
    const session = await getCurrentSession(app(), cookie);
    if (!session) throw new Error("no session");
    return { cookie, sessionId: session.sessionId, userId: session.user.id };
  }

  /** A member of the staff of `role` (a customer made staff as an owner would), signed in. */
  async function staffMember(role: StaffRole) {
    const id = await customerWithCoins(app(), 0);
    const email = `staff-${role}-${Date.now()}-${counter++}@example.com`;
    await app()
      .db.updateTable("users")
      .set({ role: "admin", staff_role: role, email })
      .where("id", "=", id)
      .execute();
    // customerWithCoins registers with its own password.
    return sessionOf(email, "Buyer-pw-8842");
  }

  const viewing = async (sessionId: string) =>
    (await readRows(app().db, "sessions", ["viewing_user_id"], { id: sessionId }))[0]
      ?.viewing_user_id ?? null;
  /** The customer's audit entries of viewing as them, oldest first. */
  const auditOf = (customerId: string) =>
    app()
      .db.selectFrom("audit_log")
      .select(["actor_id", "action", "after"])
      .where("target_id", "=", customerId)
      .where("action", "like", "viewAs.%")
      .orderBy("id")
      .execute();

  it("starts for an owner and for support, audited with the customer, and ends audited", async () => {
    const customer = await customerWithCoins(app(), 500);
    const owner = await sessionOf(TEST_ADMIN.email, TEST_ADMIN.password);
    const support = await staffMember("support");
    for (const staff of [owner, support]) {
      const started = await startViewAs(app().db, {
        sessionId: staff.sessionId,
        actorId: staff.userId,
        customerId: customer,
      });
      expect(started).toEqual({ ok: true, customerId: customer });
      expect(await viewing(staff.sessionId)).toBe(customer);
      const ended = await endViewAs(app().db, {
        sessionId: staff.sessionId,
        actorId: staff.userId,
      });
      expect(ended).toEqual({ ok: true, customerId: customer });
      expect(await viewing(staff.sessionId)).toBeNull();
      // Ending again ends nothing and audits nothing.
      expect(
        await endViewAs(app().db, { sessionId: staff.sessionId, actorId: staff.userId }),
      ).toEqual({ ok: true, customerId: null });
    }
    expect(await auditOf(customer)).toEqual([
      { actor_id: owner.userId, action: "viewAs.start", after: null },
      { actor_id: owner.userId, action: "viewAs.end", after: JSON.stringify({ via: "leave" }) },
      { actor_id: support.userId, action: "viewAs.start", after: null },
      { actor_id: support.userId, action: "viewAs.end", after: JSON.stringify({ via: "leave" }) },
    ]);
  });

  it("a view whose session expired is ended once by the housekeeping, audited as expired; a live one stays", async () => {
    const customer = await customerWithCoins(app(), 0);
    const expired = await staffMember("support");
    const live = await staffMember("support");
    for (const staff of [expired, live])
      await startViewAs(app().db, {
        sessionId: staff.sessionId,
        actorId: staff.userId,
        customerId: customer,
      });
    await app()
      .db.updateTable("sessions")
      .set({ expires_at: "2026-01-01T00:00:00.000Z" })
      .where("id", "=", expired.sessionId)
      .execute();
    const now = new Date("2026-01-02T00:00:00.000Z");
    expect(await endExpiredViews(app().db, now)).toBe(1);
    expect(await endExpiredViews(app().db, now)).toBe(0);
    expect(await viewing(expired.sessionId)).toBeNull();
    expect(await viewing(live.sessionId)).toBe(customer);
    const ends = (await auditOf(customer)).filter((entry) => entry.action === "viewAs.end");
    expect(ends).toEqual([
      { actor_id: expired.userId, action: "viewAs.end", after: JSON.stringify({ via: "expired" }) },
    ]);
  });

  it("is refused for a staff account, an unknown or deleted one, and to Billing and Technician", async () => {
    const customer = await customerWithCoins(app(), 0);
    const deleted = await customerWithCoins(app(), 0);
    await app()
      .db.updateTable("users")
      .set({ status: "deleted" })
      .where("id", "=", deleted)
      .execute();
    const owner = await sessionOf(TEST_ADMIN.email, TEST_ADMIN.password);
    const support = await staffMember("support");
    const start = (staff: { sessionId: string; userId: string }, customerId: string) =>
      startViewAs(app().db, { sessionId: staff.sessionId, actorId: staff.userId, customerId });

    expect(await start(owner, support.userId)).toEqual(
      refusal("conflict", "admin-staff.viewAs.errors.staffAccount"),
    );
    expect(await start(support, await adminId(app()))).toEqual(
      refusal("conflict", "admin-staff.viewAs.errors.staffAccount"),
    );
    expect(await start(owner, "no-such-account")).toEqual(
      refusal("notFound", "admin-staff.viewAs.errors.notFound"),
    );
    expect(await start(owner, deleted)).toEqual(
      refusal("notFound", "admin-staff.viewAs.errors.notFound"),
    );
    for (const role of ["billing", "technician"] as const) {
      const staff = await staffMember(role);
      expect(await start(staff, customer)).toEqual(
        refusal("forbidden", "admin-staff.viewAs.errors.notAllowed"),
      );
      expect(await viewing(staff.sessionId)).toBeNull();
    }
    // A customer asking for it, and a session that is not the actor's.
    const other = await sessionOf(TEST_ADMIN.email, TEST_ADMIN.password);
    expect(await start({ sessionId: other.sessionId, userId: support.userId }, customer)).toEqual(
      refusal("forbidden", "admin-staff.viewAs.errors.notAllowed"),
    );
    expect(await viewing(other.sessionId)).toBeNull();
    expect(await auditOf(customer)).toEqual([]);
    expect(await auditOf(deleted)).toEqual([]);
  });

  it("viewing another customer in the same session ends the first view, audited", async () => {
    const first = await customerWithCoins(app(), 0);
    const second = await customerWithCoins(app(), 0);
    const owner = await sessionOf(TEST_ADMIN.email, TEST_ADMIN.password);
    const start = (customerId: string) =>
      startViewAs(app().db, { sessionId: owner.sessionId, actorId: owner.userId, customerId });
    expect((await start(first)).ok).toBe(true);
    // Starting the same view again changes nothing.
    expect((await start(first)).ok).toBe(true);
    expect((await start(second)).ok).toBe(true);
    expect(await viewing(owner.sessionId)).toBe(second);
    expect(await auditOf(first)).toEqual([
      { actor_id: owner.userId, action: "viewAs.start", after: null },
      { actor_id: owner.userId, action: "viewAs.end", after: JSON.stringify({ via: "another" }) },
    ]);
    expect(await auditOf(second)).toEqual([
      { actor_id: owner.userId, action: "viewAs.start", after: null },
    ]);
  });

  it("presents the customer as the session's user, the member as its viewer, while the view holds", async () => {
    const customer = await customerWithCoins(app(), 1234);
    const support = await staffMember("support");
    await startViewAs(app().db, {
      sessionId: support.sessionId,
      actorId: support.userId,
      customerId: customer,
    });
    const presented = await presentSession(
      app().db,
      await getCurrentSession(app(), support.cookie),
    );
    expect(presented?.user).toMatchObject({
      id: customer,
      role: "user",
      staffRole: null,
      coinBalanceCents: 1234,
    });
    expect(presented?.viewer).toMatchObject({
      id: support.userId,
      role: "admin",
      staffRole: "support",
    });
    expect(presented?.sessionId).toBe(support.sessionId);

    // The role loses the permission: the session is the member's own again (nothing written).
    await app()
      .db.updateTable("users")
      .set({ staff_role: "billing" })
      .where("id", "=", support.userId)
      .execute();
    const asBilling = await presentSession(
      app().db,
      await getCurrentSession(app(), support.cookie),
    );
    expect(asBilling?.viewer).toBeNull();
    expect(asBilling?.user.id).toBe(support.userId);
    expect(await viewing(support.sessionId)).toBe(customer);

    // The customer deleted: the same.
    await app()
      .db.updateTable("users")
      .set({ staff_role: "support" })
      .where("id", "=", support.userId)
      .execute();
    await app()
      .db.updateTable("users")
      .set({ status: "deleted" })
      .where("id", "=", customer)
      .execute();
    const gone = await presentSession(app().db, await getCurrentSession(app(), support.cookie));
    expect(gone?.viewer).toBeNull();
    expect(gone?.user.id).toBe(support.userId);
  });
});
