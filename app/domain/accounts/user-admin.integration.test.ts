import { expect, it } from "vitest";
import {
  adminId,
  asAdmin,
  balanceOf,
  customerWithCoins,
  expectLedgerIntact,
  expectLedgerIntactAfterEach,
  placedOrder,
  productId,
} from "../../../tests/support/money-fixtures";
import { readRow, readRows } from "../../../tests/support/read-column";
import { refusal } from "../../../tests/support/results";
import { describeEachDatabase, TEST_ADMIN } from "../../../tests/support/test-database";
import { getCurrentSession, registerCustomer, signIn } from "./accounts.server";
import { DELETED_USER_NAME } from "./user-admin";
import { clientActionSchema, updateUserSchema } from "./user-admin.schemas";
import { deleteUserByAdmin, deletedUserEmail, updateUserByAdmin } from "./user-admin.server";
import { activeAdminsOnce, searchUsers, USER_COUNT_LIMIT } from "./user-directory.server";
import { inTransaction } from "~/db/transaction";
import { cookieHeader } from "../../../tests/support/request-context";

let counter = 0;
const unique = (prefix: string) => `${prefix}${Date.now()}${counter++}@example.com`;
const PASSWORD = "Client-pw-5521";

describeEachDatabase("admin user management", (app) => {
  // Deleting a customer keeps their coins' history: the ledger must still add up after every test.
  expectLedgerIntactAfterEach(app);

  async function customer(name = "Client") {
    const email = unique("client");
    const result = await registerCustomer(
      app(),
      { name, email, password: PASSWORD, confirmPassword: PASSWORD },
      { registrationOpen: true },
    );
    if (!result.ok) throw new Error(result.error);
    return { id: result.userId, email, name };
  }

  async function login(email: string, password: string) {
    const result = await signIn(app(), { email, password }, { ip: "10.40.0.1" });
    return result.ok ? cookieHeader(result.setCookies) : null;
  }

  async function row(id: string) {
    return app().db.selectFrom("users").selectAll().where("id", "=", id).executeTakeFirstOrThrow();
  }

  async function auditFor(id: string) {
    return readRows(app().db, "audit_log", "*", { target_type: "user", target_id: id }, "id");
  }

  const edit = (user: { id: string; name: string; email: string }, changes: object = {}) =>
    updateUserSchema.parse({
      userId: user.id,
      name: user.name,
      email: user.email,
      ...changes,
    });

  it("edits name and email with an audit entry in the same transaction", async () => {
    const admin = await adminId(app());
    const user = await customer("Amine");
    const email = unique("renamed");
    const result = await updateUserByAdmin(app().db, {
      ...edit(user, { name: "Amine B.", email: email.toUpperCase() }),
      actorId: admin,
    });
    expect(result).toEqual({ ok: true, changed: ["name", "email"] });
    const after = await row(user.id);
    expect(after).toMatchObject({ name: "Amine B.", email, role: "user", status: "active" });
    const [entry] = await auditFor(user.id);
    expect(entry).toMatchObject({ actor_id: admin, action: "user.update" });
    expect(JSON.parse(entry!.before!)).toEqual({ name: "Amine", email: user.email });
    expect(JSON.parse(entry!.after!)).toEqual({ name: "Amine B.", email });
    // The customer signs in with the new address and the old password.
    expect(await login(email, PASSWORD)).not.toBeNull();
  });

  it("refuses an email another account has: 'Failed to update user', nothing changed", async () => {
    const admin = await adminId(app());
    const first = await customer();
    const second = await customer();
    const result = await updateUserByAdmin(app().db, {
      ...edit(second, { email: first.email, name: "Changed" }),
      actorId: admin,
    });
    expect(result).toEqual({
      ...refusal("conflict", "admin.users.updateFailed"),
      reason: "admin.users.errors.emailTaken",
    });
    expect(await row(second.id)).toMatchObject({ name: "Client", email: second.email });
    expect(await auditFor(second.id)).toEqual([]);
  });

  it("sets a password: hashed, the user's sessions end, they choose their own at next login", async () => {
    const admin = await adminId(app());
    const user = await customer();
    const cookie = await login(user.email, PASSWORD);
    expect(await getCurrentSession(app(), cookie)).not.toBeNull();

    const result = await updateUserByAdmin(app().db, {
      ...edit(user, { password: "Fresh-pass-9051" }),
      actorId: admin,
    });
    expect(result).toEqual({ ok: true, changed: ["password"] });
    expect(await getCurrentSession(app(), cookie)).toBeNull();
    const credential = await readRow(app().db, "accounts", ["password"], {
      user_id: user.id,
      provider_id: "credential",
    });
    expect(credential.password).toMatch(/^\$argon2id\$/);
    expect(credential.password).not.toContain("Fresh-pass-9051");
    expect(await login(user.email, PASSWORD)).toBeNull();
    expect(await login(user.email, "Fresh-pass-9051")).not.toBeNull();
    expect((await row(user.id)).must_change_password).toBe(1);
    const entries = await auditFor(user.id);
    expect(JSON.parse(entries.at(-1)!.after!)).toEqual({ password: "changed" });
    expect(entries.at(-1)!.after).not.toContain("Fresh-pass");

    const common = await updateUserByAdmin(app().db, {
      ...edit(user, { password: "password123" }),
      actorId: admin,
    });
    expect(common).toMatchObject({
      ok: false,
      kind: "invalid",
      reason: "auth.errors.commonPassword",
    });
  });

  it("validates the form: name, email, and a password of 6 characters or none; no role", () => {
    const base = {
      intent: "update",
      userId: "u1",
      name: "N",
      email: "n@example.com",
    };
    expect(clientActionSchema.safeParse(base).success).toBe(true);
    expect(clientActionSchema.safeParse({ ...base, password: "" }).data).toMatchObject({
      password: undefined,
    });
    const errors = (value: object) =>
      clientActionSchema.safeParse(value).error?.issues.map((i) => i.message);
    expect(errors({ ...base, password: "12345" })).toEqual(["auth.errors.passwordTooShort"]);
    expect(errors({ ...base, email: "nope" })).toEqual(["auth.errors.emailInvalid"]);
    expect(errors({ ...base, name: " " })).toEqual(["admin.users.errors.nameRequired"]);
    // A role is no field of this form any more (staff roles are /admin/staff's): one posted is dropped.
    expect(clientActionSchema.parse({ ...base, role: "admin" })).not.toHaveProperty("role");
    // The first form sent no intent: it is a coin change.
    const key = "0123456789abcdef";
    expect(
      clientActionSchema.parse({ userId: "u1", amount: "5", reason: "r", idempotencyKey: key }),
    ).toMatchObject({ intent: "coins", amount: 500, idempotencyKey: key });
  });

  // Who is on the staff, and with what role, moved to /admin/staff: the last Owner kept, nobody changing
  // their own role, two Owners demoting each other at once, the sessions a change ends and its audit
  // are proven in app/domain/staff/staff.integration.test.ts. What stays here is the actor's check.
  it("refuses an actor who is not an admin, changing nothing", async () => {
    const user = await customer("Target");
    const other = await customer("Not staff");
    expect(
      await updateUserByAdmin(app().db, { ...edit(user, { name: "x" }), actorId: other.id }),
    ).toMatchObject({ kind: "forbidden", reason: "admin.users.errors.notAdmin" });
    expect((await row(user.id)).name).toBe("Target");
    expect(await auditFor(user.id)).toEqual([]);
  });

  it("deletes a customer softly: anonymised, signed out, history kept", async () => {
    const { db, admin } = await asAdmin(app());
    const id = await customerWithCoins(app(), 5000);
    const user = await row(id);
    await placedOrder(app(), id, { productId: await productId(app(), "samp-starter") });
    const cookie = await login(user.email, "Buyer-pw-8842");
    expect(await getCurrentSession(app(), cookie)).not.toBeNull();
    const ledgerBefore = await readRows(db, "coin_ledger", "*", { user_id: id });

    expect(await deleteUserByAdmin(db, { userId: id, actorId: admin })).toEqual({ ok: true });

    const after = await row(id);
    expect(after).toMatchObject({
      status: "deleted",
      name: DELETED_USER_NAME,
      email: deletedUserEmail(id),
      role: "user",
    });
    expect(await getCurrentSession(app(), cookie)).toBeNull();
    expect(await login(user.email, "Buyer-pw-8842")).toBeNull();
    expect(
      await db.selectFrom("accounts").select("id").where("user_id", "=", id).execute(),
    ).toEqual([]);
    expect(
      await db.selectFrom("sessions").select("id").where("user_id", "=", id).execute(),
    ).toEqual([]);
    // The ledger, the order and the audit entries about them stay.
    expect(
      await db.selectFrom("coin_ledger").selectAll().where("user_id", "=", id).execute(),
    ).toEqual(ledgerBefore);
    expect(
      await db.selectFrom("orders").select("id").where("user_id", "=", id).execute(),
    ).toHaveLength(1);
    const entries = await auditFor(id);
    expect(entries.map((e) => e.action)).toEqual(["coins.adjust", "user.delete"]);
    expect(entries.at(-1)!.before).not.toContain(user.email);
    expect(await balanceOf(app(), id)).toBe(after.coin_balance_cents);
    await expectLedgerIntact(app());

    // Gone from the list and the search; the address is free for a new account.
    const { users } = await searchUsers(db, { q: user.email, page: 1, pageSize: 10 });
    expect(users).toEqual([]);
    const again = await registerCustomer(
      app(),
      { name: "Back", email: user.email, password: PASSWORD, confirmPassword: PASSWORD },
      { registrationOpen: true },
    );
    expect(again.ok).toBe(true);

    // A second delete finds nobody.
    expect(await deleteUserByAdmin(db, { userId: id, actorId: admin })).toMatchObject({
      ...refusal("notFound", "admin.users.deleteFailed"),
      reason: "admin.users.errors.notFound",
    });
  });

  it("never deletes an admin", async () => {
    const admin = await adminId(app());
    const result = await deleteUserByAdmin(app().db, { userId: admin, actorId: admin });
    expect(result).toEqual({
      ...refusal("forbidden", "admin.users.deleteFailed"),
      reason: "admin.users.errors.adminDelete",
    });
    expect((await row(admin)).status).toBe("active");
    expect(await login(TEST_ADMIN.email, TEST_ADMIN.password)).not.toBeNull();
  });

  it("lists users with their active services and orders, sorted and paged on the server", async () => {
    const db = app().db;
    const tag = `sorted${Date.now()}`;
    const ids: string[] = [];
    for (const name of ["Charlie", "alice", "Bob"]) {
      const email = unique(`${tag}-${name.toLowerCase()}-`);
      const result = await registerCustomer(
        app(),
        { name: `${name} ${tag}`, email, password: PASSWORD, confirmPassword: PASSWORD },
        { registrationOpen: true },
      );
      if (!result.ok) throw new Error(result.error);
      ids.push(result.userId);
    }
    const names = async (sort: "name" | "orders", dir: "asc" | "desc", page = 1, pageSize = 10) =>
      (await searchUsers(db, { q: tag, sort, dir, page, pageSize })).users.map(
        (u) => u.name.split(" ")[0],
      );
    expect(await names("name", "asc")).toEqual(["alice", "Bob", "Charlie"]);
    expect(await names("name", "desc")).toEqual(["Charlie", "Bob", "alice"]);
    const page = await searchUsers(db, { q: tag, sort: "name", dir: "asc", page: 1, pageSize: 2 });
    expect(page).toMatchObject({ hasMore: true, total: 3, totalCapped: false });
    expect(await names("name", "asc", 2, 2)).toEqual(["Charlie"]);

    const { users } = await searchUsers(db, { q: tag.toUpperCase(), page: 1, pageSize: 10 });
    expect(users.every((u) => u.activeServices === 0 && u.orders === 0)).toBe(true);
    // A wildcard typed in the search is a literal character.
    expect((await searchUsers(db, { q: "%", page: 1, pageSize: 10 })).users).toEqual([]);
    const admins = await searchUsers(db, { role: "admin", page: 1, pageSize: 50 });
    expect(admins.users.every((u) => u.role === "admin")).toBe(true);
  });

  it("counts up to USER_COUNT_LIMIT matches, and counts services and orders of the rows shown", async () => {
    const db = app().db;
    const tag = `crowd${Date.now()}`;
    // Written straight in: a thousand sign-ups through Argon2id would take minutes.
    const at = (i: number) => new Date(Date.UTC(2024, 0, 1) + i * 60_000).toISOString();
    const rows = Array.from({ length: USER_COUNT_LIMIT + 1 }, (_, i) => ({
      id: `${tag}-${i}`,
      name: `Crowd ${tag} ${i}`,
      email: `${tag}-${i}@example.com`,
      created_at: at(i),
      updated_at: at(i),
    }));
    for (let start = 0; start < rows.length; start += 500)
      await db
        .insertInto("users")
        .values(rows.slice(start, start + 500))
        .execute();

    // The newest of the crowd (first on the default sort) buys twice and has services in two states.
    const buyer = await customerWithCoins(app(), 50_000);
    await db
      .updateTable("users")
      .set({ name: `Buyer ${tag}`, created_at: at(USER_COUNT_LIMIT + 1) })
      .where("id", "=", buyer)
      .execute();
    const product = await productId(app(), "samp-starter");
    for (let i = 0; i < 2; i++) await placedOrder(app(), buyer, { productId: product });
    const now = new Date().toISOString();
    await db
      .insertInto("hosting_services")
      .values(
        ["active", "active", "terminated"].map((status) => ({
          user_id: buyer,
          name: "Server",
          monthly_price_cents: 100,
          cycle_price_cents: 100,
          status,
          expires_at: now,
          created_at: now,
          updated_at: now,
        })),
      )
      .execute();

    const first = await searchUsers(db, { q: tag, page: 1, pageSize: 25 });
    expect(first).toMatchObject({ total: USER_COUNT_LIMIT, totalCapped: true, hasMore: true });
    expect(first.users).toHaveLength(25);
    expect(first.users[0]).toMatchObject({ id: buyer, activeServices: 2, orders: 2 });
    expect(first.users[1]).toMatchObject({ id: `${tag}-${USER_COUNT_LIMIT}`, orders: 0 });

    const last = await searchUsers(db, { q: tag, page: 41, pageSize: 25 });
    expect(last.users.map((u) => u.id)).toEqual([`${tag}-1`, `${tag}-0`]);
    expect(last.hasMore).toBe(false);
    const byName = await searchUsers(db, {
      q: tag,
      sort: "name",
      dir: "asc",
      page: 1,
      pageSize: 2,
    });
    expect(byName.users.map((u) => u.name)).toEqual([`Buyer ${tag}`, `Crowd ${tag} 0`]);
    const byOrders = await searchUsers(db, { q: tag, sort: "orders", page: 1, pageSize: 1 });
    expect(byOrders.users[0]).toMatchObject({ id: buyer, activeServices: 2, orders: 2 });

    const one = await searchUsers(db, { q: `${tag}-7@`, page: 1, pageSize: 25 });
    expect(one).toMatchObject({ total: 1, totalCapped: false });

    // Past the limit only by accounts the list does not show: exactly counted, not "more than".
    await db
      .updateTable("users")
      .set({ status: "deleted" })
      .where("id", "in", [`${tag}-3`, `${tag}-4`])
      .execute();
    const listed = await searchUsers(db, { q: tag, page: 1, pageSize: 25 });
    expect(listed).toMatchObject({ total: USER_COUNT_LIMIT, totalCapped: false });
    const admins = await searchUsers(db, { q: tag, role: "admin", page: 1, pageSize: 25 });
    expect(admins).toMatchObject({ total: 0, totalCapped: false, users: [] });
    await expectLedgerIntact(app());
  });

  it("finds an account by any part of its name or email, and follows renames and deletes", async () => {
    const { db, admin } = await asAdmin(app());
    const tag = `${Date.now()}`.slice(-6);
    const person = await customer(`Zakaria Ouahbi${tag}`);
    const ids = async (q: string) =>
      (await searchUsers(db, { q, page: 1, pageSize: 25 })).users.map((u) => u.id);

    expect(await ids(`OUAHBI${tag}`)).toEqual([person.id]);
    expect(await ids(`kaRIa ouahbi${tag}`)).toEqual([person.id]);
    // The middle of the address, dots and digits included.
    expect(await ids(person.email.slice(3, -8))).toEqual([person.id]);
    // Quotes and wildcards are plain characters; two characters are found without the index.
    expect(await ids(`"${tag}`)).toEqual([]);
    expect(await ids(`_${tag}`)).toEqual([]);
    expect(await ids(`%`)).toEqual([]);
    expect((await ids("ou")).length).toBeGreaterThan(0);

    const renamed = await updateUserByAdmin(db, {
      userId: person.id,
      name: `Yassine Berrada${tag}`,
      email: `renamed-${tag}@example.net`,
      actorId: admin,
    });
    expect(renamed).toMatchObject({ ok: true });
    expect(await ids(`ouahbi${tag}`)).toEqual([]);
    expect(await ids(person.email.slice(3, -8))).toEqual([]);
    expect(await ids(`berrada${tag}`)).toEqual([person.id]);
    expect(await ids(`renamed-${tag}@example.net`)).toEqual([person.id]);

    expect(await deleteUserByAdmin(db, { userId: person.id, actorId: admin })).toEqual({
      ok: true,
    });
    expect(await ids(`berrada${tag}`)).toEqual([]);
    expect(await ids(`renamed-${tag}`)).toEqual([]);
  });

  it("reads the active admins once per transaction for the staff's steps, and afresh in the next one", async () => {
    const before = await inTransaction(app().db, async (trx) => {
      const first = activeAdminsOnce(trx);
      // The same read, not a second one, within one transaction.
      expect(activeAdminsOnce(trx)).toBe(first);
      return (await first).map((admin) => admin.id);
    });
    const promoted = await registerCustomer(
      app(),
      {
        name: "Nadia Staff",
        email: `nadia-${Date.now()}@example.com`,
        password: "Tangerine-Viaduct-73",
        confirmPassword: "Tangerine-Viaduct-73",
      },
      { registrationOpen: true },
    );
    if (!promoted.ok) throw new Error(promoted.error);
    await app()
      .db.updateTable("users")
      .set({ role: "admin" })
      .where("id", "=", promoted.userId)
      .execute();
    const after = await inTransaction(app().db, async (trx) =>
      (await activeAdminsOnce(trx)).map((admin) => admin.id),
    );
    expect(after).toEqual([...before, promoted.userId].sort());
    // Outside a transaction nothing is kept: each call reads.
    expect(activeAdminsOnce(app().db as never)).not.toBe(activeAdminsOnce(app().db as never));
    await app()
      .db.updateTable("users")
      .set({ role: "user" })
      .where("id", "=", promoted.userId)
      .execute();
  });
});
