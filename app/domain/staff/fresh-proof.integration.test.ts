import { symmetricDecrypt } from "better-auth/crypto";
import { expect, it } from "vitest";
import { LOGIN_PAIR_FAILURE_LIMIT } from "~/domain/accounts/accounts";
import { getCurrentSession } from "~/domain/accounts/accounts.server";
import { signedInCookie, loginAttempts } from "../../../tests/support/account-fixtures";
import {
  codeAt,
  minutesAfter,
  signedInStaff,
  STAFF_PASSWORD,
  withTwoFactor,
} from "../../../tests/support/fresh-proof-fixtures";
import { readRow } from "../../../tests/support/read-column";
import { describeEachDatabase } from "../../../tests/support/test-database";
import { proveIdentity } from "./fresh-proof.server";

const SECRET = "fresh-proof-secret-text-0123456789";
const BACKUP_CODES = ["ABCDE-23456", "FGHJK-78923"];

let addresses = 0;
/** An address no other test signed in from. */
const address = () => `10.58.${Math.floor(addresses / 200)}.${addresses++ % 200}`;

describeEachDatabase("a fresh proof of identity", (app) => {
  const provenAtOf = async (sessionId: string) =>
    (await readRow(app().db, "sessions", ["proven_at"], { id: sessionId })).proven_at;

  const prove = (
    member: { userId: string; sessionId: string; ip: string },
    proof: string,
    now: Date,
  ) => proveIdentity(app(), { ...member, proof, now });

  it("takes the account's password, stamps that session alone and records a sign-in attempt", async () => {
    const member = await signedInStaff(app(), "billing", address());
    // The same member signed in in another browser: that session stays as it was.
    const other = await getCurrentSession(
      app(),
      await signedInCookie(
        app(),
        { email: member.email, password: STAFF_PASSWORD },
        { ip: member.ip },
      ),
    );
    const now = minutesAfter(member.provenAt, 20);
    expect(await prove(member, "not the password", now)).toEqual({
      ok: false,
      kind: "invalid",
      error: "admin-staff.freshProof.wrong",
    });
    expect(await provenAtOf(member.sessionId)).toBeNull();
    expect(await prove(member, STAFF_PASSWORD, now)).toEqual({ ok: true, method: "password" });
    expect(await provenAtOf(member.sessionId)).toBe(now.toISOString());
    expect(await provenAtOf(other!.sessionId)).toBeNull();
    // Each proof was a sign-in attempt from the address: the sign-ins, the wrong one, the right one.
    expect(await loginAttempts(app(), member.email, member.ip)).toEqual([
      { succeeded: 1 },
      { succeeded: 1 },
      { succeeded: 0 },
      { succeeded: 1 },
    ]);
    // What the session reads back: proven then.
    expect((await getCurrentSession(app(), member.cookie))?.provenAt).toBe(now.toISOString());
  });

  it("takes a current code of the app once, and a backup code once", async () => {
    const member = await signedInStaff(app(), "owner", address());
    await withTwoFactor(app(), member.userId, { secret: SECRET, backupCodes: BACKUP_CODES });
    const now = minutesAfter(member.provenAt, 30);
    const code = codeAt(SECRET, now);
    expect(await prove(member, code, now)).toEqual({ ok: true, method: "totp" });
    // The same code again (another tab, or someone who saw it): refused.
    expect(await prove(member, code, now)).toMatchObject({ ok: false, kind: "invalid" });
    // A code of a step long gone: refused.
    expect(
      await prove(member, codeAt(SECRET, minutesAfter(member.provenAt, 20)), now),
    ).toMatchObject({ ok: false, kind: "invalid" });
    // The next step's code works, written as a reader might (spaces).
    const later = new Date(now.getTime() + 30_000);
    const next = codeAt(SECRET, later);
    expect(await prove(member, `${next.slice(0, 3)} ${next.slice(3)}`, later)).toEqual({
      ok: true,
      method: "totp",
    });
    // A backup code, typed in small letters without its dash, works once and is used up.
    expect(await prove(member, "abcde23456", later)).toEqual({ ok: true, method: "backup" });
    expect(await prove(member, "ABCDE-23456", later)).toMatchObject({ ok: false, kind: "invalid" });
    const row = await readRow(app().db, "two_factors", ["backup_codes"], {
      user_id: member.userId,
    });
    const { secretConfig } = await app().auth.$context;
    expect(
      JSON.parse(await symmetricDecrypt({ key: secretConfig, data: row.backup_codes })),
    ).toEqual(["FGHJK-78923"]);
    // The password still proves it with two-factor on.
    expect(await prove(member, STAFF_PASSWORD, later)).toEqual({ ok: true, method: "password" });
  });

  it("takes no code from an account without two-factor sign-in", async () => {
    const member = await signedInStaff(app(), "owner", address());
    const now = minutesAfter(member.provenAt, 20);
    expect(await prove(member, codeAt(SECRET, now), now)).toMatchObject({
      ok: false,
      kind: "invalid",
    });
    expect(await provenAtOf(member.sessionId)).toBeNull();
  });

  it("refuses after five wrong proofs in 15 minutes, even from the account's usual address", async () => {
    const member = await signedInStaff(app(), "owner", address());
    const start = minutesAfter(member.provenAt, 20);
    for (let i = 0; i < LOGIN_PAIR_FAILURE_LIMIT; i++)
      expect(await prove(member, `wrong ${i}`, new Date(start.getTime() + i * 1000))).toMatchObject(
        {
          kind: "invalid",
        },
      );
    const blocked = new Date(start.getTime() + 60_000);
    // The right password now: refused unchecked, recorded as no attempt, the session not stamped.
    expect(await prove(member, STAFF_PASSWORD, blocked)).toEqual({
      ok: false,
      kind: "limited",
      error: "admin-staff.freshProof.limited",
      minutes: 14,
    });
    expect(await provenAtOf(member.sessionId)).toBeNull();
    const attempts = await loginAttempts(app(), member.email, member.ip);
    expect(attempts.filter((attempt) => attempt.succeeded === 0)).toHaveLength(
      LOGIN_PAIR_FAILURE_LIMIT,
    );
    // 15 minutes after the first wrong one, the next proof is checked again.
    const over = minutesAfter(start.toISOString(), 15);
    expect(await prove(member, STAFF_PASSWORD, over)).toEqual({ ok: true, method: "password" });
  });

  it("lets no more than the limit through when wrong proofs are sent at once", async () => {
    const member = await signedInStaff(app(), "owner", address());
    const now = minutesAfter(member.provenAt, 20);
    const results = await Promise.all(
      Array.from({ length: 8 }, (_, i) => prove(member, `guess ${i}`, now)),
    );
    expect(results.filter((result) => !result.ok && result.kind === "invalid")).toHaveLength(
      LOGIN_PAIR_FAILURE_LIMIT,
    );
    expect(results.filter((result) => !result.ok && result.kind === "limited")).toHaveLength(
      8 - LOGIN_PAIR_FAILURE_LIMIT,
    );
    const failures = (await loginAttempts(app(), member.email, member.ip)).filter(
      (attempt) => attempt.succeeded === 0,
    );
    expect(failures).toHaveLength(LOGIN_PAIR_FAILURE_LIMIT);
  });
});
