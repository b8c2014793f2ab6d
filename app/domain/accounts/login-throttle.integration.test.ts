import SQLite from "better-sqlite3";
import { expect, it } from "vitest";
import { sqliteFilePath } from "~/db/database.server";
import {
  isEarlier,
  raceChildren,
  startSignalledChild,
} from "../../../tests/support/process-moments";
import { readRows } from "../../../tests/support/read-column";
import { refusal } from "../../../tests/support/results";
import { describeEachDatabase } from "../../../tests/support/test-database";
import {
  LOGIN_EMAIL_FAILURE_CEILING,
  LOGIN_IP_ATTEMPT_LIMIT,
  LOGIN_PAIR_FAILURE_LIMIT,
} from "./accounts";
import { registerCustomer, signIn } from "./accounts.server";
import { recordLoginAttempt, reserveLoginAttempt } from "./login-throttle.server";

type Outcome = "checked" | "refused";
interface Attempt {
  email: string;
  ip: string;
}

/** tests/support/login-racer.ts as a separate process (a server process of its own). */
function racer(url: string, password: string, attempts: Attempt[]) {
  return startSignalledChild("tests/support/login-racer.ts", [
    url,
    password,
    ...attempts.map(({ email, ip }) => `${email} ${ip}`),
  ]);
}

const count = (outcomes: Outcome[], outcome: Outcome) =>
  outcomes.filter((o) => o === outcome).length;
const times = <T>(n: number, make: (i: number) => T) =>
  Array.from({ length: n }, (_, i) => make(i));
let counter = 0;
const unique = (prefix: string) => `${prefix}${Date.now()}${counter++}@example.com`;

// The bug: 30 parallel wrong logins for one email from one address all got their password checked,
// where 5 are allowed, because the throttle was read before and written after the check. Each test here
// fires its sign-ins at once and counts the password checks (a sign-in that is not refused is checked).
describeEachDatabase("the login throttle under parallel sign-ins", (app, dialect) => {
  async function account() {
    const email = unique("racer");
    const password = "Racer-pw-5521";
    const result = await registerCustomer(
      app(),
      { name: "Racer", email, password, confirmPassword: password },
      { registrationOpen: true },
    );
    if (!result.ok) throw new Error(result.error);
    return { email, password };
  }

  /** Every attempt at once, in this process (on PostgreSQL over the pool's parallel connections). */
  async function race(attempts: Attempt[], password = "Wrong-pw-0000"): Promise<Outcome[]> {
    const results = await Promise.all(
      attempts.map((attempt) => signIn(app(), { email: attempt.email, password }, attempt)),
    );
    return results.map((result) => {
      if (result.ok) throw new Error("a wrong password got in");
      return result.error === "errors.invalidCredentials" ? "checked" : "refused";
    });
  }

  async function recorded(where: { email?: string; ip?: string }) {
    let query = app()
      .db.selectFrom("login_attempts")
      .select((eb) => eb.fn.countAll<number>().as("n"));
    if (where.email) query = query.where("email", "=", where.email);
    if (where.ip) query = query.where("ip_address", "=", where.ip);
    return Number((await query.executeTakeFirstOrThrow()).n);
  }

  it("checks 5 of 50 parallel wrong passwords for one email from one address", async () => {
    const { email, password } = await account();
    const ip = "198.18.0.1";
    const outcomes = await race(times(50, () => ({ email, ip })));
    expect(count(outcomes, "checked")).toBe(LOGIN_PAIR_FAILURE_LIMIT);
    expect(count(outcomes, "refused")).toBe(50 - LOGIN_PAIR_FAILURE_LIMIT);
    expect(await recorded({ email, ip })).toBe(LOGIN_PAIR_FAILURE_LIMIT);
    // The right password from that address waits too; from another address it gets in.
    const blocked = await signIn(app(), { email, password }, { ip });
    expect(blocked).toMatchObject({ ...refusal("limited", "errors.tooManyAttempts"), minutes: 15 });
    expect((await signIn(app(), { email, password }, { ip: "198.18.0.2" })).ok).toBe(true);
  });

  it("checks 20 of 50 parallel sign-ins from one address", async () => {
    const ip = "198.18.1.1";
    const outcomes = await race(times(50, () => ({ email: unique("spray"), ip })));
    expect(count(outcomes, "checked")).toBe(LOGIN_IP_ATTEMPT_LIMIT);
    expect(await recorded({ ip })).toBe(LOGIN_IP_ATTEMPT_LIMIT);
  });

  it("checks 50 of 60 parallel wrong passwords for one email from 60 addresses", async () => {
    const { email } = await account();
    const outcomes = await race(times(60, (i) => ({ email, ip: `198.18.2.${i + 1}` })));
    expect(count(outcomes, "checked")).toBe(LOGIN_EMAIL_FAILURE_CEILING);
    expect(await recorded({ email })).toBe(LOGIN_EMAIL_FAILURE_CEILING);
  });

  it("holds across server processes sharing the database", async () => {
    const { email } = await account();
    const pairIp = "198.18.3.1";
    const sprayIp = "198.18.3.2";
    // Each process: 25 wrong passwords for one email from one address, and 25 sign-ins for other
    // emails from another address, all at once; both processes start together, once both are ready.
    const perProcess = (p: number) => [
      ...times(25, () => ({ email, ip: pairIp })),
      ...times(25, (i) => ({ email: `spray-${p}-${i}-${counter}@example.com`, ip: sprayIp })),
    ];
    const runs = await raceChildren(
      [0, 1].map((p) => racer(app().env.DATABASE_URL, "Wrong-pw-0000", perProcess(p))),
    );
    for (const run of runs) expect(run.err).toBe("");
    expect(runs.map((run) => run.code)).toEqual([0, 0]);
    const reports = runs.map(
      (run) => JSON.parse(run.out) as { outcomes: Outcome[]; sentAt: string; answeredAt: string },
    );
    // They really raced: each process sent its sign-ins before the other had its answers.
    expect(isEarlier(reports[0]!.sentAt, reports[1]!.answeredAt)).toBe(true);
    expect(isEarlier(reports[1]!.sentAt, reports[0]!.answeredAt)).toBe(true);
    const pair = reports.flatMap((report) => report.outcomes.slice(0, 25));
    const spray = reports.flatMap((report) => report.outcomes.slice(25));
    expect(count(pair, "checked")).toBe(LOGIN_PAIR_FAILURE_LIMIT);
    expect(count(spray, "checked")).toBe(LOGIN_IP_ATTEMPT_LIMIT);
    expect(await recorded({ email, ip: pairIp })).toBe(LOGIN_PAIR_FAILURE_LIMIT);
    expect(await recorded({ ip: sprayIp })).toBe(LOGIN_IP_ATTEMPT_LIMIT);
  }, 60_000);

  it("counts an attempt whose outcome never came as a failure, until its window ends", async () => {
    const { email, password } = await account();
    const ip = "198.18.4.1";
    const now = new Date();
    // Five reservations, each as a sign-in makes it before checking the password, and then nothing: the
    // process died before the answer.
    for (let i = 0; i < LOGIN_PAIR_FAILURE_LIMIT; i++) {
      const reserved = await reserveLoginAttempt(
        app().db,
        { email, ip },
        { addressLimit: LOGIN_IP_ATTEMPT_LIMIT, now },
      );
      expect(reserved.ok).toBe(true);
    }
    expect(
      await reserveLoginAttempt(
        app().db,
        { email, ip },
        { addressLimit: LOGIN_IP_ATTEMPT_LIMIT, now: new Date(now.getTime() + 60_000) },
      ),
    ).toMatchObject({ ok: false, minutes: 14 });
    expect(await signIn(app(), { email, password }, { ip })).toMatchObject(
      refusal("limited", "errors.tooManyAttempts"),
    );
    // Fifteen minutes on, they no longer count; nor did the refusals add any.
    expect(
      await reserveLoginAttempt(
        app().db,
        { email, ip },
        { addressLimit: LOGIN_IP_ATTEMPT_LIMIT, now: new Date(now.getTime() + 15 * 60_000 + 1) },
      ),
    ).toMatchObject({ ok: true });
    expect(await recorded({ email, ip })).toBe(LOGIN_PAIR_FAILURE_LIMIT + 1);
  });

  // Only SQLite has one write lock for every process on the file; PostgreSQL's row locks are tested above.
  if (dialect === "sqlite")
    it("refuses a blocked sign-in without waiting for another process's write lock", async () => {
      const { email, password } = await account();
      const ip = "198.18.6.1";
      for (let i = 0; i < LOGIN_PAIR_FAILURE_LIMIT; i++)
        await recordLoginAttempt(app().db, { email, ip, succeeded: false });
      // Another server process, as SQLite sees it, holds the write lock (an order being written).
      const other = new SQLite(sqliteFilePath(app().env.DATABASE_URL));
      try {
        other.exec("begin immediate");
        const waits = app().database.writeLockWaits();
        expect(await signIn(app(), { email, password }, { ip })).toMatchObject(
          refusal("limited", "errors.tooManyAttempts"),
        );
        // Refused while the other process still holds the lock, and without one wait for it.
        expect(other.inTransaction).toBe(true);
        expect(app().database.writeLockWaits()).toBe(waits);
        // An attempt that may go ahead is recorded under the lock, so it waits its turn: it is seen
        // waiting, and cannot end before the lock is given back.
        let settled = false;
        const allowed = signIn(app(), { email, password }, { ip: "198.18.6.2" }).finally(
          () => (settled = true),
        );
        await expect.poll(() => app().database.writeLockWaits()).toBeGreaterThan(waits);
        expect(settled).toBe(false);
        other.exec("commit");
        expect((await allowed).ok).toBe(true);
      } finally {
        if (other.inTransaction) other.exec("rollback");
        other.close();
      }
    });

  it("records a successful sign-in as a success, in the address's short form", async () => {
    const { email, password } = await account();
    expect((await signIn(app(), { email, password }, { ip: "::ffff:198.18.5.1" })).ok).toBe(true);
    const rows = await readRows(app().db, "login_attempts", ["ip_address", "succeeded"], { email });
    expect(rows).toEqual([{ ip_address: "198.18.5.1", succeeded: 1 }]);
    await recordLoginAttempt(app().db, {
      email,
      ip: "2001:0DB8:0000:0000:0000:0000:0000:0001",
      succeeded: false,
    });
    expect(await recorded({ email, ip: "2001:db8::1" })).toBe(1);
  });
});
