import { expect, it } from "vitest";
import * as dashboard from "~/routes/dashboard/account";
import { readRow, readRows } from "../../../tests/support/read-column";
import { postAction } from "../../../tests/support/request-context";
import { signedInCustomer } from "../../../tests/support/account-fixtures";
import { refusal } from "../../../tests/support/results";
import { describeEachDatabase } from "../../../tests/support/test-database";
import { getCurrentSession, signIn } from "./accounts.server";
import { updateProfile } from "./profile.server";

const PASSWORD = "Profile-pw-5521";
let n = 0;
const uniqueEmail = () => `profile${Date.now()}${n++}@example.com`;

describeEachDatabase("changing one's own profile", (app) => {
  /** A customer signed in twice (two browsers): their id and both cookies. */
  async function customerWithTwoSessions() {
    const { userId, email, sessions } = await signedInCustomer(
      app(),
      { name: "Profile", email: uniqueEmail(), password: PASSWORD },
      ["10.30.0.1", "10.30.0.2"],
    );
    const [here, elsewhere] = sessions as [(typeof sessions)[0], (typeof sessions)[0]];
    return {
      userId,
      email,
      here: here.cookie,
      elsewhere: elsewhere.cookie,
      sessionId: here.sessionId,
    };
  }

  /** The customer edits their profile in the first browser (10.30.0.1). */
  const editProfile = (
    customer: { userId: string; sessionId: string },
    fields: Omit<Parameters<typeof updateProfile>[1], "userId" | "currentSessionId" | "ip">,
  ) =>
    updateProfile(app().db, {
      userId: customer.userId,
      currentSessionId: customer.sessionId,
      ip: "10.30.0.1",
      ...fields,
    });

  const emailChanges = (userId: string) =>
    readRows(app().db, "audit_log", ["actor_id", "before", "after"], {
      action: "account.email_change",
      target_id: userId,
    });

  it("changes the name alone without the password, ending no session", async () => {
    const customer = await customerWithTwoSessions();
    const result = await editProfile(customer, {
      name: "New Name",
      email: customer.email,
    });
    expect(result).toEqual({ ok: true, emailChanged: false, sessionsEnded: 0 });
    expect(await getCurrentSession(app(), customer.elsewhere)).not.toBeNull();
    expect(await emailChanges(customer.userId)).toEqual([]);
  });

  it("refuses an email change without the current password, or with a wrong one", async () => {
    const customer = await customerWithTwoSessions();
    const attempt = (currentPassword?: string) =>
      editProfile(customer, {
        name: "Profile",
        email: uniqueEmail(),
        currentPassword,
      });
    expect(await attempt()).toEqual({
      ...refusal("invalid", "dashboard.account.currentPasswordRequired"),
      field: "currentPassword",
    });
    expect(await attempt(`${PASSWORD}-wrong`)).toEqual({
      ...refusal("invalid", "dashboard.account.currentPasswordWrong"),
      field: "currentPassword",
    });
    const user = await readRow(app().db, "users", ["email"], { id: customer.userId });
    expect(user.email).toBe(customer.email);
    expect(await getCurrentSession(app(), customer.elsewhere)).not.toBeNull();
    expect(await emailChanges(customer.userId)).toEqual([]);
  });

  it("with the password: changes it, keeps this session, ends the others and audits it", async () => {
    const customer = await customerWithTwoSessions();
    const newEmail = uniqueEmail();
    const result = await editProfile(customer, {
      name: "Profile",
      email: newEmail,
      currentPassword: PASSWORD,
    });
    expect(result).toEqual({ ok: true, emailChanged: true, sessionsEnded: 1 });
    expect((await getCurrentSession(app(), customer.here))?.user.email).toBe(newEmail);
    expect(await getCurrentSession(app(), customer.elsewhere)).toBeNull();
    const [entry, ...more] = await emailChanges(customer.userId);
    expect(more).toEqual([]);
    expect(entry!.actor_id).toBe(customer.userId);
    expect(JSON.parse(entry!.before!)).toEqual({ email: customer.email });
    expect(JSON.parse(entry!.after!)).toEqual({
      email: newEmail,
      otherSessionsEnded: 1,
      oldAddressTold: false,
    });
    // The new address signs in; the old one no longer does.
    expect(
      (await signIn(app(), { email: newEmail, password: PASSWORD }, { ip: "10.30.1.1" })).ok,
    ).toBe(true);
    expect(
      (await signIn(app(), { email: customer.email, password: PASSWORD }, { ip: "10.30.1.2" })).ok,
    ).toBe(false);
  });

  it("refuses an address another account has, even with the right password", async () => {
    const customer = await customerWithTwoSessions();
    const other = await customerWithTwoSessions();
    const result = await editProfile(customer, {
      name: "Profile",
      email: other.email,
      currentPassword: PASSWORD,
    });
    expect(result).toEqual({
      ...refusal("conflict", "dashboard.account.emailTaken"),
      field: "email",
    });
    expect(await getCurrentSession(app(), customer.elsewhere)).not.toBeNull();
  });

  it("through the dashboard's form: a clear field error, then the change", async () => {
    const customer = await customerWithTwoSessions();
    const post = async (fields: Record<string, string>) =>
      (await postAction(app(), dashboard, "/dashboard/account", fields, {
        cookie: customer.here,
      })) as { data: { ok: boolean; message: string; fieldErrors?: Record<string, string> } };
    const newEmail = uniqueEmail();
    const wrong = await post({
      intent: "profile",
      name: "Profile",
      email: newEmail,
      currentPassword: "not-my-password",
    });
    expect(wrong.data).toEqual({
      ok: false,
      message: "dashboard.account.currentPasswordWrong",
      fieldErrors: { currentPassword: "dashboard.account.currentPasswordWrong" },
    });
    const missing = await post({ intent: "profile", name: "Profile", email: newEmail });
    expect(missing.data.fieldErrors).toEqual({
      currentPassword: "dashboard.account.currentPasswordRequired",
    });
    const done = (await post({
      intent: "profile",
      name: "Profile",
      email: newEmail,
      currentPassword: PASSWORD,
    })) as unknown as { ok: boolean; message: string };
    expect(done).toEqual({ ok: true, message: "dashboard.account.emailChanged" });
    expect(await getCurrentSession(app(), customer.here)).not.toBeNull();
    expect(await getCurrentSession(app(), customer.elsewhere)).toBeNull();
  });
});
