import { expect, it, vi } from "vitest";
import * as accountPassword from "~/routes/account-password";
import * as dashboard from "~/routes/dashboard/account";
import { customerSignedInAt, loginAttempts } from "../../../tests/support/account-fixtures";
import { type ActionAnswer, postAction } from "../../../tests/support/request-context";
import { readColumn } from "../../../tests/support/read-column";
import { refusal } from "../../../tests/support/results";
import { describeEachDatabase } from "../../../tests/support/test-database";
import { LOGIN_EMAIL_WINDOW_MINUTES, LOGIN_PAIR_FAILURE_LIMIT } from "./accounts";
import { changePassword, getCurrentSession, signIn } from "./accounts.server";
import type * as passwordHash from "./password-hash.server";
import { verifyPassword } from "./password-hash.server";
import { updateProfile } from "./profile.server";

// The real Argon2id check, counted: a refused attempt must not reach it. better-auth's check (the
// password change) goes through the same function (auth.server.ts).
vi.mock("./password-hash.server", async (importOriginal) => {
  const real = await importOriginal<typeof passwordHash>();
  return { ...real, verifyPassword: vi.fn(real.verifyPassword) };
});
const passwordChecks = vi.mocked(verifyPassword);

const PASSWORD = "Current-pw-7731";
let n = 0;
const uniqueEmail = () => `current${Date.now()}${n++}@example.com`;
/** A fresh address: one that never signed in to the account, as a stolen session's would be. */
const stranger = () => `10.41.${Math.floor(n / 200)}.${n++ % 200}`;

describeEachDatabase("current-password checks go through the login throttle", (app) => {
  async function customer() {
    const account = await customerSignedInAt(
      app(),
      { name: "Current", email: uniqueEmail(), password: PASSWORD },
      stranger(),
    );
    // From here on, count only the checks the test makes.
    passwordChecks.mockClear();
    return account;
  }

  const emailOf = async (userId: string) => readColumn(app(), "users", "email", ["id", userId]);

  const attempts = (email: string, ip: string) => loginAttempts(app(), email, ip);

  /** The login form's sign-in of the account with `password`, from `ip`. */
  const signInAs = (account: { email: string }, password: string, ip: string) =>
    signIn(app(), { email: account.email, password }, { ip });

  /** Makes the pair limit of wrong guesses, each refused as `wrong` after a real password check. */
  async function guessWrongToTheLimit(
    change: (password: string) => Promise<unknown>,
    wrong: object,
  ) {
    for (let i = 0; i < LOGIN_PAIR_FAILURE_LIMIT; i++)
      expect(await change(`wrong-guess-${i}`)).toEqual(wrong);
    expect(passwordChecks).toHaveBeenCalledTimes(LOGIN_PAIR_FAILURE_LIMIT);
  }

  const blocked = {
    ...refusal("limited", "auth.errors.tooManyAttempts"),
    field: "currentPassword",
    minutes: LOGIN_EMAIL_WINDOW_MINUTES,
  };

  it("email change: after the pair limit of wrong passwords, even the right one is refused unchecked", async () => {
    const account = await customer();
    const ip = stranger();
    const change = (currentPassword: string) =>
      updateProfile(
        app().db,
        {
          userId: account.userId,
          currentSessionId: account.sessionId,
          name: "Current",
          email: uniqueEmail(),
          currentPassword,
          ip,
        },
        { ipPerMinute: app().loginIpLimit },
      );
    await guessWrongToTheLimit(change, {
      ...refusal("invalid", "dashboard.account.currentPasswordWrong"),
      field: "currentPassword",
    });

    expect(await change(PASSWORD)).toEqual(blocked);
    expect(passwordChecks).toHaveBeenCalledTimes(LOGIN_PAIR_FAILURE_LIMIT);
    expect(await emailOf(account.userId)).toBe(account.email);
    // Recorded as failed logins of the account's email (the refused one is not recorded)...
    expect(await attempts(account.email, ip)).toEqual(
      Array.from({ length: LOGIN_PAIR_FAILURE_LIMIT }, () => ({ succeeded: 0 })),
    );
    // ...so they hold back a sign-in from that address too, and not the owner's.
    expect(await signInAs(account, PASSWORD, ip)).toMatchObject({
      ok: false,
      kind: "limited",
      error: "errors.tooManyAttempts",
    });
    expect((await signInAs(account, PASSWORD, account.home)).ok).toBe(true);
  });

  it("email change: a right password from a new address works and counts as a sign-in", async () => {
    const account = await customer();
    const ip = stranger();
    const newEmail = uniqueEmail();
    const result = await updateProfile(app().db, {
      userId: account.userId,
      currentSessionId: account.sessionId,
      name: "Current",
      email: newEmail,
      currentPassword: PASSWORD,
      ip,
    });
    expect(result).toEqual({ ok: true, emailChanged: true, sessionsEnded: 0 });
    expect(await emailOf(account.userId)).toBe(newEmail);
    expect(await attempts(account.email, ip)).toEqual([{ succeeded: 1 }]);
    expect(passwordChecks).toHaveBeenCalledTimes(1);
  });

  it("email change: the owner's known address is exempt from the pair rule, as at sign-in", async () => {
    const account = await customer();
    const change = (currentPassword: string) =>
      updateProfile(app().db, {
        userId: account.userId,
        currentSessionId: account.sessionId,
        name: "Current",
        email: uniqueEmail(),
        currentPassword,
        ip: account.home,
      });
    for (let i = 0; i < LOGIN_PAIR_FAILURE_LIMIT; i++)
      expect((await change(`typo-${i}`)).ok).toBe(false);
    expect((await change(PASSWORD)).ok).toBe(true);
  });

  it("the dashboard's form shows the login form's message with the minutes, as a 429", async () => {
    const account = await customer();
    const ip = stranger();
    const post = async (currentPassword: string) =>
      (await postAction(
        app(),
        dashboard,
        "/dashboard/account",
        { intent: "profile", name: "Current", email: uniqueEmail(), currentPassword },
        { cookie: account.cookie, ip },
      )) as ActionAnswer;
    for (let i = 0; i < LOGIN_PAIR_FAILURE_LIMIT; i++)
      expect((await post(`wrong-${i}`)).init?.status).toBe(400);
    const refused = await post(PASSWORD);
    expect(refused.init?.status).toBe(429);
    expect(refused.data).toEqual({
      ok: false,
      message: "auth.errors.tooManyAttempts",
      fieldErrors: { currentPassword: "auth.errors.tooManyAttempts" },
      minutes: LOGIN_EMAIL_WINDOW_MINUTES,
    });
    expect(await emailOf(account.userId)).toBe(account.email);
  });

  it("password change: after the pair limit of wrong passwords, even the right one is refused unchecked", async () => {
    const account = await customer();
    const ip = stranger();
    const change = (currentPassword: string) =>
      changePassword(
        app(),
        {
          userId: account.userId,
          cookie: account.cookie,
          currentPassword,
          newPassword: "Brand-new-pw-6612",
          ip,
        },
        { ipPerMinute: app().loginIpLimit },
      );
    await guessWrongToTheLimit(change, refusal("invalid", "errors.currentPasswordWrong"));

    expect(await change(PASSWORD)).toEqual({
      ...refusal("limited", "errors.tooManyAttempts"),
      minutes: LOGIN_EMAIL_WINDOW_MINUTES,
    });
    expect(passwordChecks).toHaveBeenCalledTimes(LOGIN_PAIR_FAILURE_LIMIT);
    expect(await attempts(account.email, ip)).toHaveLength(LOGIN_PAIR_FAILURE_LIMIT);
    // Nothing changed: the session lives and the old password still signs in.
    expect(await getCurrentSession(app(), account.cookie)).not.toBeNull();
    expect((await signInAs(account, PASSWORD, account.home)).ok).toBe(true);
  });

  it("password change: a right password from a new address works and counts as a sign-in", async () => {
    const account = await customer();
    const ip = stranger();
    const changed = await changePassword(app(), {
      userId: account.userId,
      cookie: account.cookie,
      currentPassword: PASSWORD,
      newPassword: "Brand-new-pw-6612",
      ip,
    });
    expect(changed.ok).toBe(true);
    expect(await attempts(account.email, ip)).toEqual([{ succeeded: 1 }]);
    expect((await signInAs(account, "Brand-new-pw-6612", stranger())).ok).toBe(true);
  });

  it("/account/password shows the login form's message with the minutes on the field, as a 429", async () => {
    const account = await customer();
    const ip = stranger();
    const post = async (currentPassword: string) =>
      (await postAction(
        app(),
        accountPassword,
        "/account/password",
        { currentPassword, newPassword: "Brand-new-pw-6612", confirmPassword: "Brand-new-pw-6612" },
        { cookie: account.cookie, ip },
      )) as ActionAnswer;
    for (let i = 0; i < LOGIN_PAIR_FAILURE_LIMIT; i++)
      expect((await post(`wrong-${i}`)).data).toEqual({
        fieldErrors: { currentPassword: "auth.errors.currentPasswordWrong" },
      });
    const refused = await post(PASSWORD);
    expect(refused.init?.status).toBe(429);
    expect(refused.data).toEqual({
      fieldErrors: { currentPassword: "auth.errors.tooManyAttempts" },
      minutes: LOGIN_EMAIL_WINDOW_MINUTES,
    });
  });
});
