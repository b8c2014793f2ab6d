import { beforeAll, expect, it } from "vitest";
import { registerCustomer, signIn } from "~/domain/accounts/accounts.server";
import { addStaffMember } from "~/domain/staff/staff.server";
import { appFetch, type AppFetch } from "../support/app-harness";
import { adminId } from "../support/money-fixtures";
import { readRow } from "../support/read-column";
import { cookieHeader } from "../support/request-context";
import { schemaSnapshot, snapshotChanges } from "../support/schema-snapshot";
import { describeEachDatabase, TEST_ADMIN } from "../support/test-database";

const PASSWORD = "Staff-page-pw-4410";
let counter = 0;

/** Tables every request may write whatever its answer (the authorization matrix's WRITTEN_BY_DESIGN). */
const WRITTEN_BY_ANY_REQUEST = ["login_attempts", "sessions", "form_rate_windows"];

// /admin/staff through the whole app, as a browser's requests reach it: the page and its three forms for
// an Owner, and a member of another role refused each of them with a 403 that changes nothing.
describeEachDatabase("the staff page", (app) => {
  let fetchApp: AppFetch;
  let ownerCookie: string;

  async function account(name: string) {
    const email = `staff-page${Date.now()}${counter++}@example.com`;
    const result = await registerCustomer(
      app(),
      { name, email, password: PASSWORD, confirmPassword: PASSWORD },
      { registrationOpen: true },
    );
    if (!result.ok) throw new Error(result.error);
    return { id: result.userId, email, name };
  }

  async function login(email: string, password = PASSWORD) {
    const n = counter++;
    const result = await signIn(app(), { email, password }, { ip: `10.62.${n % 250}.${n % 200}` });
    if (!result.ok) throw new Error(`sign in failed for ${email}`);
    return cookieHeader(result.setCookies);
  }

  async function staffMember(name: string, role: "billing" | "support") {
    const person = await account(name);
    const added = await addStaffMember(app().db, {
      actorId: await adminId(app()),
      email: person.email,
      role,
    });
    if (!added.ok) throw new Error(added.error);
    return { ...person, cookie: await login(person.email) };
  }

  const snapshot = () => schemaSnapshot(app().db, { skip: WRITTEN_BY_ANY_REQUEST });
  const stored = (id: string) => readRow(app().db, "users", ["role", "staff_role"], { id });

  beforeAll(async () => {
    fetchApp = appFetch(app());
    ownerCookie = await login(TEST_ADMIN.email, TEST_ADMIN.password);
  });

  it("refuses a Billing member the page and every form with a 403, and nothing changes", async () => {
    const billing = await staffMember("Bilal Billing", "billing");
    const support = await staffMember("Sara Support", "support");
    const customer = await account("Chris Customer");

    const page = await fetchApp("/admin/staff", { cookie: billing.cookie });
    expect(page.status).toBe(403);
    const html = await page.text();
    expect(html).toContain("Not part of your role");
    expect(html).toContain("staff.manage");

    const before = await snapshot();
    const posts: Record<string, string>[] = [
      { intent: "add", email: customer.email, role: "owner" },
      { intent: "add", email: billing.email, role: "owner" },
      { intent: "role", userId: billing.id, role: "owner" },
      { intent: "role", userId: support.id, role: "billing" },
      { intent: "remove", userId: support.id },
      { intent: "remove", userId: await adminId(app()) },
      // Malformed or unknown: the same 403, before the form is read.
      { intent: "role", userId: support.id, role: "root" },
      { intent: "matrix-probe" },
    ];
    for (const form of posts) {
      const response = await fetchApp("/admin/staff", { cookie: billing.cookie, form });
      expect(response.status, JSON.stringify(form)).toBe(403);
      expect(await response.text(), JSON.stringify(form)).toContain("staff.manage");
    }
    expect(snapshotChanges(before, await snapshot())).toEqual([]);
    expect(await stored(billing.id)).toEqual({ role: "admin", staff_role: "billing" });
    expect(await stored(support.id)).toEqual({ role: "admin", staff_role: "support" });
    expect(await stored(customer.id)).toEqual({ role: "user", staff_role: null });

    // The menu does not offer the page to Billing; it does to an Owner.
    const dashboard = await (await fetchApp("/admin", { cookie: billing.cookie })).text();
    expect(dashboard).not.toContain('href="/admin/staff"');
    const ownerDashboard = await (await fetchApp("/admin", { cookie: ownerCookie })).text();
    expect(ownerDashboard).toContain('href="/admin/staff"');
  });

  it("shows an Owner the staff and takes their three changes", async () => {
    const person = await account("Nour Newcomer");
    const before = await (await fetchApp("/admin/staff", { cookie: ownerCookie })).text();
    expect(before).toContain("<h1");
    expect(before).toContain("Staff");
    expect(before).toContain(TEST_ADMIN.email);
    expect(before).toContain("Add a member");
    expect(before).not.toContain(person.email);

    const add = async (form: Record<string, string>) => {
      const response = await fetchApp("/admin/staff", { cookie: ownerCookie, form });
      return { status: response.status, html: await response.text() };
    };
    // A mistyped address is the form's error; an address no account has, the use-case's.
    const invalid = await add({ intent: "add", email: "not-an-email", role: "support" });
    expect(invalid.status).toBe(400);
    expect(invalid.html).toContain("Please enter a valid email address");
    const unknown = await add({
      intent: "add",
      email: "nobody-at-all@example.com",
      role: "support",
    });
    expect(unknown.status).toBe(404);
    expect(unknown.html).toContain("No account has this email.");

    const added = await add({ intent: "add", email: person.email.toUpperCase(), role: "support" });
    expect(added.status).toBe(200);
    expect(added.html).toContain("Nour Newcomer joined the staff.");
    expect(await stored(person.id)).toEqual({ role: "admin", staff_role: "support" });

    const changed = await add({ intent: "role", userId: person.id, role: "technician" });
    expect(changed.status).toBe(200);
    expect(changed.html).toContain("The role of Nour Newcomer was changed.");
    expect(await stored(person.id)).toEqual({ role: "admin", staff_role: "technician" });

    // The only Owner removing themselves is told there must always be one.
    const own = await add({ intent: "remove", userId: await adminId(app()) });
    expect(own.status).toBe(409);
    expect(own.html).toContain("There must always be at least one Owner");
    expect(await stored(await adminId(app()))).toEqual({ role: "admin", staff_role: "owner" });

    const removed = await add({ intent: "remove", userId: person.id });
    expect(removed.status).toBe(200);
    expect(removed.html).toContain("Nour Newcomer was removed from the staff.");
    expect(await stored(person.id)).toEqual({ role: "user", staff_role: null });
  });
});
