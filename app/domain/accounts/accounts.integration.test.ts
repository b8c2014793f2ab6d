import { expect, it } from "vitest";
import { createServices, prepareDatabase } from "~/context.server";
import { readRow } from "../../../tests/support/read-column";
import { refusal } from "../../../tests/support/results";
import {
  createTestDatabaseUrl,
  describeEachDatabase,
  TEST_ADMIN,
  testEnv,
} from "../../../tests/support/test-database";
import { registeredCustomer, signedInCookie } from "../../../tests/support/account-fixtures";
import { cookieHeader } from "../../../tests/support/request-context";
import { LOGIN_EMAIL_FAILURE_CEILING, SEED_ADMIN_COINS } from "./accounts";
import {
  changePassword,
  DEFAULT_ADMIN_EMAIL,
  getCurrentSession,
  provisionAdmin,
  registerCustomer,
  resetPassword,
  signIn,
  signOut,
} from "./accounts.server";
import { recordLoginAttempt } from "./login-throttle.server";

const client = { ip: "10.1.1.1", userAgent: "vitest" };
let counter = 0;
const uniqueEmail = () => `customer${Date.now()}${counter++}@example.com`;

describeEachDatabase("accounts", (app) => {
  const tooManyAttempts = (minutes: number) => ({
    ...refusal("limited", "errors.tooManyAttempts"),
    minutes,
  });
  /** How long a session lives from its creation. */
  const sessionLifetimeMs = async (sessionId: string) => {
    const row = await readRow(app().db, "sessions", ["expires_at", "created_at"], {
      id: sessionId,
    });
    return Date.parse(row.expires_at) - Date.parse(row.created_at);
  };

  it("creates the first admin from ADMIN_EMAIL with the seed coins, once", async () => {
    const { db } = app();
    const admins = await db.selectFrom("users").selectAll().where("role", "=", "admin").execute();
    expect(admins).toHaveLength(1);
    expect(admins[0]!.email).toBe(TEST_ADMIN.email);
    expect(admins[0]!.coin_balance_cents).toBe(SEED_ADMIN_COINS * 100);
    expect(admins[0]!.must_change_password).toBe(0);

    await prepareDatabase(app());
    const again = await db.selectFrom("users").selectAll().where("role", "=", "admin").execute();
    expect(again).toEqual(admins);
  });

  it("stores only an Argon2id hash of a password", async () => {
    const services = app();
    const email = uniqueEmail();
    const result = await registerCustomer(
      services,
      {
        name: "Hash Check",
        email,
        password: "Sup3r-secret-pw",
        confirmPassword: "Sup3r-secret-pw",
      },
      { registrationOpen: true },
    );
    expect(result.ok).toBe(true);
    const account = await services.db
      .selectFrom("accounts")
      .innerJoin("users", "users.id", "accounts.user_id")
      .select(["accounts.password", "users.coin_balance_cents", "users.role"])
      .where("users.email", "=", email)
      .executeTakeFirstOrThrow();
    expect(account.password).toMatch(/^\$argon2id\$v=19\$m=19456,t=2,p=1\$/);
    expect(account.password).not.toContain("Sup3r-secret-pw");
    expect(account.coin_balance_cents).toBe(0);
    expect(account.role).toBe("user");
  });

  it("refuses an email already in use, compared without case", async () => {
    const services = app();
    const email = uniqueEmail();
    const input = {
      name: "Twice",
      email,
      password: "Another-pw-991",
      confirmPassword: "Another-pw-991",
    };
    expect((await registerCustomer(services, input, { registrationOpen: true })).ok).toBe(true);
    const second = await registerCustomer(
      services,
      { ...input, email: email.toUpperCase() },
      { registrationOpen: true },
    );
    expect(second).toEqual(refusal("conflict", "errors.emailTaken"));
  });

  it("keeps the language the account was made in, for the mail it will get", async () => {
    const services = app();
    const password = "Sup3r-secret-pw";
    const inFrench = await registerCustomer(
      services,
      { name: "Salma", email: uniqueEmail(), password, confirmPassword: password },
      { registrationOpen: true, locale: "fr" },
    );
    const unsaid = await registerCustomer(
      services,
      { name: "Omar", email: uniqueEmail(), password, confirmPassword: password },
      { registrationOpen: true },
    );
    if (!inFrench.ok || !unsaid.ok) throw new Error("registration refused");
    const localeOf = async (id: string) =>
      (await readRow(services.db, "users", ["locale"], { id })).locale;
    expect(await localeOf(inFrench.userId)).toBe("fr");
    expect(await localeOf(unsaid.userId)).toBeNull();
  });

  it("refuses a common password and a closed registration", async () => {
    const services = app();
    const common = await registerCustomer(
      services,
      { name: "Common", email: uniqueEmail(), password: "password1", confirmPassword: "password1" },
      { registrationOpen: true },
    );
    expect(common).toEqual(refusal("invalid", "errors.commonPassword"));
    const closed = await registerCustomer(
      services,
      {
        name: "Closed",
        email: uniqueEmail(),
        password: "Fine-pw-7781",
        confirmPassword: "Fine-pw-7781",
      },
      { registrationOpen: false },
    );
    expect(closed).toEqual(refusal("forbidden", "errors.registrationClosed"));
  });

  it("signs in, resolves the session, and signs out", async () => {
    const services = app();
    const email = uniqueEmail();
    await registeredCustomer(services, { name: "Sign In", email, password: "Sign-in-pw-55" });
    const result = await signIn(services, { email, password: "Sign-in-pw-55" }, client);
    if (!result.ok) throw new Error(result.error);
    expect(result.role).toBe("user");
    const cookie = cookieHeader(result.setCookies);
    const session = await getCurrentSession(services, cookie);
    expect(session?.user.email).toBe(email);

    expect((await sessionLifetimeMs(session!.sessionId)) / 86_400_000).toBeCloseTo(30, 1);

    await signOut(services, cookie);
    expect(await getCurrentSession(services, cookie)).toBeNull();
  });

  it("accepts only a session cookie signed with our secret, for a live session of an active account", async () => {
    const services = app();
    const email = uniqueEmail();
    const password = "Cookie-pw-7781";
    const userId = await registeredCustomer(services, { name: "Cookie Check", email, password });
    const cookie = await signedInCookie(services, { email, password }, client);
    const session = await getCurrentSession(services, cookie);
    expect(session?.user).toMatchObject({ id: userId, email, role: "user" });

    const [name, value] = cookie.split(";")[0]!.split("=") as [string, string];
    const [token, signature] = decodeURIComponent(value).split(".") as [string, string];
    const withValue = (v: string) => `${name}=${encodeURIComponent(v)}`;
    // Someone else's token under our signature, our token under a made-up one, no signature at all.
    const otherToken = `${token.startsWith("x") ? "y" : "x"}${token.slice(1)}`;
    expect(await getCurrentSession(services, withValue(`${otherToken}.${signature}`))).toBeNull();
    expect(await getCurrentSession(services, withValue(`${token}.${"A".repeat(43)}=`))).toBeNull();
    expect(await getCurrentSession(services, withValue(token))).toBeNull();
    expect(await getCurrentSession(services, `${name}=%E0%A4`)).toBeNull();
    // The same token signed with another secret.
    const { createHmac } = await import("node:crypto");
    const forged = createHmac("sha256", "another-secret").update(token).digest("base64");
    expect(await getCurrentSession(services, withValue(`${token}.${forged}`))).toBeNull();

    await services.db
      .updateTable("users")
      .set({ status: "suspended" })
      .where("id", "=", userId)
      .execute();
    expect(await getCurrentSession(services, cookie)).toBeNull();
    await services.db
      .updateTable("users")
      .set({ status: "active" })
      .where("id", "=", userId)
      .execute();
    expect(await getCurrentSession(services, cookie)).not.toBeNull();

    await services.db
      .updateTable("sessions")
      .set({ expires_at: new Date(Date.now() - 1000).toISOString() })
      .where("id", "=", session!.sessionId)
      .execute();
    expect(await getCurrentSession(services, cookie)).toBeNull();
  });

  it("gives an admin a 12-hour session", async () => {
    const services = app();
    const result = await signIn(
      services,
      { email: TEST_ADMIN.email, password: TEST_ADMIN.password },
      client,
    );
    if (!result.ok) throw new Error(result.error);
    expect(result.role).toBe("admin");
    const session = await getCurrentSession(services, cookieHeader(result.setCookies));
    expect((await sessionLifetimeMs(session!.sessionId)) / 3_600_000).toBeCloseTo(12, 1);
  });

  it("answers a wrong password and an unknown email the same way", async () => {
    const services = app();
    const email = uniqueEmail();
    await registeredCustomer(services, { name: "Wrong", email, password: "Right-pw-123" });
    const wrong = await signIn(services, { email, password: "Wrong-pw-123" }, { ip: "10.2.0.1" });
    const unknown = await signIn(
      services,
      { email: uniqueEmail(), password: "Wrong-pw-123" },
      { ip: "10.2.0.2" },
    );
    expect(wrong).toEqual(refusal("unauthenticated", "errors.invalidCredentials"));
    expect(unknown).toEqual(wrong);
  });

  it("throttles an email from one address after 5 failures in 15 minutes, without checking the password", async () => {
    const services = app();
    const email = uniqueEmail();
    await registeredCustomer(services, { name: "Throttle", email, password: "Throttle-pw-1" });
    for (let i = 0; i < 5; i++) {
      const failed = await signIn(
        services,
        { email, password: `nope-${i}-xx` },
        { ip: "10.3.0.1" },
      );
      expect(failed).toEqual(refusal("unauthenticated", "errors.invalidCredentials"));
    }
    const blocked = await signIn(
      services,
      { email, password: "Throttle-pw-1" },
      { ip: "10.3.0.1" },
    );
    expect(blocked).toEqual(tooManyAttempts(15));
    // Failures from one address do not lock the account for the others.
    const elsewhere = await signIn(
      services,
      { email, password: "Throttle-pw-1" },
      { ip: "10.3.0.2" },
    );
    expect(elsewhere.ok).toBe(true);
  });

  it("keeps the admin's usual address open when failures from everywhere reach the email's ceiling", async () => {
    const services = app();
    const admin = { email: uniqueEmail(), password: "Sole-admin-pw-4471" };
    await provisionAdmin(services, admin);
    const home = "10.3.5.1";
    // The admin signed in from home some days ago.
    await recordLoginAttempt(
      services.db,
      { email: admin.email, ip: home, succeeded: true },
      new Date(Date.now() - 20 * 86_400_000),
    );
    // Then 50 wrong passwords from 50 other addresses, and 5 more from home by someone sharing it.
    for (let i = 0; i < LOGIN_EMAIL_FAILURE_CEILING; i++)
      await recordLoginAttempt(services.db, {
        email: admin.email,
        ip: `10.3.6.${i}`,
        succeeded: false,
      });
    for (let i = 0; i < 5; i++)
      await recordLoginAttempt(services.db, {
        email: admin.email,
        ip: home,
        succeeded: false,
      });
    const login = (ip: string) =>
      signIn(services, { email: admin.email, password: admin.password }, { ip });
    // A new address is refused by the ceiling; home is known, and gets in.
    expect(await login("10.3.7.1")).toEqual(tooManyAttempts(15));
    expect((await login(home)).ok).toBe(true);
    // An address known only from more than 30 days ago is not.
    await recordLoginAttempt(
      services.db,
      { email: admin.email, ip: "10.3.7.2", succeeded: true },
      new Date(Date.now() - 31 * 86_400_000),
    );
    expect(await login("10.3.7.2")).toMatchObject(refusal("limited", "errors.tooManyAttempts"));
  });

  it("throttles an address after 20 attempts in a minute", async () => {
    const services = app();
    const ip = "10.4.4.4";
    for (let i = 0; i < 20; i++) {
      const result = await signIn(
        services,
        { email: `nobody${i}@example.com`, password: "whatever-1" },
        { ip },
      );
      expect(result.ok).toBe(false);
      if (!result.ok) expect(result.error).toBe("errors.invalidCredentials");
    }
    const blocked = await signIn(
      services,
      { email: TEST_ADMIN.email, password: TEST_ADMIN.password },
      { ip },
    );
    expect(blocked).toEqual(tooManyAttempts(1));
    const otherAddress = await signIn(
      services,
      { email: TEST_ADMIN.email, password: TEST_ADMIN.password },
      { ip: "10.4.4.5" },
    );
    expect(otherAddress.ok).toBe(true);
  });

  it("changes a password, ending the other sessions", async () => {
    const services = app();
    const email = uniqueEmail();
    const password = "First-pw-9988";
    await registeredCustomer(services, { name: "Changer", email, password });
    const first = await signedInCookie(services, { email, password }, client);
    const second = await signedInCookie(services, { email, password }, client);
    const session = await getCurrentSession(services, first);

    const change = (currentPassword: string) =>
      changePassword(services, {
        userId: session!.user.id,
        cookie: first,
        currentPassword,
        newPassword: "Second-pw-9988",
        ip: client.ip,
      });
    expect(await change("not-it-123")).toEqual(refusal("invalid", "errors.currentPasswordWrong"));

    expect((await change("First-pw-9988")).ok).toBe(true);
    expect(await getCurrentSession(services, second)).toBeNull();
    const again = await signIn(services, { email, password: "Second-pw-9988" }, client);
    expect(again.ok).toBe(true);
  });

  it("resets a password from the shell: a one-time password, sessions ended", async () => {
    const services = app();
    const email = uniqueEmail();
    const first = "Reset-pw-4455";
    await registeredCustomer(services, { name: "Reset", email, password: first });
    const before = await signedInCookie(services, { email, password: first }, client);
    const password = await resetPassword(services, email);
    expect(password).toHaveLength(20);
    expect(await getCurrentSession(services, before)).toBeNull();
    const after = await signIn(services, { email, password: password! }, client);
    expect(after).toMatchObject({ ok: true, mustChangePassword: true });
    expect(await resetPassword(services, "nobody@example.com")).toBeNull();
  });
});

it.each(["sqlite", "postgres"] as const)(
  "creates a default admin with a one-time password when ADMIN_EMAIL is unset [%s]",
  async (dialect) => {
    const database = await createTestDatabaseUrl(dialect);
    const services = createServices(
      testEnv(database.url, { ADMIN_EMAIL: undefined, ADMIN_PASSWORD: undefined }),
    );
    try {
      await prepareDatabase(services);
      const admin = await readRow(services.db, "users", "*", { role: "admin" });
      expect(admin.email).toBe(DEFAULT_ADMIN_EMAIL);
      expect(admin.must_change_password).toBe(1);
      expect(admin.coin_balance_cents).toBe(SEED_ADMIN_COINS * 100);
    } finally {
      await services.database.destroy();
      await database.drop();
    }
  },
);
