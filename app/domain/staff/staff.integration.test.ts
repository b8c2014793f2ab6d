import { expect, it } from "vitest";
import { getCurrentSession, registerCustomer, signIn } from "~/domain/accounts/accounts.server";
import { adjustCoins } from "~/domain/coins/coins.server";
import { adminId, balanceOf } from "../../../tests/support/money-fixtures";
import { readRow, readRows } from "../../../tests/support/read-column";
import { cookieHeader } from "../../../tests/support/request-context";
import { refusal } from "../../../tests/support/results";
import { atOnce, describeEachDatabase } from "../../../tests/support/test-database";
import { ROLE_PERMISSIONS, type Permission, type StaffRole } from "./permissions";
import { addStaffMember, changeStaffRole, listStaff, removeStaffMember } from "./staff.server";

const PASSWORD = "Staff-pw-7731";
const T0 = new Date("2026-11-28T10:00:00.000Z");
let counter = 0;

describeEachDatabase("the staff and their roles", (app, dialect) => {
  /** A registered customer (in `locale`, when given): their id, email and name. */
  async function customer(name = "Future Member", locale?: string) {
    const email = `staff${Date.now()}${counter++}@example.com`;
    const result = await registerCustomer(
      app(),
      { name, email, password: PASSWORD, confirmPassword: PASSWORD },
      { registrationOpen: true },
    );
    if (!result.ok) throw new Error(result.error);
    if (locale)
      await app().db.updateTable("users").set({ locale }).where("id", "=", result.userId).execute();
    return { id: result.userId, email, name };
  }

  /** Signs `email` in from an address of its own: the session's Cookie header, or null. */
  async function login(email: string) {
    const n = counter++;
    const result = await signIn(
      app(),
      { email, password: PASSWORD },
      { ip: `10.61.${Math.floor(n / 250) % 250}.${(n % 250) + 1}` },
    );
    return result.ok ? cookieHeader(result.setCookies) : null;
  }

  /** A customer made a member of the staff with `role` by the seed Owner. */
  async function member(role: StaffRole, name?: string) {
    const person = await customer(name);
    const added = await addStaffMember(app().db, {
      actorId: await adminId(app()),
      email: person.email,
      role,
    });
    expect(added).toMatchObject({ ok: true, userId: person.id });
    return person;
  }

  const stored = (id: string) =>
    readRow(app().db, "users", ["role", "staff_role", "status", "coin_balance_cents"], { id });
  const auditOf = (id: string) =>
    readRows(
      app().db,
      "audit_log",
      ["actor_id", "action", "before", "after"],
      { target_type: "user", target_id: id },
      "id",
    );
  const staffAudit = async (id: string) =>
    (await auditOf(id))
      .filter((entry) => entry.action.startsWith("staff."))
      .map((entry) => ({
        actorId: entry.actor_id,
        action: entry.action,
        before: JSON.parse(entry.before!) as unknown,
        after: JSON.parse(entry.after!) as unknown,
      }));
  const mailOf = async (id: string) =>
    (
      await readRows(
        app().db,
        "mail_outbox",
        ["kind", "locale", "to_address", "params"],
        { user_id: id, kind: "roleChanged" },
        "id",
      )
    ).map((row) => ({ ...row, params: JSON.parse(row.params) as unknown }));
  /** The active Owners' ids. */
  const owners = async () =>
    (
      await readRows(app().db, "users", ["id"], {
        role: "admin",
        staff_role: "owner",
        status: "active",
      })
    ).map((row) => row.id);

  it("adds an account by its email: its role, the audit entry, a mail in its language, its sessions ended", async () => {
    const owner = await adminId(app());
    const person = await customer("Salma Support", "ar");
    const cookie = await login(person.email);
    expect(await getCurrentSession(app(), cookie)).toMatchObject({
      user: { role: "user", staffRole: null },
    });

    const added = await addStaffMember(app().db, {
      actorId: owner,
      email: `  ${person.email.toUpperCase()} `,
      role: "support",
      now: T0,
    });
    expect(added).toEqual({ ok: true, userId: person.id, name: "Salma Support" });
    expect(await stored(person.id)).toMatchObject({ role: "admin", staff_role: "support" });
    expect(await staffAudit(person.id)).toEqual([
      {
        actorId: owner,
        action: "staff.add",
        before: { role: "user", staffRole: null },
        after: { role: "admin", staffRole: "support", sessionsEnded: 1 },
      },
    ]);
    expect(await mailOf(person.id)).toEqual([
      {
        kind: "roleChanged",
        locale: "ar",
        to_address: person.email,
        params: { change: "added", from: null, to: "support", at: T0.toISOString() },
      },
    ]);
    // The old session is gone; signing in again gives the staff's session with the new role.
    expect(await getCurrentSession(app(), cookie)).toBeNull();
    const again = await login(person.email);
    expect(await getCurrentSession(app(), again)).toMatchObject({
      user: { id: person.id, role: "admin", staffRole: "support" },
    });
    // Listed, with the sign-in just made.
    const listed = (await listStaff(app().db)).find((each) => each.id === person.id);
    expect(listed).toMatchObject({
      name: "Salma Support",
      email: person.email,
      staffRole: "support",
      twoFactorEnabled: false,
    });
    const lastAttempt = await readRow(
      app().db,
      "login_attempts",
      ["created_at"],
      { email: person.email, succeeded: 1 },
      "id desc",
    );
    expect(listed!.lastSignInAt).toBe(new Date(lastAttempt.created_at).toISOString());
  });

  it("refuses an email no account has, and an account on the staff already, changing nothing", async () => {
    const owner = await adminId(app());
    const db = app().db;
    expect(
      await addStaffMember(db, {
        actorId: owner,
        email: "nobody-here@example.com",
        role: "billing",
      }),
    ).toEqual(refusal("notFound", "admin-staff.members.errors.noAccount"));

    const support = await member("support");
    const before = await auditOf(support.id);
    expect(
      await addStaffMember(db, { actorId: owner, email: support.email, role: "billing" }),
    ).toEqual(refusal("conflict", "admin-staff.members.errors.alreadyStaff"));
    expect(await stored(support.id)).toMatchObject({ staff_role: "support" });
    expect(await auditOf(support.id)).toEqual(before);
    // A deleted account is no account to add.
    const gone = await customer();
    await db.updateTable("users").set({ status: "deleted" }).where("id", "=", gone.id).execute();
    expect(
      await addStaffMember(db, { actorId: owner, email: gone.email, role: "billing" }),
    ).toEqual(refusal("notFound", "admin-staff.members.errors.noAccount"));
    expect(await stored(gone.id)).toMatchObject({ role: "user", staff_role: null });
    expect(await mailOf(gone.id)).toEqual([]);
  });

  it("changes a role: audited, told by mail, the member's sessions ended; the same role is refused", async () => {
    const owner = await adminId(app());
    const billing = await member("billing");
    const cookie = await login(billing.email);
    expect(await getCurrentSession(app(), cookie)).toMatchObject({
      user: { staffRole: "billing" },
    });

    const changed = await changeStaffRole(app().db, {
      actorId: owner,
      userId: billing.id,
      role: "technician",
      now: T0,
    });
    expect(changed).toMatchObject({ ok: true, userId: billing.id });
    expect(await stored(billing.id)).toMatchObject({ role: "admin", staff_role: "technician" });
    expect((await staffAudit(billing.id)).at(-1)).toEqual({
      actorId: owner,
      action: "staff.role_change",
      before: { role: "admin", staffRole: "billing" },
      after: { role: "admin", staffRole: "technician", sessionsEnded: 1 },
    });
    expect((await mailOf(billing.id)).at(-1)).toMatchObject({
      params: { change: "changed", from: "billing", to: "technician", at: T0.toISOString() },
    });
    expect(await getCurrentSession(app(), cookie)).toBeNull();
    expect(await getCurrentSession(app(), await login(billing.email))).toMatchObject({
      user: { staffRole: "technician" },
    });

    const mails = (await mailOf(billing.id)).length;
    expect(
      await changeStaffRole(app().db, { actorId: owner, userId: billing.id, role: "technician" }),
    ).toEqual(refusal("conflict", "admin-staff.members.errors.sameRole"));
    // A customer is no member whose role changes.
    const stranger = await customer();
    expect(
      await changeStaffRole(app().db, { actorId: owner, userId: stranger.id, role: "support" }),
    ).toEqual(refusal("notFound", "admin-staff.members.errors.notStaff"));
    expect(await stored(stranger.id)).toMatchObject({ role: "user", staff_role: null });
    expect(await mailOf(billing.id)).toHaveLength(mails);
  });

  it("removes a member: a customer again with their coins, signed out, audited and told", async () => {
    const owner = await adminId(app());
    const technician = await member("technician");
    await adjustCoins(app().db, {
      userId: technician.id,
      amountCents: 1234,
      reason: "kept through the change",
      actorId: owner,
    });
    const cookie = await login(technician.email);

    const removed = await removeStaffMember(app().db, {
      actorId: owner,
      userId: technician.id,
      now: T0,
    });
    expect(removed).toMatchObject({ ok: true, userId: technician.id });
    expect(await stored(technician.id)).toMatchObject({
      role: "user",
      staff_role: null,
      status: "active",
      coin_balance_cents: 1234,
    });
    expect(await balanceOf(app(), technician.id)).toBe(1234);
    expect((await staffAudit(technician.id)).at(-1)).toEqual({
      actorId: owner,
      action: "staff.remove",
      before: { role: "admin", staffRole: "technician" },
      after: { role: "user", staffRole: null, sessionsEnded: 1 },
    });
    expect((await mailOf(technician.id)).at(-1)).toMatchObject({
      params: { change: "removed", from: "technician", to: null, at: T0.toISOString() },
    });
    expect(await getCurrentSession(app(), cookie)).toBeNull();
    expect(await getCurrentSession(app(), await login(technician.email))).toMatchObject({
      user: { role: "user", staffRole: null },
    });
    // Not on the staff any more: nothing to remove twice, and gone from the list.
    expect(await removeStaffMember(app().db, { actorId: owner, userId: technician.id })).toEqual(
      refusal("notFound", "admin-staff.members.errors.notStaff"),
    );
    expect((await listStaff(app().db)).map((each) => each.id)).not.toContain(technician.id);
  });

  it("reads the actor's role from the database: a member without staff.manage, or a customer, changes nothing", async () => {
    const billing = await member("billing");
    const support = await member("support");
    const person = await customer();
    const db = app().db;
    for (const actorId of [billing.id, person.id]) {
      expect(await addStaffMember(db, { actorId, email: person.email, role: "support" })).toEqual(
        refusal("forbidden", "admin-staff.members.errors.notAllowed"),
      );
      expect(await changeStaffRole(db, { actorId, userId: support.id, role: "billing" })).toEqual(
        refusal("forbidden", "admin-staff.members.errors.notAllowed"),
      );
      expect(await removeStaffMember(db, { actorId, userId: support.id })).toEqual(
        refusal("forbidden", "admin-staff.members.errors.notAllowed"),
      );
    }
    // An Owner demoted a moment ago is no Owner any more, whatever their session still says.
    const former = await member("owner");
    await changeStaffRole(db, {
      actorId: await adminId(app()),
      userId: former.id,
      role: "support",
    });
    expect(await removeStaffMember(db, { actorId: former.id, userId: support.id })).toEqual(
      refusal("forbidden", "admin-staff.members.errors.notAllowed"),
    );
    expect(await stored(support.id)).toMatchObject({ role: "admin", staff_role: "support" });
    expect(await stored(person.id)).toMatchObject({ role: "user", staff_role: null });
    expect(await staffAudit(support.id)).toHaveLength(1);
  });

  it("lets only an Owner make or unmake an Owner, even for a role that manages the staff", async () => {
    // No role but Owner manages the staff today; a role that did (a future one) still could not touch
    // an Owner. Billing is given staff.manage for this test only.
    const billingPermissions = ROLE_PERMISSIONS.billing as Permission[];
    const manager = await member("billing");
    const owner = await member("owner");
    const support = await member("support");
    const person = await customer();
    const db = app().db;
    billingPermissions.push("staff.manage");
    try {
      const actorId = manager.id;
      const ownerOnly = refusal("forbidden", "admin-staff.members.errors.ownerOnly");
      expect(await addStaffMember(db, { actorId, email: person.email, role: "owner" })).toEqual(
        ownerOnly,
      );
      expect(await changeStaffRole(db, { actorId, userId: support.id, role: "owner" })).toEqual(
        ownerOnly,
      );
      expect(await changeStaffRole(db, { actorId, userId: owner.id, role: "support" })).toEqual(
        ownerOnly,
      );
      expect(await removeStaffMember(db, { actorId, userId: owner.id })).toEqual(ownerOnly);
      // What is not an Owner's, such a role may change.
      expect(
        await changeStaffRole(db, { actorId, userId: support.id, role: "technician" }),
      ).toMatchObject({ ok: true });
    } finally {
      billingPermissions.splice(billingPermissions.indexOf("staff.manage"), 1);
    }
    expect(await stored(owner.id)).toMatchObject({ staff_role: "owner" });
    expect(await stored(person.id)).toMatchObject({ role: "user" });
    // The seed Owner puts things back.
    expect(
      await removeStaffMember(db, { actorId: await adminId(app()), userId: owner.id }),
    ).toMatchObject({ ok: true });
  });

  it("keeps an Owner: nobody changes their own role, and the last Owner is told why", async () => {
    const seed = await adminId(app());
    const db = app().db;
    // Make the seed Owner the only one (earlier tests may have left others).
    for (const id of await owners())
      if (id !== seed) await removeStaffMember(db, { actorId: seed, userId: id });
    expect(await owners()).toEqual([seed]);

    const lastOwner = refusal("conflict", "admin-staff.members.errors.lastOwner");
    expect(await changeStaffRole(db, { actorId: seed, userId: seed, role: "billing" })).toEqual(
      lastOwner,
    );
    expect(await removeStaffMember(db, { actorId: seed, userId: seed })).toEqual(lastOwner);

    // With a second Owner, one's own role is still not one's own to change…
    const second = await member("owner", "Second Owner");
    const ownRole = refusal("forbidden", "admin-staff.members.errors.ownRole");
    expect(await changeStaffRole(db, { actorId: seed, userId: seed, role: "billing" })).toEqual(
      ownRole,
    );
    expect(await removeStaffMember(db, { actorId: seed, userId: seed })).toEqual(ownRole);
    // …nor is it for a member of another role.
    const billing = await member("billing");
    expect(
      await changeStaffRole(db, { actorId: billing.id, userId: billing.id, role: "owner" }),
    ).toEqual(refusal("forbidden", "admin-staff.members.errors.notAllowed"));
    // The other Owner may be demoted; then the seed Owner is the last one again.
    expect(
      await changeStaffRole(db, { actorId: seed, userId: second.id, role: "support" }),
    ).toMatchObject({ ok: true });
    expect(await removeStaffMember(db, { actorId: seed, userId: seed })).toEqual(lastOwner);
    expect(await owners()).toEqual([seed]);
    expect(await stored(seed)).toMatchObject({ role: "admin", staff_role: "owner" });
  });

  for (const change of ["demote", "remove"] as const)
    it(
      atOnce(dialect, `two Owners who ${change} each other at once: one wins, an Owner remains`),
      async () => {
        const seed = await adminId(app());
        const db = app().db;
        // Three rounds: each a fresh pair of Owners, the only ones while they race.
        for (let round = 0; round < 3; round++) {
          const a = await member("owner", `Owner A${round}`);
          const b = await member("owner", `Owner B${round}`);
          expect(await removeStaffMember(db, { actorId: a.id, userId: seed })).toMatchObject({
            ok: true,
          });
          for (const id of await owners())
            if (id !== a.id && id !== b.id)
              await removeStaffMember(db, { actorId: a.id, userId: id });
          expect((await owners()).sort()).toEqual([a.id, b.id].sort());

          const act = (actorId: string, userId: string) =>
            change === "demote"
              ? changeStaffRole(db, { actorId, userId, role: "billing" })
              : removeStaffMember(db, { actorId, userId });
          const results = await Promise.all([act(a.id, b.id), act(b.id, a.id)]);
          expect(results.filter((result) => result.ok)).toHaveLength(1);
          const left = await owners();
          expect(left).toHaveLength(1);
          // The loser was refused: no longer an Owner when its turn came.
          expect(results.find((result) => !result.ok)).toMatchObject({
            ok: false,
            kind: "forbidden",
          });
          // Exactly one change is audited and mailed.
          const audited = [
            ...(await staffAudit(a.id)).filter((e) => e.action !== "staff.add"),
            ...(await staffAudit(b.id)).filter((e) => e.action !== "staff.add"),
          ];
          expect(audited).toHaveLength(1);

          // Put the seed Owner back, the only Owner again.
          const winner = left[0]!;
          expect(
            await addStaffMember(db, {
              actorId: winner,
              email: (await readRow(db, "users", ["email"], { id: seed })).email,
              role: "owner",
            }),
          ).toMatchObject({ ok: true });
          await removeStaffMember(db, { actorId: seed, userId: winner });
          expect(await owners()).toEqual([seed]);
        }
      },
    );

  it("lists the staff, Owners first, with two-factor sign-in and no sign-in yet", async () => {
    const newcomer = await member("technician", "Aaron Newcomer");
    await app()
      .db.updateTable("users")
      // A boolean on PostgreSQL, 0 or 1 on SQLite.
      .set({ two_factor_enabled: dialect === "postgres" ? true : 1 })
      .where("id", "=", newcomer.id)
      .execute();
    const staff = await listStaff(app().db);
    const roles = staff.map((each) => each.staffRole);
    const rank = (role: StaffRole | null) =>
      role === null ? 4 : ["owner", "billing", "support", "technician"].indexOf(role);
    expect(roles.map(rank)).toEqual([...roles.map(rank)].sort((x, y) => x - y));
    expect(staff[0]!.staffRole).toBe("owner");
    expect(staff.find((each) => each.id === newcomer.id)).toEqual({
      id: newcomer.id,
      name: "Aaron Newcomer",
      email: newcomer.email,
      staffRole: "technician",
      twoFactorEnabled: true,
      lastSignInAt: null,
    });
    // Customers are not listed.
    const person = await customer();
    expect(staff.map((each) => each.id)).not.toContain(person.id);
  });
});
