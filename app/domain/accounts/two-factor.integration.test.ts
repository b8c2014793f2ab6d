import { existsSync, readFileSync } from "node:fs";
import { symmetricEncrypt } from "better-auth/crypto";
import { sql } from "kysely";
import { expect, it } from "vitest";
import * as dashboard from "~/routes/dashboard/account";
import * as login from "~/routes/login";
import { sqliteFilePath } from "~/db/database.server";
import { customerSignedInAt, loginAttempts } from "../../../tests/support/account-fixtures";
import { readRow, readRows } from "../../../tests/support/read-column";
import { contextFor, postAction, routeArgs } from "../../../tests/support/request-context";
import { refusal } from "../../../tests/support/results";
import { describeEachDatabase } from "../../../tests/support/test-database";
import { freshTotpCode, previousTotpCode, wrongTotpCode } from "../../../tests/support/totp";
import { signInCookie } from "../../../scripts/bench/lib";
import { ADMIN_SESSION_HOURS, LOGIN_PAIR_FAILURE_LIMIT } from "./accounts";
import { inTransaction } from "~/db/transaction";
import { eraseAccount } from "./account-deletion.server";
import { getCurrentSession, provisionAdmin, signIn } from "./accounts.server";
import {
  confirmTwoFactorSetup,
  disableTwoFactor,
  loadTwoFactorState,
  regenerateBackupCodes,
  startTwoFactorSetup,
  twoFactorChallenge,
  verifySignInCode,
} from "./two-factor.server";

const PASSWORD = "Second-factor-pw-8841";
let n = 0;
const uniqueEmail = () => `tfa${Date.now()}${n++}@example.com`;
/** A fresh address: one that never signed in to the account. */
const stranger = () => `10.52.${Math.floor(n / 200)}.${n++ % 200}`;

/** The Cookie header after a response: `setCookies` replace (or, expired, drop) the cookies they name. */
function withCookies(cookie: string, setCookies: string[]): string {
  const jar = new Map<string, string>();
  for (const part of cookie.split(";")) {
    const [name, ...rest] = part.trim().split("=");
    if (name) jar.set(name, rest.join("="));
  }
  for (const set of setCookies) {
    const [pair] = set.split(";");
    const [name, ...rest] = pair!.split("=");
    if (/max-age=0/i.test(set) || rest.join("=") === "") jar.delete(name!);
    else jar.set(name!, rest.join("="));
  }
  return [...jar].map(([name, value]) => `${name}=${value}`).join("; ");
}

describeEachDatabase("two-factor sign-in", (app, dialect) => {
  const customer = () =>
    customerSignedInAt(
      app(),
      { name: "Second Factor", email: uniqueEmail(), password: PASSWORD },
      stranger(),
    );

  /** Turns two-factor on for a signed-in account: its secret, backup codes and new session cookie. */
  async function turnedOn(account: { userId: string; cookie: string; home: string }) {
    const signed = { userId: account.userId, cookie: account.cookie, ip: account.home };
    expect(await startTwoFactorSetup(app(), { ...signed, password: PASSWORD })).toEqual({
      ok: true,
    });
    const state = await loadTwoFactorState(app(), account.userId);
    if (state.status !== "pending") throw new Error(`set-up not pending: ${state.status}`);
    const confirmed = await confirmTwoFactorSetup(app(), {
      ...signed,
      code: await freshTotpCode(state.secret),
    });
    if (!confirmed.ok) throw new Error(confirmed.error);
    return {
      secret: state.secret,
      backupCodes: confirmed.backupCodes,
      cookie: withCookies(account.cookie, confirmed.setCookies),
    };
  }

  /** The password step of a sign-in that must go on to a code: the two_factor cookie it set. */
  async function passwordStep(email: string, ip: string, cookie?: string) {
    const result = await signIn(app(), { email, password: PASSWORD }, { ip, cookie });
    expect(result).toMatchObject({ ok: false, kind: "two-factor" });
    if (result.ok || result.kind !== "two-factor") throw new Error("no code step");
    return withCookies(cookie ?? "", result.setCookies);
  }

  /** The code step answered with the app's current code, the device trusted when `trustDevice`. */
  const totpStep = async (
    secret: string,
    step: { ip: string; cookie: string },
    trustDevice = false,
  ) =>
    verifySignInCode(
      app(),
      { code: await freshTotpCode(secret), method: "totp", trustDevice },
      step,
    );

  const attempts = (email: string, ip: string) => loginAttempts(app(), email, ip);

  const audits = (userId: string, action: string) =>
    readRows(app().db, "audit_log", ["actor_id", "action"], { target_id: userId, action });

  it("turns on only after the password and then a code from the app", async () => {
    const account = await customer();
    const signed = { userId: account.userId, cookie: account.cookie, ip: account.home };
    expect(await startTwoFactorSetup(app(), { ...signed, password: "not-my-password" })).toEqual({
      ...refusal("invalid", "dashboard.account.currentPasswordWrong"),
      field: "currentPassword",
    });
    expect(await loadTwoFactorState(app(), account.userId)).toEqual({ status: "off" });

    expect(await startTwoFactorSetup(app(), { ...signed, password: PASSWORD })).toEqual({
      ok: true,
    });
    const pending = await loadTwoFactorState(app(), account.userId);
    expect(pending.status).toBe("pending");
    if (pending.status !== "pending") return;
    expect(pending.secret).toMatch(/^[A-Z2-7]{32,}$/);
    expect(pending.qrSvg).toContain("<svg");

    expect(
      await confirmTwoFactorSetup(app(), { ...signed, code: wrongTotpCode(pending.secret) }),
    ).toEqual({ ...refusal("invalid", "dashboard.twoFactor.errors.codeWrong"), field: "code" });
    expect(await confirmTwoFactorSetup(app(), { ...signed, code: "nonsense" })).toMatchObject({
      ok: false,
      field: "code",
    });
    // Still not on: the password alone signs in.
    expect(
      (await signIn(app(), { email: account.email, password: PASSWORD }, { ip: account.home })).ok,
    ).toBe(true);

    const endOf = (sessionId: string) =>
      app()
        .db.selectFrom("sessions")
        .select("expires_at")
        .where("id", "=", sessionId)
        .executeTakeFirst()
        .then((row) => (row ? new Date(row.expires_at).getTime() : null));
    const oldSession = await getCurrentSession(app(), account.cookie);
    const oldEnd = await endOf(oldSession!.sessionId);
    const confirmed = await confirmTwoFactorSetup(app(), {
      ...signed,
      code: await freshTotpCode(pending.secret),
    });
    expect(confirmed.ok).toBe(true);
    if (!confirmed.ok) return;
    expect(confirmed.backupCodes).toHaveLength(10);
    expect(new Set(confirmed.backupCodes).size).toBe(10);
    expect(await loadTwoFactorState(app(), account.userId)).toEqual({
      status: "on",
      backupCodesLeft: 10,
    });
    expect(await audits(account.userId, "account.two_factor_enable")).toEqual([
      { actor_id: account.userId, action: "account.two_factor_enable" },
    ]);
    // better-auth signed the session in again; the new one keeps the old one's end.
    const newCookie = withCookies(account.cookie, confirmed.setCookies);
    const session = await getCurrentSession(app(), newCookie);
    expect(session?.user.id).toBe(account.userId);
    expect(session!.sessionId).not.toBe(oldSession!.sessionId);
    expect(await endOf(session!.sessionId)).toBe(oldEnd);

    expect(
      await startTwoFactorSetup(app(), { ...signed, cookie: newCookie, password: PASSWORD }),
    ).toEqual(refusal("conflict", "dashboard.twoFactor.errors.alreadyOn"));
  });

  it("asks for the code after the password, then signs in as a password would", async () => {
    const account = await customer();
    const { secret } = await turnedOn(account);
    const ip = stranger();
    const sessionsBefore = await readRows(app().db, "sessions", ["id"], {
      user_id: account.userId,
    });
    const cookie = await passwordStep(account.email, ip);
    expect(cookie).toContain("two_factor=");
    // No session until the code: better-auth's own was deleted.
    expect(await readRows(app().db, "sessions", ["id"], { user_id: account.userId })).toHaveLength(
      sessionsBefore.length,
    );
    expect(await getCurrentSession(app(), cookie)).toBeNull();
    expect(await twoFactorChallenge(app(), cookie)).toEqual({ trustOffered: true });
    expect(await attempts(account.email, ip)).toEqual([{ succeeded: 0 }]);

    const result = await totpStep(secret, { ip, cookie });
    expect(result).toMatchObject({ ok: true, role: "user", mustChangePassword: false });
    if (!result.ok) return;
    const session = await getCurrentSession(app(), withCookies(cookie, result.setCookies));
    expect(session?.user.id).toBe(account.userId);
    expect(
      result.setCookies.some((c) => c.includes("trust_device=") && !/max-age=0/i.test(c)),
    ).toBe(false);
    // The password's attempt and the code's: both a success.
    expect(await attempts(account.email, ip)).toEqual([{ succeeded: 1 }, { succeeded: 1 }]);
    // The code step is used up.
    expect(await twoFactorChallenge(app(), cookie)).toBeNull();
  });

  it("takes a code once: seen and typed again while still valid, it signs nobody in", async () => {
    const account = await customer();
    const { secret } = await turnedOn(account);
    const ip = stranger();
    const code = await freshTotpCode(secret);
    const first = await verifySignInCode(
      app(),
      { code, method: "totp", trustDevice: false },
      { ip, cookie: await passwordStep(account.email, ip) },
    );
    expect(first).toMatchObject({ ok: true });
    const step = await readRow(app().db, "users", ["totp_last_step"], { id: account.userId });
    expect(Number(step.totp_last_step)).toBeGreaterThan(0);

    // The same code on a second sign-in (someone who saw it, or a proxy that kept it).
    const again = await verifySignInCode(
      app(),
      { code, method: "totp", trustDevice: false },
      { ip, cookie: await passwordStep(account.email, ip) },
    );
    expect(again).toMatchObject(refusal("invalid", "twoFactor.errors.codeWrong"));
    expect(await readRow(app().db, "users", ["totp_last_step"], { id: account.userId })).toEqual(
      step,
    );
  });

  it("counts wrong codes towards the login throttle, and refuses even the right one past the limit", async () => {
    const account = await customer();
    const { secret } = await turnedOn(account);
    const ip = stranger();
    const cookie = await passwordStep(account.email, ip);
    // The password's attempt counts as a failure until its code is right: with the wrong codes, the limit.
    for (let i = 1; i < LOGIN_PAIR_FAILURE_LIMIT; i++)
      expect(
        await verifySignInCode(
          app(),
          { code: wrongTotpCode(secret), method: "totp", trustDevice: false },
          { ip, cookie },
        ),
      ).toEqual({ ...refusal("invalid", "twoFactor.errors.codeWrong"), trustOffered: true });
    expect(await attempts(account.email, ip)).toHaveLength(LOGIN_PAIR_FAILURE_LIMIT);
    expect(await totpStep(secret, { ip, cookie })).toMatchObject(
      refusal("limited", "errors.tooManyAttempts"),
    );
    // And the password too, from that address.
    expect(await signIn(app(), { email: account.email, password: PASSWORD }, { ip })).toMatchObject(
      { ok: false, kind: "limited" },
    );
  });

  it("takes a backup code once; new codes make the old ones stop working", async () => {
    const account = await customer();
    const on = await turnedOn(account);
    const ip = account.home;
    const [first, second] = on.backupCodes;
    const useBackup = async (code: string) =>
      verifySignInCode(
        app(),
        { code, method: "backup", trustDevice: false },
        { ip, cookie: await passwordStep(account.email, ip) },
      );
    expect(await useBackup(first!)).toMatchObject({ ok: true });
    expect(await useBackup(first!)).toMatchObject(
      refusal("invalid", "twoFactor.errors.backupCodeWrong"),
    );
    expect(await loadTwoFactorState(app(), account.userId)).toEqual({
      status: "on",
      backupCodesLeft: 9,
    });

    const signed = { userId: account.userId, cookie: on.cookie, ip };
    expect(
      await regenerateBackupCodes(app(), { ...signed, password: "wrong-password" }),
    ).toMatchObject({
      ok: false,
      error: "dashboard.account.currentPasswordWrong",
    });
    const renewed = await regenerateBackupCodes(app(), { ...signed, password: PASSWORD });
    expect(renewed.ok).toBe(true);
    if (!renewed.ok) return;
    expect(renewed.backupCodes).toHaveLength(10);
    expect(renewed.backupCodes).not.toContain(second);
    expect(await useBackup(second!)).toMatchObject({ ok: false, kind: "invalid" });
    expect(await useBackup(renewed.backupCodes[0]!)).toMatchObject({ ok: true });
    expect(await audits(account.userId, "account.two_factor_backup_codes")).toHaveLength(1);
  });

  it("makes codes without look-alikes, takes them as typed, and keeps codes stored before working", async () => {
    const account = await customer();
    const on = await turnedOn(account);
    const ip = account.home;
    for (const code of on.backupCodes)
      expect(code).toMatch(/^[2-9A-HJKMNP-Z]{5}-[2-9A-HJKMNP-Z]{5}$/);
    const useBackup = async (code: string) =>
      verifySignInCode(
        app(),
        { code, method: "backup", trustDevice: false },
        { ip, cookie: await passwordStep(account.email, ip) },
      );
    // In small letters, without the dash, with spaces: the code it stands for, used up.
    const typed = on.backupCodes[0]!.toLowerCase().replace("-", " ");
    expect(await useBackup(typed)).toMatchObject({ ok: true });
    expect(await useBackup(on.backupCodes[0]!)).toMatchObject(
      refusal("invalid", "twoFactor.errors.backupCodeWrong"),
    );

    // Codes the plugin made before (mixed case, look-alikes included), stored as it stores them.
    const old = ["aB3dE-fGh1J", "O0lI1-xYz9q", "Kk2mN-pP4rS"];
    const { secretConfig } = await app().auth.$context;
    await app()
      .db.updateTable("two_factors")
      .set({
        backup_codes: await symmetricEncrypt({ key: secretConfig, data: JSON.stringify(old) }),
      })
      .where("user_id", "=", account.userId)
      .execute();
    expect(await useBackup("aB3dE-fGh1J")).toMatchObject({ ok: true });
    expect(await useBackup(" o0li1-xyz9q ")).toMatchObject({ ok: true });
    expect(await useBackup("aB3dE-fGh1J")).toMatchObject({ ok: false, kind: "invalid" });
    expect(await loadTwoFactorState(app(), account.userId)).toEqual({
      status: "on",
      backupCodesLeft: 1,
    });
    // Turning it off takes one too.
    const off = await disableTwoFactor(app(), {
      userId: account.userId,
      cookie: on.cookie,
      ip,
      password: PASSWORD,
      code: "kk2mn-pp4rs",
    });
    expect(off).toMatchObject({ ok: true });
  });

  it("turns off with the password and a code", async () => {
    const account = await customer();
    const on = await turnedOn(account);
    const signed = { userId: account.userId, cookie: on.cookie, ip: account.home };
    expect(
      await disableTwoFactor(app(), { ...signed, password: "wrong-password", code: "000000" }),
    ).toMatchObject({ ok: false, error: "dashboard.account.currentPasswordWrong" });
    expect(
      await disableTwoFactor(app(), {
        ...signed,
        password: PASSWORD,
        code: wrongTotpCode(on.secret),
      }),
    ).toMatchObject({ ok: false, error: "dashboard.twoFactor.errors.codeWrong", field: "code" });
    expect((await loadTwoFactorState(app(), account.userId)).status).toBe("on");

    const off = await disableTwoFactor(app(), {
      ...signed,
      password: PASSWORD,
      code: await freshTotpCode(on.secret),
    });
    expect(off.ok).toBe(true);
    if (!off.ok) return;
    expect(await getCurrentSession(app(), withCookies(on.cookie, off.setCookies))).not.toBeNull();
    expect(await loadTwoFactorState(app(), account.userId)).toEqual({ status: "off" });
    expect(await audits(account.userId, "account.two_factor_disable")).toHaveLength(1);
    expect(
      (await signIn(app(), { email: account.email, password: PASSWORD }, { ip: stranger() })).ok,
    ).toBe(true);
  });

  it("trusts a customer's device for 30 days, never an admin's", async () => {
    const account = await customer();
    const { secret } = await turnedOn(account);
    const ip = account.home;
    const cookie = await passwordStep(account.email, ip);
    // The step before's code: the admin's sign-in below uses the current one (a code works once).
    const trusted = await verifySignInCode(
      app(),
      { code: await previousTotpCode(secret), method: "totp", trustDevice: true },
      { ip, cookie },
    );
    expect(trusted.ok).toBe(true);
    if (!trusted.ok) return;
    const trustCookie = trusted.setCookies.find((c) => c.includes("trust_device="));
    expect(trustCookie).toMatch(/max-age=2592000/i);
    const browser = withCookies("", trusted.setCookies);
    // The same browser signs in with the password alone.
    const again = await signIn(
      app(),
      { email: account.email, password: PASSWORD },
      { ip, cookie: browser },
    );
    expect(again).toMatchObject({ ok: true, role: "user" });

    // Made an admin, the account gives a code again, even from that browser, and is not offered trust.
    await provisionAdmin(app(), { email: account.email, via: "test" });
    const adminStep = await passwordStep(account.email, ip, browser);
    expect(await twoFactorChallenge(app(), adminStep)).toEqual({ trustOffered: false });
    const admin = await totpStep(secret, { ip, cookie: adminStep }, true);
    expect(admin).toMatchObject({ ok: true, role: "admin" });
    if (!admin.ok) return;
    expect(admin.setCookies.some((c) => c.includes("trust_device=") && !/max-age=0/i.test(c))).toBe(
      false,
    );
    // An admin's session: 12 hours, as a password sign-in gives.
    const session = await getCurrentSession(app(), withCookies(adminStep, admin.setCookies));
    const row = await readRow(app().db, "sessions", ["expires_at"], { id: session!.sessionId });
    const hours = (new Date(row.expires_at).getTime() - Date.now()) / 3_600_000;
    expect(hours).toBeGreaterThan(ADMIN_SESSION_HOURS - 0.1);
    expect(hours).toBeLessThanOrEqual(ADMIN_SESSION_HOURS);
  });

  it("lets the benchmarks and soaks sign in with a code computed from the secret", async () => {
    const account = await customer();
    const { secret } = await turnedOn(account);
    await expect(signInCookie(app(), account.email, PASSWORD)).rejects.toThrow(/sign in failed/);
    const cookie = await signInCookie(app(), account.email, PASSWORD, secret);
    expect((await getCurrentSession(app(), cookie))?.user.id).toBe(account.userId);
  });

  it("sends back to the password once the code step has expired", async () => {
    const account = await customer();
    const { secret } = await turnedOn(account);
    const ip = account.home;
    const cookie = await passwordStep(account.email, ip);
    await app()
      .db.updateTable("verifications")
      .set({ expires_at: new Date(Date.now() - 1000).toISOString() as never })
      .where("value", "=", account.userId)
      .where("identifier", "like", "2fa-%")
      .execute();
    expect(await twoFactorChallenge(app(), cookie)).toBeNull();
    expect(await totpStep(secret, { ip, cookie })).toEqual(
      refusal("unauthenticated", "twoFactor.errors.expired"),
    );
    // A forged cookie is no code step either.
    expect(
      await twoFactorChallenge(app(), "hostfront.two_factor=2fa-made-up.c2lnbmF0dXJl"),
    ).toBeNull();
  });

  it("keeps the secret and the backup codes encrypted in the database", async () => {
    const account = await customer();
    const on = await turnedOn(account);
    const rawSecret = Buffer.from(base32ToBytes(on.secret)).toString("utf8");
    const needles = [on.secret, rawSecret, ...on.backupCodes];
    let stored: string;
    if (dialect === "sqlite") {
      await sql`pragma wal_checkpoint(TRUNCATE)`.execute(app().db);
      const file = sqliteFilePath(app().env.DATABASE_URL);
      stored = readFileSync(file).toString("latin1");
      if (existsSync(`${file}-wal`)) stored += readFileSync(`${file}-wal`).toString("latin1");
      // The check reads what it means to: the account's email is in the file in clear text.
      expect(stored).toContain(account.email);
    } else {
      const rows = await sql<{
        row: string;
      }>`select row_to_json(t)::text as row from two_factors t`.execute(app().db);
      stored = rows.rows.map((r) => r.row).join("\n");
      expect(stored).toContain(account.userId);
    }
    for (const needle of needles) expect(stored).not.toContain(needle);
  });

  it("is erased with the account: secret, backup codes and trusted devices", async () => {
    const account = await customer();
    const { secret } = await turnedOn(account);
    const cookie = await passwordStep(account.email, account.home);
    await totpStep(secret, { ip: account.home, cookie }, true);
    await inTransaction(app().db, (trx) =>
      eraseAccount(trx, { id: account.userId, email: account.email }, account.userId),
    );
    expect(await readRows(app().db, "two_factors", ["id"], { user_id: account.userId })).toEqual(
      [],
    );
    expect(await readRows(app().db, "verifications", ["id"], { value: account.userId })).toEqual(
      [],
    );
  });

  it("drives the login page: password, then the code step, then home", async () => {
    const account = await customer();
    const { secret } = await turnedOn(account);
    const ip = stranger();
    const first = (await postAction(
      app(),
      login,
      "/login?redirectTo=%2Fdashboard%3Ftab%3Dbilling",
      { email: account.email, password: PASSWORD, redirectTo: "/dashboard?tab=billing" },
      { ip },
    )) as Response;
    expect(first.status).toBe(302);
    expect(first.headers.get("location")).toBe(
      "/login?step=code&redirectTo=%2Fdashboard%3Ftab%3Dbilling",
    );
    const cookie = withCookies("", first.headers.getSetCookie());
    const page = (await login.loader(
      routeArgs({
        request: new Request("http://localhost/login?step=code", { headers: { cookie } }),
        context: await contextFor(app(), { cookie, ip }),
      }),
    )) as Awaited<ReturnType<typeof login.loader>>;
    expect(page.codeStep).toEqual({ method: "totp", trustOffered: true });

    const wrong = (await postAction(
      app(),
      login,
      "/login?step=code",
      { step: "code", method: "totp", code: wrongTotpCode(secret) },
      { ip, cookie },
    )) as { data: Record<string, unknown>; init: { status: number } };
    expect(wrong.init.status).toBe(400);
    expect(wrong.data.formError).toBe("auth.twoFactor.errors.codeWrong");

    const done = (await postAction(
      app(),
      login,
      "/login?step=code",
      {
        step: "code",
        method: "totp",
        code: await freshTotpCode(secret),
        redirectTo: "/dashboard?tab=billing",
      },
      { ip, cookie },
    )) as Response;
    expect(done.status).toBe(302);
    expect(done.headers.get("location")).toBe("/dashboard?tab=billing");
    const session = await getCurrentSession(
      app(),
      withCookies(cookie, done.headers.getSetCookie()),
    );
    expect(session?.user.id).toBe(account.userId);
  });

  it("drives the account tab: set-up, the code, the backup codes shown once", async () => {
    const account = await customer();
    const post = (fields: Record<string, string>, cookie = account.cookie) =>
      postAction(app(), dashboard, "/dashboard/account", fields, {
        cookie,
        ip: account.home,
      }) as Promise<{ data: Record<string, unknown>; init: { status: number; headers?: Headers } }>;
    const refused = await post({ intent: "two-factor-start", currentPassword: "" });
    expect(refused.init.status).toBe(400);
    // The card's own words, not the profile card's "to change your email".
    expect(refused.data).toMatchObject({
      ok: false,
      form: "two-factor",
      intent: "two-factor-start",
      message: "dashboard.twoFactor.errors.passwordToStart",
      fieldErrors: { currentPassword: "dashboard.twoFactor.errors.passwordToStart" },
    });
    for (const [intent, message] of [
      ["two-factor-regenerate", "dashboard.twoFactor.errors.passwordToRegenerate"],
      ["two-factor-disable", "dashboard.twoFactor.errors.passwordToDisable"],
    ] as const) {
      const answer = await post({ intent, code: "123456" });
      expect(answer.data, intent).toMatchObject({ form: "two-factor", intent, message });
    }
    const bogus = await post({ intent: "two-factor-bogus" });
    expect(bogus.init.status).toBe(400);
    expect(bogus.data).toMatchObject({ ok: false, form: "two-factor" });
    expect(String(bogus.data.message)).toMatch(/^dashboard\./);
    const noCode = await post({ intent: "two-factor-confirm", code: "" });
    expect(noCode.data).toMatchObject({
      ok: false,
      fieldErrors: { code: "dashboard.twoFactor.errors.codeRequired" },
    });
    const started = await post({ intent: "two-factor-start", currentPassword: PASSWORD });
    expect(started.data).toMatchObject({ ok: true, message: "dashboard.twoFactor.started" });
    const state = await loadTwoFactorState(app(), account.userId);
    if (state.status !== "pending") throw new Error("not pending");
    const confirmed = await post({
      intent: "two-factor-confirm",
      code: await freshTotpCode(state.secret),
    });
    expect(confirmed.data).toMatchObject({ ok: true, message: "dashboard.twoFactor.enabled" });
    expect(confirmed.data.backupCodes).toHaveLength(10);
  });
});

function base32ToBytes(text: string): number[] {
  const alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZ234567";
  const out: number[] = [];
  let buffer = 0;
  let bits = 0;
  for (const char of text.replace(/\s/g, "")) {
    buffer = (buffer << 5) | alphabet.indexOf(char);
    bits += 5;
    if (bits >= 8) {
      out.push((buffer >>> (bits - 8)) & 255);
      bits -= 8;
    }
  }
  return out;
}
